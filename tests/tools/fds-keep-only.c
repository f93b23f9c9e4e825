// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Test tool: open fds at 3.., high up and O_CLOEXEC ones, keep some with
 * nsctl_fds_keep_only(), and check every fd's close-on-exec flag afterwards.
 * Run under seccomp-deny, it proves the fallback without close_range().
 * With --expect-no-close-range it first checks that close_range() really fails.
 * Prints "ok" and exits 0, or says what is wrong and exits 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "nsctl.h"

#ifndef __NR_close_range
#define __NR_close_range 436
#endif

static int failures;

static void expect(int fd, bool want_cloexec)
{
	int flags = fcntl(fd, F_GETFD);

	if (flags < 0) {
		printf("fd %d: closed\n", fd);
		failures++;
	} else if (!!(flags & FD_CLOEXEC) != want_cloexec) {
		printf("fd %d: close-on-exec is %s, want %s\n", fd,
		       flags & FD_CLOEXEC ? "on" : "off", want_cloexec ? "on" : "off");
		failures++;
	}
}

int main(int argc, char **argv)
{
	int plain[8], cloexec_kept, high, high_kept, r;

	if (argc > 1 && strcmp(argv[1], "--expect-no-close-range") == 0) {
		/* fd ~0 is beyond any table: a kernel with close_range says EINVAL. */
		if (syscall(__NR_close_range, ~0U, ~0U, 0) == 0 || errno != ENOSYS) {
			printf("close_range() is not blocked: %s\n", strerror(errno));
			return 1;
		}
	}
	for (size_t i = 0; i < 8; i++)
		plain[i] = open("/dev/null", O_RDONLY);
	cloexec_kept = open("/dev/null", O_RDONLY | O_CLOEXEC);
	high = fcntl(plain[0], F_DUPFD, 700);
	high_kept = fcntl(plain[0], F_DUPFD, 900);
	if (cloexec_kept < 0 || high < 0 || high_kept < 0) {
		perror("open");
		return 1;
	}
	{
		int keep[] = { high_kept, plain[3], cloexec_kept, 2 };

		r = nsctl_fds_keep_only(keep, 4);
	}
	if (r < 0) {
		printf("nsctl_fds_keep_only: %s\n", strerror(-r));
		return 1;
	}
	for (size_t i = 0; i < 8; i++)
		expect(plain[i], i != 3);
	expect(cloexec_kept, false);
	expect(high, true);
	expect(high_kept, false);
	expect(0, false);
	expect(1, false);
	expect(2, false);
	if (failures)
		return 1;
	puts("ok");
	return 0;
}
