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
 *
 * Threads: a namespace belongs to a thread, not to a process (setns() and
 * unshare() move only the calling thread).  Wherever a comment below says
 * "the caller", it means the calling thread: its namespaces, its
 * time_for_children, its fd table and the mount namespace its paths resolve in
 * (/proc/thread-self, or a PIDFD_THREAD pidfd on it without /proc).  The
 * exceptions say so.  Undumpable callers (prctl(PR_SET_DUMPABLE, 0)): no call
 * needs to read the caller's /proc/self/ns directory, which they may not.
 */
#ifndef NSCTL_H
#define NSCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <sys/types.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of nsctl.h; nsctl_library_version() tells the library's, which may be newer. */
#define NSCTL_VERSION "1.0.0"

/* The version of the library that is running, "MAJOR.MINOR.PATCH": a static string. */
const char *nsctl_library_version(void);

/*
 * Every struct of this header either is room for an opaque object (its only
 * member "uint64_t opaque[N]") or carries its size as its first member, as
 * clone3() and openat2() take theirs, so that it can grow at its end:
 *  - one the caller fills or hands in for the library to fill (struct
 *    nsctl_ns_id, nsctl_caps, nsctl_idmap, the reports) is made with its
 *    NSCTL_*_INIT, which sets SIZE to the caller's sizeof.  A library older
 *    than the caller's header fills what it knows and zeroes the rest; SIZE
 *    short of the first version is -EINVAL.
 *  - one the library hands out (a list's rows, a pin, a type's row) has the
 *    library's SIZE: a field past it is not there.
 * struct nsctl_idmap_range is the one exception: a line of the kernel's
 * uid_map, three numbers that the kernel fixes; its version is its map's.
 */
/*
 * (The braced initializers below are kept out of clang-format's hands:
 * clang-format 14 and 19, of Debian 12 and 13, lay them out differently.)
 */
/* clang-format off */
#define NSCTL_SIZED_INIT(type) { .size = sizeof(struct type) }
/* clang-format on */

/*
 * The namespace types.  The numbers are part of the ABI: each is fixed for
 * ever, and a new type is appended after the last with the next number, so
 * a set of types (bit NSCTL_TYPE_BIT(type)) keeps its meaning wherever it is
 * stored.  They happen to be in alphabetical order (as /proc/PID/ns lists its
 * files today), but that order is not a rule: neither the kernel's order nor
 * a type's CLONE_NEW* bit decides a value.  How many types there are is a
 * fact of the library that runs, not of this header: nsctl_type_all() tells
 * the set, and a loop over the types asks nsctl_type_get(), which is NULL past
 * the last:
 *
 *	for (enum nsctl_type t = 0; nsctl_type_get(t); t++)
 *		...
 */
enum nsctl_type {
	NSCTL_TYPE_CGROUP = 0,
	NSCTL_TYPE_IPC = 1,
	NSCTL_TYPE_MNT = 2,
	NSCTL_TYPE_NET = 3,
	NSCTL_TYPE_PID = 4,
	NSCTL_TYPE_TIME = 5,
	NSCTL_TYPE_USER = 6,
	NSCTL_TYPE_UTS = 7,
};

/* A set of types: bit (1u << type). */
#define NSCTL_TYPE_BIT(t) (1u << (unsigned)(t))

/*
 * Every type the running library knows, as a set (0xff for the eight of
 * libnsctl 1.0).  A function given a set with a bit outside it says -EINVAL.
 */
unsigned nsctl_type_all(void);

/* One row of the table of namespace types. */
struct nsctl_type_info {
	size_t size;
	enum nsctl_type type;
	const char *name;          /* canonical name, as in /proc/PID/ns: "mnt" */
	unsigned long clone_flag;  /* CLONE_NEWNS */
	const char *children_name; /* "pid_for_children", or NULL */
	const char *description;   /* "mount points" */
};

/* The row of TYPE, or NULL when TYPE is out of range. */
const struct nsctl_type_info *nsctl_type_get(enum nsctl_type type);

/* A type by its canonical name ("mnt", as in /proc/PID/ns). -EINVAL if unknown. */
int nsctl_type_from_name(const char *name, enum nsctl_type *ret_type);

/* A type by its CLONE_NEW* flag (exactly one flag). -EINVAL otherwise. */
int nsctl_type_from_clone_flag(unsigned long flag, enum nsctl_type *ret_type);

/* The CLONE_NEW* flags of a set of types. */
unsigned long nsctl_type_to_clone_flags(unsigned types);

/*
 * The set of types the running kernel has: their /proc/self/ns files exist,
 * or, where that is no procfs's, a pidfd's namespace ioctls (Linux 6.11)
 * find them.  0 when neither can tell: then no type is known to be missing,
 * nor present.
 * It works in an undumpable caller too (it only looks entries up).
 */
unsigned nsctl_type_supported(void);

/* The identity of one namespace. */
struct nsctl_ns_id {
	size_t size;
	enum nsctl_type type;
	dev_t dev;   /* the nsfs device */
	ino_t ino;   /* the inode, as in readlink /proc/PID/ns/X */
	uint64_t id; /* the 64-bit NS_GET_ID, never reused; 0 where the kernel lacks it */
};
#define NSCTL_NS_ID_INIT NSCTL_SIZED_INIT(nsctl_ns_id)

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

/*
 * Open the namespace whose 64-bit ID (NS_GET_ID, as nsctl list shows it) is
 * ID, through a namespace file handle (open_by_handle_at() with FD_NSFS_ROOT,
 * Linux 6.18): one held only by an fd, a socket or a pin in another mount
 * namespace too.  The kernel lets the caller have it when the caller is in
 * that namespace or has CAP_SYS_ADMIN in the user namespace that owns it
 * (-EPERM otherwise).  Linux 6.18 wants the namespace's type and inode in
 * the handle as well: where the ID alone is not enough, they are found by a
 * scan of what the caller can see (nsctl_list_scan()).  When EXPECTED is >= 0
 * the namespace must be of that type (-EMEDIUMTYPE if not).  -ENOENT when no
 * namespace of ID is found; -EOPNOTSUPP when the kernel has no namespace file
 * handles.  Returns the fd.
 */
int nsctl_ns_open_id(uint64_t id, int expected, enum nsctl_type *ret_type);

