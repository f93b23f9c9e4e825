// SPDX-License-Identifier: GPL-2.0-or-later
/* nsctl run: PROGRAM as a supervised child in new namespaces, ending as it ends. */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "create-options.h"
#include "util.h"

/* What the parent step and the child step of nsctl_spawn() work from. */
struct run_start {
	const struct create_options *o;
	const struct nsctl_signals_state *saved;
	struct cli_pins pins;
	/* --init: [1] the init's, which writes PROGRAM's wait status there; [0] ours. */
	int init_report[2];
};

/* What the parent must do between the child's start and its exec. */
static bool need_parent_step(const struct create_options *o)
{
	return create_options_need_user_maps(o) || o->has_monotonic || o->has_boottime ||
	       o->verbose || create_options_have_pins(o);
}

/* --init's PROGRAM, PID 2: the caller's signals back, then the exec. */
struct init_program {
	const struct create_options *o;
	const struct nsctl_signals_state *saved;
};

static int init_program(void *userdata)
{
	const struct init_program *p = userdata;

	nsctl_signals_restore(p->saved);
	create_exec(p->o);
}

/* PID 1 of the new PID namespace under --init: start PROGRAM as PID 2, reap, report. */
static _Noreturn void run_init(const struct create_options *o, int report,
			       const struct nsctl_signals_state *saved)
{
	int wstatus, r;
	pid_t program;

	/* PID 1 is nsctl too, and lives as long as PROGRAM: as undumpable as the parent. */
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		cli_fail(-errno, "--init: prctl(PR_SET_DUMPABLE)");
	program = cli_start(init_program, &(struct init_program){ o, saved }, NULL);
	if (program < 0)
		cli_fail(program, "--init: cannot start PROGRAM");
	r = nsctl_child_supervise(program, -1, NSCTL_SUPERVISE_REAP_ALL, &wstatus);
	if (r < 0)
		cli_fail(r, "--init: waiting for PROGRAM");
	/*
	 * PID 1 of a namespace cannot die of a signal it sent itself, so tell the
	 * parent how PROGRAM ended; the parent ends the same way.
	 */
	(void)!write(report, &wstatus, sizeof(wstatus));
	_exit(WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus));
}

/* The child step: what only glibc does (loopback, root, proc, credentials), --init, the exec. */
static int run_child(void *userdata)
{
	struct run_start *start = userdata;
	const struct create_options *o = start->o;

	close_fdp(&start->init_report[0]);
	/*
	 * Dumpable again, as any child (the exec of PROGRAM would make us so
	 * anyway): /proc/self of an undumpable process belongs to root.
	 */
	if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) < 0)
		cli_fail(-errno, "prctl(PR_SET_DUMPABLE)");
	create_setup_inside(o);
	if (o->init)
		run_init(o, start->init_report[1], start->saved);
	nsctl_signals_restore(start->saved);
	create_exec(o);
}

/* The parent step: what only a process outside can do, before the child goes on. */
static int prepare_child(pid_t pid, int pidfd, void *userdata)
{
	struct run_start *start = userdata;
	const struct create_options *o = start->o;
	int r;

	if (create_options_need_user_maps(o)) {
		r = nsctl_user_maps_write(pid, o->uids, o->gids, o->setgroups);
		if (r < 0) {
			cli_warn(r, "cannot write the user namespace maps of PID %d%s", (int)pid,
				 r == -ENOENT ? " (newuidmap/newgidmap, of the uidmap package)"
					      : "");
			return r;
		}
	}
	if (o->has_monotonic || o->has_boottime) {
		r = nsctl_time_offsets_write(pid, o->monotonic, o->boottime);
		if (r < 0) {
			cli_warn(r, "cannot write the clock offsets of PID %d", (int)pid);
			return r;
		}
	}
	if (create_options_have_pins(o)) {
		r = create_pins(o, pid, &start->pins);
		if (r < 0) {
			cli_warn(0, "nothing pinned, PROGRAM not started");
			return r;
		}
	}
	if (o->verbose) {
		fprintf(stderr, "nsctl: run: PID of child created by clone() is %d\n", (int)pid);
		create_print_namespaces(o, pid);
	}
	return 0;
}

/* Something failed after the child's start: it must not run PROGRAM. */
static _Noreturn void abandon(pid_t pid, int pidfd, int err, const char *what)
{
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	close_fdp(&pidfd);
	cli_fail(err, "%s", what);
}

/*
 * One start, nsctl_spawn(), which picks the cheapest way.  When the library's
 * own steps are all the child needs (no loopback, root, proc, working
 * directory, credentials, --init: those call into glibc, in the child step),
 * and nothing is done by the parent in between, the child shares the
 * parent's memory until it execs, on a stack of its own (CLONE_VM |
 * CLONE_VFORK, as posix_spawn does): a forked child re-faults every page it
 * touches before its exec, about 8% of a 'nsctl run true'.
 */
