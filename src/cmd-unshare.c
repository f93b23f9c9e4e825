// SPDX-License-Identifier: GPL-2.0-or-later
/* nsctl unshare: move into new namespaces with unshare(), then become PROGRAM. */
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "create-options.h"
#include "util.h"

/*
 * Pins the caller makes itself, after unshare(): still in its mount namespace
 * and with its privilege, which a new mount or user namespace would take.
 */
static bool pins_in_process(const struct create_options *o)
{
	unsigned away = NSCTL_TYPE_BIT(NSCTL_TYPE_MNT) | NSCTL_TYPE_BIT(NSCTL_TYPE_USER);

	return create_options_have_pins(o) && !(o->types & away);
}

/* What only a process left outside the new user or mount namespace can do for the caller. */
static bool need_helper(const struct create_options *o)
{
	return create_options_need_user_maps(o) ||
	       (create_options_have_pins(o) && !pins_in_process(o));
}

/*
 * Outside the caller's new namespaces, the pins' keeper waits until the caller
 * has become PROGRAM (its end of SOCK closes on exec: EOF) or failed before
 * that (nsctl's error exit writes a byte: cli_failure_fd); then it takes the
 * pins back, which only a process in the old mount namespace can, and answers.
 */
struct keeper {
	int sock;
	struct cli_pins *pins;
};

static int keep_pins(void *userdata)
{
	int sock = ((struct keeper *)userdata)->sock;
	struct cli_pins *pins = ((struct keeper *)userdata)->pins;
	char msg;
	ssize_t n;

	do
		n = read(sock, &msg, 1);
	while (n < 0 && errno == EINTR);
	if (n == 1) {
		cli_pins_take_back(pins);
		(void)!write(sock, &msg, 1);
	}
	_exit(EXIT_SUCCESS);
}

/*
 * A short-lived helper, started before unshare(): once the caller is in its
 * new user namespace, it can no longer write its own maps beyond its single
 * ID (the kernel wants CAP_SETUID in the parent namespace), but its child,
 * still outside, can.  The helper ends before PROGRAM starts; with pins, it
 * leaves a keeper of them behind (its own child, so that PROGRAM never gets
 * a child it did not start), which ends when PROGRAM starts.
 */
struct helper_request {
	const struct create_options *o;
	pid_t caller;
	int sock;        /* the helper's end of the socket pair */
	int caller_sock; /* the caller's: closed in the helper, or its EOF would never come */
};

/* nsctl_spawn()'s child step: the helper runs in a copy of the caller, dying with it. */
static int helper(void *userdata)
{
	const struct helper_request *request = userdata;
	const struct create_options *o = request->o;
	pid_t caller = request->caller;
	int sock = request->sock;
	struct cli_pins pins;
	pid_t keeper;
	char msg;
	int r;

	close(request->caller_sock);
	/* EOF: the caller failed before unshare() and said why. */
	if (read(sock, &msg, 1) != 1)
		_exit(EXIT_EXEC_FAILED);
	if (create_options_need_user_maps(o)) {
		r = nsctl_user_maps_write(caller, o->uids, o->gids, o->setgroups);
		if (r < 0)
			cli_fail(r, "cannot write the user namespace maps of PID %d%s", (int)caller,
				 r == -ENOENT ? " (newuidmap/newgidmap, of the uidmap package)"
					      : "");
	}
	/* Still in the old mount namespace, with its privilege: where the pins must be made. */
	if (!create_options_have_pins(o))
		_exit(EXIT_SUCCESS);
	if (create_pins(o, caller, &pins) < 0)
		_exit(EXIT_EXEC_FAILED);
	keeper = cli_start(keep_pins, &(struct keeper){ sock, &pins }, NULL);
	if (keeper < 0) {
		cli_pins_take_back(&pins);
		cli_fail(keeper, "cannot start the keeper of the pins");
	}
	return EXIT_SUCCESS;
}