/*
 * Open the calling thread's own namespace of TYPE (FOR_CHILDREN: its
 * pid_for_children or time_for_children; ignored for other types): through
 * /proc/thread-self/ns where /proc shows the thread, else through a pidfd on
 * the thread (PIDFD_THREAD) and its namespace ioctls (Linux 6.11), with no
 * /proc at all.  A thread that has unshared or joined a namespace gets its
 * own, not the main thread's.  -EOPNOTSUPP when the kernel lacks the type,
 * -ENOENT when neither way is there (no /proc, and a kernel before 6.11).
 * Returns the fd.
 */
int nsctl_ns_open_own(enum nsctl_type type, bool for_children);

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
 * Room in the caller's own storage for an object of the library: the place
 * an object lives when the caller wants no allocation (a process's first
 * malloc() makes its heap, 3% of the start of a program here).  The room is
 * opaque and larger than the object: the object may grow without breaking a
 * caller.  *_init() (or nsctl_process_open_in()) lays the object out in it and
 * returns it; *_clear() lets go of what it holds (never *_free() on it).
 */
struct nsctl_spawn_attr_room {
	uint64_t opaque[128];
};
struct nsctl_process_room {
	uint64_t opaque[8];
};
struct nsctl_ns_set_room {
	uint64_t opaque[16];
};

/*
 * A handle on one process that cannot be confused with a later process of
 * the same PID: it holds a pidfd (where the kernel has pidfd_open) and a
 * directory fd of /proc/PID opened while the pidfd showed the process alive
 * (on first use where there is a pidfd, at once where there is none).
 */
struct nsctl_process;

/* Open a handle on process PID.  -ESRCH if there is no such process. */
int nsctl_process_open(pid_t pid, struct nsctl_process **ret_process);

/* nsctl_process_open() into ROOM; nsctl_process_clear() lets go of it. */
int nsctl_process_open_in(struct nsctl_process_room *room, pid_t pid,
			  struct nsctl_process **ret_process);
/* Close what PROCESS, in its room, holds; again is harmless. */
void nsctl_process_clear(struct nsctl_process *process);

/*
 * A handle on the process of PIDFD, a pidfd the caller already holds
 * (pidfd_open(), clone()'s CLONE_PIDFD, SCM_RIGHTS), with no PID looked up
 * again.  The handle takes its own copy (an F_DUPFD_CLOEXEC duplicate): PIDFD
 * stays the caller's, to close whenever it likes, before or after
 * nsctl_process_free(), and on success as on failure.  nsctl_process_pid() is
 * the process's PID in the caller's PID namespace (PIDFD_GET_INFO, Linux
 * 6.13, else the pidfd's fdinfo in a /proc of that namespace); a pidfd of
 * one thread (PIDFD_THREAD) names that thread.  -EBADF when PIDFD is not an
 * open fd, -EINVAL when it is one but not a pidfd (an eventfd, a /proc/PID
 * directory), -ESRCH when the process has been reaped or is not in the
 * caller's PID namespace, -ENOENT when the kernel cannot tell the PID
 * (before 6.13, without a /proc of the caller's PID namespace).
 */
int nsctl_process_from_pidfd(int pidfd, struct nsctl_process **ret_process);

/* Free a handle (NULL is allowed), closing its fds. */
void nsctl_process_free(struct nsctl_process *process);

pid_t nsctl_process_pid(const struct nsctl_process *process);

/* The pidfd, or -1 where the kernel has no pidfd_open. Owned by the handle. */
int nsctl_process_pidfd(const struct nsctl_process *process);

/*
 * The /proc/PID directory fd, owned by the handle; opened on first use, so
 * it can fail: -ESRCH once the process has gone, -EINVAL for NULL, -ENOENT
 * where no /proc mounted here shows the process.  A /proc of another PID
 * namespace (unshare --pid without a /proc of its own) numbers processes its
 * own way: the directory is the one of the pidfd's process there (its fdinfo
 * says which), never the one of PID.  Without a pidfd, such a /proc is -ENOENT.
 */
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

/*
 * The directory of the pin NAMEs of TYPE ("/run/netns", "/run/nsctl/mnt"), as
 * the running library places them.  Returns the length; -EINVAL for an
 * unknown type, -ENOBUFS if SIZE is too small.
 */
int nsctl_pin_name_dir(enum nsctl_type type, char *buf, size_t size);

/*
 * The path of pin NAME of TYPE.  NAME must be non-empty, at most NAME_MAX
 * bytes, without '/', and not "." or "..": -EINVAL otherwise.  Returns the
 * length; -ENOBUFS if SIZE is too small.
 */
int nsctl_pin_name_path(enum nsctl_type type, const char *name, char *buf, size_t size);

/* Which types have a pin called NAME (a set, possibly empty). */
int nsctl_pin_name_types(const char *name, unsigned *ret_types);

/*
 * Pin the namespace at NSFD onto PATH, which is created (never through a
 * symlink) and must not exist, unless it already pins this very namespace.
 * Returns 1 when this call made the pin, 0 when PATH already pinned this
 * namespace and nothing was done: a caller that takes back what it made on a
 * later failure must remove only the pins for which it got 1.  PATH's
 * directory is opened once; the file is created, mounted on (through its fd:
 * runc CVE-2021-30465) and, on failure, removed relative to that fd.
 * nsctl never mounts over PATH's directory or changes its propagation: a
 * mount namespace cannot be pinned in a directory on a shared mount (the bind
 * would propagate into the namespace itself), and is refused there with
 * -EXDEV before anything is created; pin it under a NAME
 * (nsctl_pin_create_name) or in a directory on a private mount.
 * -EEXIST: PATH exists and is not a pin of this namespace; -ELOOP: PATH is a
 * symlink; -ENOTTY: NSFD is not a namespace; -EINVAL: the kernel refuses the
 * pin (a mount namespace that is not newer than the caller's own).
 * FLAGS must be 0 (reserved; -EINVAL otherwise).
 */
int nsctl_pin_create(int nsfd, const char *path, unsigned flags);

/*
 * Pin the namespace at NSFD under NAME: 1 made, 0 already there, as
 * nsctl_pin_create().  Creates the pin directory where needed: /run/netns is
 * made a shared mount of its own, as iproute2 keeps it; /run/nsctl/mnt a
 * private mount of its own where it lies on a shared mount.  These
 * directories stay when the pin is removed, as iproute2's do.  FLAGS must
 * be 0 (reserved; -EINVAL otherwise).
 */