/*
 * Is "/" the root of a mount?  Not in a chroot: there the propagation of the
 * new mount namespace is changed through the whole namespace
 * (nsctl_mnt_propagation_set), which the forked start does.  False where the
 * kernel cannot tell (before 5.8): the forked start then too.
 */
static bool root_is_mount_root(void)
{
	struct statx stx;

	if (statx(AT_FDCWD, "/", AT_NO_AUTOMOUNT, 0, &stx) < 0)
		return false;
	return (stx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) &&
	       (stx.stx_attributes & STATX_ATTR_MOUNT_ROOT);
}

static bool spawn_can_start(const struct create_options *o)
{
	/*
	 * --kill-child=SIGNAL is set in the child step; SIGKILL is the spawn's
	 * own.  --keep-caps raises ambient capabilities there too.
	 */
	return !o->loopback && !o->root && !o->wd && !o->proc_dir && !o->has_uid && !o->has_gid &&
	       !o->keep_caps && (!o->kill_signal || o->kill_signal == SIGKILL) &&
	       (o->propagation == NSCTL_PROPAGATION_UNCHANGED || root_is_mount_root());
}

/* The child's PID (its pidfd in *PIDFD); on failure, say which step failed and exit. */
static pid_t start(struct run_start *run, bool child_step, int *pidfd)
{
	const struct create_options *o = run->o;
	struct nsctl_spawn_attr_room storage;
	struct nsctl_spawn_attr *attr = cli_spawn_attr_init(&storage);
	struct nsctl_spawn_report report = NSCTL_SPAWN_REPORT_INIT;
	pid_t pid;
	int r;

	r = nsctl_spawn_attr_set_types(attr, o->types);
	if (r >= 0)
		r = nsctl_spawn_attr_set_cgroup(attr, o->cgroup_fd);
	if (r >= 0 && need_parent_step(o))
		r = nsctl_spawn_attr_set_parent_step(attr, prepare_child, run);
	/* The child step does the rest itself (create_setup_inside, create_exec). */
	if (r >= 0 && child_step)
		r = nsctl_spawn_attr_set_child_step(attr, run_child, run);
	if (r >= 0 && !child_step)
		r = nsctl_spawn_attr_set_signals(attr, run->saved);
	if (r >= 0 && !child_step)
		r = nsctl_spawn_attr_set_new_session(attr, o->new_session);
	if (r >= 0 && !child_step)
		r = nsctl_spawn_attr_set_propagation(attr, o->propagation);
	if (r >= 0 && !child_step)
		r = nsctl_spawn_attr_set_uts_names(attr, o->hostname, o->domainname);
	if (r >= 0 && !child_step)
		r = o->keep.all ? nsctl_spawn_attr_set_keep_all_fds(attr, true)
				: nsctl_spawn_attr_set_keep_fds(attr, o->keep.fds, o->keep.n);
	if (r >= 0 && o->file)
		r = nsctl_spawn_attr_set_exec_path(attr, o->file);
	if (r < 0) {
		nsctl_spawn_attr_clear(attr);
		cli_fail(r, "cannot start PROGRAM");
	}
	if (o->types & NSCTL_TYPE_BIT(NSCTL_TYPE_PID))
		LEAK_CHECK_NOW();
	pid = nsctl_spawn(attr, o->argv, NULL, pidfd, &report);
	nsctl_spawn_attr_clear(attr);
	if (pid >= 0)
		return pid;
	/* Pins made by the parent step, for a PROGRAM that is not reached after all. */
	cli_pins_take_back(&run->pins);
	switch (report.step) {
	case NSCTL_SPAWN_STEP_CLONE:
		/* No child: /proc/self/ns readable again, for create_fail()'s look at the types. */
		prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
		create_fail(o, report.err, "clone()");
	case NSCTL_SPAWN_STEP_PARENT:
		/* prepare_child() said why; the child is gone, and so are the pins. */
		exit(EXIT_EXEC_FAILED);
	case NSCTL_SPAWN_STEP_TIME:
		create_fail(o, report.err, "unshare(CLONE_NEWTIME)");
	case NSCTL_SPAWN_STEP_TIME_ENTER:
		cli_fail(report.err, "cannot enter the new time namespace");
	case NSCTL_SPAWN_STEP_CGROUP:
		cli_fail(report.err, "--into-cgroup '%s': cannot move the child there",
			 o->cgroup_dir);
	case NSCTL_SPAWN_STEP_HOSTNAME:
		cli_fail(report.err, "--hostname '%s': cannot set it", o->hostname);
	case NSCTL_SPAWN_STEP_DOMAINNAME:
		cli_fail(report.err, "--domainname '%s': cannot set it", o->domainname);
	case NSCTL_SPAWN_STEP_PROPAGATION:
		cli_fail(report.err, "--propagation: cannot change the propagation of /");
	default:
		cli_spawn_fail(&report, o->file ? o->file : o->argv[0]);
	}
}

