// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The cheapest supervised start, the floor under `nsctl run` since its child
 * shares nsctl's memory until the exec: new namespaces, vfork, exec, wait.
 * Usage: bare-run-vfork TYPES PROGRAM [ARG...]   (TYPES: "uts", "uts,ipc", "all")
 */
#include <sched.h>

#include "bare.h"

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: bare-run-vfork TYPES PROGRAM [ARG...]\n");
		return BARE_FAILED;
	}
	unsigned long flags = bare_clone_flags("bare-run-vfork", argv[1]);

	/* As bare-run: unshare() first, so that pid and time namespaces hold PROGRAM. */
	if (unshare((int)flags) < 0)
		bare_die("bare-run-vfork", "unshare", errno);
	/*
	 * vfork(): no copy of the page tables, the parent waits until the exec.
	 * A kernel before Linux 6.0 refuses it after unshare(CLONE_NEWTIME)
	 * (EINVAL to CLONE_VM): then fork(), as nsctl run also starts a copy
	 * there.  A newer one takes it, and nsctl run's start too.
	 */
	pid_t pid = vfork();
	if (pid < 0 && errno == EINVAL && (flags & CLONE_NEWTIME))
		pid = fork();
	if (pid < 0)
		bare_die("bare-run-vfork", "vfork", errno);
	if (pid == 0) {
		/* Nothing but the exec and _exit() in the child: it shares our memory. */
		execvp(argv[2], argv + 2);
		_exit(errno == ENOENT ? 127 : 126);
	}
	bare_wait_and_exit("bare-run-vfork", pid);
}
