/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the files of lib/ share with each other and with nothing else. */
#ifndef NSCTL_INTERNAL_H
#define NSCTL_INTERNAL_H

#include "nsctl.h"
#include "objects.h"
#include "type-count.h"
#include "util.h"

/* The table row of a type, with what only the library needs. */
struct type_row {
	struct nsctl_type_info info;
	unsigned long pidfd_ioctl;          /* PIDFD_GET_<TYPE>_NAMESPACE */
	unsigned long pidfd_children_ioctl; /* ..._FOR_CHILDREN_NAMESPACE, or 0 */
};

const struct type_row *type_row(enum nsctl_type type);

/*
 * A struct of nsctl.h with its size first, from the caller (lib/version.c).
 * FIRST is its size in libnsctl 1.0 (SIZED_FIRST of its last field then),
 * OURS this library's sizeof.  For one the library fills, sized_out_begin()
 * says -EINVAL for a size short of FIRST and zeroes what the caller has past
 * OURS; then the library writes its fields one by one, never the whole
 * struct (a caller built before it grew has less room).  For one it reads,
 * sized_in_check() says -EINVAL short of FIRST and -E2BIG for a byte it does
 * not know that is not 0, as openat2() does.
 */
#define SIZED_FIRST(type, last) (offsetof(type, last) + sizeof(((type *)0)->last))
int sized_out_begin(void *p, size_t first, size_t ours);
int sized_in_check(const void *p, size_t first, size_t ours);
#define NS_ID_FIRST        SIZED_FIRST(struct nsctl_ns_id, id)
#define CAPS_FIRST         SIZED_FIRST(struct nsctl_caps, no_new_privs)
#define IDMAP_FIRST        SIZED_FIRST(struct nsctl_idmap, n)
#define SPAWN_REPORT_FIRST SIZED_FIRST(struct nsctl_spawn_report, err)
#define JOIN_REPORT_FIRST  SIZED_FIRST(struct nsctl_join_report, failed_call)

/*
 * The calling thread's own namespace of TYPE (FOR_CHILDREN: its _for_children
 * one, where the type has one) through a pidfd on that thread (Linux 6.11),
 * for where /proc is not mounted: an fd, or -errno (-ENOTTY before 6.11,
 * -EOPNOTSUPP for a type the kernel lacks).  nsctl_ns_open_own() tries
 * /proc/thread-self first.
 */
int own_ns_open_by_pidfd(enum nsctl_type type, bool for_children);

/*
 * An O_PATH fd on the directory PATH of /proc (as "/proc/thread-self/ns"),
 * only if it is on a procfs: whatever is mounted there instead (a tmpfs a
 * container's root put over it) is not asked.  -1 otherwise.
 */
int proc_dir_open(const char *path);

/*
 * Open /proc/PID/NAME of process PID (of the caller's PID namespace) with
 * FLAGS, under the number the /proc mounted here gives it (see
 * nsctl_process_procfd): an fd, or -errno (-ENOENT: no /proc here shows it).
 */
int proc_open_of(pid_t pid, const char *name, int flags);

/*
 * nsctl_ns_open_path(), and only if PATH still leads to the namespace (DEV,
 * INO) the caller saw there (INO 0: any), else -ESTALE.  The one way nsctl
 * opens a path another user or process controls (/proc/PID/fd/N, a pin).
 */
int ns_open_path_checked(const char *path, int expected, dev_t dev, ino_t ino,
			 enum nsctl_type *ret_type);

/*
 * lib/fds.c: every fd >= 3 close-on-exec but SORTED (ascending), and those
 * inheritable; 0 or -errno.  System calls only: safe in a child that shares
 * its parent's memory (lib/spawn.c).
 */
int fds_keep_only_sorted(const int *sorted, size_t n);

/*
 * The whole of the file at FD from where it is, NUL-terminated (*RET_SIZE, or
 * NULL, excludes the NUL): -EFBIG past about MAX bytes.  lib/fds.c.
 */
