// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * enter's pseudo-terminal.  A program that runs on the caller's terminal in
 * another user's namespaces can be reached from there: a process of the
 * target may push input into that terminal (TIOCSTI) or, where it may
 * ptrace PROGRAM, take PROGRAM's fd on it.  So PROGRAM gets a new terminal,
 * as lxc-attach gives one: the pty is made before any join, in the caller's
 * namespaces (its peer taken with TIOCGPTPEER, no path looked up); nsctl
 * forks; the parent stays outside, the only holder of the caller's terminal,
 * and relays between it and the pty; the child puts the pty on each of fds
 * 0-2 that was a terminal, starts a session with it as its controlling
 * terminal, and goes on to join and run PROGRAM.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "cli.h"

#ifndef TIOCGPTPEER
#define TIOCGPTPEER _IO('T', 0x41)
#endif

static struct termios saved;
static int raw_fd = -1; /* the caller's terminal, in raw mode while we relay */
static volatile sig_atomic_t window_changed, pending_signal, child_changed;

static void restore_terminal(void)
{
	if (raw_fd >= 0)
		tcsetattr(raw_fd, TCSADRAIN, &saved);
	raw_fd = -1;
}

/* The caller's terminal IN in raw mode, if we are its foreground job (else it is left alone). */
static void make_raw(int in)
{
	struct termios raw;

	if (in < 0 || tcgetpgrp(in) != getpgrp() || tcgetattr(in, &saved) < 0)
		return;
	raw = saved;
	cfmakeraw(&raw);
	if (tcsetattr(in, TCSADRAIN, &raw) == 0)
		raw_fd = in;
}

static void on_child(int sig)
{
	(void)sig;
	child_changed = 1;
}

/*
 * The child stopped (^Z reached PROGRAM, which stopped, and a supervising
 * nsctl stops with it): we stop too, the caller's terminal as it was, so that
 * the caller's shell has it back; when continued, raw again, the child too.
 */
static void follow_stop(pid_t child, int in)
{
	siginfo_t info = { 0 };
	int was_raw = raw_fd;

	if (waitid(P_PID, (id_t)child, &info, WSTOPPED | WNOHANG | WNOWAIT) < 0 ||
	    info.si_pid != child || info.si_code != CLD_STOPPED)
		return;
	restore_terminal();
	raise(SIGTSTP);
	if (was_raw >= 0)
		make_raw(in);
	kill(child, SIGCONT);
	/* The stop is seen: taken off, so that the next look does not find it again. */
	waitid(P_PID, (id_t)child, &info, WSTOPPED | WNOHANG);
}

static void on_winch(int sig)
{
	(void)sig;
	window_changed = 1;
}

static void on_signal(int sig)
{
	pending_signal = sig;
}

static void copy_window_size(int from, int to)
{
	struct winsize ws;

	if (from >= 0 && ioctl(from, TIOCGWINSZ, &ws) == 0)
		ioctl(to, TIOCSWINSZ, &ws);
}

/* All of BUF to FD (which may be non-blocking): false once FD takes no more. */
static bool write_all(int fd, const char *buf, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, buf, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EAGAIN) {
			struct pollfd p = { fd, POLLOUT, 0 };

			poll(&p, 1, -1);
			continue;
		}
		if (w <= 0)
			return false;
		buf += w;
		n -= (size_t)w;
	}
	return true;
}

/* What the pty has for us now, to OUT: false at its end (no process holds its terminal). */
static bool pass_output(int master, int out)
{
	char buf[8192];
	ssize_t n = read(master, buf, sizeof(buf));

	if (n < 0)
		return errno == EINTR || errno == EAGAIN;
	if (n == 0)
		return false;
	write_all(out, buf, (size_t)n);
	return true;
}

/* The relay's state: the pty's master, the caller's fds, the child, input not yet taken. */
struct relay {
	int master, in, out, tty, pidfd;
	pid_t child;
	bool reading, ended;
	char pending[4096];
	size_t n_pending;
};

/*
 * The signals we act on get their handlers, and are blocked but inside
 * ppoll() (the mask OUTSIDE): one that comes while we look at the flags is
 * not missed until the next input.  The caller's terminal goes raw.
 */
