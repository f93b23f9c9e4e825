// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The floor under `nsctl enter`: pidfd_open(), one setns() for every type, execvp()
 * (in a vfork() child where a pid or time namespace is joined).
 * Usage: bare-enter TYPES PID PROGRAM [ARG...]
 */
#include <sched.h>
#include <sys/syscall.h>

#include "bare.h"

#ifndef __NR_pidfd_open
#define __NR_pidfd_open 434
#endif

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: bare-enter TYPES PID PROGRAM [ARG...]\n");
		return BARE_FAILED;
	}
	unsigned long flags = bare_clone_flags("bare-enter", argv[1]);
	char *end;
	errno = 0;
	long pid = strtol(argv[2], &end, 10);
	if (errno != 0 || *end != '\0' || pid <= 0)
		bare_die("bare-enter", argv[2], EINVAL);

	int pidfd = (int)syscall(__NR_pidfd_open, (pid_t)pid, 0);
	if (pidfd < 0)
		bare_die("bare-enter", "pidfd_open", errno);
	if (setns(pidfd, (int)flags) < 0)
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