int fd_read_all(int fd, size_t max, char **ret_text, size_t *ret_size);

/*
 * lib/create.c, the one opener of cgroup.procs: that file of the cgroup
 * directory CGROUP_FD, opened through that fd with O_NOFOLLOW, for writing
 * (the kernel checks the opener's rights, Linux 5.16); an fd or -errno.
 * cgroup_procs_write() moves PID (0: the caller) in through it.
 */
int cgroup_procs_open(int cgroup_fd);
int cgroup_procs_write(int cgroup_fd, pid_t pid);
/*
 * lib/target.c: the caller moved into the cgroup (v2 or v1) of CGROUP_FD; a
 * refused write succeeds where cgroup.procs already lists the caller.
 */
int cgroup_join_caller(int cgroup_fd);

/*
 * lib/spawn.c, the one start of a process in nsctl: FN(ARG) in a child made
 * by the C library's clone(), on STACK (STACK_SIZE bytes), with FLAGS:
 * CLONE_NEW* (but CLONE_NEWTIME: clone() reads its bit as part of the exit
 * signal), CLONE_VM | CLONE_VFORK for a child that shares our memory until
 * its exec (system calls only there), CLONE_VFORK for a copy the caller waits
 * on; and EXIT_SIGNAL (0: none, the child is then reaped with __WALL).  Its
 * pidfd in *PIDFD: from CLONE_PIDFD (5.2; an older kernel ignores the flag
 * and gives none), else, where CLONE_PIDFD is refused (EINVAL: a seccomp
 * filter), from pidfd_open() (5.3); else -1.
 * The PID, or -errno.
 */
struct process_start {
	int (*fn)(void *);
	void *arg;
	char *stack;
	size_t stack_size;
	unsigned long flags;
	int exit_signal;
};
pid_t process_start(const struct process_start *start, int *pidfd);
/* The same for a copy, on a stack of its own mapped and unmapped here. */
pid_t process_start_copy(int (*fn)(void *), void *arg, unsigned long flags, int exit_signal,
			 int *pidfd);

/* lib/process.c, the one capability check: whether CAP is in the caller's effective set. */
bool capability_effective(int cap);

/* The /proc/PID/ns file name of a type, or its _for_children variant where there is one. */
const char *type_proc_name(enum nsctl_type type, bool for_children);

/*
 * lib/mountinfo.c, the one reader of /proc/PID/mountinfo (pins, list, cgroups).
 * One line, split in place (the line's buffer is modified; the fields point
 * into it).  Octal escapes (\040) in ROOT, MOUNT_POINT and SOURCE are decoded.
 * -EINVAL for a malformed line.
 */
struct mountinfo_entry {
	int mount_id, parent_id;
	unsigned major, minor;
	char *root; /* for nsfs: "net:[4026531840]" */
	char *mount_point;
	char *options;
	char *optional; /* "shared:1 master:2", or "" */
	char *fstype;
	char *source;
	char *super_options;
};
int mountinfo_parse_line(char *line, struct mountinfo_entry *ret_entry);

/* One nsfs entry of a mountinfo file: a namespace bind-mounted somewhere. */
struct mountinfo_nsfs {
	enum nsctl_type type;
	ino_t ino;
	int mount_id;
	const char *mount_point; /* unescaped, into the parsed line */
};

/*
 * One line of /proc/PID/mountinfo (without or with its newline), split in
 * place as by mountinfo_parse_line: 1 and *RET when it is an nsfs mount of a
 * known type, 0 for any other mount, -EINVAL for a line that is not mountinfo.
 */
int mountinfo_parse_nsfs(char *line, struct mountinfo_nsfs *ret);

/*
 * "net:[4026531840]" as the type and inode of a namespace (RET_INO may be
 * NULL); -EINVAL otherwise.  The _length form reads exactly LENGTH bytes, for
 * a readlink() buffer that is not NUL-terminated.
 */