int nsctl_pin_create_name(int nsfd, const char *name, unsigned flags);

/*
 * A pin one call made, so that exactly that pin can be taken back on a later
 * failure (a failure takes back only what its call made): the directory it
 * was made in, held, its name there, and the identities of the file and of
 * the namespace.  Opaque; in the caller's storage.
 */
struct nsctl_pin_made {
	uint64_t opaque[48];
};
/* Holding nothing. */
void nsctl_pin_made_init(struct nsctl_pin_made *made);
/* WHERE is a pin NAME (nsctl_pin_create_name()), not a path. */
#define NSCTL_PIN_BY_NAME (1u << 0)
/*
 * nsctl_pin_create() (or, with NSCTL_PIN_BY_NAME, nsctl_pin_create_name()),
 * and on 1 (made) MADE holds that pin; on 0 (pinned there already) or an
 * error it holds nothing.
 */
int nsctl_pin_create_undoable(int nsfd, const char *where, unsigned flags,
			      struct nsctl_pin_made *made);
/* Remove the pin MADE holds, by its identity in the directory it was made in: 0 or -errno. */
int nsctl_pin_take_back(struct nsctl_pin_made *made);
/* Let go of MADE: the pin stays. */
void nsctl_pin_made_keep(struct nsctl_pin_made *made);

/*
 * Remove the pin at PATH: unmount it and remove its file.  Anything that is
 * not an nsfs mount (a plain file, a symlink, a directory, a /proc/PID/ns
 * link) is refused with -ENOTTY and left untouched.  PATH's directory is
 * opened once, and the file checked, unmounted and unlinked relative to it.
 */
int nsctl_pin_remove(const char *path);

/*
 * Remove pin NAME of TYPE if it is stale: an empty regular file in
 * /run/netns or /run/nsctl/TYPE with no namespace mounted on it, as a reboot
 * or a crash leaves them ("ip netns delete" removes them too).  Returns 1 if
 * it removed one, 0 if there was nothing stale there (no file, a live pin,
 * anything else, left untouched), -errno on failure.
 */
int nsctl_pin_stale_remove(enum nsctl_type type, const char *name);

/* Whether pin NAME of TYPE is stale, as above, without removing it: 1 or 0, or -errno. */
int nsctl_pin_stale_check(enum nsctl_type type, const char *name);

/* One pin, as the mount table shows it. */
struct nsctl_pin {
	size_t size;
	enum nsctl_type type;
	ino_t ino;  /* the pinned namespace's inode */
	char *path; /* the mount point, in the caller's mount namespace */
};

/*
 * Every pin in the caller's mount namespace (nsfs mounts of
 * /proc/self/mountinfo), of the types in TYPES, in the table's order: an
 * object that holds them, its rows valid until nsctl_pin_list_free().
 */
struct nsctl_pin_list;
int nsctl_pin_list_scan(unsigned types, struct nsctl_pin_list **ret_list);
/* How many pins it holds, and the Ith (NULL past the last). */
size_t nsctl_pin_list_count(const struct nsctl_pin_list *list);
const struct nsctl_pin *nsctl_pin_list_get(const struct nsctl_pin_list *list, size_t i);
/* NULL is allowed. */
void nsctl_pin_list_free(struct nsctl_pin_list *list);

/*
 * File descriptors handed to a program.  A namespace boundary is a security
 * boundary and an inherited fd is a way through it (runc CVE-2024-21626), so
 * a program gets 0, 1 and 2 and only what was asked for.
 *
 * Mark every fd >= 3 close-on-exec, except the N_KEEP fds of KEEP, which are
 * made inheritable (-EBADF if one is not open).  close_range() with
 * CLOSE_RANGE_CLOEXEC where the kernel has it, else /proc/thread-self/fd.
 */
int nsctl_fds_keep_only(const int *keep, size_t n_keep);

/*
 * Supervising a child: the caller blocks the signals it will forward before
 * starting the child (so none is lost in between), the child restores the
 * caller's state before it execs (nsctl_spawn_attr_set_signals), and the
 * parent waits in nsctl_child_supervise().
 */
/* The caller's mask and SIGCHLD disposition: room, no C library type. */
struct nsctl_signals_state {
	uint64_t opaque[64];
};

/*
 * Block every signal a supervisor forwards, and SIGCHLD; make SIGCHLD
 * default, so that a caller that ignored it cannot make children vanish
 * unreaped.  Saves the previous state in *RET_SAVED.
 */
int nsctl_signals_block(struct nsctl_signals_state *ret_saved);

/* Put back what nsctl_signals_block() changed (in the child, before exec). */
int nsctl_signals_restore(const struct nsctl_signals_state *saved);

/* nsctl_child_supervise() as the init of a PID namespace: see there. */
#define NSCTL_SUPERVISE_REAP_ALL 0x1u

/*
 * Wait for child PID (through PIDFD, or -1), forwarding to it every signal
 * that nsctl_signals_block() blocked.  Signals the terminal sent to the
 * whole process group are not sent twice.  A stopped child stops the
 * supervisor, and a SIGCONT is passed on.  Returns 0 and the wait status.
 * The signals must be blocked (nsctl_signals_block) while the child lives,
 * and the child's exit signal must be SIGCHLD, as fork() and nsctl_spawn()
 * make it: the wait is for signals.
 *
 * FLAGS NSCTL_SUPERVISE_REAP_ALL: the caller is PID 1 of a PID namespace
 * (a minimal init), and every process of it that ends is its to reap; it
 * returns once PID has ended and no other child is left a zombie (PIDFD is
 * then not used, and no job control is done).
 */
int nsctl_child_supervise(pid_t pid, int pidfd, unsigned flags, int *ret_wstatus);

/*
 * Creating namespaces (nsctl run, nsctl unshare): lib/create.c, lib/idmap.c, lib/setup.c.
 */

/*
 * Open a cgroup v2 directory for nsctl_spawn_attr_set_cgroup().
 * -EMEDIUMTYPE when PATH is not cgroup v2.
 */
int nsctl_cgroup_open(const char *path);

