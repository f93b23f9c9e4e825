// SPDX-License-Identifier: LGPL-2.1-or-later
/* Unit tests of common/number.c: the one set of rules for decimal numbers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "number.h"

static void test_parse(void **state)
{
	uint64_t v = 42;

	assert_int_equal(number_parse("0", 10, 0, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(number_parse("7", 10, 0, &v), 0);
	assert_int_equal(v, 7);
	assert_int_equal(number_parse("10", 10, 0, &v), 0);
	assert_int_equal(v, 10);
	assert_int_equal(number_parse("18446744073709551615", UINT64_MAX, 0, &v), 0);
	assert_true(v == UINT64_MAX);
	v = 42;
	/* Syntax: digits only, at least one, no sign, no blank, no base prefix. */
	const char *bad[] = { "",    "+1",  "-1", " 1",    "1 ", "\t1", "1\n", "0x10",
			      "1e3", "1.0", "１", "1_000", "01", "00",  "007" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(number_parse(bad[i], UINT64_MAX, 0, &v), -EINVAL);
	assert_int_equal(v, 42);
	assert_int_equal(number_parse(NULL, 10, 0, &v), -EINVAL);
	assert_int_equal(number_parse("1", 10, 0, NULL), -EINVAL);
	/* Range, after syntax. */
	assert_int_equal(number_parse("11", 10, 0, &v), -ERANGE);
	assert_int_equal(number_parse("18446744073709551616", UINT64_MAX, 0, &v), -ERANGE);
	assert_int_equal(number_parse("99999999999999999999999", UINT64_MAX, 0, &v), -ERANGE);
	assert_int_equal(number_parse("99999999999999999999999x", UINT64_MAX, 0, &v), -EINVAL);
	assert_int_equal(number_parse("1", 0, 0, &v), -ERANGE);
	assert_int_equal(number_parse("0", 0, 0, &v), 0);
	assert_int_equal(v, 0);
}

static void test_flags(void **state)
{
	uint64_t v = 42;

	assert_int_equal(number_parse("007", 10, NUMBER_LEADING_ZEROS, &v), 0);
	assert_int_equal(v, 7);
	assert_int_equal(number_parse("000", 10, NUMBER_LEADING_ZEROS, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(number_parse("0011", 10, NUMBER_LEADING_ZEROS, &v), -ERANGE);
	assert_int_equal(number_parse("0", 10, NUMBER_NOT_ZERO, &v), -EINVAL);
	assert_int_equal(number_parse("000", 10, NUMBER_NOT_ZERO | NUMBER_LEADING_ZEROS, &v),
			 -EINVAL);
	assert_int_equal(number_parse("01", 10, NUMBER_NOT_ZERO, &v), -EINVAL);
	assert_int_equal(number_parse("01", 10, NUMBER_NOT_ZERO | NUMBER_LEADING_ZEROS, &v), 0);
	assert_int_equal(v, 1);
}

static void test_length_and_int(void **state)
{
	uint64_t v = 0;
	int i = 5;

	assert_int_equal(number_parse_length("123]", 3, 1000, 0, &v), 0);
	assert_int_equal(v, 123);
	assert_int_equal(number_parse_length("123", 0, 1000, 0, &v), -EINVAL);
	assert_int_equal(number_parse_length("1x3", 3, 1000, 0, &v), -EINVAL);
	assert_int_equal(number_parse_int("2147483647", INT_MAX, 0, &i), 0);
	assert_int_equal(i, INT_MAX);
	assert_int_equal(number_parse_int("2147483648", INT_MAX, 0, &i), -ERANGE);
	assert_int_equal(number_parse_int("1", -1, 0, &i), -EINVAL);
	assert_int_equal(i, INT_MAX);
}

static void test_scan(void **state)
{
	const char *p = "0042 rest", *q;
	uint64_t v = 0;

	assert_int_equal(number_scan(&p, 100, &v), 0);
	assert_int_equal(v, 42);
	assert_string_equal(p, " rest");
	q = p;
	assert_int_equal(number_scan(&p, 100, &v), -EINVAL);
	assert_ptr_equal(p, q);
	p = "101\n";
	assert_int_equal(number_scan(&p, 100, &v), -ERANGE);
	assert_string_equal(p, "101\n");
	p = "18446744073709551615";
	assert_int_equal(number_scan(&p, UINT64_MAX, &v), 0);
	assert_true(v == UINT64_MAX && *p == '\0');
	p = "18446744073709551616";
	assert_int_equal(number_scan(&p, UINT64_MAX, &v), -ERANGE);
	/* Decimal stops at a hexadecimal letter. */
	p = "12ab";
	assert_int_equal(number_scan(&p, UINT64_MAX, &v), 0);
	assert_true(v == 12 && strcmp(p, "ab") == 0);
}

/* The capability masks of /proc/PID/status: hexadecimal, either case, no sign, no "0x". */
static void test_scan_hex(void **state)
{
	const char *p = "000001ffffffffff\n";
	uint64_t v;

	(void)state;
	assert_int_equal(number_scan_hex(&p, UINT64_MAX, &v), 0);
	assert_true(v == 0x1ffffffffffULL && strcmp(p, "\n") == 0);
	p = "ABCdef";
	assert_int_equal(number_scan_hex(&p, UINT64_MAX, &v), 0);
	assert_true(v == 0xabcdefULL && *p == '\0');
	p = "ffffffffffffffff";
	assert_int_equal(number_scan_hex(&p, UINT64_MAX, &v), 0);
	assert_true(v == UINT64_MAX);
	p = "10000000000000000";
	assert_int_equal(number_scan_hex(&p, UINT64_MAX, &v), -ERANGE);
	for (const char *bad = "-1\0+1\0 1\0x1\0g\0"; *bad; bad += strlen(bad) + 1) {
		p = bad;
		assert_int_equal(number_scan_hex(&p, UINT64_MAX, &v), -EINVAL);
		assert_ptr_equal(p, bad);
	}
	p = "0x10";
	assert_int_equal(number_scan_hex(&p, UINT64_MAX, &v), 0);
	assert_true(v == 0 && strcmp(p, "x10") == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),          cmocka_unit_test(test_flags),
		cmocka_unit_test(test_length_and_int), cmocka_unit_test(test_scan),
		cmocka_unit_test(test_scan_hex),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