int ns_link_parse(const char *text, enum nsctl_type *ret_type, ino_t *ret_ino);
int ns_link_parse_length(const char *text, size_t length, enum nsctl_type *ret_type,
			 ino_t *ret_ino);

/* lib/enter.c: the order of joins, apart from the system calls, so it can be tested. */
typedef int (*join_one_fn)(enum nsctl_type type, void *userdata); /* 1 joined, 0 skipped */
size_t join_order(unsigned types, bool user_first, enum nsctl_type *order);
int join_in_order(unsigned types, bool user_first, join_one_fn join, void *userdata,
		  struct nsctl_join_report *report);
/* Listing (list.c, nshash.c): a hash table of namespaces keyed by (dev, ino). */
struct ns_hash_slot {
	dev_t dev;
	ino_t ino;
	void *value; /* NULL: the slot is free */
};

struct ns_hash {
	struct ns_hash_slot *slots;
	size_t size; /* a power of two, or 0 */
	size_t used;
};

/* Add VALUE (not NULL) under (DEV, INO): -EEXIST if the key is there, -ENOMEM. */
int ns_hash_put(struct ns_hash *hash, dev_t dev, ino_t ino, void *value);
/* The value under (DEV, INO), or NULL. */
void *ns_hash_get(const struct ns_hash *hash, dev_t dev, ino_t ino);
void ns_hash_clear(struct ns_hash *hash);

/*
 * The fields nsctl reads of /proc/PID/stat (lib/process.c), from its text
 * (NUL-terminated).  Each is set only when found in the kernel's form:
 * "PID (COMM) S PPID PGRP SESSION TTY_NR TPGID FLAGS ...", where COMM is what
 * lies between the first '(' and the last ')', cut to 16 bytes.
 */
struct proc_stat {
	char comm[17];
	pid_t ppid; /* -1 unless found */
	unsigned long flags;
	bool has_comm, has_flags;
};
void proc_stat_parse(const char *text, struct proc_stat *ret);

/*
 * The two /proc files lib/target.c reads, parsed (split out to be fuzzed).
 * proc_environ_split: the NUL-separated strings of TEXT (SIZE bytes, and a
 * NUL at TEXT[SIZE]) as a NULL-terminated array in one malloc() block.
 * proc_cgroup_v2_path: the PATH of the "0::PATH" line of /proc/PID/cgroup,
 * cut at its newline in TEXT; -ENOENT without an absolute one, -EACCES when
 * it climbs out of the caller's cgroup namespace ("..").
 */
int proc_environ_split(const char *text, size_t size, char ***ret_environ);
int proc_cgroup_v2_path(char *text, char **ret_path);

/*
 * proc_cgroup_v1_next: the next v1 line "N:CONTROLLERS:/PATH" of the text of
 * /proc/PID/cgroup at *CURSOR (split in place, *CURSOR moved past it): 1 with
 * CONTROLLERS (RET_LENGTH bytes, not NUL-terminated) and PATH, 0 at the end,
 * -EINVAL for a line of another form, -EACCES for a PATH that climbs out of
 * the caller's cgroup namespace.  The v2 line "0::PATH" is passed over.
 * proc_status_caps: the Cap* and NoNewPrivs lines of /proc/PID/status;
 * -ENODATA when one is missing, -EINVAL when one is not a number.
 */
int proc_cgroup_v1_next(char **cursor, const char **ret_controllers, size_t *ret_length,
			char **ret_path);
int proc_status_caps(const char *text, struct nsctl_caps *ret);

/*
 * The container PROCESS is in, from its cgroup (lib/container.h), read through
 * its /proc directory and checked to be still that process's: 1, 0 for none,
 * or -errno (-ESRCH for a process gone).  lib/target.c.
 */
struct container_ref;
int process_container(const struct nsctl_process *process, struct container_ref *ret);

#endif
