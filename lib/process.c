// SPDX-License-Identifier: LGPL-2.1-or-later
/* A handle on a process that a recycled PID cannot stand in for, and its namespaces. */
#include <fcntl.h>
#include <limits.h>
#include <linux/capability.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "internal.h"
#include "number.h"
#include "syscalls.h"

#ifndef MADV_COLD
#define MADV_COLD 20
#endif

static int pidfd_alive(int pidfd)
{
	/*
	 * Signal 0 checks without sending.  ESRCH only once the process is
	 * reaped (a zombie still holds its PID); EPERM means it is there but
	 * not ours to signal, which is alive all the same.
	 */
	struct pollfd pfd = { .fd = pidfd, .events = POLLIN };
	int r;

	if (sys_pidfd_send_signal(pidfd, 0, NULL, 0) == 0 || errno == EPERM)
		return 1;
	if (errno != ENOSYS)
		return errno == ESRCH ? 0 : negative_errno();
	/*
	 * pidfd_open without pidfd_send_signal: no kernel, but a seccomp profile
	 * can deny one alone.  A pidfd polls readable once its process has
	 * exited; a zombie counts as gone here, as it has no namespaces left.
	 */
	r = poll(&pfd, 1, 0);
	if (r < 0)
		return negative_errno();
	return r == 0 ? 1 : 0;
}

/*
 * The number under which the /proc mounted here shows the pidfd's process.
 * That /proc may be another PID namespace's than ours (unshare --pid --fork
 * without a /proc of its own): there our number for the process names another
 * one, a kernel thread as likely as not.  The pidfd's fdinfo gives the number
 * in the namespace of the /proc it is read through.  -ENOENT: no /proc here,
 * or none that shows the process.
 */
static int proc_number(pid_t pid, int pidfd)
{
	_cleanup_close_ int fd = -1;
	char path[64], text[512];
	const char *line;
	uint64_t number;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/thread-self/fdinfo/%d", pidfd);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? -ENOENT : negative_errno();
	do
		n = read(fd, text, sizeof(text) - 1);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return negative_errno();
	text[n] = '\0';
	line = strstr(text, "\nPid:\t");
	/* (A kernel whose fdinfo says nothing of it: our own number, as before.) */
	if (!line)
		return (int)pid;
	line += 6;
	/* -1: it has been reaped; 0: the process is not in that namespace. */
	if (line[0] == '-')
		return -ESRCH;
	if (number_scan(&line, INT_MAX, &number) < 0 || number == 0)
		return -ENOENT;
	return (int)number;
}

/*
 * Without a pidfd, whether the /proc mounted here is our PID namespace's: its
 * "self" is our own number.  -ENOENT if not, as if there were no /proc.
 */
static int proc_is_ours(void)
{
	char text[16], mine[16];
	ssize_t n = readlink("/proc/self", text, sizeof(text) - 1);

	if (n < 0)
		return errno == ENOENT ? -ENOENT : negative_errno();
	text[n] = '\0';
	snprintf(mine, sizeof(mine), "%d", (int)getpid());
	return strcmp(text, mine) == 0 ? 0 : -ENOENT;
}

/*
 * Open the process's /proc/PID and prove, through the pidfd taken before, that
 * it is that process's.  -ENOENT where no /proc here shows it.
 */
static int open_procfd(pid_t pid, int pidfd)
{
	_cleanup_close_ int procfd = -1;
	char path[32];
	int r;

	r = pidfd >= 0 ? proc_number(pid, pidfd) : proc_is_ours();
	if (r < 0)
		return r;
	snprintf(path, sizeof(path), "/proc/%d", pidfd >= 0 ? r : (int)pid);
	procfd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (procfd < 0)
		return errno == ENOENT ? -ESRCH : negative_errno();
	/*
	 * If the pidfd's process is still there now, the /proc directory
	 * opened in between is that process's: a PID is not reused before its
	 * process is reaped.  Without pidfds the directory fd alone is the
	 * anchor: once its process is gone, lookups under it fail.
	 */
	if (pidfd >= 0) {
		r = pidfd_alive(pidfd);
		if (r < 0)
			return r;
		if (r == 0)
			return -ESRCH;
	}
	return TAKE_FD(procfd);
}