/*
 * Move process PID (0: the caller) into the cgroup directory CGROUP_FD (v2,
 * or for the caller v1 too), writing its cgroup.procs, opened relative to
 * CGROUP_FD without following a link.  For the caller, a refused write
 * (-EACCES, -EPERM) succeeds all the same where that file already lists it,
 * which needs no move (a rootless container's user in a root-owned v1
 * cgroup).
 */
int nsctl_cgroup_attach(int cgroup_fd, pid_t pid);

/*
 * After unshare(CLONE_NEWTIME), which moves only the calling thread's future
 * children, move that thread itself in (setns on its time_for_children).  Offsets must
 * be written before: once a process is in, they are frozen.
 */
int nsctl_time_enter_children(void);

/* User and group ID maps: lines "INNER OUTER COUNT" of /proc/PID/uid_map and gid_map. */
struct nsctl_idmap_range {
	uint32_t inner; /* first ID inside the namespace */
	uint32_t outer; /* first ID in the parent namespace */
	uint32_t count;
};

/*
 * A map is sized by the caller: RANGES is the caller's array of CAPACITY
 * elements, of which the first N are in use.  The kernel takes at most 340
 * lines (Linux 4.15; 5 before) in less than a page of text, and
 * nsctl_idmap_add() checks both, so an array of 340 is never too small and a
 * smaller one is enough for most uses:
 *
 *	struct nsctl_idmap_range ranges[4];
 *	struct nsctl_idmap map = NSCTL_IDMAP_INIT(ranges, 4);
 */
struct nsctl_idmap {
	size_t size;
	struct nsctl_idmap_range *ranges;
	size_t capacity;
	size_t n;
};

/* clang-format off */
#define NSCTL_IDMAP_INIT(ranges_, capacity_) \
	{ .size = sizeof(struct nsctl_idmap), .ranges = (ranges_), .capacity = (capacity_), .n = 0 }
/* clang-format on */

enum nsctl_idmap_kind {
	NSCTL_IDMAP_UID = 0,
	NSCTL_IDMAP_GID = 1,
};

enum nsctl_setgroups {
	NSCTL_SETGROUPS_DEFAULT = 0, /* leave /proc/PID/setgroups as it is (or as the map needs) */
	NSCTL_SETGROUPS_ALLOW = 1,
	NSCTL_SETGROUPS_DENY = 2,
};

/*
 * Append RANGE to MAP, checked as the kernel would: -ERANGE as above,
 * -EEXIST when it overlaps a range of MAP inside or outside, -E2BIG past
 * the kernel's 340 lines or the page it reads a map from, -ENOBUFS when MAP
 * is full (N == CAPACITY).  MAP is unchanged on failure.
 */
int nsctl_idmap_add(struct nsctl_idmap *map, const struct nsctl_idmap_range *range);

/* MAP as the kernel takes it, one "INNER OUTER COUNT\n" a range. Returns the length. */
int nsctl_idmap_format(const struct nsctl_idmap *map, char *buf, size_t size);

/* Write MAP into /proc/PID/uid_map or gid_map (PID 0: the caller's own), in one write(). */
int nsctl_idmap_write(pid_t pid, enum nsctl_idmap_kind kind, const struct nsctl_idmap *map);

/* Write MAP through newuidmap/newgidmap (the uidmap package): -ENOENT without it, -EPERM if it
 * refused. */
int nsctl_idmap_write_helper(pid_t pid, enum nsctl_idmap_kind kind, const struct nsctl_idmap *map);

/* Write "allow" or "deny" into /proc/PID/setgroups (PID 0: the caller's own). */
int nsctl_user_setgroups_write(pid_t pid, bool allow);

/*
 * Give the new user namespace of process PID its maps (either may be NULL or
 * empty), choosing how: directly with CAP_SETUID/CAP_SETGID or for the
 * caller's own single ID, through newuidmap/newgidmap otherwise.  "deny"
 * goes into setgroups before an unprivileged gid_map (CVE-2014-8989); -EPERM
 * if SETGROUPS asks "allow" there.
 */
int nsctl_user_maps_write(pid_t pid, const struct nsctl_idmap *uids, const struct nsctl_idmap *gids,
			  enum nsctl_setgroups setgroups);

/*
 * A hostname or NIS domain name the kernel takes: 1 to 64 bytes (-EINVAL
 * empty, -ENAMETOOLONG longer).  The kernel takes any bytes; a caller that
 * takes names from users should refuse what would act on a terminal where
 * they are shown (nsctl's command line refuses control and invisible
 * formatting characters, and bytes that are not UTF-8).
 */
int nsctl_uts_name_check(const char *name);

/* Set the names of the caller's UTS namespace (NULL: leave that one). */
int nsctl_uts_names_set(const char *hostname, const char *domainname);

/* Bring up "lo" in the caller's network namespace (ioctl, no ip(8) needed). */
int nsctl_net_loopback_up(void);

/* Mount propagation of a new mount namespace, applied recursively from "/". */
enum nsctl_propagation {
	NSCTL_PROPAGATION_UNCHANGED = 0,
	NSCTL_PROPAGATION_PRIVATE = 1,
	NSCTL_PROPAGATION_SLAVE = 2,
	NSCTL_PROPAGATION_SHARED = 3,
};
/*
 * Call it in a mount namespace of the caller's own.  In a chroot, where "/" is
 * no mount's root, it changes every mount of that namespace, the one holding
 * the chroot too, and leaves the caller in its root and working directory.
 */
int nsctl_mnt_propagation_set(enum nsctl_propagation propagation);

/*
 * After joining a network namespace, what "ip netns exec NAME" adds: a new
 * mount namespace of the caller's own (propagation slave), a fresh sysfs on
 * /sys (its /sys/class/net shows the joined namespace's devices) and, when
 * NAME is not NULL, each entry of /etc/netns/NAME bind-mounted over the same
 * name in /etc.  All mounts through fds (fsopen, open_tree, move_mount).
 */
int nsctl_net_exec_setup(const char *name);

/*
 * Mount a fresh proc, of the caller's PID namespace, on directory DIR
 * (nosuid, nodev, noexec), through an fd of DIR so that no symlink swapped in
 * can redirect it.  Only in a mount namespace of its own, made private or
 * slave first: else the mount would reach the host.
 */
