// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A farm of sleeping processes for the list benchmark: `farm N` starts N
 * children, every fourth in its own uts, ipc and network namespaces (as a
 * container host has one of each per container), prints
 * "ready N" once all of them are in place, and on SIGTERM, SIGINT or SIGHUP
 * (or its parent's death) kills and reaps every one of them by PID.
 *
 * Nothing can be left behind: the children are farm's own, so their PIDs
 * cannot be reused before farm reaps them, and each child dies with farm
 * (PR_SET_PDEATHSIG, kept across the exec), so even a SIGKILL of farm takes
 * the farm down with it.
 *
 * Each child execs farm-sleeper (next to farm), which says it is in place.
 * Forked children that never exec share farm's pages copy-on-write: each page
 * farm wrote while forking is then mapped by thousands of processes, and a
 * kernel that watches memory by physical page (DAMON, on the machine these
 * numbers come from) walks every mapping of the pages it samples.  With a
 * farm of 30,000 such children, kdamond took 85% of one of the two CPUs (38%
 * at 10,000), and the list under test ran on what was left.  A container
 * host's processes are exec'd programs, each with pages of its own.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static pid_t *children;
static long n_children;

static void reap_all(void)
{
	for (long i = 0; i < n_children; i++)
		kill(children[i], SIGKILL);
	for (long i = 0; i < n_children; i++)
		while (waitpid(children[i], NULL, 0) < 0 && errno == EINTR)
			;
	n_children = 0;
}

static void fail(const char *what, int error)
{
	fprintf(stderr, "farm: %s: %s\n", what, strerror(error));
	reap_all();
	exit(1);
}

/* The child: in place, then farm-sleeper, which says so on fd 3 and sleeps until killed. */
static void child(pid_t farm, int ready_fd, int own_namespaces, const char *sleeper)
{
	/* Die with farm; the check after it closes the race with a farm already gone. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != farm)
		_exit(1);
	char c = 'E';
	if (own_namespaces && unshare(CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWNET) < 0)
		goto fail;
	c = 'X';
	/* dup2() leaves the new fd open across the exec (if it was 3 already: fcntl). */
	if (ready_fd == 3 ? fcntl(3, F_SETFD, 0) == 0 : dup2(ready_fd, 3) == 3) {
		char *argv[] = { "farm-sleeper", NULL };
		execv(sleeper, argv);
	}
fail:
	if (write(ready_fd, &c, 1) != 1)
		_exit(1);
	_exit(1);
}

int main(int argc, char **argv)
{
	char *end;
	errno = 0;
	long n = argc == 2 ? strtol(argv[1], &end, 10) : -1;
	if (argc != 2 || errno != 0 || *end != '\0' || n < 1 || n > 1000000) {
		fprintf(stderr, "usage: farm N   (1 <= N <= 1000000)\n");
		return 2;
	}

	/*
	 * The stop signals stay blocked from here on and are taken by sigwait(),
	 * so none can arrive half-way through starting the farm.  Children
	 * inherit the mask: a Ctrl-C sent to the whole process group stops farm,
	 * which then kills them, instead of racing them.
	 */
	sigset_t stop;
	sigemptyset(&stop);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGHUP);
	sigprocmask(SIG_BLOCK, &stop, NULL);
	/*
	 * Whoever started farm (the benchmark harness) takes it down by dying;
	 * a parent already gone before the prctl shows as a changed getppid().
	 */
	pid_t parent = getppid();
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent)
		return 1;

	children = calloc((size_t)n, sizeof(*children));
	if (!children)
		fail("calloc", ENOMEM);
	int ready[2];
	if (pipe2(ready, O_CLOEXEC) < 0)
		fail("pipe", errno);

	/* farm-sleeper, next to farm. */
	static char sleeper[4096];
	ssize_t length = readlink("/proc/self/exe", sleeper, sizeof(sleeper) - sizeof("-sleeper"));
	if (length <= 0 || (size_t)length >= sizeof(sleeper) - sizeof("-sleeper"))
		fail("/proc/self/exe", length < 0 ? errno : ENAMETOOLONG);
	memcpy(sleeper + length, "-sleeper", sizeof("-sleeper"));
	if (access(sleeper, X_OK) < 0)
		fail(sleeper, errno);

	pid_t self = getpid();
	for (long i = 0; i < n; i++) {
		pid_t pid = fork();
		if (pid < 0)
			fail("fork", errno);
		if (pid == 0) {
			close(ready[0]);
			child(self, ready[1], i % 4 == 0, sleeper);
		}
		children[n_children++] = pid;
	}
	close(ready[1]);

	/* Every child writes one byte when it is in place; EOF means one died. */
	long in_place = 0;
	char buf[4096];
	while (in_place < n) {
		ssize_t got = read(ready[0], buf, sizeof(buf));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			fail("a child died before it was in place", got < 0 ? errno : ECHILD);
		if (memchr(buf, 'E', (size_t)got))
			fail("unshare(CLONE_NEWUTS|CLONE_NEWIPC|CLONE_NEWNET)", EPERM);
		if (memchr(buf, 'X', (size_t)got))
			fail(sleeper, ENOEXEC);
		in_place += got;
	}
	close(ready[0]);
	printf("ready %ld\n", n);
	fflush(stdout);

	int sig;
	sigwait(&stop, &sig);
	reap_all();
	return 0;
}
