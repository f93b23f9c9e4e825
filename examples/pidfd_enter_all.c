// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the namespaces article could not show (setns() took a pidfd only in
 * Linux 5.8): join every namespace of a process at once, through a pidfd, so
 * that a recycled PID cannot stand in for the process, then run a command.
 */
#include <errno.h>
#include <fcntl.h>
#include <nsctl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static _Noreturn void fail(const char *call, const char *input, int negative_errno)
{
	fprintf(stderr, "pidfd_enter_all: %s(%s): %s\n", call, input, strerror(-negative_errno));
	exit(EXIT_FAILURE);
}

/*
 * A PID: decimal digits only, not 0, no larger than a pid_t holds.  The
 * command line's syntax is the program's own; libnsctl takes a pid_t.
 */
static int parse_pid(const char *text, pid_t *ret_pid)
{
	long value = 0;

	if (!*text || *text == '0')
		return -EINVAL;
	for (const char *p = text; *p; p++) {
		if (*p < '0' || *p > '9')
			return -EINVAL;
		if (value > (0x7fffffffL - (*p - '0')) / 10)
			return -ERANGE;
		value = value * 10 + (*p - '0');
	}
	*ret_pid = (pid_t)value;
	return 0;
}

int main(int argc, char **argv)
{
	struct nsctl_signals_state saved;
	struct nsctl_join_report report = NSCTL_JOIN_REPORT_INIT;
	struct nsctl_process *process;
	struct nsctl_spawn_attr *attr = NULL;
	struct nsctl_spawn_report spawn_report = NSCTL_SPAWN_REPORT_INIT;
	int r, wstatus, pidfd = -1;
	unsigned types;
	char path[64];
	pid_t pid;

	if (argc < 3) {
		fprintf(stderr, "Usage: %s PID cmd [arg...]\n", argv[0]);
		return EXIT_FAILURE;
	}
	r = parse_pid(argv[1], &pid);
	if (r < 0) {
		fprintf(stderr, "pidfd_enter_all: '%s': not a PID (%s)\n", argv[1],
			r == -ERANGE ? "too large" : "decimal digits, not 0");
		return EXIT_FAILURE;
	}
	/* From here on the handle names this process, whatever its PID becomes. */
	r = nsctl_process_open(pid, &process);
	if (r < 0)
		fail("pidfd_open", argv[1], r);
	/* Asked first: an undumpable process may not read its own /proc/self/ns. */
	types = nsctl_type_supported();
	if (!types)
		fail("nsctl_type_supported", "/proc/self/ns and pidfd namespace ioctls", -ENOENT);
	/* No process of the namespaces joined may ptrace us until the exec (runc CVE-2016-9962). */
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		fail("prctl", "PR_SET_DUMPABLE", -errno);
	/*
	 * Every type where the process differs from us, in one setns(pidfd):
	 * all or none.  Where the kernel cannot, each namespace file is opened,
	 * the process checked to be the same, and they are joined in turn.
	 */
	r = nsctl_process_join(process, types, NSCTL_JOIN_DIFFERENT, &report);
	if (r < 0 && report.failed_type >= 0) {
		snprintf(path, sizeof(path), "/proc/%s/ns/%s", argv[1],
			 nsctl_type_get((enum nsctl_type)report.failed_type)->name);
		fail(report.failed_call, path, r);
	}
	if (r < 0)
		fail("setns", "pidfd", r);
	nsctl_process_free(process);

	/*
	 * A joined pid or time namespace takes only our children: the command runs
	 * as one, supervised (signals passed on, killed if we die), and we end as
	 * it ends.  It gets our signal mask back, and only fds 0-2.
	 */
	r = nsctl_signals_block(&saved);
	if (r < 0)
		fail("sigprocmask", "SIG_BLOCK", r);
	r = nsctl_spawn_attr_new(&attr);
	if (r >= 0)
		r = nsctl_spawn_attr_set_die_with_parent(attr, true);
	if (r >= 0)
		r = nsctl_spawn_attr_set_signals(attr, &saved);
	if (r < 0)
		fail("nsctl_spawn_attr", argv[2], r);
	pid = nsctl_spawn(attr, &argv[2], NULL, &pidfd, &spawn_report);
	nsctl_spawn_attr_free(attr);
	if (pid < 0)
		fail(spawn_report.step == NSCTL_SPAWN_STEP_EXEC ? "execvp" : "clone", argv[2], pid);
	r = nsctl_child_supervise(pid, pidfd, 0, &wstatus);
	if (r < 0)
		fail("waitid", argv[2], r);
	close(pidfd);
	if (WIFSIGNALED(wstatus)) {
		/* Die as it died: the shell that ran us sees the same signal. */
		signal(WTERMSIG(wstatus), SIG_DFL);
		nsctl_signals_restore(&saved);
		raise(WTERMSIG(wstatus));
	}
	return WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : EXIT_FAILURE;
}
