// SPDX-License-Identifier: LGPL-2.1-or-later
/* Unit tests of lib/stale-pin.c: what is a stale pin, and what is left alone (as root). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "nsctl.h"
#include "type-count.h"

static char name[64];

static void make_file(const char *path, const char *content)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0444);

	assert_true(fd >= 0);
	if (*content)
		assert_int_equal(write(fd, content, strlen(content)), (ssize_t)strlen(content));
	close(fd);
}

static void test_stale_removed(void **state)
{
	char path[PATH_MAX];

	(void)state;
	if (geteuid() != 0)
		skip();
	mkdir("/run/nsctl", 0755);
	mkdir("/run/nsctl/uts", 0755);
	assert_true(nsctl_pin_name_path(NSCTL_TYPE_UTS, name, path, sizeof(path)) > 0);
	make_file(path, "");
	assert_int_equal(nsctl_pin_stale_remove(NSCTL_TYPE_UTS, name), 1);
	assert_int_equal(access(path, F_OK), -1);
	/* Nothing there: nothing stale. */
	assert_int_equal(nsctl_pin_stale_remove(NSCTL_TYPE_UTS, name), 0);
}

static void test_not_stale_left_alone(void **state)
{
	char path[PATH_MAX];

	(void)state;
	if (geteuid() != 0)
		skip();
	assert_true(nsctl_pin_name_path(NSCTL_TYPE_UTS, name, path, sizeof(path)) > 0);
	make_file(path, "data");
	assert_int_equal(nsctl_pin_stale_remove(NSCTL_TYPE_UTS, name), 0);
	assert_int_equal(access(path, F_OK), 0);
	unlink(path);
	assert_int_equal(symlink("/dev/null", path), 0);
	assert_int_equal(nsctl_pin_stale_remove(NSCTL_TYPE_UTS, name), 0);
	unlink(path);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(nsctl_pin_stale_remove(NSCTL_TYPE_UTS, name), 0);
	rmdir(path);
}

static void test_bad_names(void **state)
{
	(void)state;
	assert_int_equal(nsctl_pin_stale_remove(NSCTL_TYPE_NET, ".."), -EINVAL);
	assert_int_equal(nsctl_pin_stale_remove(NSCTL_TYPE_NET, "a/b"), -EINVAL);
	assert_int_equal(nsctl_pin_stale_remove(TYPE_COUNT, "a"), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stale_removed),
		cmocka_unit_test(test_not_stale_left_alone),
		cmocka_unit_test(test_bad_names),
	};

	snprintf(name, sizeof(name), "test-stale-pin-%d", (int)getpid());
	return cmocka_run_group_tests(tests, NULL, NULL);
}