/* The helper, started outside the new namespaces, dying with nsctl: its PID. */
static pid_t helper_start(const struct create_options *o, pid_t caller, const int sock[2])
{
	struct helper_request request = {
		.o = o, .caller = caller, .sock = sock[1], .caller_sock = sock[0]
	};
	struct nsctl_spawn_attr_room storage;
	struct nsctl_spawn_attr *attr = cli_spawn_attr_init(&storage);
	struct nsctl_spawn_report report = NSCTL_SPAWN_REPORT_INIT;
	pid_t pid;
	int r;

	r = nsctl_spawn_attr_set_child_step(attr, helper, &request);
	if (r < 0) {
		nsctl_spawn_attr_clear(attr);
		cli_fail(r, "cannot start the helper process");
	}
	pid = nsctl_spawn(attr, NULL, NULL, NULL, &report);
	nsctl_spawn_attr_clear(attr);
	if (pid < 0)
		cli_fail(pid, "cannot start the helper process");
	return pid;
}

/* Let the helper do its part, and wait for it; its failure is ours. */
static void helper_finish(pid_t pid, int sock)
{
	char msg = 'u';
	int wstatus;

	if (write(sock, &msg, 1) != 1)
		cli_fail(-errno, "cannot reach the helper process");
	while (waitpid(pid, &wstatus, 0) < 0) {
		if (errno != EINTR)
			cli_fail(-errno, "waiting for the helper process");
	}
	if (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0)
		/* The helper said why, unless a signal killed it. */
		exit(EXIT_EXEC_FAILED);
}

int cmd_unshare(int argc, char **argv)
{
	struct create_options o;
	struct sigaction saved_sigchld;
	static struct cli_pins pins; /* as run's: 12 KB of stack otherwise, for the few that pin */
	pid_t helper_pid = -1;
	int sock[2] = { -1, -1 };
	int r;

	create_options_parse(argc, argv, CREATE_UNSHARE, &o);
	/* -f/--fork (or --kill-child), as util-linux's unshare: a supervised child is run's. */
	if (o.mode == CREATE_RUN) {
		close_fdp(&o.cgroup_fd);
		optind = 0; /* glibc: the next getopt_long() starts afresh */
		return cmd_run(argc, argv);
	}
	if (cli_parse_only)
		return 0;
	if (need_helper(&o)) {
		struct sigaction dfl = { .sa_handler = SIG_DFL };
		pid_t caller = getpid();

		/*
		 * A caller that ignored SIGCHLD (inherited across exec) would have
		 * the helper reaped away from waitpid(); PROGRAM gets it back.
		 */
		sigemptyset(&dfl.sa_mask);
		if (sigaction(SIGCHLD, &dfl, &saved_sigchld) < 0)
			cli_fail(-errno, "sigaction(SIGCHLD)");

		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sock) < 0)
			cli_fail(-errno, "socketpair");
		helper_pid = helper_start(&o, caller, sock);
		close(sock[1]);
	}
	if (unshare((int)nsctl_type_to_clone_flags(o.types)) < 0)
		create_fail(&o, -errno, "unshare()");
	if (helper_pid > 0) {
		helper_finish(helper_pid, sock[0]);
		/* From here, a failure before PROGRAM tells the pins' keeper. */
		if (create_options_have_pins(&o))
			cli_failure_fd = sock[0];
		else
			close(sock[0]);
		if (sigaction(SIGCHLD, &saved_sigchld, NULL) < 0)
			cli_fail(-errno, "sigaction(SIGCHLD)");
	}
	if (pins_in_process(&o)) {
		if (create_pins(&o, getpid(), &pins) < 0)
			exit(EXIT_EXEC_FAILED);
		/* From here, a failure before PROGRAM takes them back (cli_failure_pins). */
		cli_failure_pins = &pins;
	}
	/* Offsets of the time namespace PROGRAM's children will be in, before any is. */
	if (o.has_monotonic || o.has_boottime) {
		r = nsctl_time_offsets_write(0, o.monotonic, o.boottime);
		if (r < 0)
			cli_fail(r, "cannot write the clock offsets");
	}
	if (o.verbose)
		create_print_namespaces(&o, 0);
	create_setup_inside(&o);
	create_exec(&o);
}
