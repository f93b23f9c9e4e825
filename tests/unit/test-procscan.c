// SPDX-License-Identifier: LGPL-2.1-or-later
/* Unit tests of lib/procscan.c: the name and parent read from /proc/PID/stat. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "list.h"

static struct proc_record parsed(const char *text)
{
	struct proc_record rec;

	memset(&rec, 0, sizeof(rec));
	strcpy(rec.comm, "unset");
	rec.ppid = -7;
	proc_stat_parse(text, &rec);
	return rec;
}

static void test_plain(void **state)
{
	struct proc_record rec = parsed("1 (systemd) S 0 1 1 0 -1 4194560 12345 0\n");

	assert_string_equal(rec.comm, "systemd");
	assert_int_equal(rec.ppid, 0);
	rec = parsed("4242 (sleep) R 17 4242 4242");
	assert_int_equal(rec.ppid, 17);
	rec = parsed("5 (x) S 2147483647");
	assert_int_equal(rec.ppid, 2147483647);
}

/* A process names itself: spaces, parentheses and ") S 1" are all possible in COMM. */
static void test_hostile_names(void **state)
{
	struct proc_record rec = parsed("7 (a) S 1 (b) R 99 7 7\n");

	assert_string_equal(rec.comm, "a) S 1 (b");
	assert_int_equal(rec.ppid, 99);
	rec = parsed("7 (a name longer than sixteen) S 3 7");
	assert_int_equal(strlen(rec.comm), 16);
	assert_string_equal(rec.comm, "a name longer th");
	rec = parsed("7 () Z 1");
	assert_string_equal(rec.comm, "");
	assert_int_equal(rec.ppid, 1);
}

static void test_bad_text(void **state)
{
	static const char *const bad_ppid[] = {
		"5 (x) S -1", "5 (x) S 2147483648", "5 (x) S 99999999999",
		"5 (x)S 1",   "5 (x) S  1",         "5 (x) S 1x",
		"5 (x) S +1", "5 (x) S ",           "5 (x) S",
		"5 (x)",
	};
	struct proc_record rec;

	for (size_t i = 0; i < sizeof(bad_ppid) / sizeof(bad_ppid[0]); i++) {
		rec = parsed(bad_ppid[i]);
		assert_string_equal(rec.comm, "x");
		assert_int_equal(rec.ppid, -7);
	}
	rec = parsed(")(");
	assert_string_equal(rec.comm, "unset");
	rec = parsed("5 x S 1");
	assert_string_equal(rec.comm, "unset");
	assert_int_equal(rec.ppid, -7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_hostile_names),
		cmocka_unit_test(test_bad_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
