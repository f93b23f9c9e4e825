// SPDX-License-Identifier: GPL-2.0-or-later
/* The namespaces article's ns_exec on libnsctl: join the namespace at a file, run a command there.
 */
#include <errno.h>
#include <nsctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static _Noreturn void fail(const char *call, const char *input, const char *reason)
{
	fprintf(stderr, "ns_exec: %s(%s): %s\n", call, input, reason);
	exit(EXIT_FAILURE);
}

int main(int argc, char **argv)
{
	enum nsctl_type type;
	int fd, r;

	if (argc < 3) {
		fprintf(stderr, "Usage: %s /proc/PID/ns/FILE cmd [arg...]\n", argv[0]);
		return EXIT_FAILURE;
	}
	/*
	 * A /proc/PID/ns link or a file a namespace is bind-mounted on (a pin).
	 * Nothing else is opened for real: a FIFO would block, a device act.
	 */
	fd = nsctl_ns_open_path(argv[1], -1, &type);
	if (fd == -ENOTTY)
		fail("open", argv[1], "not a namespace file");
	if (fd < 0)
		fail("open", argv[1], strerror(-fd));
	/* The type just read is named to setns(), so the kernel checks the file is still that. */
	r = nsctl_ns_join_fd(fd, (int)type);
	if (r < 0)
		fail("setns", argv[1], strerror(-r));
	close(fd);
	execvp(argv[2], &argv[2]);
	fail("execvp", argv[2], strerror(errno));
}