int nsctl_mnt_proc_mount(const char *dir);

/*
 * Whether the kernel takes SECONDS as the offset of clock CLOCK
 * (CLOCK_MONOTONIC or CLOCK_BOOTTIME, -EINVAL otherwise) for a new time
 * namespace: -ERANGE when the clock, as it reads now, would go below zero or
 * past the kernel's limit (about 146 years).
 */
int nsctl_time_offset_check(clockid_t clock, int64_t seconds);

/*
 * Write the offsets of the time_for_children namespace of PID, before anyone
 * is in it.  PID 0 is the calling process: its main thread's (the kernel has no
 * file of a thread's own).
 */
int nsctl_time_offsets_write(pid_t pid, int64_t monotonic, int64_t boottime);

/*
 * Starting a program in new namespaces in one call (lib/spawn.c), the shape
 * of posix_spawn(): the attributes are an opaque object with setters, so
 * that new ones can be added without breaking callers.  Everything that can
 * allocate or fail is done by the caller's process first (the search of
 * PATH, the list of fds to keep).  nsctl_spawn() chooses how to start:
 *  - when nothing but the library's own steps runs between the start and
 *    the exec, and no cgroup is asked for, the child shares the caller's
 *    memory on a stack of its own,
 *    with a guard page, until it execs (CLONE_VM | CLONE_VFORK), and makes
 *    system calls only;
 *  - with a parent step or a child step, it is a copy, and the two talk over
 *    a socket pair: the child, in its namespaces, waits for the parent step
 *    (id maps, clock offsets, pins) before it goes on.  A new time namespace
 *    the first shape cannot take (before Linux 6.0) makes it a copy too.
 * Either way nsctl_spawn() returns once PROGRAM runs (or the child step
 * started), or once the child failed and was reaped, saying which step failed.
 * The order in the child: the cgroup (then a new cgroup namespace); die
 * with parent; a copy's new time namespace; the handshake and the parent
 * step; new session; host and domain names; propagation; the child step,
 * or the fds, the signal mask and the exec.
 */
struct nsctl_spawn_attr;

/*
 * A new set of attributes, with the defaults each setter names: no new
 * namespace, the caller's cgroup, only fds 0-2, no death signal, the
 * caller's session and signal mask.  Free with nsctl_spawn_attr_free().
 */
int nsctl_spawn_attr_new(struct nsctl_spawn_attr **ret_attr);
void nsctl_spawn_attr_free(struct nsctl_spawn_attr *attr);

/* The namespaces the child is created in (a set of NSCTL_TYPE_BIT). Default: none. */
/* nsctl_spawn_attr_new() into ROOM: the attributes, or NULL for a NULL ROOM. */
struct nsctl_spawn_attr *nsctl_spawn_attr_init(struct nsctl_spawn_attr_room *room);
/* Let go of what ATTR holds beyond its room (a long list of kept fds); again is harmless. */
void nsctl_spawn_attr_clear(struct nsctl_spawn_attr *attr);

int nsctl_spawn_attr_set_types(struct nsctl_spawn_attr *attr, unsigned types);

/* Start the child in the cgroup v2 directory CGROUP_FD (borrowed; -1: the caller's). */
int nsctl_spawn_attr_set_cgroup(struct nsctl_spawn_attr *attr, int cgroup_fd);

/*
 * PROGRAM gets fds 0, 1, 2 and the N fds of FDS (copied), nothing else: the
 * others become close-on-exec in the child.  The default, before any call
 * of this or nsctl_spawn_attr_set_keep_all_fds(), is 0-2 only.
 */
int nsctl_spawn_attr_set_keep_fds(struct nsctl_spawn_attr *attr, const int *fds, size_t n);

/* ALL true: PROGRAM inherits every fd that is not close-on-exec. */
int nsctl_spawn_attr_set_keep_all_fds(struct nsctl_spawn_attr *attr, bool all);

/*
 * ON: the child gets SIGKILL when the caller's thread dies
 * (PR_SET_PDEATHSIG); a pipe of nsctl_spawn()'s own tells it the caller
 * died even before that was armed, also across PID namespaces.
 */
int nsctl_spawn_attr_set_die_with_parent(struct nsctl_spawn_attr *attr, bool on);

/* ON: PROGRAM in a new session (setsid), without the caller's terminal. */
int nsctl_spawn_attr_set_new_session(struct nsctl_spawn_attr *attr, bool on);

/*
 * PATH: the file PROGRAM is executed from, apart from its argv[0] (a login
 * shell: "/bin/bash" run as "-bash"); with a '/' it is taken as it is, else
 * looked up in PATH as argv[0] would be.  NULL (the default): argv[0].  Not
 * copied: it must stay valid until nsctl_spawn() returns.
 */
int nsctl_spawn_attr_set_exec_path(struct nsctl_spawn_attr *attr, const char *path);

/*
 * The signal state PROGRAM starts with: SAVED's mask and, when it ignored
 * SIGCHLD, SIGCHLD ignored (see nsctl_signals_block).  NULL: the caller's
 * mask at the time of nsctl_spawn().
 */
int nsctl_spawn_attr_set_signals(struct nsctl_spawn_attr *attr,
				 const struct nsctl_signals_state *saved);

/*
 * The parent step: STEP(PID, PIDFD, USERDATA) runs in the caller once the
 * child is in its new namespaces, and the child goes on only when it
 * returns: the place to write id maps (nsctl_user_maps_write), the offsets
 * of a new time namespace (nsctl_time_offsets_write: the child enters that
 * namespace only after the step), to pin the namespaces.  The child is
 * dumpable meanwhile, as it would be after its exec.  A negative return is
 * the error of nsctl_spawn(), which kills and reaps the child
 * (NSCTL_SPAWN_STEP_PARENT).  NULL: none.
 */
typedef int (*nsctl_spawn_parent_step_fn)(pid_t pid, int pidfd, void *userdata);
int nsctl_spawn_attr_set_parent_step(struct nsctl_spawn_attr *attr, nsctl_spawn_parent_step_fn step,
				     void *userdata);

/*
 * The child step: in place of the exec of ARGV, the child runs
 * STEP(USERDATA), with the caller's signal mask and dispositions as they
 * were at nsctl_spawn() (the signal, fd and exec attributes are then the
 * step's business), and ends with the status it returns, unless it execs
 * or exits itself.  The child is then a copy of the caller, where any
 * function may be called; nsctl_spawn() returns once the step starts, and
 * ARGV may be NULL.  NULL: none.
 */
