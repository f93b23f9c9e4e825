// SPDX-License-Identifier: LGPL-2.1-or-later
/* Unit tests of lib/fds.c: after nsctl_fds_keep_only, exec passes on only what was kept. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <cmocka.h>

#include "nsctl.h"

static bool cloexec(int fd)
{
	int flags = fcntl(fd, F_GETFD);

	assert_true(flags >= 0);
	return flags & FD_CLOEXEC;
}

static void test_keep_only(void **state)
{
	int a = open("/dev/null", O_RDONLY), b = open("/dev/null", O_RDONLY | O_CLOEXEC),
	    c = open("/dev/null", O_RDONLY), high = fcntl(a, F_DUPFD, 900);
	int keep[] = { b, 1 };

	assert_true(a >= 3 && b >= 3 && c >= 3 && high >= 900);
	assert_false(cloexec(a));
	assert_int_equal(nsctl_fds_keep_only(keep, 2), 0);
	assert_true(cloexec(a));
	assert_false(cloexec(b)); /* kept: made inheritable even though it was O_CLOEXEC */
	assert_true(cloexec(c));
	assert_true(cloexec(high));
	assert_false(cloexec(0));
	assert_false(cloexec(1));
	assert_false(cloexec(2));

	assert_int_equal(nsctl_fds_keep_only(NULL, 0), 0);
	assert_true(cloexec(b));
	close(a);
	close(b);
	close(c);
	close(high);
}

static void test_keep_only_bad_fd(void **state)
{
	int keep_bad[] = { 777 }, keep_negative[] = { -1 };
	int a = open("/dev/null", O_RDONLY);

	assert_int_equal(nsctl_fds_keep_only(keep_bad, 1), -EBADF);
	assert_int_equal(nsctl_fds_keep_only(keep_negative, 1), -EBADF);
	assert_int_equal(nsctl_fds_keep_only(NULL, 1), -EINVAL);
	/* Nothing was changed by a refused call. */
	assert_false(cloexec(a));
	close(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keep_only),
		cmocka_unit_test(test_keep_only_bad_fd),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
