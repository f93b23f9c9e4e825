// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * farm N: start N sleeping processes, a quarter of them in their own uts and
 * ipc namespaces, for the listing benchmarks.  Prints nothing.  On SIGTERM,
 * SIGINT or SIGHUP it kills every one of them by PID and reaps them; if farm
 * itself dies, the kernel kills them (PR_SET_PDEATHSIG).
 *
 * Ready when /proc/FARM/task/FARM/children lists N PIDs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	sigset_t stop;
	pid_t *pids;
	long n;
	int sig;

	if (argc != 2 || (n = strtol(argv[1], NULL, 10)) <= 0)
		return 2;
	pids = calloc((size_t)n, sizeof(*pids));
	if (!pids)
		return 1;
	/* Blocked before the first fork, so no stop request can be lost. */
	sigemptyset(&stop);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGHUP);
	sigprocmask(SIG_BLOCK, &stop, NULL);
	for (long i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() == 1)
				_exit(0);
			if (i % 4 == 0 && unshare(CLONE_NEWUTS | CLONE_NEWIPC) < 0)
				_exit(1);
			for (;;)
				pause();
		}
		if (pid < 0) {
			n = i;
			break;
		}
		pids[i] = pid;
	}
	sigwait(&stop, &sig);
	for (long i = 0; i < n; i++)
		kill(pids[i], SIGKILL);
	for (long i = 0; i < n; i++)
		while (waitpid(pids[i], NULL, 0) < 0 && errno == EINTR)
			;
	free(pids);
	return 0;
}