int proc_open_of(pid_t pid, const char *name, int flags)
{
	_cleanup_close_ int pidfd = sys_pidfd_open(pid, 0);
	char path[64];
	int fd, r;

	if (pidfd < 0 && errno != ENOSYS && errno != EPERM)
		return negative_errno();
	r = pidfd >= 0 ? proc_number(pid, pidfd) : proc_is_ours();
	if (r < 0)
		return r;
	snprintf(path, sizeof(path), "/proc/%d/%s", pidfd >= 0 ? r : (int)pid, name);
	fd = open(path, flags | O_CLOEXEC);
	if (fd < 0)
		return negative_errno();
	/* Still the pidfd's process, so the number was not given to another since. */
	r = pidfd >= 0 ? pidfd_alive(pidfd) : 1;
	if (r <= 0) {
		close(fd);
		return r < 0 ? r : -ESRCH;
	}
	return fd;
}

int process_open_into(struct nsctl_process *process, pid_t pid)
{
	_cleanup_close_ int pidfd = -1, procfd = -1;

	*process = (struct nsctl_process){ .pidfd = -1, .procfd = -1 };
	if (pid <= 0)
		return -EINVAL;
	/*
	 * Before Linux 5.3 there is no pidfd_open (ENOSYS).  Container seccomp
	 * profiles that predate it answer EPERM instead (Docker before 20.10),
	 * an error pidfd_open itself never gives: both mean "do without".
	 */
	pidfd = sys_pidfd_open(pid, 0);
	if (pidfd < 0 && errno != ENOSYS && errno != EPERM)
		return negative_errno();
	if (pidfd < 0) {
		procfd = open_procfd(pid, -1);
		if (procfd < 0)
			return procfd;
	}
	process->pid = pid;
	process->pidfd = TAKE_FD(pidfd);
	process->procfd = TAKE_FD(procfd);
	return 0;
}

NSCTL_EXPORT int nsctl_process_open(pid_t pid, struct nsctl_process **ret_process)
{
	struct nsctl_process *process;
	int r;

	if (pid <= 0 || !ret_process)
		return -EINVAL;
	process = calloc(1, sizeof(*process));
	if (!process)
		return -ENOMEM;
	r = process_open_into(process, pid);
	if (r < 0) {
		free(process);
		return r;
	}
	*ret_process = process;
	return 0;
}

/*
 * 0 if FD is a pidfd, -EINVAL if it is another open file.  On pidfs (Linux
 * 6.9) every file is a pidfd.  Before it a pidfd is an anonymous inode, as an
 * eventfd or a timerfd is, and pidfd_send_signal() tells them apart (it takes
 * a /proc/PID directory too, but that is no anonymous inode).  A seccomp
 * filter that denies that call leaves the link's text.
 */
static int check_pidfd(int fd)
{
	char path[64], target[32];
	struct statfs sfs;
	ssize_t n;

	if (fstatfs(fd, &sfs) < 0)
		return negative_errno();
	if ((unsigned long)sfs.f_type == NSCTL_PIDFS_MAGIC)
		return 0;
	if ((unsigned long)sfs.f_type != NSCTL_ANON_INODE_FS_MAGIC)
		return -EINVAL;
	if (sys_pidfd_send_signal(fd, 0, NULL, 0) == 0 || errno == EPERM || errno == ESRCH)
		return 0;
	if (errno != ENOSYS)
		return -EINVAL;
	snprintf(path, sizeof(path), "/proc/thread-self/fd/%d", fd);
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return errno == ENOENT ? -EINVAL : negative_errno();
	target[n] = '\0';
	return strcmp(target, "anon_inode:[pidfd]") == 0 ? 0 : -EINVAL;
}

/*
 * The PID of the pidfd's process in the caller's PID namespace: PIDFD_GET_INFO
 * (Linux 6.13), else the pidfd's fdinfo in a /proc of the caller's PID
 * namespace.  -ESRCH once reaped, or when the process is not in the caller's
 * PID namespace; -ENOENT when neither way is there.
 */