typedef int (*nsctl_spawn_child_step_fn)(void *userdata);
int nsctl_spawn_attr_set_child_step(struct nsctl_spawn_attr *attr, nsctl_spawn_child_step_fn step,
				    void *userdata);

/* In a new mount namespace: the propagation of "/" (nsctl_mnt_propagation_set). Default unchanged.
 */
int nsctl_spawn_attr_set_propagation(struct nsctl_spawn_attr *attr,
				     enum nsctl_propagation propagation);

/* In a new UTS namespace: the names to set (NULL: leave it), checked by nsctl_uts_name_check. */
int nsctl_spawn_attr_set_uts_names(struct nsctl_spawn_attr *attr, const char *hostname,
				   const char *domainname);

/* The step of nsctl_spawn() that failed. */
enum nsctl_spawn_step {
	NSCTL_SPAWN_STEP_NONE = 0,
	NSCTL_SPAWN_STEP_PREPARE = 1, /* in the caller, before the child exists */
	NSCTL_SPAWN_STEP_CLONE = 2,
	NSCTL_SPAWN_STEP_DIE_WITH_PARENT = 3, /* -ESRCH: the caller died meanwhile */
	NSCTL_SPAWN_STEP_SIGNALS = 4,
	NSCTL_SPAWN_STEP_NEW_SESSION = 5,
	NSCTL_SPAWN_STEP_HOSTNAME = 6,
	NSCTL_SPAWN_STEP_DOMAINNAME = 7,
	NSCTL_SPAWN_STEP_PROPAGATION = 8,
	NSCTL_SPAWN_STEP_FDS = 9,     /* -EBADF: a kept fd is not open */
	NSCTL_SPAWN_STEP_EXEC = 10,   /* -ENOENT: PROGRAM not found; else found, not executable */
	NSCTL_SPAWN_STEP_PARENT = 11, /* the parent step's error */
	NSCTL_SPAWN_STEP_TIME = 12,   /* the child's unshare(CLONE_NEWTIME) */
	NSCTL_SPAWN_STEP_CGROUP = 13, /* the child's move into the cgroup (or the parent's open) */
	NSCTL_SPAWN_STEP_TIME_ENTER = 14, /* its setns() after the parent step */
};

/* What nsctl_spawn() did: written on success and on failure, for the message. */
struct nsctl_spawn_report {
	size_t size;
	enum nsctl_spawn_step step; /* the step that failed, or NSCTL_SPAWN_STEP_NONE */
	int err;                    /* its -errno, or 0 */
};
#define NSCTL_SPAWN_REPORT_INIT NSCTL_SIZED_INIT(nsctl_spawn_report)

/*
 * Start PROGRAM ARGV[0] with ARGV and ENVP (NULL: environ), looked for on
 * the caller's PATH as execvp() does (a file without "#!" is run by
 * /bin/sh).  Returns the PID once PROGRAM runs, with a pidfd in *RET_PIDFD
 * (NULL to not want one; -1 where the kernel has none); the child's exit
 * signal is SIGCHLD, for nsctl_child_supervise().  On failure the child, if
 * any, has been reaped, and REPORT (or NULL) says which step failed.  A new
 * time namespace without a step leaves the calling thread's time_for_children at its own
 * time namespace.  The caller must be single-threaded to create a user
 * namespace, and to have a child step.
 */
pid_t nsctl_spawn(const struct nsctl_spawn_attr *attr, char *const argv[], char *const envp[],
		  int *ret_pidfd, struct nsctl_spawn_report *report);

/*
 * Joining existing namespaces (lib/enter.c, lib/target.c).
 *
 * setns() changes the calling thread; joining a user or mount namespace needs
 * a single-threaded caller (the kernel says EINVAL otherwise).  A joined pid or
 * time namespace applies to the caller's children.  A caller about to run
 * another program should make itself undumpable (prctl(PR_SET_DUMPABLE, 0))
 * from the join to the exec, so that no process of the joined namespaces can
 * ptrace it and reach what it still holds (runc CVE-2016-9962).
 */

/* What a join did: written on success and on failure, for the message. */
struct nsctl_join_report {
	size_t size;
	unsigned joined;         /* the types joined, also when a later one failed */
	int failed_type;         /* the type that failed, or -1 */
	const char *failed_call; /* "open" or "setns" when a type failed, else NULL */
};
#define NSCTL_JOIN_REPORT_INIT NSCTL_SIZED_INIT(nsctl_join_report)

/*
 * Flags of nsctl_process_join() (both) and nsctl_ns_set_add_process()
 * (NSCTL_JOIN_DIFFERENT only); any other bit is -EINVAL.
 */
#define NSCTL_JOIN_DIFFERENT  (1u << 0) /* only types that differ (not one the kernel lacks) */
#define NSCTL_JOIN_ONE_BY_ONE (1u << 1) /* not setns(pidfd): open each file, join in order */

/*
 * Join the one namespace at FD (an nsfs file: /proc/PID/ns/X or a pin).
 * When EXPECTED is >= 0 it must be of that type (-EMEDIUMTYPE if not).
 */
int nsctl_ns_join_fd(int fd, int expected);

/* The same for a path (nsctl_ns_open_path): the namespaces article's ns_exec in one call. */
int nsctl_ns_join_path(const char *path, int expected);

/*
 * A set of namespaces to join together, at most one of each type: an opaque
 * object, so that it holds every type the running library knows.  Make one
 * with nsctl_ns_set_new(); nsctl_ns_set_free() closes what it holds.
 */
struct nsctl_ns_set;

int nsctl_ns_set_new(struct nsctl_ns_set **ret_set);
void nsctl_ns_set_free(struct nsctl_ns_set *set);
/* An empty set in ROOM (NULL for a NULL ROOM); nsctl_ns_set_clear() closes what it holds. */
struct nsctl_ns_set *nsctl_ns_set_init(struct nsctl_ns_set_room *room);
void nsctl_ns_set_clear(struct nsctl_ns_set *set);

/* The types in SET. */
unsigned nsctl_ns_set_types(const struct nsctl_ns_set *set);

