/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnsctl: the Linux namespaces API (clone, unshare, setns and /proc/PID/ns)
 * as a small, safe C library.  This is the only header users include.
 *
 * Contract of every function, unless its comment says otherwise:
 *   - it returns >= 0 (or an fd, or a pid) on success and -errno on failure;
 *   - out-parameters (named ret_*) are written only on success;
 *   - every fd it opens is O_CLOEXEC, and nothing is leaked on any error path;
 *   - it never prints and never exits.
 */
#ifndef NSCTL_H
#define NSCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NSCTL_VERSION "0.1.0"

/* The eight namespace types, in the order /proc/PID/ns lists them. */
enum nsctl_type {
	NSCTL_TYPE_CGROUP,
	NSCTL_TYPE_IPC,
	NSCTL_TYPE_MNT,
	NSCTL_TYPE_NET,
	NSCTL_TYPE_PID,
	NSCTL_TYPE_TIME,
	NSCTL_TYPE_USER,
	NSCTL_TYPE_UTS,
	NSCTL_TYPE_COUNT,
};

/* A set of types: bit (1u << type). */
#define NSCTL_TYPE_BIT(t) (1u << (unsigned)(t))
#define NSCTL_TYPES_ALL   ((1u << NSCTL_TYPE_COUNT) - 1)

/* Iterate over every type, in table order. */
#define nsctl_type_foreach(t) for (enum nsctl_type t = 0; t < NSCTL_TYPE_COUNT; t++)

/* One row of the table of namespace types. */
struct nsctl_type_info {
	enum nsctl_type type;
	const char *name;          /* canonical name, as in /proc/PID/ns: "mnt" */
	const char *long_option;   /* the command-line option: "mount" */
	char short_option;         /* the util-linux letter: 'm' */
	unsigned long clone_flag;  /* CLONE_NEWNS */
	const char *children_name; /* "pid_for_children", or NULL */
	const char *description;   /* "mount points" */
};

/* The row of TYPE, or NULL when TYPE is out of range. */
const struct nsctl_type_info *nsctl_type_get(enum nsctl_type type);

/* A type by name: the canonical name or the long option ("mnt", "mount"). -EINVAL if unknown. */
int nsctl_type_from_name(const char *name, enum nsctl_type *ret_type);

/* A type by its CLONE_NEW* flag (exactly one flag). -EINVAL otherwise. */
int nsctl_type_from_clone_flag(unsigned long flag, enum nsctl_type *ret_type);

/*
 * A comma-separated list of type names, or "all", as a set.
 * -EINVAL for an empty list, an empty element or an unknown name;
 * -EEXIST for a name given twice.
 */
int nsctl_types_parse(const char *list, unsigned *ret_types);

/* The CLONE_NEW* flags of a set of types. */
unsigned long nsctl_types_to_clone_flags(unsigned types);

/* The set of types the running kernel has (their /proc/self/ns files exist). */
unsigned nsctl_types_supported(void);

/*
 * A PID as given on a command line: decimal digits only, no sign, no blanks,
 * no leading zero, at least 1.  -EINVAL for bad syntax, -ERANGE if too large.
 */
int nsctl_pid_parse(const char *text, pid_t *ret_pid);

/* The identity of one namespace. */
struct nsctl_ns_id {
	enum nsctl_type type;
	dev_t dev;   /* the nsfs device */
	ino_t ino;   /* the inode, as in readlink /proc/PID/ns/X */
	uint64_t id; /* the 64-bit NS_GET_ID, never reused; 0 where the kernel lacks it */
};

/*
 * Check that FD refers to a namespace (an nsfs file) and tell its type.
 * -ENOTTY when FD is not a namespace; -EBADF for a bad fd.
 */
int nsctl_ns_check(int fd, enum nsctl_type *ret_type);

/* Identify the namespace at FD. */
int nsctl_ns_identify(int fd, struct nsctl_ns_id *ret_id);

/* Whether two identities name the same namespace. */
bool nsctl_ns_id_equal(const struct nsctl_ns_id *a, const struct nsctl_ns_id *b);

/* Format as readlink shows it, "net:[4026531840]". Returns the length, -ENOBUFS if too small. */
int nsctl_ns_id_format(const struct nsctl_ns_id *id, char *buf, size_t size);