static int pidfd_pid(int pidfd, pid_t *ret_pid)
{
	struct nsctl_pidfd_info info = { .mask = NSCTL_PIDFD_INFO_PID };
	int r;

	if (ioctl(pidfd, NSCTL_PIDFD_GET_INFO, &info) == 0) {
		if (info.pid == 0 || info.pid > INT_MAX)
			return -ESRCH;
		*ret_pid = (pid_t)info.pid;
		return 0;
	}
	if (errno == ESRCH)
		return -ESRCH;
	if (errno != ENOTTY && errno != EINVAL && errno != EOPNOTSUPP)
		return negative_errno();
	r = proc_is_ours();
	if (r < 0)
		return r;
	r = proc_number(0, pidfd);
	if (r == -ENOENT)
		return -ESRCH; /* our /proc, and the process is not in it */
	if (r < 0)
		return r;
	if (r == 0)
		return -EINVAL; /* no "Pid:" line: not a pidfd after all */
	*ret_pid = (pid_t)r;
	return 0;
}

NSCTL_EXPORT int nsctl_process_from_pidfd(int pidfd, struct nsctl_process **ret_process)
{
	_cleanup_close_ int copy = -1;
	struct nsctl_process *process;
	pid_t pid = 0;
	int r;

	if (!ret_process)
		return -EINVAL;
	if (pidfd < 0)
		return -EBADF;
	r = check_pidfd(pidfd);
	if (r < 0)
		return r;
	r = pidfd_pid(pidfd, &pid);
	if (r < 0)
		return r;
	/* The handle's own copy: the caller keeps PIDFD, and closes it when it likes. */
	copy = fcntl(pidfd, F_DUPFD_CLOEXEC, 3);
	if (copy < 0)
		return negative_errno();
	process = calloc(1, sizeof(*process));
	if (!process)
		return -ENOMEM;
	process->pid = pid;
	process->pidfd = TAKE_FD(copy);
	process->procfd = -1;
	*ret_process = process;
	return 0;
}

void process_clear(struct nsctl_process *process)
{
	close_fdp(&process->pidfd);
	close_fdp(&process->procfd);
}

_Static_assert(sizeof(struct nsctl_process) <= sizeof(struct nsctl_process_room) &&
		   _Alignof(struct nsctl_process) <= _Alignof(struct nsctl_process_room),
	       "struct nsctl_process must fit its room");

NSCTL_EXPORT int nsctl_process_open_in(struct nsctl_process_room *room, pid_t pid,
				       struct nsctl_process **ret_process)
{
	struct nsctl_process *process = (struct nsctl_process *)room;
	int r;

	if (!room || pid <= 0 || !ret_process)
		return -EINVAL;
	r = process_open_into(process, pid);
	if (r < 0)
		return r;
	*ret_process = process;
	return 0;
}

NSCTL_EXPORT void nsctl_process_clear(struct nsctl_process *process)
{
	if (process)
		process_clear(process);
}

NSCTL_EXPORT void nsctl_process_free(struct nsctl_process *process)
{
	if (!process)
		return;
	process_clear(process);
	free(process);
}

NSCTL_EXPORT pid_t nsctl_process_pid(const struct nsctl_process *process)
{
	return process ? process->pid : -1;
}

NSCTL_EXPORT int nsctl_process_pidfd(const struct nsctl_process *process)
{
	return process ? process->pidfd : -1;
}

NSCTL_EXPORT int nsctl_process_procfd(const struct nsctl_process *process)
{
	/* The handle is logically const; the fd is a cache, filled once even by racing threads. */
	int *slot, fd, expected = -1;

	if (!process)
		return -EINVAL;
	slot = (int *)&process->procfd;
	fd = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
	if (fd >= 0)
		return fd;
	fd = open_procfd(process->pid, process->pidfd);
	if (fd < 0)
		return fd;
	if (!__atomic_compare_exchange_n(slot, &expected, fd, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE)) {
		close(fd);
		return expected;
	}
	return fd;
}

