// SPDX-License-Identifier: LGPL-2.1-or-later
/* Cgroups for a new child: the cgroup v2 directory it starts in, and the one writer of
 * cgroup.procs. */
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <sys/statfs.h>

#include "internal.h"

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif

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
	/* A whole process moved by one write to cgroup.procs: cgroup v2 only. */
	if (fs.f_type != CGROUP2_SUPER_MAGIC)
		return -EMEDIUMTYPE;
	return TAKE_FD(fd);
}

int cgroup_procs_open(int cgroup_fd)
{
	/* Through the directory's fd, never its path; O_NOFOLLOW: a link planted there is refused.
	 */
	int fd = openat(cgroup_fd, "cgroup.procs", O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW);

	return fd < 0 ? negative_errno() : fd;
}

int cgroup_procs_write(int cgroup_fd, pid_t pid)
{
	_cleanup_close_ int fd = cgroup_procs_open(cgroup_fd);
	char text[32];
	int length;

	if (fd < 0)
		return fd;
	length = snprintf(text, sizeof(text), "%d", (int)pid);
	if (write(fd, text, (size_t)length) != length)
		return negative_errno();
	return 0;
}

NSCTL_EXPORT int nsctl_cgroup_attach(int cgroup_fd, pid_t pid)
{
	if (cgroup_fd < 0 || pid < 0)
		return -EINVAL;
	return pid == 0 ? cgroup_join_caller(cgroup_fd) : cgroup_procs_write(cgroup_fd, pid);
}

NSCTL_EXPORT int nsctl_time_enter_children(void)
{
	/* unshare(CLONE_NEWTIME) set the calling thread's time_for_children, not the process's. */
	_cleanup_close_ int fd = nsctl_ns_open_own(NSCTL_TYPE_TIME, true);

	if (fd < 0)
		return fd;
	/* After unshare(CLONE_NEWTIME) only children enter; the caller follows with setns(). */
	if (setns(fd, CLONE_NEWTIME) < 0)
		return negative_errno();
	return 0;
}