/*
 * Add the namespace at FD, which SET then owns (only on success).  Returns its
 * type; -EEXIST if SET has that type already, -ENOTTY if FD is no namespace.
 */
int nsctl_ns_set_add_fd(struct nsctl_ns_set *set, int fd);

/* Open PATH (nsctl_ns_open_path) and add it.  Returns its type. */
int nsctl_ns_set_add_path(struct nsctl_ns_set *set, const char *path, int expected);

/*
 * Take the namespace of TYPE out of SET: returns its fd, which the caller
 * then owns; -ENOENT when SET has none of TYPE.
 */
int nsctl_ns_set_take(struct nsctl_ns_set *set, enum nsctl_type type);

/*
 * Open the namespaces TYPES of PROCESS and add them (with NSCTL_JOIN_DIFFERENT
 * only those that differ from the caller's, never a type the kernel lacks).
 * Once all are open, checks that PROCESS is still running: -ESRCH if it has
 * gone, and SET is unchanged.  -EEXIST if SET already has one of TYPES.
 * REPORT (or NULL) says which type could not be opened.  FLAGS: 0 or
 * NSCTL_JOIN_DIFFERENT (-EINVAL otherwise).
 */
int nsctl_ns_set_add_process(struct nsctl_ns_set *set, const struct nsctl_process *process,
			     unsigned types, unsigned flags, struct nsctl_join_report *report);

/*
 * Join every namespace of SET.  The user namespace comes last for a caller
 * with CAP_SYS_ADMIN (it would lose its rights over the others by joining it
 * first), and first for a caller without (only the user namespace can give the
 * capabilities the others need); a namespace refused with EPERM before the user
 * namespace is joined is tried again after it.  The caller's own user
 * namespace is skipped (the kernel refuses to re-enter it).  On failure the
 * namespaces already joined stay joined; REPORT (or NULL) says which failed.
 */
int nsctl_ns_set_join(const struct nsctl_ns_set *set, struct nsctl_join_report *report);

/*
 * Of TYPES, the types in which PROCESS is not in the calling thread's namespace
 * (never a type the kernel lacks).
 */
int nsctl_process_ns_differ(const struct nsctl_process *process, unsigned types,
			    unsigned *ret_types);

/*
 * Move the calling thread into the namespaces TYPES of PROCESS (with
 * NSCTL_JOIN_DIFFERENT, those of them where it differs from the calling
 * thread, which a type the kernel lacks never does; the other threads do
 * not move).  Where the kernel has it (5.8), one setns(pidfd, flags) joins
 * all at once or none; otherwise, or when the kernel refuses that, every
 * namespace file is opened, the process checked to be the same, and they are
 * joined in the order of nsctl_ns_set_join() (always so with
 * NSCTL_JOIN_ONE_BY_ONE).  A process that has gone is -ESRCH, never a
 * join into another process of that PID.  A flag not defined above is -EINVAL.
 */
int nsctl_process_join(const struct nsctl_process *process, unsigned types, unsigned flags,
		       struct nsctl_join_report *report);

/*
 * The environment of PROCESS (/proc/PID/environ), as a NULL-terminated array
 * in one allocation: free() it.
 */
int nsctl_process_read_environ(const struct nsctl_process *process, char ***ret_environ);

/*
 * The cgroup v2 directory of PROCESS, found below the cgroup2 mount of the
 * caller's mount namespace.  -ENOENT when there is none.  Returns an fd.
 */
int nsctl_process_open_cgroup(const struct nsctl_process *process);

/*
 * The network namespace of socket FD of PROCESS (pidfd_getfd(), Linux 5.6,
 * which needs the right to ptrace PROCESS; then SIOCGSKNS), as an nsfs fd:
 * a socket keeps the namespace it was made in, wherever its process is now.
 * -EBADF when PROCESS has no fd FD, -ENOTSOCK when it is not a socket,
 * -EOPNOTSUPP without pidfds.  Returns the fd.
 */
int nsctl_process_open_socket_netns(const struct nsctl_process *process, int fd);

/*
 * The cgroup v1 directories of PROCESS: one fd for each v1 hierarchy of
 * /proc/PID/cgroup mounted in the caller's mount namespace (one not mounted
 * there is passed over), found as nsctl_process_open_cgroup() finds the v2
 * one and opened one name at a time below the mount, following no symbolic
 * link and entering no other mount.  Returns their number, 0 on a host
 * without v1 hierarchies, and *RET_FDS, an array to free() after closing
 * them; -EACCES for a cgroup outside the caller's cgroup namespace.
 */
int nsctl_process_open_cgroups_v1(const struct nsctl_process *process, int **ret_fds);

/*
 * The container PROCESS is in, from its cgroup path in the shape a runtime
 * gives it (docker, podman, Kubernetes' containerd and CRI-O, systemd-nspawn,
 * lxc), then, for the name, that runtime's own state on disk, read only from
 * files root owns and only root may write (never a daemon asked): into BUF as
 * "RUNTIME:NAME" (docker:web, podman:web, k8s:NAMESPACE/POD/CONTAINER,
 * crio:NAMESPACE/POD/CONTAINER, nspawn:NAME, lxc:NAME), or "RUNTIME:ID" with
 * the ID's first 12 hex digits where no name is found; a rootless podman
 * one as "podman@UID:NAME", the name from that user's own state, read as
 * that user (by a child, which may be left waiting on the user's files).  Checked to be still that
 * process's after the read.  Returns the length, 0 when it is in no container, -ENOBUFS if SIZE is
 * too small, -ESRCH for a process gone meanwhile.
 */
int nsctl_process_read_container(const struct nsctl_process *process, char *buf, size_t size);

/*
 * Open the first process of the container SPEC names: "RUNTIME:NAME" or NAME
 * as nsctl_process_read_container() tells them, or the first 4 or more hex
 * digits of its ID.  The first process is the lowest PID in the container's
 * namespaces; it is opened as nsctl_process_open() does (in ROOM, as
 * nsctl_process_open_in() does, where ROOM is not NULL), then checked to be
 * still in that very container (its runtime, user and ID), so that a PID
 * reused meanwhile is never returned (-ESRCH).  BUF gets the container as
 * shown, or, with -ENOTUNIQ where several containers are so named, all of
 * them (", " between).  -ENOENT where none is.
 */
