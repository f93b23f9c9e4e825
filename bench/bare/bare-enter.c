// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The floor under `nsctl enter`: pidfd_open(), one setns() for every type, execvp()
 * (in a vfork() child where a pid or time namespace is joined).
 * TYPES "differing" is the floor under `nsctl enter PID` with no type named:
 * every type whose namespace differs from ours, told for each type by the
 * target's namespace through the pidfd (PIDFD_GET_*_NAMESPACE, Linux 6.11)
 * and our own's number read from /proc/thread-self/ns/TYPE (a readlink, no
 * file made), then one setns() of those.
 * Usage: bare-enter TYPES PID PROGRAM [ARG...]
 */
#include <fcntl.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "bare.h"

#ifndef __NR_pidfd_open
#define __NR_pidfd_open 434
#endif

/*
 * The kernel's number of its pidfd ioctl for the namespace of FLAG's type
 * (linux/pidfd.h, Linux 6.11: PIDFD_GET_CGROUP_NAMESPACE is _IO(0xFF, 1)):
 * kernel constants for kernel constants, the types themselves from libnsctl's
 * table.
 */
static unsigned pidfd_ioctl_nr(unsigned long flag)
{
	static const struct {
		unsigned long flag;
		unsigned nr;
	} nrs[] = { { CLONE_NEWCGROUP, 1 }, { CLONE_NEWIPC, 2 }, { CLONE_NEWNS, 3 },
		    { CLONE_NEWNET, 4 },    { CLONE_NEWPID, 5 }, { CLONE_NEWTIME, 7 },
		    { CLONE_NEWUSER, 9 },   { CLONE_NEWUTS, 10 } };

	for (size_t i = 0; i < sizeof(nrs) / sizeof(nrs[0]); i++)
		if (nrs[i].flag == flag)
			return nrs[i].nr;
	bare_die("bare-enter", "no pidfd ioctl for a type", EINVAL);
}

/* The CLONE_NEW* flags of the types where PIDFD's process is not in our namespace. */
static unsigned long differing(int pidfd)
{
	const struct nsctl_type_info *type;
	unsigned long flags = 0;
	int own = open("/proc/thread-self/ns", O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (own < 0)
		bare_die("bare-enter", "/proc/thread-self/ns", errno);
	for (enum nsctl_type t = 0; (type = nsctl_type_get(t)); t++) {
		char link[64];
		struct stat st;
		ssize_t n;
		int fd = ioctl(pidfd, _IO(0xFF, pidfd_ioctl_nr(type->clone_flag)), 0);

		if (fd < 0 || fstat(fd, &st) < 0)
			bare_die("bare-enter", type->name, errno);
		close(fd);
		n = readlinkat(own, type->name, link, sizeof(link) - 1);
		if (n < 0)
			bare_die("bare-enter", type->name, errno);
		link[n] = '\0';
		/* "net:[4026531840]" */
		if (strtoull(strchr(link, '[') + 1, NULL, 10) != (unsigned long long)st.st_ino)
			flags |= type->clone_flag;
	}
	close(own);
	return flags;
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: bare-enter TYPES PID PROGRAM [ARG...]\n");
		return BARE_FAILED;
	}
	bool ask = strcmp(argv[1], "differing") == 0;
	unsigned long flags = ask ? 0 : bare_clone_flags("bare-enter", argv[1]);
	char *end;
	errno = 0;
	long pid = strtol(argv[2], &end, 10);
	if (errno != 0 || *end != '\0' || pid <= 0)
		bare_die("bare-enter", argv[2], EINVAL);

	int pidfd = (int)syscall(__NR_pidfd_open, (pid_t)pid, 0);
	if (pidfd < 0)
		bare_die("bare-enter", "pidfd_open", errno);
	if (ask)
		flags = differing(pidfd);
	if (flags && setns(pidfd, (int)flags) < 0)
		bare_die("bare-enter", "setns", errno);
	close(pidfd);

	/*
	 * A joined pid or time namespace only applies to children: one child, as
	 * nsctl enter and util-linux nsenter make, so that PROGRAM is inside.  The
	 * cheapest one: vfork() (no copy of the page tables), as nsctl enter's
	 * start shares its memory; fork() where the kernel refuses it after a
	 * joined time namespace (EINVAL before Linux 6.0), as nsctl enter copies.
	 */
	if (!(flags & (CLONE_NEWPID | CLONE_NEWTIME)))
		bare_exec(argv + 3);
	pid_t child = vfork();
	if (child < 0 && errno == EINVAL && (flags & CLONE_NEWTIME))
		child = fork();
	if (child < 0)
		bare_die("bare-enter", "vfork", errno);
	if (child == 0) {
		/* Nothing but the exec and _exit() in the child: it may share our memory. */
		execvp(argv[3], argv + 3);
		_exit(errno == ENOENT ? 127 : 126);
	}
	bare_wait_and_exit("bare-enter", child);
}
