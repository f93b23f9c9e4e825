// SPDX-License-Identifier: GPL-2.0-or-later
/* The last steps of run, unshare and enter: exec PROGRAM cleanly, and end as it ended. */
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "number.h"
#include "util.h"

void cli_keep_fd_add(struct cli_keep_fds *keep, const char *text)
{
	int fd;

	/* Leading zeros allowed, as they always were: "03" is 3. */
	if (number_parse_int(text, INT_MAX, NUMBER_LEADING_ZEROS, &fd) < 0)
		cli_usage_error("--keep-fd '%s': not a file descriptor number", text);
	if (fcntl(fd, F_GETFD) < 0)
		cli_usage_error("--keep-fd '%s': no such open file descriptor", text);
	if (keep->n >= ELEMENTSOF(keep->fds))
		cli_usage_error("--keep-fd '%s': at most %zu --keep-fd options", text,
				ELEMENTSOF(keep->fds));
	keep->fds[keep->n++] = fd;
}

void cli_keep_fd_note(struct cli_keep_fds *keep, const char *text)
{
	if (keep->n_texts >= ELEMENTSOF(keep->texts))
		cli_usage_error("--keep-fd '%s': at most %zu --keep-fd options", text,
				ELEMENTSOF(keep->texts));
	keep->texts[keep->n_texts++] = text;
}

void cli_keep_fds_check(struct cli_keep_fds *keep)
{
	for (size_t i = 0; i < keep->n_texts; i++)
		cli_keep_fd_add(keep, keep->texts[i]);
}

void cli_new_session(void)
{
	_cleanup_close_ int tty = -1;

	if (setsid() >= 0)
		return;
	if (errno != EPERM)
		cli_fail(-errno, "--new-session: setsid");
	/*
	 * EPERM: nsctl leads its process group (a shell's job) and cannot start a
	 * session.  TIOCNOTTY drops the terminal for this process alone; TIOCSTI
	 * then fails (EPERM: not the caller's controlling terminal), and only a
	 * session leader could take a terminal again.
	 */
	tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (tty < 0 && errno == ENXIO)
		return; /* no controlling terminal: nothing to leave */
	if (tty < 0)
		cli_fail(-errno, "--new-session: /dev/tty");
	/* A session leader's TIOCNOTTY would hang up every job of its terminal. */
	if (getsid(0) == getpid())
		cli_fail(0, "--new-session: nsctl leads the session of its terminal and would "
			    "hang it up on leaving; start it from a shell, or use nsctl run");
	if (ioctl(tty, TIOCNOTTY) < 0)
		cli_fail(-errno, "--new-session: ioctl(/dev/tty, TIOCNOTTY)");
}

static char **exec_environment;

void cli_exec_environment(char **envp)
{
	exec_environment = envp;
}

void cli_login_shell(struct cli_shell *shell)
{
	const char *path = getenv("SHELL"), *base;
	size_t length;

	if (!path || !*path) {
		const struct passwd *pw = getpwuid(getuid());

		path = pw && pw->pw_shell && *pw->pw_shell ? pw->pw_shell : "/bin/sh";
	}
	snprintf(shell->path, sizeof(shell->path), "%s", path);
	base = strrchr(shell->path, '/');
	base = base ? base + 1 : shell->path;
	shell->argv0[0] = '-';
	/* A name longer than argv0 holds is cut: only the shell itself reads it. */
	length = strnlen(base, sizeof(shell->argv0) - 2);
	memcpy(shell->argv0 + 1, base, length);
	shell->argv0[length + 1] = '\0';
	shell->argv[0] = shell->argv0;
	shell->argv[1] = NULL;
}

void cli_exec(const char *file, char **argv, const int *keep, size_t n_keep)
{
	int r;

	if (!file)
		file = argv[0];

	if (keep) {
		r = nsctl_fds_keep_only(keep, n_keep);
		if (r < 0)
			cli_die(EXIT_EXEC_FAILED, r, "cannot limit the inherited file descriptors");
	}
	/* glibc's execvpe() searches the PATH of nsctl's environment, not of ENVP. */
	if (exec_environment)
		execvpe(file, argv, exec_environment);
	else
		execvp(file, argv);
	r = errno;
	/* The same statuses as a shell: 127 nothing found by that name, 126 found but refused. */
	cli_die(r == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_EXECUTE, -r, "cannot execute '%s'",
		file);
}

struct nsctl_spawn_attr *cli_spawn_attr_init(struct nsctl_spawn_attr_room *room)
{
	struct nsctl_spawn_attr *attr = nsctl_spawn_attr_init(room);
	int r;

	r = nsctl_spawn_attr_set_die_with_parent(attr, true);
	if (r < 0)
		cli_fail(r, "cannot start PROGRAM");
	return attr;
}

pid_t cli_start(nsctl_spawn_child_step_fn step, void *userdata, int *ret_pidfd)
{
	struct nsctl_spawn_attr *attr = NULL;
	pid_t pid;
	int r;

	r = nsctl_spawn_attr_new(&attr);
	if (r >= 0)
		r = nsctl_spawn_attr_set_child_step(attr, step, userdata);
	pid = r < 0 ? r : nsctl_spawn(attr, NULL, NULL, ret_pidfd, NULL);
	nsctl_spawn_attr_free(attr);
	return pid;
}

void cli_spawn_fail(const struct nsctl_spawn_report *report, const char *file)
{
	int err = report->err;

	switch (report->step) {
	case NSCTL_SPAWN_STEP_EXEC:
		cli_die(err == -ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_EXECUTE, err,
			"cannot execute '%s'", file);
	case NSCTL_SPAWN_STEP_FDS:
		cli_fail(err, "cannot limit the inherited file descriptors");
	case NSCTL_SPAWN_STEP_DIE_WITH_PARENT:
		cli_fail(err, "cannot arrange to die with nsctl");
	case NSCTL_SPAWN_STEP_SIGNALS:
		cli_fail(err, "cannot restore the signal mask of PROGRAM");
	case NSCTL_SPAWN_STEP_NEW_SESSION:
		cli_fail(err, "--new-session: setsid");
	case NSCTL_SPAWN_STEP_CLONE:
		cli_fail(err, "clone()");
	default:
		cli_fail(err, "cannot start PROGRAM");
	}
}

void cli_exit_like(int wstatus)
{
	if (WIFSIGNALED(wstatus)) {
		int sig = WTERMSIG(wstatus);
		struct rlimit no_core = { 0, 0 };
		sigset_t set;

		/* Die of the same signal, without a core of nsctl's own: the child's is the one. */
		setrlimit(RLIMIT_CORE, &no_core);
		signal(sig, SIG_DFL);
		sigemptyset(&set);
		sigaddset(&set, sig);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		raise(sig);
		/* A signal that does not kill by default (SIGCHLD, SIGURG ...) cannot end us. */
		exit(128 + sig);
	}
	exit(WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : EXIT_EXEC_FAILED);
}
