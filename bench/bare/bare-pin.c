// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The floors under the pins, made as `ip netns` makes its own: an empty file
 * and a bind mount of a network namespace's /proc link onto it.
 *   add FILE PROGRAM...: under `nsctl unshare --net=FILE PROGRAM`: unshare(),
 *                        the pin of our new namespace, execvp();
 *   attach PID FILE:     under `nsctl pin --net PID FILE`: the pin of PID's;
 *   del FILE:            under `nsctl unpin FILE`: umount2() and unlink().
 * FILE's directory must exist.
 */
#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>

#include "bare.h"

/* FILE, new and empty, with the namespace at LINK mounted on it; nothing left on a failure. */
static void pin(const char *link, const char *file)
{
	int fd = open(file, O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0);

	if (fd < 0)
		bare_die("bare-pin", file, errno);
	close(fd);
	if (mount(link, file, NULL, MS_BIND, NULL) < 0) {
		int error = errno;

		unlink(file);
		bare_die("bare-pin", file, error);
	}
}

int main(int argc, char **argv)
{
	const char *verb = argc > 1 ? argv[1] : "";

	if (strcmp(verb, "add") == 0 && argc >= 4) {
		if (unshare(CLONE_NEWNET) < 0)
			bare_die("bare-pin", "unshare", errno);
		pin("/proc/self/ns/net", argv[2]);
		bare_exec(argv + 3);
	}
	if (strcmp(verb, "attach") == 0 && argc == 4) {
		char link[64];

		snprintf(link, sizeof(link), "/proc/%s/ns/net", argv[2]);
		pin(link, argv[3]);
		_exit(0);
	}
	if (strcmp(verb, "del") == 0 && argc == 3) {
		if (umount2(argv[2], MNT_DETACH) < 0)
			bare_die("bare-pin", argv[2], errno);
		if (unlink(argv[2]) < 0)
			bare_die("bare-pin", argv[2], errno);
		_exit(0);
	}
	fprintf(stderr, "usage: bare-pin add FILE PROGRAM [ARG...] | attach PID FILE | del FILE\n");
	return BARE_FAILED;
}
