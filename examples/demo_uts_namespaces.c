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

/* What the child works from: the name, and its ends of the two pipes. */
struct child_request {
	const char *name;
	int go, ready;
	int parent_go, parent_ready; /* the parent's ends, closed in the child */
};

/* The child: name its namespace, say so, and stay a while. */
static int child_main(void *userdata)
{
	const struct child_request *request = userdata;
	const char *name = request->name;
	int go = request->go, ready = request->ready;
	struct utsname uts;
	char byte;
	int r;

	close(request->parent_go);
	close(request->parent_ready);
	/* The parent prints first.  A parent that died meanwhile left its end closed. */
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
	return EXIT_SUCCESS;
}

int main(int argc, char **argv)
{
	struct nsctl_spawn_attr *attr = NULL;
	struct child_request request;
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
	request = (struct child_request){ .name = argv[1],
					  .go = go[0],
					  .ready = ready[1],
					  .parent_go = go[1],
					  .parent_ready = ready[0] };
	/* A child outliving its parent would keep the namespace for nothing: it dies with us. */
	r = nsctl_spawn_attr_new(&attr);
	if (r >= 0)
		r = nsctl_spawn_attr_set_types(attr, NSCTL_TYPE_BIT(NSCTL_TYPE_UTS));
	if (r >= 0)
		r = nsctl_spawn_attr_set_die_with_parent(attr, true);
	if (r >= 0)
		r = nsctl_spawn_attr_set_child_step(attr, child_main, &request);
	if (r < 0)
		fail("nsctl_spawn_attr", r);
	child = nsctl_spawn(attr, NULL, NULL, NULL, NULL);
	nsctl_spawn_attr_free(attr);
	if (child < 0)
		fail("clone(CLONE_NEWUTS)", child);
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
