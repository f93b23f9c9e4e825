// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Test tool: run COMMAND on a terminal of its own, as an interactive shell
 * runs a job, and report what is left in the terminal's input afterwards.
 *
 * Usage: pty-run [--leader] COMMAND [ARG...]
 *        pty-run --tiocsti CHAR
 *
 * A pty pair is made; a "shell" process starts a session whose controlling
 * terminal is the pty, in raw mode (no echo: an injected character shows only
 * in the input queue).  COMMAND runs as a foreground job in its own process
 * group (with --leader: as the session leader itself), with the pty as fds
 * 0-2.  Its output is copied to stdout; once it has ended the input queue is
 * read and reported as 'pty-run: input queue: "..."' (or "empty").  The exit
 * status is COMMAND's (128+N for signal N).
 *
 * --tiocsti CHAR pushes CHAR into the input of the terminal on fd 0 with
 * ioctl(TIOCSTI), prints "TIOCSTI: ok" or "TIOCSTI: REASON", and exits 0 or 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

static _Noreturn void die(const char *what)
{
	fprintf(stderr, "pty-run: %s: %s\n", what, strerror(errno));
	exit(125);
}

static int tiocsti(const char *text)
{
	if (ioctl(0, TIOCSTI, text) < 0) {
		printf("TIOCSTI: %s\n", strerror(errno));
		return 1;
	}
	puts("TIOCSTI: ok");
	return 0;
}

static int exit_status(int wstatus)
{
	return WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
}

/* The session leader: owns the terminal, runs COMMAND, then drains the input queue. */
static _Noreturn void shell(const char *slave_name, bool leader, char **command)
{
	struct termios raw;
	int slave, wstatus;
	char queued[256];
	ssize_t n;
	pid_t job;

	if (setsid() < 0)
		die("setsid");
	slave = open(slave_name, O_RDWR);
	if (slave < 0)
		die(slave_name);
	if (ioctl(slave, TIOCSCTTY, 0) < 0)
		die("TIOCSCTTY");
	if (tcgetattr(slave, &raw) < 0)
		die("tcgetattr");
	cfmakeraw(&raw);
	raw.c_cc[VMIN] = 0;
	raw.c_cc[VTIME] = 0;
	if (tcsetattr(slave, TCSANOW, &raw) < 0)
		die("tcsetattr");
	if (leader) {
		if (dup2(slave, 0) < 0 || dup2(slave, 1) < 0 || dup2(slave, 2) < 0)
			die("dup2");
		execvp(command[0], command);
		die(command[0]);
	}
	job = fork();
	if (job < 0)
		die("fork");
	if (job == 0) {
		/* As a shell's job: a process group of its own, the terminal's foreground one. */
		signal(SIGTTOU, SIG_IGN);
		if (setpgid(0, 0) < 0 || tcsetpgrp(slave, getpid()) < 0)
			die("setpgid/tcsetpgrp");
		signal(SIGTTOU, SIG_DFL);
		if (dup2(slave, 0) < 0 || dup2(slave, 1) < 0 || dup2(slave, 2) < 0)
			die("dup2");
		if (slave > 2)
			close(slave);
		execvp(command[0], command);
		die(command[0]);
	}
	while (waitpid(job, &wstatus, 0) < 0)
		if (errno != EINTR)
			die("waitpid");
	/* Back in the foreground, as a shell takes the terminal back. */
	signal(SIGTTOU, SIG_IGN);
	tcsetpgrp(slave, getpgrp());
	n = read(slave, queued, sizeof(queued) - 1);
	if (n < 0)
		die("reading the input queue");
	queued[n] = '\0';
	if (n == 0)
		dprintf(slave, "pty-run: input queue: empty\n");
	else
		dprintf(slave, "pty-run: input queue: \"%s\"\n", queued);
	_exit(exit_status(wstatus));
}

int main(int argc, char **argv)
{
	bool leader = false;
	int master, held, wstatus, first = 1;
	char buf[4096], *slave_name;
	pid_t pid;

	/*
	 * _exit(): this mode runs as PROGRAM in new PID namespaces with the
	 * caller's /proc, where a sanitizer build's LeakSanitizer, at exit(),
	 * would read /proc/PID/task of another process and fail the test.
	 */
	if (argc == 3 && strcmp(argv[1], "--tiocsti") == 0) {
		int r = tiocsti(argv[2]);

		fflush(stdout);
		_exit(r);
	}
	if (argc > 1 && strcmp(argv[1], "--leader") == 0) {
		leader = true;
		first = 2;
	}
	if (first >= argc) {
		fputs("usage: pty-run [--leader] COMMAND [ARG...] | pty-run --tiocsti CHAR\n",
		      stderr);
		return 2;
	}
	master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (master < 0 || grantpt(master) < 0 || unlockpt(master) < 0)
		die("posix_openpt");
	slave_name = ptsname(master);
	if (!slave_name)
		die("ptsname");
	/* Held open here, so that the master never reads EIO before the shell opens it. */
	held = open(slave_name, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (held < 0 || fcntl(master, F_SETFL, O_NONBLOCK) < 0)
		die(slave_name);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0)
		shell(slave_name, leader, argv + first);
	/* Copy the terminal's output until the shell has ended, then what is left. */
	for (bool ended = false;;) {
		struct pollfd p = { .fd = master, .events = POLLIN };
		ssize_t n;

		if (!ended) {
			pid_t r = waitpid(pid, &wstatus, WNOHANG);

			if (r < 0 && errno != EINTR)
				die("waitpid");
			ended = r == pid;
			if (!ended && poll(&p, 1, 50) < 0 && errno != EINTR)
				die("poll");
		}
		n = read(master, buf, sizeof(buf));
		if (n > 0) {
			if (write(1, buf, (size_t)n) != n)
				die("write");
			continue;
		}
		if (ended)
			break;
	}
	close(held);
	return exit_status(wstatus);
}