int nsctl_process_open_container(const char *spec, struct nsctl_process_room *room,
				 struct nsctl_process **ret_process, char *buf, size_t size);

/*
 * The capability sets of a process, as /proc/PID/status shows them (bit N is
 * capability N, as in <linux/capability.h>), and its no_new_privs flag.
 */
struct nsctl_caps {
	size_t size;
	uint64_t inheritable, permitted, effective, bounding, ambient;
	bool no_new_privs;
};
#define NSCTL_CAPS_INIT NSCTL_SIZED_INIT(nsctl_caps)

/*
 * The capability sets and no_new_privs of PROCESS (/proc/PID/status, read
 * through its /proc directory fd), checked to be still that process's after
 * the read: -ESRCH for one gone (or a zombie) meanwhile.
 */
int nsctl_process_read_caps(const struct nsctl_process *process, struct nsctl_caps *ret_caps);

/*
 * Listing every namespace on the host (lib/list.c): the namespaces processes
 * are in, those held only by an open fd or by a bind mount in any mount
 * namespace, and the owners and parents the NS_GET_* ioctls lead to, even
 * when no process is in them.
 */
enum nsctl_list_flags {
	NSCTL_LIST_FDS = 1u << 0,        /* look at every process's open fds (/proc/PID/fd) */
	NSCTL_LIST_PINS = 1u << 1,       /* read the mountinfo of every mount namespace */
	NSCTL_LIST_RELATIONS = 1u << 2,  /* NS_GET_ID, owner and parent, followed to their end */
	NSCTL_LIST_ONE_THREAD = 1u << 3, /* scan with the calling thread only */
	NSCTL_LIST_SOCKETS = 1u << 4,    /* with FDS: the network namespaces of open sockets */
	NSCTL_LIST_WITHOUT_NETNSID = 1u << 5, /* with RELATIONS: no netnsid (no netlink request
						 per network namespace); it stays
						 NSCTL_LIST_NO_NETNSID */
	NSCTL_LIST_CONTAINERS = 1u << 6,      /* the container of each row's process */
	NSCTL_LIST_CGROUPS = 1u << 7,         /* and its cgroup v2 path: a string a row */
	NSCTL_LIST_ALL = NSCTL_LIST_FDS | NSCTL_LIST_PINS | NSCTL_LIST_RELATIONS |
			 NSCTL_LIST_SOCKETS | NSCTL_LIST_CONTAINERS | NSCTL_LIST_CGROUPS,
};

/* One namespace found by nsctl_list_scan().  Everything in it belongs to the list. */
struct nsctl_list_ns {
	size_t size;
	const struct nsctl_ns_id *id;
	unsigned nprocs;     /* processes in it (for pid and time: their own, not for children) */
	pid_t pid;           /* the lowest of them, 0 if none */
	pid_t ppid;          /* the parent of that process */
	uid_t uid;           /* the owner of that process; with none, see has_uid */
	const char *command; /* its command line (its name when that is empty), or NULL */
	const char *path;    /* /proc/PID/ns/TYPE of PID; with no process, an fd, a pin or a
				_for_children link: a path that opens it, but for a network
				namespace held only by a socket, where it is that socket */
	const struct nsctl_list_ns *owner;  /* NS_GET_USERNS; NULL when out of the caller's reach */
	const struct nsctl_list_ns *parent; /* NS_GET_PARENT of user and pid namespaces, or NULL */
	const char *const *pins; /* the bind mounts holding it, as paths the caller can open */
	size_t n_pins;
	const pid_t *holders; /* processes holding it by an open fd, ascending */
	size_t n_holders;
	int netnsid;  /* net: the ID the caller's network namespace gives it, -1 if none
			 (RTM_GETNSID); NSCTL_LIST_NO_NETNSID for other types, or when it could not
			 be asked */
	bool has_uid; /* uid is known: the process's, or, for a namespace no process is in,
			 the creator of its user namespace (NS_GET_OWNER_UID; of itself for a
			 user namespace) */
	/* With NSCTL_LIST_CGROUPS (cgroup) and NSCTL_LIST_CONTAINERS (container), else NULL: */
	const char *cgroup;    /* the cgroup v2 path of that process, or NULL */
	const char *container; /* its container, "RUNTIME:NAME" or "RUNTIME:ID" (the ID's first
				  12 digits) where no name is found, or NULL: as
				  nsctl_process_read_container() tells it */
};

#define NSCTL_LIST_NO_NETNSID (-2)

struct nsctl_list;

/*
 * Scan the host: FLAGS is a set of NSCTL_LIST_*.  Processes that vanish during
 * the scan are left out; what the caller may not look at is left out too.
 * PATH and PINS may be another user's to change (an fd, a pin): open them with
 * nsctl_ns_open_path() and compare the inode, never with a plain open(), which
 * a FIFO swapped in would block for ever.  COMMAND and the paths are anyone's
 * bytes: escape them before they reach a terminal.
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

/*
 * The Ith process (in ascending PID order) of NS, a namespace of LIST, as a
 * row of its own: NS's fields, but for pid, ppid, uid, has_uid and command,
 * which are that process's.  NULL past the last.  Valid until
 * nsctl_list_free(); asking for another namespace's processes may reuse the
 * rows.  A process gone since the scan is left out; so is one that was only
 * in NS's _for_children namespace.
 */
const struct nsctl_list_ns *nsctl_list_process(struct nsctl_list *list,
					       const struct nsctl_list_ns *ns, size_t i);

/* Free a list (NULL is allowed). */
void nsctl_list_free(struct nsctl_list *list);

/*
 * Kernel threads (lib/process.c).  A kernel thread is not a process anyone
 * can mean to enter: its namespaces are the machine's initial ones, and
 * joining "PID 2" is a typo away from "PID 12".  nsctl enter refuses them.
 */

/*
 * 1 if the process is a kernel thread (PF_KTHREAD in /proc/PID/stat), 0 if not.
 * Without a /proc that shows it: a process with no memory that still has
 * namespaces, asked through the pidfd (process_madvise, Linux 5.10); -ENOSYS
 * where that cannot be asked either.
 */
int nsctl_process_is_kernel_thread(const struct nsctl_process *process);

#ifdef __cplusplus
}
#endif

#endif
