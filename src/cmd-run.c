// SPDX-License-Identifier: GPL-2.0-or-later
/* nsctl run: PROGRAM as a supervised child in new namespaces, ending as it ends. */
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "create-options.h"
#include "util.h"

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif

/*
 * One socket pair ties parent and child: the child says "ready" once it is in
 * all its namespaces, the parent says "go" once it has written what only it
 * can (id maps, clock offsets, pins).  The parent's end is also the child's
 * lifeline, and the way --init reports PROGRAM's wait status.
 */
#define MSG_READY 'r'
#define MSG_GO    'g'

/* What the parent must do between the child's start and its exec. */
static bool need_sync(const struct create_options *o)
{
	return create_options_need_user_maps(o) || o->has_monotonic || o->has_boottime ||
	       o->cgroup_fd >= 0 || o->verbose || create_options_have_pins(o);
}

/* Write all of BUF, or fail. */
static int send_all(int fd, const void *buf, size_t size)
{
	ssize_t n;

	do
		n = write(fd, buf, size);
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)size ? 0 : -1;
}

/* PID 1 of the new PID namespace under --init: start PROGRAM as PID 2, reap, report. */
static _Noreturn void run_init(const struct create_options *o, int sock,
			       const struct nsctl_signal_state *saved)
{
	int wstatus, r;
	pid_t program;

	/* PID 1 is nsctl too, and lives as long as PROGRAM: as undumpable as the parent. */
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		cli_fail(-errno, "--init: prctl(PR_SET_DUMPABLE)");
	program = fork();
	if (program < 0)
		cli_fail(-errno, "--init: cannot start PROGRAM");
	if (program == 0) {
		nsctl_signals_restore(saved);
		create_exec(o);
	}
	r = nsctl_reap_as_init(program, &wstatus);
	if (r < 0)
		cli_fail(r, "--init: waiting for PROGRAM");
	/*
	 * PID 1 of a namespace cannot die of a signal it sent itself, so tell the
	 * parent how PROGRAM ended; the parent ends the same way.
	 */
	send_all(sock, &wstatus, sizeof(wstatus));
	_exit(WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus));
}

static _Noreturn void run_child(const struct create_options *o, int sock, bool sync,
				const struct nsctl_signal_state *saved)
{
	int r;
	char msg;

	/*
	 * Dumpable again, as any child: the parent (of the caller's uid) must be
	 * able to open our /proc/PID/uid_map, which an undumpable process's root
	 * owns.  The exec of PROGRAM would make us dumpable anyway.
	 */
	if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) < 0)
		cli_fail(-errno, "prctl(PR_SET_DUMPABLE)");
	r = nsctl_child_die_with_parent(sock);
	if (r < 0)
		cli_fail(r, "cannot arrange to die with nsctl");
	/* A time namespace takes offsets only while empty: the child enters it once they are
	 * written. */
	if ((o->types & NSCTL_TYPE_BIT(NSCTL_TYPE_TIME)) && unshare(CLONE_NEWTIME) < 0)
		create_fail(o, -errno, "unshare(CLONE_NEWTIME)");
	if (sync) {
		msg = MSG_READY;
		if (send_all(sock, &msg, 1) < 0)
			_exit(EXIT_EXEC_FAILED);
		/* EOF: the parent failed, and said why. */
		if (read(sock, &msg, 1) != 1 || msg != MSG_GO)
			_exit(EXIT_EXEC_FAILED);
	}
	if (o->types & NSCTL_TYPE_BIT(NSCTL_TYPE_TIME)) {
		r = nsctl_time_enter_children();
		if (r < 0)
			cli_fail(r, "cannot enter the new time namespace");
	}
	create_setup_inside(o);
	if (o->init)
		run_init(o, sock, saved);
	nsctl_signals_restore(saved);
	create_exec(o);
}

/* Something failed between the child's start and its exec: it must not run PROGRAM. */
static _Noreturn void abandon(pid_t pid, int pidfd, int err, const char *what)
{
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	close_fdp(&pidfd);
	cli_fail(err, "%s", what);
}

/* The parent's part between the child's "ready" and "go". */
static void prepare_child(const struct create_options *o, pid_t pid, int pidfd,
			  struct cli_pins *pins)
{
	char what[160];
	int r;