static void relay_begin(struct relay *r, sigset_t *outside)
{
	static const int handled[] = { SIGHUP,  SIGINT,  SIGQUIT,  SIGTERM,
				       SIGUSR1, SIGUSR2, SIGWINCH, SIGCHLD };
	sigset_t blocked;

	sigemptyset(&blocked);
	for (size_t i = 0; i < sizeof(handled) / sizeof(handled[0]); i++) {
		struct sigaction sa = { .sa_handler = handled[i] == SIGWINCH  ? on_winch
						      : handled[i] == SIGCHLD ? on_child
									      : on_signal };

		sigaction(handled[i], &sa, NULL);
		sigaddset(&blocked, handled[i]);
	}
	sigprocmask(SIG_BLOCK, &blocked, outside);
	signal(SIGPIPE, SIG_IGN);
	/*
	 * A background job (nsctl enter ... &) leaves the terminal's settings
	 * alone and does not read it, which would stop it (SIGTTIN).
	 */
	r->reading = r->in >= 0;
	if (r->in >= 0 && isatty(r->in)) {
		make_raw(r->in);
		atexit(restore_terminal);
		r->reading = raw_fd >= 0;
	}
	fcntl(r->master, F_SETFL, fcntl(r->master, F_GETFL) | O_NONBLOCK);
}

/* What the signal handlers noted: the window size, the child's stop, a signal to pass on. */
static void relay_follow(struct relay *r)
{
	if (window_changed) {
		window_changed = 0;
		copy_window_size(r->tty, r->master);
	}
	if (child_changed) {
		child_changed = 0;
		follow_stop(r->child, r->in);
		/* Continued in the background (bg): the terminal is not ours to read. */
		if (r->reading && raw_fd < 0 && isatty(r->in))
			r->reading = false;
	}
	if (pending_signal) {
		/* Passed on: the child passes it to PROGRAM (or is PROGRAM). */
		kill(r->child, pending_signal);
		pending_signal = 0;
	}
}

/* The caller's input, into PENDING; at its end, the pty's end-of-file character. */
static void relay_read_input(struct relay *r)
{
	ssize_t n = read(r->in, r->pending, sizeof(r->pending));
	struct termios t;

	if (n > 0) {
		r->n_pending = (size_t)n;
		return;
	}
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	r->reading = false;
	if (tcgetattr(r->master, &t) == 0 && (t.c_lflag & ICANON)) {
		r->pending[0] = (char)t.c_cc[VEOF];
		r->n_pending = 1;
	}
}

