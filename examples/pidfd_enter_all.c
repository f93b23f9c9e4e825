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
	struct nsctl_signal_state saved;
	struct nsctl_join_report report;
	struct nsctl_process *process;
	int lifeline[2], r, wstatus;
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
	types = nsctl_types_supported();
	if (!types)
		fail("nsctl_types_supported", "/proc/self/ns and pidfd namespace ioctls", -ENOENT);
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
	 * it ends.
	 */
	if (pipe2(lifeline, O_CLOEXEC) < 0)
		fail("pipe2", "lifeline", -errno);
	r = nsctl_signals_block(&saved);
	if (r < 0)
		fail("sigprocmask", "SIG_BLOCK", r);
	pid = nsctl_clone(0, -1, NULL);
	if (pid < 0)
		fail("clone", argv[2], pid);
	if (pid == 0) {
		close(lifeline[1]);
		r = nsctl_child_die_with_parent(lifeline[0]);
		if (r < 0)
			fail("prctl", "PR_SET_PDEATHSIG", r);
		r = nsctl_signals_restore(&saved);
		if (r < 0)
			fail("sigprocmask", "SIG_SETMASK", r);
		execvp(argv[2], &argv[2]);
		fail("execvp", argv[2], -errno);
	}
	close(lifeline[0]);
	r = nsctl_supervise(pid, -1, &wstatus);
	if (r < 0)
		fail("waitid", argv[2], r);
	if (WIFSIGNALED(wstatus)) {
		/* Die as it died: the shell that ran us sees the same signal. */
		signal(WTERMSIG(wstatus), SIG_DFL);
		nsctl_signals_restore(&saved);
		raise(WTERMSIG(wstatus));
	}
	return WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : EXIT_FAILURE;
}