	if (create_options_need_user_maps(o)) {
		r = nsctl_user_maps_write(pid, o->uids, o->gids, o->setgroups);
		if (r < 0) {
			snprintf(what, sizeof(what),
				 "cannot write the user namespace maps of PID %d%s", (int)pid,
				 r == -ENOENT ? " (newuidmap/newgidmap, of the uidmap package)"
					      : "");
			abandon(pid, pidfd, r, what);
		}
	}
	if (o->has_monotonic || o->has_boottime) {
		r = nsctl_time_offsets_write(pid, o->monotonic, o->boottime);
		if (r < 0) {
			snprintf(what, sizeof(what), "cannot write the clock offsets of PID %d",
				 (int)pid);
			abandon(pid, pidfd, r, what);
		}
	}
	if (create_options_have_pins(o)) {
		r = create_pins(o, pid, pins);
		if (r < 0)
			abandon(pid, pidfd, 0, "nothing pinned, PROGRAM not started");
	}
	if (o->verbose) {
		fprintf(stderr, "nsctl: run: PID of child created by clone() is %d\n", (int)pid);
		create_print_namespaces(o, pid);
	}
}

/*
 * The fast start, nsctl_spawn(): when the parent has nothing to do between
 * the child's start and its exec (no handshake, no --init, no time
 * namespace: its offsets must be written before anyone enters it), and the
 * child's steps are all ones the library makes with system calls alone,
 * the child shares the parent's memory until it execs, on a stack of its
 * own (CLONE_VM | CLONE_VFORK, as posix_spawn does).  A forked child
 * re-faults every page it touches before its exec: about 8% of a
 * 'nsctl run true'.  The other steps (loopback, root, proc, working
 * directory, credentials) call into glibc, and take the forked start.
 */
/*
 * Is "/" the root of a mount?  Not in a chroot: there the propagation of the
 * new mount namespace is changed through the whole namespace
 * (nsctl_propagation_set), which the forked start does.  False where the
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
	/* --kill-child=SIGNAL is set in the forked child; SIGKILL is the spawn's own. */
	return !o->loopback && !o->root && !o->wd && !o->proc_dir && !o->has_uid && !o->has_gid &&
	       (!o->kill_signal || o->kill_signal == SIGKILL) &&
	       (o->propagation == NSCTL_PROPAGATION_UNCHANGED || root_is_mount_root());
}

/* The child's PID (its pidfd in *PIDFD); on failure, say which step failed and exit. */
static pid_t start_spawn(const struct create_options *o, const struct nsctl_signal_state *saved,
			 int *pidfd)
{
	struct nsctl_spawn_attr *attr = NULL;
	struct nsctl_spawn_report report;
	pid_t pid;
	int r;

	r = nsctl_spawn_attr_new(&attr);
	if (r >= 0)
		r = nsctl_spawn_attr_set_types(attr, o->types);
	if (r >= 0)
		r = nsctl_spawn_attr_set_die_with_parent(attr, true);
	if (r >= 0)
		r = nsctl_spawn_attr_set_signals(attr, saved);
	if (r >= 0)
		r = nsctl_spawn_attr_set_new_session(attr, o->new_session);
	if (r >= 0)
		r = nsctl_spawn_attr_set_propagation(attr, o->propagation);
	if (r >= 0)
		r = nsctl_spawn_attr_set_uts_names(attr, o->hostname, o->domainname);
	if (r >= 0)
		r = o->keep.all ? nsctl_spawn_attr_set_keep_all_fds(attr, true)
				: nsctl_spawn_attr_set_keep_fds(attr, o->keep.fds, o->keep.n);
	if (r < 0) {
		nsctl_spawn_attr_free(attr);
		cli_fail(r, "cannot start PROGRAM");
	}
	pid = nsctl_spawn(attr, o->argv, NULL, pidfd, &report);
	nsctl_spawn_attr_free(attr);
	if (pid >= 0)
		return pid;
	switch (report.step) {
	case NSCTL_SPAWN_STEP_CLONE:
		/* No child: /proc/self/ns readable again, for create_fail()'s look at the types. */
		prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
		create_fail(o, report.err, "clone()");
	case NSCTL_SPAWN_STEP_HOSTNAME:
		cli_fail(report.err, "--hostname '%s': cannot set it", o->hostname);
	case NSCTL_SPAWN_STEP_DOMAINNAME:
		cli_fail(report.err, "--domainname '%s': cannot set it", o->domainname);
	case NSCTL_SPAWN_STEP_PROPAGATION:
		cli_fail(report.err, "--propagation: cannot change the propagation of /");
	default:
		cli_spawn_fail(&report, o->argv);
	}
}

