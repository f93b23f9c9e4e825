// SPDX-License-Identifier: LGPL-2.1-or-later
/* Unit tests of lib/mountinfo.c: mountinfo lines, their nsfs entries and "type:[inode]" links. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "internal.h"

static void test_plain_line(void **state)
{
	char line[] =
	    "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue\n";
	struct mountinfo_entry e;

	assert_int_equal(mountinfo_parse_line(line, &e), 0);
	assert_int_equal(e.mount_id, 36);
	assert_int_equal(e.parent_id, 35);
	assert_int_equal(e.major, 98);
	assert_int_equal(e.minor, 0);
	assert_string_equal(e.root, "/mnt1");
	assert_string_equal(e.mount_point, "/mnt2");
	assert_string_equal(e.options, "rw,noatime");
	assert_string_equal(e.optional, "master:1");
	assert_string_equal(e.fstype, "ext3");
	assert_string_equal(e.source, "/dev/root");
	assert_string_equal(e.super_options, "rw,errors=continue");
}

static void test_nsfs_line_with_escapes_and_no_optional_fields(void **state)
{
	char line[] = "45 27 0:4 net:[4026532281] /run/netns/my\\040net rw - nsfs nsfs rw";
	struct mountinfo_entry e;
	enum nsctl_type type;
	ino_t ino;

	assert_int_equal(mountinfo_parse_line(line, &e), 0);
	assert_string_equal(e.mount_point, "/run/netns/my net");
	assert_string_equal(e.optional, "");
	assert_string_equal(e.fstype, "nsfs");
	assert_int_equal(ns_link_parse(e.root, &type, &ino), 0);
	assert_int_equal(type, NSCTL_TYPE_NET);
	assert_int_equal(ino, 4026532281u);
}

static void test_several_optional_fields(void **state)
{
	char line[] = "1 2 0:5 / /x rw shared:3 master:4 propagate_from:5 - tmpfs none rw";
	struct mountinfo_entry e;

	assert_int_equal(mountinfo_parse_line(line, &e), 0);
	assert_string_equal(e.optional, "shared:3 master:4 propagate_from:5");
	assert_string_equal(e.fstype, "tmpfs");
	assert_string_equal(e.super_options, "rw");
}

static void test_malformed_lines(void **state)
{
	static const char *const bad[] = {
		"",
		"x 2 0:5 / /x rw - tmpfs none rw",
		"1 2 05 / /x rw - tmpfs none rw",
		"1 2 0:5 / /x rw shared:1 tmpfs none rw",
		"1 2 0:5 / /x rw -",
		"1 2 0:5 / /x rw - tmpfs",
		"1 2 0:5",
		"-1 2 0:5 / /x rw - tmpfs none rw",
		/* Numbers as the kernel prints them: no sign, no blank, no overflow. */
		"+1 2 0:5 / /x rw - tmpfs none rw",
		"1 \t2 0:5 / /x rw - tmpfs none rw",
		"1 2 0:+5 / /x rw - tmpfs none rw",
		"2147483648 2 0:5 / /x rw - tmpfs none rw",
		"1 2 99999999999:5 / /x rw - tmpfs none rw",
		"1 2 :5 / /x rw - tmpfs none rw",
		"1 2 0: / /x rw - tmpfs none rw",
	};
	struct mountinfo_entry e;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char line[128];

		snprintf(line, sizeof(line), "%s", bad[i]);
		assert_int_equal(mountinfo_parse_line(line, &e), -EINVAL);
	}
	assert_int_equal(mountinfo_parse_line(NULL, &e), -EINVAL);
}

