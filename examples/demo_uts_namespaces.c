// SPDX-License-Identifier: GPL-2.0-or-later
/* The namespaces article's first program on libnsctl: a child in a new UTS namespace names it. */
#include <errno.h>
#include <fcntl.h>
#include <nsctl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

/* How long the child stays, so that its namespace can be looked at from outside. */
#define CHILD_SECONDS 100

static _Noreturn void fail(const char *call, int negative_errno)
{
	fprintf(stderr, "demo_uts_namespaces: %s: %s\n", call, strerror(-negative_errno));
	exit(EXIT_FAILURE);
}

/* The child: name its namespace, say so, and stay a while. */
static _Noreturn void child_main(const char *name, int go, int ready)
{
	struct utsname uts;
	char byte;
	int r;

	/* A child outliving its parent would keep the namespace for nothing. */
	r = nsctl_child_die_with_parent(-1);
	if (r < 0)
		fail("nsctl_child_die_with_parent", r);
	/*
	 * The parent prints first.  A parent that died before the line above
	 * left its end of the pipe closed, and the read says so.
	 */
	if (read(go, &byte, 1) != 1)
		_exit(EXIT_FAILURE);
	r = nsctl_uts_names_set(name, NULL);
	if (r < 0)
		fail("sethostname", r);
	if (uname(&uts) < 0)
		fail("uname", -errno);
	printf("uts.nodename in child:  %s\n", uts.nodename);
	fflush(stdout);
	/* Unlike the article's sleep(1) in the parent, the parent waits for exactly this. */
	if (write(ready, "r", 1) != 1)
		fail("write", -errno);
	sleep(CHILD_SECONDS);
	_exit(EXIT_SUCCESS);
}

int main(int argc, char **argv)
{
	int go[2], ready[2], r, wstatus;
	struct utsname uts;
	pid_t child;
	char byte;

	if (argc != 2) {
		fprintf(stderr, "Usage: %s NAME\n", argv[0]);
		return EXIT_FAILURE;
	}
	/* Refused before anything is created: a hostname is 1 to 64 bytes. */
	r = nsctl_uts_name_check(argv[1]);
	if (r < 0)
		fail("sethostname", r);
	if (pipe2(go, O_CLOEXEC) < 0 || pipe2(ready, O_CLOEXEC) < 0)
		fail("pipe2", -errno);
	/* The child starts with a copy of stdout's buffer: empty it, or both would print it. */
	fflush(stdout);
	child = nsctl_clone(CLONE_NEWUTS, -1, NULL);
	if (child < 0)
		fail("clone(CLONE_NEWUTS)", child);
	if (child == 0) {
		close(go[1]);
		close(ready[0]);
		child_main(argv[1], go[0], ready[1]);
	}
	close(go[0]);
	close(ready[1]);

	printf("PID of child created by clone() is %ld\n", (long)child);
	fflush(stdout);
	if (write(go[1], "g", 1) != 1)
		fail("write", -errno);
	/* End of file instead of a byte: the child failed, and said why. */
	if (read(ready[0], &byte, 1) == 1) {
		if (uname(&uts) < 0)
			fail("uname", -errno);
		printf("uts.nodename in parent: %s\n", uts.nodename);
		fflush(stdout);
	}
	while (waitpid(child, &wstatus, 0) < 0)
		if (errno != EINTR)
			fail("waitpid", -errno);
	return WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : EXIT_FAILURE;
}