/*
 * Open the namespace file at PATH (a /proc/PID/ns link or a pin), without
 * opening anything that is not a namespace (FIFOs, devices, directories).
 * When EXPECTED is >= 0 the namespace must be of that type (-EMEDIUMTYPE if not).
 * -ENOTTY when PATH is not a namespace.  Returns the fd.
 */
int nsctl_ns_open_path(const char *path, int expected, enum nsctl_type *ret_type);

/* The owning user namespace of the namespace at FD (NS_GET_USERNS). Returns an fd. */
int nsctl_ns_open_owner(int fd);

/* The parent of a user or pid namespace at FD (NS_GET_PARENT). Returns an fd. */
int nsctl_ns_open_parent(int fd);

/* The uid, in the caller's user namespace, that owns the user namespace at FD. */
int nsctl_ns_get_owner_uid(int fd, uid_t *ret_uid);

/*
 * Whether two namespace fds name the same namespace: 1 same, 0 different.
 */
int nsctl_ns_same(int fd_a, int fd_b);

/*
 * A handle on one process that cannot be confused with a later process of
 * the same PID: it holds a pidfd (where the kernel has pidfd_open) and a
 * directory fd of /proc/PID opened while the pidfd showed the process alive.
 */
struct nsctl_process;

/* Open a handle on process PID.  -ESRCH if there is no such process. */
int nsctl_process_open(pid_t pid, struct nsctl_process **ret_process);

/* Free a handle (NULL is allowed), closing its fds. */
void nsctl_process_free(struct nsctl_process *process);

pid_t nsctl_process_pid(const struct nsctl_process *process);

/* The pidfd, or -1 where the kernel has no pidfd_open. Owned by the handle. */
int nsctl_process_pidfd(const struct nsctl_process *process);

/* The /proc/PID directory fd. Owned by the handle. */
int nsctl_process_procfd(const struct nsctl_process *process);

/* 1 if the process is still running (not yet reaped), 0 if it has gone. */
int nsctl_process_alive(const struct nsctl_process *process);

/*
 * Open a namespace of the process.  FOR_CHILDREN selects pid_for_children
 * and time_for_children (ignored for other types).  Uses the pidfd ioctls
 * where the kernel has them, else /proc/PID/ns through the directory fd.
 * -ESRCH if the process has exited, -EOPNOTSUPP if the kernel lacks the type.
 * Returns the fd.
 */
int nsctl_process_open_ns(const struct nsctl_process *process, enum nsctl_type type,
			  bool for_children);

/*
 * Pins: a namespace bind-mounted onto a file lives on with no process in it.
 * A pin NAME (no slash) lives at /run/netns/NAME for a network namespace,
 * where iproute2's "ip netns" looks, and at /run/nsctl/TYPE/NAME otherwise.
 */
#define NSCTL_PIN_DIR       "/run/nsctl"
#define NSCTL_PIN_NETNS_DIR "/run/netns"

/*
 * The path of pin NAME of TYPE.  NAME must be non-empty, at most NAME_MAX
 * bytes, without '/', and not "." or "..": -EINVAL otherwise.  Returns the
 * length; -ENOBUFS if SIZE is too small.
 */
int nsctl_pin_name_path(enum nsctl_type type, const char *name, char *buf, size_t size);

/* Which types have a pin called NAME (a set, possibly empty). */
int nsctl_pin_name_types(const char *name, unsigned *ret_types);

/*
 * File descriptors handed to a program.  A namespace boundary is a security
 * boundary and an inherited fd is a way through it (runc CVE-2024-21626), so
 * a program gets 0, 1 and 2 and only what was asked for.
 *
 * Mark every fd >= 3 close-on-exec, except the N_KEEP fds of KEEP, which are
 * made inheritable (-EBADF if one is not open).  close_range() with
 * CLOSE_RANGE_CLOEXEC where the kernel has it, else /proc/self/fd.
 */
int nsctl_fds_keep_only(const int *keep, size_t n_keep);

/*
 * Supervising a child: the caller blocks the signals it will forward before
 * starting the child (so none is lost in between), the child restores the
 * caller's state before it execs, and the parent waits in nsctl_supervise().
 */
struct nsctl_signal_state {
	sigset_t mask;            /* the caller's signal mask */
	struct sigaction sigchld; /* the caller's SIGCHLD disposition */
};