static void test_ns_link_parse(void **state)
{
	enum nsctl_type type = TYPE_COUNT;
	ino_t ino = 0;

	assert_int_equal(ns_link_parse("pid_for_children:[5]", &type, &ino), -EINVAL);
	assert_int_equal(ns_link_parse("uts:[4026531838]", &type, &ino), 0);
	assert_int_equal(type, NSCTL_TYPE_UTS);
	assert_int_equal(ino, 4026531838u);
	assert_int_equal(ns_link_parse("mnt:[1]", &type, NULL), 0);
	assert_int_equal(type, NSCTL_TYPE_MNT);
	type = TYPE_COUNT;
	assert_int_equal(ns_link_parse("uts:[]", &type, &ino), -EINVAL);
	assert_int_equal(ns_link_parse("uts:[0]", &type, &ino), -EINVAL);
	assert_int_equal(ns_link_parse("uts:[12", &type, &ino), -EINVAL);
	assert_int_equal(ns_link_parse("uts:[12]x", &type, &ino), -EINVAL);
	assert_int_equal(ns_link_parse("foo:[12]", &type, &ino), -EINVAL);
	assert_int_equal(ns_link_parse("/", &type, &ino), -EINVAL);
	assert_int_equal(ns_link_parse("uts:[99999999999999999999999]", &type, &ino), -EINVAL);
	assert_int_equal(ns_link_parse("uts:[18446744073709551616]", &type, &ino), -EINVAL);
	assert_int_equal(ns_link_parse("uts:[012]", &type, &ino), -EINVAL);
	assert_int_equal(ns_link_parse("uts:[+12]", &type, &ino), -EINVAL);
	assert_int_equal(ns_link_parse(NULL, &type, &ino), -EINVAL);
	assert_int_equal(type, TYPE_COUNT);
	/* The largest inode a 64-bit ino_t holds. */
	assert_int_equal(ns_link_parse("ipc:[18446744073709551615]", &type, &ino), 0);
	assert_true(ino == (ino_t)18446744073709551615ull);
}

static void test_link_parse_length(void **state)
{
	enum nsctl_type type;
	ino_t ino;
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
			      "net:[",
			      "net:",
			      "net:[99999999999999999999999]",
			      "/dev/null" };

	assert_int_equal(ns_link_parse_length("net:[4026531840]", 16, &type, &ino), 0);
	assert_int_equal(type, NSCTL_TYPE_NET);
	assert_int_equal(ino, 4026531840u);
	assert_int_equal(ns_link_parse_length("pid_for_children:[1]", 20, &type, &ino), -EINVAL);
	assert_int_equal(ns_link_parse_length("time:[7]", 8, &type, &ino), 0);
	assert_int_equal(type, NSCTL_TYPE_TIME);
	/* Only the first LENGTH bytes count: a readlink buffer is not NUL-terminated. */
	assert_int_equal(ns_link_parse_length("uts:[12]xyz", 8, &type, &ino), 0);
	assert_int_equal(ino, 12);
	assert_int_equal(ns_link_parse_length("uts:[12]", 7, &type, &ino), -EINVAL);
	assert_int_equal(ns_link_parse_length("uts:[12]", 5, &type, &ino), -EINVAL);
	assert_int_equal(ns_link_parse_length("uts:[12]", 0, &type, &ino), -EINVAL);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(ns_link_parse_length(bad[i], strlen(bad[i]), &type, &ino),
				 -EINVAL);
}

static void test_nsfs_line(void **state)
{
	char blue[] = "610 29 0:4 net:[4026532301] /run/netns/blue rw shared:5 - nsfs nsfs rw\n";
	char none[] = "1 2 0:4 uts:[5] /a rw - nsfs nsfs rw";
	char several[] = "1 2 0:4 ipc:[6] /b rw shared:1 master:2 propagate_from:3 - nsfs nsfs rw";
	struct mountinfo_nsfs m;

	assert_int_equal(mountinfo_parse_nsfs(blue, &m), 1);
	assert_int_equal(m.type, NSCTL_TYPE_NET);
	assert_int_equal(m.ino, 4026532301u);
	/* The mount's ID: list finds a mount once when two tables show it. */
	assert_int_equal(m.mount_id, 610);
	assert_string_equal(m.mount_point, "/run/netns/blue");
	/* No optional fields at all, and several. */
	assert_int_equal(mountinfo_parse_nsfs(none, &m), 1);
	assert_string_equal(m.mount_point, "/a");
	assert_int_equal(mountinfo_parse_nsfs(several, &m), 1);
	assert_int_equal(m.type, NSCTL_TYPE_IPC);
	assert_string_equal(m.mount_point, "/b");
}

