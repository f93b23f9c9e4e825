// SPDX-License-Identifier: LGPL-2.1-or-later
/* Starting a child in new namespaces: clone3() first, clone() where the kernel lacks it. */
#include <fcntl.h>
#include <linux/magic.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>

#include "internal.h"
#include "syscalls.h"

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif

/* struct clone_args of linux/sched.h, up to CLONE_INTO_CGROUP (Linux 5.7). */
struct clone_args_v2 {
	uint64_t flags;
	uint64_t pidfd;
	uint64_t child_tid;
	uint64_t parent_tid;
	uint64_t exit_signal;
	uint64_t stack;
	uint64_t stack_size;
	uint64_t tls;
	uint64_t set_tid;
	uint64_t set_tid_size;
	uint64_t cgroup;
};

NSCTL_EXPORT int nsctl_cgroup_open(const char *path)
{
	_cleanup_close_ int fd = -1;
	struct statfs fs;

	if (!path || !*path)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return negative_errno();
	if (fstatfs(fd, &fs) < 0)
		return negative_errno();
	/* CLONE_INTO_CGROUP and cgroup.procs of one directory are cgroup v2 only. */
	if (fs.f_type != CGROUP2_SUPER_MAGIC)
		return -EMEDIUMTYPE;
	return TAKE_FD(fd);
}

NSCTL_EXPORT int nsctl_cgroup_attach(int cgroup_fd, pid_t pid)
{
	_cleanup_close_ int fd = -1;
	char text[32];
	int length;

	if (cgroup_fd < 0 || pid <= 0)
		return -EINVAL;
	fd = openat(cgroup_fd, "cgroup.procs", O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW);
	if (fd < 0)
		return negative_errno();
	length = snprintf(text, sizeof(text), "%d", (int)pid);
	if (write(fd, text, (size_t)length) != length)
		return negative_errno();
	return 0;
}

/* clone3(): 0 in the child, the PID in the parent, -errno. */
static pid_t clone3_fork(uint64_t flags, int cgroup_fd, int *pidfd)
{
	struct clone_args_v2 args;
	long r;

	memset(&args, 0, sizeof(args));
	args.flags = flags | CLONE_PIDFD;
	args.pidfd = (uint64_t)(uintptr_t)pidfd;
	args.exit_signal = SIGCHLD;
	if (cgroup_fd >= 0) {
		args.flags |= CLONE_INTO_CGROUP;
		args.cgroup = (uint64_t)cgroup_fd;
	}
	r = syscall(__NR_clone3, &args, cgroup_fd >= 0 ? sizeof(args) : 64);
	if (r < 0)
		return negative_errno();
	return (pid_t)r;
}

/* clone() as fork(): no new stack, so the child goes on from here like fork()'s. */
static pid_t clone_fork(unsigned long flags)
{
	long r = syscall(SYS_clone, flags | SIGCHLD, NULL, NULL, NULL, NULL);

	if (r < 0)
		return negative_errno();
	return (pid_t)r;
}

NSCTL_EXPORT pid_t nsctl_clone(unsigned long clone_flags, int cgroup_fd, int *ret_pidfd)
{
	bool attach_after = false;
	int pidfd = -1;
	pid_t pid;
	int r;

	if (clone_flags & ~(unsigned long)nsctl_types_to_clone_flags(TYPES_ALL))
		return -EINVAL;
	pid = clone3_fork(clone_flags, cgroup_fd, &pidfd);
	/* A kernel before 5.7 has clone3() without CLONE_INTO_CGROUP: place the child after. */
	if (cgroup_fd >= 0 && (pid == -E2BIG || pid == -EINVAL)) {
		attach_after = true;
		pid = clone3_fork(clone_flags, -1, &pidfd);
	}
	if (pid == -ENOSYS) {
		/* clone() cannot take CLONE_NEWTIME: its bit is part of the exit signal there. */
		if (clone_flags & CLONE_NEWTIME)
			return -EOPNOTSUPP;
		attach_after = cgroup_fd >= 0;
		pid = clone_fork(clone_flags);
		if (pid > 0)
			pidfd = sys_pidfd_open(pid, 0);
	}
	if (pid <= 0)
		return pid;
	/* The child has not exec'd yet if the caller makes it wait; see nsctl.h. */
	if (attach_after) {
		r = nsctl_cgroup_attach(cgroup_fd, pid);
		if (r < 0) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			close_fdp(&pidfd);
			return r;
		}
	}
	if (ret_pidfd)
		*ret_pidfd = pidfd;
	else
		close_fdp(&pidfd);
	return pid;
}

NSCTL_EXPORT int nsctl_time_enter_children(void)
{
	/* unshare(CLONE_NEWTIME) set the calling thread's time_for_children, not the process's. */
	_cleanup_close_ int fd =
	    open("/proc/thread-self/ns/time_for_children", O_RDONLY | O_CLOEXEC | O_NOCTTY);

	if (fd < 0)
		return negative_errno();
	/* After unshare(CLONE_NEWTIME) only children enter; the caller follows with setns(). */
	if (setns(fd, CLONE_NEWTIME) < 0)
		return negative_errno();
	return 0;
}

NSCTL_EXPORT int nsctl_reap_as_init(pid_t program, int *ret_wstatus)
{
	_cleanup_close_ int sfd = -1;
	sigset_t set;

	if (program <= 0 || !ret_wstatus)
		return -EINVAL;
	/* The signals nsctl_signals_block() blocked are the ones to pass on, and SIGCHLD. */
	if (sigprocmask(SIG_BLOCK, NULL, &set) < 0)
		return negative_errno();
	sigaddset(&set, SIGCHLD);
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0)
		return negative_errno();
	sfd = signalfd(-1, &set, SFD_CLOEXEC);
	if (sfd < 0)
		return negative_errno();
	for (;;) {
		struct signalfd_siginfo si;
		int wstatus;
		pid_t pid;

		/* As PID 1, every orphan of the namespace is ours to reap, or it stays a zombie. */
		bool program_ended = false;

		while ((pid = waitpid(-1, &wstatus, WNOHANG)) > 0) {
			if (pid == program) {
				*ret_wstatus = wstatus;
				program_ended = true;
			}
		}
		/* Return with every zombie reaped, those PROGRAM left to us included. */
		if (program_ended)
			return 0;
		if (pid < 0 && errno != EINTR)
			return negative_errno();
		if (read(sfd, &si, sizeof(si)) != (ssize_t)sizeof(si)) {
			if (errno == EINTR)
				continue;
			return negative_errno();
		}
		if (si.ssi_signo == SIGCHLD)
			continue;
		/* The terminal already sent ^C to PROGRAM when it shares our process group. */
		if (si.ssi_code == SI_KERNEL && getpgid(program) == getpgrp())
			continue;
		kill(program, (int)si.ssi_signo);
	}
}
