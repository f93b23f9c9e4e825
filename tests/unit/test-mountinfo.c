// SPDX-License-Identifier: LGPL-2.1-or-later
/* Unit tests of lib/mountinfo.c: the mountinfo line parser and "type:[inode]" links. */
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
	enum nsctl_type type = NSCTL_TYPE_COUNT;
	ino_t ino = 0;

	assert_int_equal(ns_link_parse("pid_for_children:[5]", &type, &ino), -EINVAL);
	assert_int_equal(ns_link_parse("uts:[4026531838]", &type, &ino), 0);
	assert_int_equal(type, NSCTL_TYPE_UTS);
	assert_int_equal(ino, 4026531838u);
	assert_int_equal(ns_link_parse("mnt:[1]", &type, NULL), 0);
	assert_int_equal(type, NSCTL_TYPE_MNT);
	type = NSCTL_TYPE_COUNT;
	assert_int_equal(ns_link_parse("uts:[]", &type, &ino), -EINVAL);
	assert_int_equal(ns_link_parse("uts:[0]", &type, &ino), -EINVAL);
	assert_int_equal(ns_link_parse("uts:[12", &type, &ino), -EINVAL);
	assert_int_equal(ns_link_parse("uts:[12]x", &type, &ino), -EINVAL);
	assert_int_equal(ns_link_parse("foo:[12]", &type, &ino), -EINVAL);
	assert_int_equal(ns_link_parse("/", &type, &ino), -EINVAL);
	assert_int_equal(ns_link_parse("uts:[99999999999999999999999]", &type, &ino), -EINVAL);
	assert_int_equal(type, NSCTL_TYPE_COUNT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_line),
		cmocka_unit_test(test_nsfs_line_with_escapes_and_no_optional_fields),
		cmocka_unit_test(test_several_optional_fields),
		cmocka_unit_test(test_malformed_lines),
		cmocka_unit_test(test_ns_link_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