static void test_nsfs_escapes(void **state)
{
	char escaped[] = "1 2 0:4 mnt:[9] /tmp/a\\040b\\011c\\012d\\134e rw - nsfs nsfs rw";
	char lone[] = "1 2 0:4 mnt:[9] /x\\9y\\04 rw - nsfs nsfs rw";
	struct mountinfo_nsfs m;

	/* The kernel writes space, tab, newline and backslash as octal escapes. */
	assert_int_equal(mountinfo_parse_nsfs(escaped, &m), 1);
	assert_string_equal(m.mount_point, "/tmp/a b\tc\nd\\e");
	/* A backslash not followed by three octal digits stays as it is. */
	assert_int_equal(mountinfo_parse_nsfs(lone, &m), 1);
	assert_string_equal(m.mount_point, "/x\\9y\\04");
}

static void test_nsfs_other_mounts(void **state)
{
	static const char *const others[] = {
		"22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw",
		/* A file system named like a namespace link, but not nsfs. */
		"1 2 0:4 net:[5] /a rw - tmpfs nsfs rw",
		/* nsfs whose root is not a namespace link (the nsfs root itself). */
		"1 2 0:4 / /a rw - nsfs nsfs rw",
		"1 2 0:4 cgroup:[5] /a rw - nsfsx nsfs rw",
		"1 2 0:4 net:[05] /a rw - nsfs nsfs rw",
	};
	struct mountinfo_nsfs m = { .type = TYPE_COUNT };

	for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
		char line[128];

		snprintf(line, sizeof(line), "%s", others[i]);
		assert_int_equal(mountinfo_parse_nsfs(line, &m), 0);
	}
	assert_int_equal(m.type, TYPE_COUNT); /* *ret written only for an nsfs entry */
}

static void test_nsfs_bad_lines(void **state)
{
	static const char *const bad[] = { "",
					   "\n",
					   "1 2 0:4 net:[5] /a rw",
					   "1 2 0:4 net:[5] /a rw shared:1",
					   "1 2 0:4 net:[5] /a rw -",
					   "1 2 0:4" };
	char good[] = "1 2 0:4 net:[5] /a rw - nsfs nsfs rw";
	struct mountinfo_nsfs m;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char line[64];

		snprintf(line, sizeof(line), "%s", bad[i]);
		assert_int_equal(mountinfo_parse_nsfs(line, &m), -EINVAL);
	}
	assert_int_equal(mountinfo_parse_nsfs(NULL, &m), -EINVAL);
	assert_int_equal(mountinfo_parse_nsfs(good, NULL), -EINVAL);
}

/* A mount point longer than PATH_MAX is parsed whole: its readers check what fits. */
static void test_nsfs_long_mount_point(void **state)
{
	static char line[9000];
	struct mountinfo_nsfs m;
	size_t n;

	n = (size_t)snprintf(line, sizeof(line), "1 2 0:4 net:[5] /");
	memset(line + n, 'a', 5000);
	strcpy(line + n + 5000, " rw - nsfs nsfs rw");
	assert_int_equal(mountinfo_parse_nsfs(line, &m), 1);
	assert_int_equal(strlen(m.mount_point), 5001);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_line),
		cmocka_unit_test(test_nsfs_line_with_escapes_and_no_optional_fields),
		cmocka_unit_test(test_several_optional_fields),
		cmocka_unit_test(test_malformed_lines),
		cmocka_unit_test(test_ns_link_parse),
		cmocka_unit_test(test_link_parse_length),
		cmocka_unit_test(test_nsfs_line),
		cmocka_unit_test(test_nsfs_escapes),
		cmocka_unit_test(test_nsfs_other_mounts),
		cmocka_unit_test(test_nsfs_bad_lines),
		cmocka_unit_test(test_nsfs_long_mount_point),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