/*
 * Block every signal a supervisor forwards, and SIGCHLD; make SIGCHLD
 * default, so that a caller that ignored it cannot make children vanish
 * unreaped.  Saves the previous state in *RET_SAVED.
 */
int nsctl_signals_block(struct nsctl_signal_state *ret_saved);

/* Put back what nsctl_signals_block() changed (in the child, before exec). */
int nsctl_signals_restore(const struct nsctl_signal_state *saved);

/*
 * In a child just started: get SIGKILL when the parent dies.  LIFELINE is the
 * read end of a pipe whose write end only the parent holds; if the parent
 * died before the death signal was armed, the pipe shows it and the child
 * kills itself.  This works across PID namespaces, where getppid() is 0.
 */
int nsctl_child_die_with_parent(int lifeline);

/*
 * Wait for child PID (through PIDFD, or -1), forwarding to it every signal
 * that nsctl_signals_block() blocked.  Signals the terminal sent to the
 * whole process group are not sent twice.  A stopped child stops the
 * supervisor, and a SIGCONT is passed on.  Returns 0 and the wait status.
 */
int nsctl_supervise(pid_t pid, int pidfd, int *ret_wstatus);

/*
 * Listing every namespace on the host (lib/list.c): the namespaces processes
 * are in, those held only by an open fd or by a bind mount in any mount
 * namespace, and the owners and parents the NS_GET_* ioctls lead to, even
 * when no process is in them.
 */
enum {
	NSCTL_LIST_FDS = 1u << 0,        /* look at every process's open fds (/proc/PID/fd) */
	NSCTL_LIST_PINS = 1u << 1,       /* read the mountinfo of every mount namespace */
	NSCTL_LIST_RELATIONS = 1u << 2,  /* NS_GET_ID, owner and parent, followed to their end */
	NSCTL_LIST_ONE_THREAD = 1u << 3, /* scan with the calling thread only */
	NSCTL_LIST_ALL = NSCTL_LIST_FDS | NSCTL_LIST_PINS | NSCTL_LIST_RELATIONS,
};

/* One namespace found by nsctl_list_scan().  Everything in it belongs to the list. */
struct nsctl_list_ns {
	struct nsctl_ns_id id;
	unsigned nprocs;     /* processes in it (for pid and time: their own, not for children) */
	pid_t pid;           /* the lowest of them, 0 if none */
	pid_t ppid;          /* the parent of that process */
	uid_t uid;           /* the owner of that process */
	const char *command; /* its command line (its name when that is empty), or NULL */
	const char *path;    /* a path that opens it (/proc/PID/ns/TYPE, a pin, an fd) */
	const struct nsctl_list_ns *owner;  /* NS_GET_USERNS; NULL when out of the caller's reach */
	const struct nsctl_list_ns *parent; /* NS_GET_PARENT of user and pid namespaces, or NULL */
	const char *const *pins; /* the bind mounts holding it, as paths the caller can open */
	size_t n_pins;
	const pid_t *holders; /* processes holding it by an open fd, ascending */
	size_t n_holders;
	int netnsid; /* net: the ID the caller's network namespace gives it, -1 if none
			(RTM_GETNSID); NSCTL_LIST_NO_NETNSID for other types, or when it could not
			be asked */
};

#define NSCTL_LIST_NO_NETNSID (-2)

struct nsctl_list;

/*
 * Scan the host: FLAGS is a set of NSCTL_LIST_*.  Processes that vanish during
 * the scan are left out; what the caller may not look at is left out too.
 */
int nsctl_list_scan(unsigned flags, struct nsctl_list **ret_list);

/* The number of namespaces found, and the Ith of them (NULL past the end), by inode. */
size_t nsctl_list_count(const struct nsctl_list *list);
const struct nsctl_list_ns *nsctl_list_get(const struct nsctl_list *list, size_t i);

/* The namespace of identity (DEV, INO), or NULL. */
const struct nsctl_list_ns *nsctl_list_find(const struct nsctl_list *list, dev_t dev, ino_t ino);

/* The namespace of TYPE that process PID was in during the scan, or NULL. */
const struct nsctl_list_ns *nsctl_list_find_process(const struct nsctl_list *list, pid_t pid,
						    enum nsctl_type type);

/* Free a list (NULL is allowed). */
void nsctl_list_free(struct nsctl_list *list);

#ifdef __cplusplus
}
#endif

#endif