/* One wait for something to do, and doing it: false once the pty has ended. */
static bool relay_step(struct relay *r, const sigset_t *outside)
{
	/*
	 * Input waits in PENDING until the pty takes it: a pty nobody reads
	 * fills up, and we still follow the child, signals and output.
	 */
	struct pollfd p[3] = {
		{ r->master, (short)(POLLIN | (r->n_pending ? POLLOUT : 0)), 0 },
		{ r->reading && !r->n_pending ? r->in : -1, POLLIN, 0 },
		{ r->pidfd, POLLIN, 0 },
	};
	struct timespec tick = { 0, 100 * 1000 * 1000 };
	siginfo_t info = { 0 };
	ssize_t n;

	relay_follow(r);
	/* Without a pidfd (before Linux 5.3) the child's end is looked for each 100 ms. */
	if (ppoll(p, 3, r->pidfd >= 0 ? NULL : &tick, outside) < 0)
		return errno == EINTR;
	if ((p[0].revents & (POLLIN | POLLHUP | POLLERR)) && !pass_output(r->master, r->out))
		return false;
	if ((p[0].revents & POLLOUT) && r->n_pending) {
		n = write(r->master, r->pending, r->n_pending);
		if (n > 0) {
			memmove(r->pending, r->pending + n, r->n_pending - (size_t)n);
			r->n_pending -= (size_t)n;
		}
	}
	if (p[1].revents & (POLLIN | POLLHUP | POLLERR))
		relay_read_input(r);
	if (r->pidfd >= 0)
		r->ended = (p[2].revents & POLLIN) != 0;
	else
		r->ended = waitid(P_PID, (id_t)r->child, &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
			   info.si_pid == r->child;
	return true;
}

/*
 * What PROGRAM wrote before it ended, up to what a pty holds: a process of
 * the target may hold the pty and write on for ever.
 */
static void relay_drain(const struct relay *r)
{
	size_t drained = 0;

	while (drained < 65536) {
		char buf[8192];
		ssize_t n = read(r->master, buf, sizeof(buf));

		if (n <= 0 && !(n < 0 && errno == EINTR))
			break;
		if (n > 0) {
			write_all(r->out, buf, (size_t)n);
			drained += (size_t)n;
		}
	}
}

/*
 * The parent: the caller's IN (its terminal in raw mode, when it is one) to
 * the pty, the pty to OUT, the window size of TTY along, until CHILD ends;
 * then the caller's terminal as it was, and CHILD's end as ours.
 */
static _Noreturn void relay(int master, pid_t child, int pidfd, int in, int out, int tty)
{
	struct relay r = {
		.master = master, .in = in, .out = out, .tty = tty, .pidfd = pidfd, .child = child
	};
	sigset_t outside;
	int wstatus;

	relay_begin(&r, &outside);
	while (!r.ended && relay_step(&r, &outside))
		;
	relay_drain(&r);
	/* The caller's terminal back before any wait; signals still passed on. */
	restore_terminal();
	sigprocmask(SIG_SETMASK, &outside, NULL);
	while (waitpid(child, &wstatus, 0) < 0) {
		if (errno != EINTR)
			cli_fail(negative_errno(), "waiting for PID %d", (int)child);
		if (pending_signal) {
			kill(child, pending_signal);
			pending_signal = 0;
		}
	}
	cli_exit_like(wstatus);
}

/* The pty's peer, opened through the master (no path looked up), or by its name before 4.13. */
static int open_peer(int master)
{
	const char *name;
	int fd = ioctl(master, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC);

	if (fd >= 0 || (errno != EINVAL && errno != ENOTTY))
		return fd;
	name = ptsname(master);
	return name ? open(name, O_RDWR | O_NOCTTY | O_CLOEXEC) : -1;
}

/* The child: a session of its own, the pty its terminal, on each fd that was the caller's. */
struct pty_child {
	int master, slave;
	const int *targets;
	size_t n;
	void (*rest)(void *);
	void *arg;
};

static int pty_child(void *userdata)
{
	const struct pty_child *p = userdata;

	close(p->master);
	if (setsid() < 0 || ioctl(p->slave, TIOCSCTTY, 0) < 0)
		cli_fail(negative_errno(), "--pty: a session with the new terminal");
	for (size_t i = 0; i < p->n; i++)
		if (dup2(p->slave, p->targets[i]) < 0)
			cli_fail(negative_errno(), "--pty: dup2");
	if (p->slave > 2)
		close(p->slave);
	p->rest(p->arg);
	return EXIT_EXEC_FAILED;
}

void cli_enter_pty(void (*rest)(void *), void *arg)
{
	int master, slave, tty = -1, out = 1, targets[3], pidfd;
	size_t n = 0;
	struct termios t;
	pid_t pid;

	for (int fd = 0; fd <= 2; fd++)
		if (isatty(fd)) {
			targets[n++] = fd;
			if (tty < 0)
				tty = fd;
		}
	/* --pty with no terminal: PROGRAM gets one on all three. */
	if (n == 0)
		for (int fd = 0; fd <= 2; fd++)
			targets[n++] = fd;
	/* The pty's output goes where PROGRAM's would have: its stdout, else its stderr. */
	if (!isatty(1) && isatty(2))
		out = 2;
	master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (master < 0 || grantpt(master) < 0 || unlockpt(master) < 0)
		cli_fail(negative_errno(), "--pty: a new pseudo-terminal (/dev/ptmx)");
	slave = open_peer(master);
	if (slave < 0)
		cli_fail(negative_errno(), "--pty: the new pseudo-terminal's peer");
	/* PROGRAM's terminal starts as the caller's: its settings and window size. */
	if (tty >= 0 && tcgetattr(tty, &t) == 0)
		tcsetattr(slave, TCSANOW, &t);
	copy_window_size(tty, master);
	pid = cli_start(pty_child, &(struct pty_child){ master, slave, targets, n, rest, arg },
			&pidfd);
	if (pid < 0)
		cli_fail(pid, "--pty: cannot start the child that runs PROGRAM");
	close(slave);
	relay(master, pid, pidfd, targets[0] == 0 ? 0 : -1, out, tty);
}
