// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The floor under `nsctl enter`: pidfd_open(), one setns() for every type, execvp().
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
	 * A joined pid or time namespace only applies to children: fork once, as
	 * nsctl enter and util-linux nsenter do, so that PROGRAM is inside.
	 */
	if (!(flags & (CLONE_NEWPID | CLONE_NEWTIME)))
		bare_exec(argv + 3);
	pid_t child = fork();
	if (child < 0)
		bare_die("bare-enter", "fork", errno);
	if (child == 0)
		bare_exec(argv + 3);
	bare_wait_and_exit("bare-enter", child);
}