NSCTL_EXPORT int nsctl_process_alive(const struct nsctl_process *process)
{
	struct stat st;

	if (!process)
		return -EINVAL;
	if (process->pidfd >= 0)
		return pidfd_alive(process->pidfd);
	/* A /proc/PID directory fd whose process is gone finds nothing beneath it. */
	if (fstatat(process->procfd, "stat", &st, 0) == 0)
		return 1;
	return errno == ENOENT || errno == ESRCH ? 0 : negative_errno();
}

/* PF_KTHREAD of include/linux/sched.h: the flags word of /proc/PID/stat has it. */
#define PROCESS_FLAG_KERNEL_THREAD 0x00200000UL

/* Digits only, at most MAX; *P moves past them.  False for none, or too large. */
static bool stat_number(const char **p, unsigned long max, unsigned long *ret)
{
	uint64_t value;

	if (number_scan(p, max, &value) < 0)
		return false;
	*ret = (unsigned long)value;
	return true;
}

void proc_stat_parse(const char *text, struct proc_stat *ret)
{
	const char *open = strchr(text, '('), *close = strrchr(text, ')'), *p;
	unsigned long value;
	size_t length;

	memset(ret, 0, sizeof(*ret));
	ret->ppid = -1;
	/* COMM may hold spaces and parentheses ("a) S 1 (b"): the last ')' ends it. */
	if (!open || !close || close < open)
		return;
	length = (size_t)(close - open - 1);
	if (length >= sizeof(ret->comm))
		length = sizeof(ret->comm) - 1;
	memcpy(ret->comm, open + 1, length);
	ret->has_comm = true;
	/* ") S PPID": the state is one character between single spaces. */
	p = close + 1;
	if (p[0] != ' ' || !p[1] || p[2] != ' ')
		return;
	p += 3;
	if (!stat_number(&p, INT_MAX, &value) || (*p != ' ' && *p != '\n' && *p))
		return;
	ret->ppid = (pid_t)value;
	/* pgrp session tty_nr tpgid (-1 without a terminal), then the flags word. */
	for (int field = 0; field < 4; field++) {
		if (*p++ != ' ')
			return;
		if (*p == '-')
			p++;
		if (!stat_number(&p, ULONG_MAX, &value))
			return;
	}
	if (*p++ != ' ' || !stat_number(&p, UINT_MAX, &value) || (*p != ' ' && *p != '\n' && *p))
		return;
	ret->flags = (unsigned)value;
	ret->has_flags = true;
}

/*
 * Without a /proc that shows the process: a kernel thread is the one process
 * that has no memory of its own and still has namespaces.  process_madvise()
 * (Linux 5.10) with no ranges changes nothing, and finds the process's memory
 * first: ESRCH for none (a kernel thread, or a zombie), anything else (0,
 * EPERM without CAP_SYS_NICE, EACCES not ours to trace) for some.  The pidfd's
 * namespace ioctl (Linux 6.11) then tells a zombie (ESRCH) from a kernel thread.
 */
static int is_kernel_thread_by_pidfd(int pidfd)
{
	_cleanup_close_ int nsfd = -1;
	int r;

	if (pidfd < 0)
		return -ENOENT;
	if (sys_process_madvise(pidfd, NULL, 0, MADV_COLD, 0) == 0)
		return 0;
	/* ENOSYS: before 5.10, or a seccomp filter; nothing else tells without /proc. */
	if (errno == ENOSYS)
		return -ENOSYS;
	if (errno != ESRCH)
		return 0;
	r = pidfd_alive(pidfd);
	if (r <= 0)
		return r < 0 ? r : -ESRCH;
	nsfd = ioctl(pidfd, type_row(NSCTL_TYPE_PID)->pidfd_ioctl, 0);
	if (nsfd < 0 && errno == ESRCH)
		return -ESRCH;
	/* (Before 6.11 a zombie goes for one too: it has no namespaces to join either.) */
	return 1;
}

