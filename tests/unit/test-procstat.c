// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Unit tests of the /proc file parsers: proc_stat_parse (lib/process.c), the
 * one reader of /proc/PID/stat (the name and parent for list, the flags for
 * the kernel-thread check of enter and pin); proc_environ_split and
 * proc_cgroup_v2_path (lib/target.c), for enter --env and --join-cgroup.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "internal.h"

static struct proc_stat parsed(const char *text)
{
	struct proc_stat st;

	memset(&st, 0x5a, sizeof(st));
	proc_stat_parse(text, &st);
	return st;
}

static void test_plain(void **state)
{
	struct proc_stat st = parsed("1 (systemd) S 0 1 1 0 -1 4194560 12345 0\n");

	assert_true(st.has_comm);
	assert_string_equal(st.comm, "systemd");
	assert_int_equal(st.ppid, 0);
	assert_true(st.has_flags);
	assert_int_equal(st.flags, 4194560);
	st = parsed("4242 (sleep) R 17 4242 4242");
	assert_int_equal(st.ppid, 17);
	assert_false(st.has_flags);
	st = parsed("5 (x) S 2147483647");
	assert_int_equal(st.ppid, 2147483647);
	/* A kernel thread: PF_KTHREAD (0x00200000) in the flags word; the line may end there. */
	st = parsed("2 (kthreadd) S 0 0 0 0 -1 2129984");
	assert_true(st.has_flags);
	assert_int_equal(st.flags, 2129984);
	assert_true(st.flags & 0x00200000);
}

/* A process names itself: spaces, parentheses and ") S 1" are all possible in COMM. */
static void test_hostile_names(void **state)
{
	struct proc_stat st = parsed("7 (a) S 1 (b) R 99 7 7 0 -1 64 0\n");

	assert_string_equal(st.comm, "a) S 1 (b");
	assert_int_equal(st.ppid, 99);
	assert_true(st.has_flags);
	assert_int_equal(st.flags, 64);
	st = parsed("42 (a) S 1 1 1 1 1 99 () R 1 42 42 0 -1 4194560 5");
	assert_int_equal(st.flags, 4194560);
	st = parsed("7 (a name longer than sixteen) S 3 7");
	assert_int_equal(strlen(st.comm), 16);
	assert_string_equal(st.comm, "a name longer th");
	st = parsed("7 () Z 1");
	assert_true(st.has_comm);
	assert_string_equal(st.comm, "");
	assert_int_equal(st.ppid, 1);
}

static void test_bad_text(void **state)
{
	static const char *const bad_ppid[] = {
		"5 (x) S -1", "5 (x) S 2147483648", "5 (x) S 99999999999",
		"5 (x)S 1",   "5 (x) S  1",         "5 (x) S 1x",
		"5 (x) S +1", "5 (x) S ",           "5 (x) S",
		"5 (x)",
	};
	static const char *const bad_flags[] = {
		"5 (x) S 1 5 5 0 -1 x",  "5 (x) S 1 5 5 0 -1 -4", "5 (x) S 1 5 5 0 -1 4294967296",
		"5 (x) S 1 5 5 0 -1 4x", "5 (x) S 1 5 5 0 -1",    "5 (x) S 1 5 5 0 -1 ",
		"5 (x) S 1 5 5 0  -1 4", "5 (x) S 1 5 5 0 +1 4",  "5 (x) S 1 5 -- 0 -1 4",
	};
	struct proc_stat st;

	for (size_t i = 0; i < sizeof(bad_ppid) / sizeof(bad_ppid[0]); i++) {
		st = parsed(bad_ppid[i]);
		assert_string_equal(st.comm, "x");
		assert_int_equal(st.ppid, -1);
		assert_false(st.has_flags);
	}
	for (size_t i = 0; i < sizeof(bad_flags) / sizeof(bad_flags[0]); i++) {
		st = parsed(bad_flags[i]);
		assert_int_equal(st.ppid, 1);
		assert_false(st.has_flags);
	}
	st = parsed(")(");
	assert_false(st.has_comm);
	assert_string_equal(st.comm, "");
	st = parsed("5 x S 1");
	assert_false(st.has_comm);
	assert_int_equal(st.ppid, -1);
	st = parsed("");
	assert_false(st.has_comm);
	assert_false(st.has_flags);
}

static void test_environ_split(void **state)
{
	static const char text[] = "A=1\0B=two\0\0C=";
	char **env = NULL;

	/* SIZE is what was read; a NUL follows it, so a last string lacking one still ends. */
	assert_int_equal(proc_environ_split(text, sizeof(text) - 1, &env), 0);
	assert_string_equal(env[0], "A=1");
	assert_string_equal(env[1], "B=two");
	assert_string_equal(env[2], "");
	assert_string_equal(env[3], "C=");
	assert_null(env[4]);
	free(env);
	assert_int_equal(proc_environ_split("", 0, &env), 0);
	assert_null(env[0]);
	free(env);
}

static void test_cgroup_v2_path(void **state)
{
	char v1_and_v2[] = "12:pids:/a\n1:name=systemd:/b\n0::/user.slice/x.scope\n";
	char first_counts[] = "0::relative\n0::/second\n";
	char climbs[] = "0::/../../outside\n";
	char dots[] = "0::/a/..b/c..\n";
	char none[] = "12:pids:/a\n";
	char *path = NULL;

	assert_int_equal(proc_cgroup_v2_path(v1_and_v2, &path), 0);
	assert_string_equal(path, "/user.slice/x.scope");
	assert_int_equal(proc_cgroup_v2_path(dots, &path), 0);
	assert_string_equal(path, "/a/..b/c..");
	path = NULL;
	assert_int_equal(proc_cgroup_v2_path(first_counts, &path), -ENOENT);
	assert_int_equal(proc_cgroup_v2_path(climbs, &path), -EACCES);
	assert_int_equal(proc_cgroup_v2_path(none, &path), -ENOENT);
	assert_null(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),          cmocka_unit_test(test_hostile_names),
		cmocka_unit_test(test_bad_text),       cmocka_unit_test(test_environ_split),
		cmocka_unit_test(test_cgroup_v2_path),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