int cmd_run(int argc, char **argv)
{
	struct create_options o;
	struct nsctl_signal_state saved;
	int sock[2] = { -1, -1 }, pidfd = -1, wstatus, r, failed[2] = { -1, -1 };
	struct cli_pins pins;
	bool sync, spawn;
	pid_t pid;
	char msg;

	create_options_parse(argc, argv, CREATE_RUN, &o);
	if (cli_parse_only) {
		close_fdp(&o.cgroup_fd); /* --into-cgroup opened it, read-only, to check it */
		return 0;
	}
	sync = need_sync(&o);
	/* A time namespace without offsets (which would need the handshake) is clone3()'s too. */
	spawn = !sync && !o.init && spawn_can_start(&o);
	cli_pins_init(&pins);
	/*
	 * The pins are made once the child exists, and PROGRAM may still fail to
	 * start after that (--root, --wd, --mount-proc, PROGRAM not found): the
	 * child's error exit writes a byte here (cli_failure_fd), and the pins
	 * are taken back.  An exec closes the pipe and writes nothing.
	 */
	if (create_options_have_pins(&o)) {
		if (pipe2(failed, O_CLOEXEC | O_NONBLOCK) < 0)
			cli_fail(-errno, "pipe2");
		cli_failure_fd = failed[1];
	}
	/*
	 * sock[0] is the parent's end, sock[1] the child's.  A conversation (the
	 * handshake, --init's report) needs a socket pair; the lifeline alone is
	 * a pipe, cheaper to make, whose read end the child holds: it sees EOF
	 * when nsctl dies.  nsctl_spawn() makes its own.
	 */
	if (sync || o.init) {
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sock) < 0)
			cli_fail(-errno, "socketpair");
	} else if (!spawn) {
		int line[2];

		if (pipe2(line, O_CLOEXEC) < 0)
			cli_fail(-errno, "pipe2");
		sock[0] = line[1];
		sock[1] = line[0];
	}
	/* Blocked before the child exists, so no signal for it is lost in between. */
	r = nsctl_signals_block(&saved);
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
	if (spawn)
		pid = start_spawn(&o, &saved, &pidfd);
	else
		pid = nsctl_clone(
		    nsctl_types_to_clone_flags(o.types & ~NSCTL_TYPE_BIT(NSCTL_TYPE_TIME)),
		    o.cgroup_fd, &pidfd);
	if (pid == 0) {
		close(sock[0]);
		run_child(&o, sock[1], sync, &saved);
	}
	close_fdp(&sock[1]);
	cli_failure_fd = -1;
	close_fdp(&failed[1]);
	if (pid < 0)
		create_fail(&o, pid, "clone()");
	close_fdp(&o.cgroup_fd);
	if (sync) {
		ssize_t n;

		do
			n = read(sock[0], &msg, 1);
		while (n < 0 && errno == EINTR);
		/* No "ready": the child failed on its own and said why; end as it did. */
		if (n == 1) {
			prepare_child(&o, pid, pidfd, &pins);
			msg = MSG_GO;
			if (send_all(sock[0], &msg, 1) < 0) {
				cli_pins_take_back(&pins);
				abandon(pid, pidfd, -errno, "cannot start the child");
			}
		}
	}
	r = nsctl_supervise(pid, pidfd, &wstatus);
	if (r < 0) {
		cli_pins_take_back(&pins);
		abandon(pid, pidfd, r, "waiting for the child");
	}
	if (failed[0] >= 0 && read(failed[0], &msg, 1) == 1)
		cli_pins_take_back(&pins);
	close_fdp(&failed[0]);
	if (o.init) {
		int status;

		/* The init's report of PROGRAM, if it got that far: a death by signal included. */
		if (recv(sock[0], &status, sizeof(status), MSG_DONTWAIT) == (ssize_t)sizeof(status))
			wstatus = status;
	}
	close_fdp(&pidfd);
	close_fdp(&sock[0]);
	cli_exit_like(wstatus);
}