/* The closer look of nsctl_process_is_kernel_thread(), in its own frame: see there. */
static __attribute__((noinline)) int is_kernel_thread_slow(const struct nsctl_process *process)
{
	_cleanup_close_ int fd = -1;
	struct proc_stat st;
	char text[1024];
	ssize_t n;
	int procfd;

	procfd = nsctl_process_procfd(process);
	if (procfd == -ENOENT)
		return is_kernel_thread_by_pidfd(process->pidfd);
	if (procfd < 0)
		return procfd;
	/*
	 * Only a kernel thread or a zombie has no executable.  Reading the
	 * /proc/PID/exe link is far cheaper than having the kernel generate
	 * /proc/PID/stat, and unlike a
	 * stat() of the file it never calls into the target's filesystem,
	 * which a hostile FUSE could hang.  Without it (gone, or EACCES: not
	 * ours to trace), the flags in stat tell.
	 */
	if (readlinkat(procfd, "exe", text, sizeof(text)) >= 0)
		return 0;
	fd = openat(procfd, "stat", O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return errno == ENOENT || errno == ESRCH ? -ESRCH : negative_errno();
	do
		n = read(fd, text, sizeof(text) - 1);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno == ESRCH ? -ESRCH : negative_errno();
	text[n] = '\0';
	proc_stat_parse(text, &st);
	if (!st.has_flags)
		return -EIO;
	return (st.flags & PROCESS_FLAG_KERNEL_THREAD) ? 1 : 0;
}

NSCTL_EXPORT int nsctl_process_is_kernel_thread(const struct nsctl_process *process)
{
	if (!process)
		return -EINVAL;
	/*
	 * A kernel thread belongs to no process group: getpgid() says 0.  So
	 * does it for a process whose group leader our PID namespace cannot
	 * see, or one the kernel started (init, a usermode helper): 0 alone
	 * proves nothing, and then the closer look decides (PF_KTHREAD in
	 * /proc/PID/stat, or no memory through the pidfd without /proc).  One
	 * cheap call decides for nearly every target, and enter pays for this on
	 * every join.  The PID is the handle's: if it is reused meanwhile, the
	 * pidfd joins nothing anyway.
	 */
	if (getpgid(process->pid) > 0)
		return 0;
	return is_kernel_thread_slow(process);
}

NSCTL_EXPORT int nsctl_process_open_ns(const struct nsctl_process *process, enum nsctl_type type,
				       bool for_children)
{
	const struct type_row *row = type_row(type);
	unsigned supported; /* 0: unknown, and the kernel will say */
	char path[64];
	int fd, procfd;

	if (!process || !row)
		return -EINVAL;
	if (process->pidfd >= 0) {
		unsigned long request = for_children && row->pidfd_children_ioctl
					    ? row->pidfd_children_ioctl
					    : row->pidfd_ioctl;

		/* Linux 6.11: the pidfd names the process, so no PID can be recycled under us. */
		fd = ioctl(process->pidfd, request, 0);
		if (fd >= 0)
			return fd;
		if (errno == ESRCH)
			return -ESRCH;
		if (errno != ENOTTY && errno != EINVAL && errno != EOPNOTSUPP)
			return negative_errno();
	}
	/*
	 * Only now which types the kernel has, where the ioctl could not open
	 * the namespace: that look at /proc/self/ns costs more than the ioctl.
	 */
	supported = nsctl_type_supported();
	if (supported && !(supported & NSCTL_TYPE_BIT(type)))
		return -EOPNOTSUPP;
	procfd = nsctl_process_procfd(process);
	if (procfd < 0)
		return procfd;
	snprintf(path, sizeof(path), "ns/%s", type_proc_name(type, for_children));
	fd = openat(procfd, path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		/* A zombie, or a process that has gone, has no namespaces left to open. */
		if (errno == ENOENT || errno == ESRCH)
			return -ESRCH;
		return negative_errno();
	}
	return fd;
}

bool capability_effective(int cap)
{
	struct __user_cap_header_struct header = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	/* Asked of the kernel each time: a setns() into a user namespace changes the answer. */
	if (syscall(SYS_capget, &header, data) < 0)
		return false;
	return data[CAP_TO_INDEX(cap)].effective & CAP_TO_MASK(cap);
}
