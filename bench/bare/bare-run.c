// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The floor under `nsctl run`: new namespaces for a child, and nothing else.
 * Usage: bare-run TYPES PROGRAM [ARG...]   (TYPES: "uts", "uts,ipc", "all")
 */
#include <sched.h>

#include "bare.h"

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: bare-run TYPES PROGRAM [ARG...]\n");
		return BARE_FAILED;
	}
	unsigned long flags = bare_clone_flags("bare-run", argv[1]);

	/*
	 * unshare() before fork(), not in the child: the same two system calls,
	 * but pid and time namespaces only apply to children, so this order puts
	 * PROGRAM inside them, as nsctl run and util-linux unshare --fork do.
	 */
	if (unshare((int)flags) < 0)
		bare_die("bare-run", "unshare", errno);
	pid_t pid = fork();
	if (pid < 0)
		bare_die("bare-run", "fork", errno);
	if (pid == 0)
		bare_exec(argv + 2);
	bare_wait_and_exit("bare-run", pid);
}