/*
 * Before the start: the pipe that tells the pins' fate (FAILED), --init's
 * report, the signals blocked (into SAVED), and nsctl undumpable.
 */
static void run_prepare(struct run_start *run, struct nsctl_signals_state *saved, int failed[2])
{
	const struct create_options *o = run->o;
	int r;

	/*
	 * The pins are made once the child exists, and PROGRAM may still fail to
	 * start after that (--root, --wd, --mount-proc, PROGRAM not found): the
	 * child's error exit writes a byte here (cli_failure_fd), and the pins
	 * are taken back.  An exec closes the pipe and writes nothing.
	 */
	if (create_options_have_pins(o)) {
		if (pipe2(failed, O_CLOEXEC | O_NONBLOCK) < 0)
			cli_fail(-errno, "pipe2");
		cli_failure_fd = failed[1];
	}
	if (o->init && socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, run->init_report) < 0)
		cli_fail(-errno, "socketpair");
	/* Blocked before the child exists, so no signal for it is lost in between. */
	r = nsctl_signals_block(saved);
	if (r < 0)
		cli_fail(r, "cannot block signals");
	/*
	 * CVE-2019-5736: PROGRAM must not reach the nsctl binary through
	 * /proc/PID/exe of a process running it, and keep it (an O_PATH fd) until
	 * no process runs it and a write open no longer fails with ETXTBSY.  Which
	 * defence holds: opening /proc/PID/exe is a ptrace access check.  Against
	 * this parent, a PROGRAM in a new user namespace already fails it (the
	 * capabilities check of a foreign user namespace); against the --init,
	 * in PROGRAM's own user namespace with the same IDs, only being
	 * undumpable does, and we are undumpable too for the same reason.  A
	 * PROGRAM that is root out here could write the binary by its path anyway.
	 * Set before the child exists, so that no PROGRAM ever sees us dumpable;
	 * the child undoes it for itself until --init (run_child, run_init).
	 */
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		cli_fail(-errno, "prctl(PR_SET_DUMPABLE)");
}

/*
 * After the start, as FAILED[0] tells: at end of file the child execed
 * PROGRAM, and the pins are final (their directories are let go); a byte,
 * it failed before, and they are taken back.  Not told yet: open still.
 */
static void pins_settle(struct run_start *run, int failed[2])
{
	char msg;
	ssize_t n;

	cli_failure_fd = -1;
	close_fdp(&failed[1]);
	if (failed[0] < 0)
		return;
	n = read(failed[0], &msg, 1);
	if (n == 0)
		cli_pins_keep(&run->pins);
	else if (n == 1)
		cli_pins_take_back(&run->pins);
	if (n >= 0)
		close_fdp(&failed[0]);
}

int cmd_run(int argc, char **argv)
{
	struct create_options o;
	struct nsctl_signals_state saved;
	/*
	 * Static: its pins (12 KB, a slot a type) would be pages of stack for the
	 * kernel to fault in on every run, for the few that pin.  cmd_run() runs
	 * once a process.
	 */
	static struct run_start run;
	int pidfd = -1, wstatus, r, failed[2] = { -1, -1 }, status;
	pid_t pid;
	char msg;

	create_options_parse(argc, argv, CREATE_RUN, &o);
	if (cli_parse_only) {
		close_fdp(&o.cgroup_fd); /* --into-cgroup opened it, read-only, to check it */
		return 0;
	}
	run.init_report[0] = run.init_report[1] = -1;
	run.o = &o;
	run.saved = &saved;
	cli_pins_init(&run.pins);
	run_prepare(&run, &saved, failed);
	pid = start(&run, o.init || !spawn_can_start(&o), &pidfd);
	pins_settle(&run, failed);
	close_fdp(&run.init_report[1]);
	close_fdp(&o.cgroup_fd);
	r = nsctl_child_supervise(pid, pidfd, 0, &wstatus);
	if (r < 0) {
		cli_pins_take_back(&run.pins);
		abandon(pid, pidfd, r, "waiting for the child");
	}
	if (failed[0] >= 0 && read(failed[0], &msg, 1) == 1)
		cli_pins_take_back(&run.pins);
	close_fdp(&failed[0]);
	/* The init's report of PROGRAM, if it got that far: a death by signal included. */
	if (o.init && recv(run.init_report[0], &status, sizeof(status), MSG_DONTWAIT) ==
			  (ssize_t)sizeof(status))
		wstatus = status;
	close_fdp(&pidfd);
	close_fdp(&run.init_report[0]);
	cli_exit_like(wstatus);
}
