// SPDX-License-Identifier: LGPL-2.1-or-later
/* Unit tests of lib/mountinfo.c: mountinfo lines and namespace link texts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <string.h>
#include <cmocka.h>

#include "internal.h"

static void test_link_parse(void **state)
{
	enum nsctl_type type;
	ino_t ino;

	assert_int_equal(ns_link_parse_length("net:[4026531840]", 16, &type, &ino), 0);
	assert_int_equal(type, NSCTL_TYPE_NET);
	assert_int_equal(ino, 4026531840u);
	assert_int_equal(ns_link_parse_length("pid_for_children:[1]", 20, &type, &ino), -EINVAL);
	assert_int_equal(ns_link_parse_length("time:[7]", 8, &type, &ino), 0);
	assert_int_equal(type, NSCTL_TYPE_TIME);
	/* Only the first LENGTH bytes count: a readlink buffer is not NUL-terminated. */
	assert_int_equal(ns_link_parse_length("uts:[12]xyz", 8, &type, &ino), 0);
	assert_int_equal(ino, 12);
	const char *bad[] = { "net:[]",
			      "net:[12",
			      "net:12]",
			      "net[12]",
			      "pipe:[12]",
			      "socket:[3]",
			      "anon_inode:[pidfd]",
			      "net:[1a]",
			      "net:[12]]",
			      ":[12]",
			      "",
			      "net:[99999999999999999999999]",
			      "/dev/null" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(ns_link_parse_length(bad[i], strlen(bad[i]), &type, &ino),
				 -EINVAL);
}

static void test_nsfs_line(void **state)
{
	struct mountinfo_nsfs m;

	assert_int_equal(
	    mountinfo_parse_nsfs("610 29 0:4 net:[4026532301] /run/netns/blue rw shared:5 - nsfs "
				 "nsfs rw\n",
				 &m),
	    1);
	assert_int_equal(m.type, NSCTL_TYPE_NET);
	assert_int_equal(m.ino, 4026532301u);
	assert_string_equal(m.mountpoint, "/run/netns/blue");
	/* No optional fields at all, and several. */
	assert_int_equal(mountinfo_parse_nsfs("1 2 0:4 uts:[5] /a rw - nsfs nsfs rw", &m), 1);
	assert_string_equal(m.mountpoint, "/a");
	assert_int_equal(
	    mountinfo_parse_nsfs("1 2 0:4 ipc:[6] /b rw shared:1 master:2 propagate_from:3 - nsfs "
				 "nsfs rw",
				 &m),
	    1);
	assert_int_equal(m.type, NSCTL_TYPE_IPC);
}

static void test_escapes(void **state)
{
	struct mountinfo_nsfs m;

	/* The kernel writes space, tab, newline and backslash as octal escapes. */
	assert_int_equal(mountinfo_parse_nsfs("1 2 0:4 mnt:[9] /tmp/a\\040b\\011c\\012d\\134e rw - "
					      "nsfs nsfs rw",
					      &m),
			 1);
	assert_string_equal(m.mountpoint, "/tmp/a b\tc\nd\\e");
	/* A backslash not followed by three octal digits stays as it is. */
	assert_int_equal(mountinfo_parse_nsfs("1 2 0:4 mnt:[9] /x\\9y\\04 rw - nsfs nsfs rw", &m),
			 1);
	assert_string_equal(m.mountpoint, "/x\\9y\\04");
}

static void test_other_mounts(void **state)
{
	struct mountinfo_nsfs m;

	assert_int_equal(mountinfo_parse_nsfs("22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 "
					      "rw",
					      &m),
			 0);
	/* A file system named like a namespace link, but not nsfs. */
	assert_int_equal(mountinfo_parse_nsfs("1 2 0:4 net:[5] /a rw - tmpfs nsfs rw", &m), 0);
	/* nsfs whose root is not a namespace link (the nsfs root itself). */
	assert_int_equal(mountinfo_parse_nsfs("1 2 0:4 / /a rw - nsfs nsfs rw", &m), 0);
	assert_int_equal(mountinfo_parse_nsfs("1 2 0:4 cgroup:[5] /a rw - nsfsx nsfs rw", &m), 0);
}

static void test_bad_lines(void **state)
{
	struct mountinfo_nsfs m;
	const char *bad[] = { "",
			      "\n",
			      "1 2 0:4 net:[5] /a rw",
			      "1 2 0:4 net:[5] /a rw shared:1",
			      "1 2 0:4 net:[5] /a rw -",
			      "1 2 0:4" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(mountinfo_parse_nsfs(bad[i], &m), -EINVAL);
	assert_int_equal(mountinfo_parse_nsfs(NULL, &m), -EINVAL);
	assert_int_equal(mountinfo_parse_nsfs("1 2 0:4 net:[5] /a rw - nsfs nsfs rw", NULL),
			 -EINVAL);
}

static void test_long_mountpoint(void **state)
{
	static char line[9000];
	struct mountinfo_nsfs m;
	size_t n;

	n = (size_t)snprintf(line, sizeof(line), "1 2 0:4 net:[5] /");
	memset(line + n, 'a', 5000);
	strcpy(line + n + 5000, " rw - nsfs nsfs rw");
	assert_int_equal(mountinfo_parse_nsfs(line, &m), -ENAMETOOLONG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_link_parse), cmocka_unit_test(test_nsfs_line),
		cmocka_unit_test(test_escapes),    cmocka_unit_test(test_other_mounts),
		cmocka_unit_test(test_bad_lines),  cmocka_unit_test(test_long_mountpoint),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
