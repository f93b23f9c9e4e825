// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of src/parse.c: the command line's syntax for PIDs, IDs, type lists, maps, names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "parse.h"
#include "type-count.h"

/* What a hostname must not be: controls, formatting characters, bytes that are not UTF-8. */
static const char *const refused_names[] = {
	"a\302\23331mb",    /* CSI as U+009B in UTF-8 */
	"a\23331mb",        /* CSI as the one byte of an 8-bit terminal */
	"a\302\205",        /* NEL, U+0085 */
	"a\342\200\256cba", /* U+202E, right-to-left override */
	"a\342\201\246b",   /* U+2066, left-to-right isolate */
	"a\330\234b",       /* U+061C, Arabic letter mark */
	"a\342\200\213b",   /* U+200B, zero width space */
	"\357\273\277a",    /* U+FEFF, byte order mark */
	"a\303",            /* cut short */
	"a\342\200",        /* cut short */
	"\300\256",         /* overlong '.' */
	"\355\240\200",     /* a surrogate, U+D800 */
	"\364\220\200\200", /* beyond U+10FFFF */
	"\377",             /* never in UTF-8 */
};

static void test_types_parse(void **state)
{
	unsigned types = 12345;

	assert_int_equal(parse_types("net", &types), 0);
	assert_int_equal(types, NSCTL_TYPE_BIT(NSCTL_TYPE_NET));
	assert_int_equal(parse_types("net,uts,mount", &types), 0);
	assert_int_equal(types, NSCTL_TYPE_BIT(NSCTL_TYPE_NET) | NSCTL_TYPE_BIT(NSCTL_TYPE_UTS) |
				    NSCTL_TYPE_BIT(NSCTL_TYPE_MNT));
	assert_int_equal(parse_types("all", &types), 0);
	assert_int_equal(types, TYPES_ALL);

	types = 12345;
	assert_int_equal(parse_types("", &types), -EINVAL);
	assert_int_equal(parse_types(",", &types), -EINVAL);
	assert_int_equal(parse_types("net,", &types), -EINVAL);
	assert_int_equal(parse_types(",net", &types), -EINVAL);
	assert_int_equal(parse_types("net,,uts", &types), -EINVAL);
	assert_int_equal(parse_types("net,foo", &types), -EINVAL);
	assert_int_equal(parse_types("net ,uts", &types), -EINVAL);
	assert_int_equal(parse_types("net,all", &types), -EINVAL);
	assert_int_equal(parse_types("net,net", &types), -EEXIST);
	assert_int_equal(parse_types("mnt,mount", &types), -EEXIST);
	assert_int_equal(parse_types(NULL, &types), -EINVAL);
	assert_int_equal(parse_types("net", NULL), -EINVAL);
	assert_int_equal(types, 12345);
}

static void test_pid_parse(void **state)
{
	static const char *const bad[] = {
		"",     "0",   "-1", "+1",  " 1", "1 ",           "1x",
		"0x10", "010", "00", "1.0", "١",  "99999999999x",
	};
	pid_t pid = 77;

	assert_int_equal(parse_pid("1", &pid), 0);
	assert_int_equal(pid, 1);
	assert_int_equal(parse_pid("4194304", &pid), 0);
	assert_int_equal(pid, 4194304);
	assert_int_equal(parse_pid("2147483647", &pid), 0);
	assert_int_equal(pid, INT_MAX);

	pid = 77;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(parse_pid(bad[i], &pid), -EINVAL);
	assert_int_equal(parse_pid("2147483648", &pid), -ERANGE);
	assert_int_equal(parse_pid("99999999999999999999", &pid), -ERANGE);
	assert_int_equal(parse_pid(NULL, &pid), -EINVAL);
	assert_int_equal(parse_pid("1", NULL), -EINVAL);
	assert_int_equal(pid, 77);
}

static void test_id_parse(void **state)
{
	uint64_t id = 7;

	(void)state;
	assert_int_equal(parse_ns_id("4105", &id), 0);
	assert_true(id == 4105);
	assert_int_equal(parse_ns_id("18446744073709551615", &id), 0);
	assert_true(id == UINT64_MAX);
	assert_int_equal(parse_ns_id("18446744073709551616", &id), -ERANGE);
	assert_true(id == UINT64_MAX); /* untouched on failure */
	const char *bad[] = { "", "0", "01", "-1", "+1", " 1", "1 ", "1x", "0x10" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(parse_ns_id(bad[i], &id), -EINVAL);
	assert_int_equal(parse_ns_id(NULL, &id), -EINVAL);
	assert_int_equal(parse_ns_id("1", NULL), -EINVAL);
}

static void test_parse_good(void **state)
{
	struct nsctl_idmap_range r;

	/* util-linux's older form: OUTER,INNER,COUNT; one separator throughout. */
	assert_int_equal(parse_idmap_range("100000,0,65536", &r), 0);
	assert_true(r.inner == 0 && r.outer == 100000 && r.count == 65536);
	assert_int_equal(parse_idmap_range("100000,0:65536", &r), -EINVAL);
	assert_int_equal(parse_idmap_range("100000:0,65536", &r), -EINVAL);
	assert_int_equal(parse_idmap_range("0:100000:65536", &r), 0);
	assert_int_equal(r.inner, 0);
	assert_int_equal(r.outer, 100000);
	assert_int_equal(r.count, 65536);
	/* The last mappable ID is 4294967294. */
	assert_int_equal(parse_idmap_range("4294967294:0:1", &r), 0);
	assert_int_equal(parse_idmap_range("0:4294967294:1", &r), 0);
	assert_int_equal(parse_idmap_range("0:0:4294967295", &r), 0);
	assert_int_equal(parse_idmap_range("1:0:4294967295", &r), -ERANGE);
	assert_int_equal(parse_idmap_range("0:0:4294967294", &r), 0);
}

static void test_parse_bad(void **state)
{
	static const char *syntax[] = {
		"", "0", "0:0", "0:0:", ":0:1", "0::1", "a:b:c", "0:0:1:1", "-1:0:1", "0:0:+1",
		" 0:0:1", "0:0:1\n", "0x1:0:1",
		/* Found by fuzz-idmap: too long, but not a number at all. */
		"abcdefghijkl:0:1", "99999999991:0:'1"
	};
	static const char *range[] = { "0:0:0",          "4294967295:0:1", "0:4294967295:1",
				       "4294967294:0:2", "0:4294967294:2", "99999999999:0:1",
				       "0:0:99999999999" };
	struct nsctl_idmap_range r = { 7, 7, 7 };

	for (size_t i = 0; i < sizeof(syntax) / sizeof(*syntax); i++)
		assert_int_equal(parse_idmap_range(syntax[i], &r), -EINVAL);
	for (size_t i = 0; i < sizeof(range) / sizeof(*range); i++)
		assert_int_equal(parse_idmap_range(range[i], &r), -ERANGE);
	/* Nothing written on failure. */
	assert_int_equal(r.inner, 7);
	assert_int_equal(parse_idmap_range(NULL, &r), -EINVAL);
	assert_int_equal(parse_idmap_range("0:0:1", NULL), -EINVAL);
}

static void test_uts_name(void **state)
{
	/* The lengths are the kernel's rule, nsctl_uts_name_check()'s (test-setup): passed on. */
	assert_int_equal(check_printable_uts_name("host"), 0);
	assert_int_equal(check_printable_uts_name(""), -EINVAL);
	assert_int_equal(check_printable_uts_name(NULL), -EINVAL);
	assert_int_equal(check_printable_uts_name(
			     "a-name-of-65-bytes-is-one-more-than-the-kernel-takes-for-a-host-x"),
			 -ENAMETOOLONG);
	/* The rest is the command's: nothing a terminal would act on, UTF-8 only. */
	assert_int_equal(check_printable_uts_name("a\nb"), -EILSEQ);
	assert_int_equal(check_printable_uts_name("\tab"), -EILSEQ);
	assert_int_equal(check_printable_uts_name("ab\x7f"), -EILSEQ);
	assert_int_equal(check_printable_uts_name("\x1b]0;title\x07"), -EILSEQ);
	assert_int_equal(check_printable_uts_name("h\xc3\xa9te"), 0);
	assert_int_equal(check_printable_uts_name("a\rb"), -EILSEQ);
	for (size_t i = 0; i < sizeof(refused_names) / sizeof(*refused_names); i++)
		assert_int_equal(check_printable_uts_name(refused_names[i]), -EILSEQ);
	/* What shows as itself stays allowed: Latin, CJK, an emoji, U+00A0, U+FFFD. */
	assert_int_equal(check_printable_uts_name("h\303\251te-\346\227\245-\360\237\220\247"), 0);
	assert_int_equal(check_printable_uts_name("a\302\240b"), 0);
	assert_int_equal(check_printable_uts_name("\357\277\275"), 0);
}

static void test_propagation_parse(void **state)
{
	enum nsctl_propagation p = NSCTL_PROPAGATION_SHARED;

	assert_int_equal(parse_propagation("private", &p), 0);
	assert_int_equal(p, NSCTL_PROPAGATION_PRIVATE);
	assert_int_equal(parse_propagation("slave", &p), 0);
	assert_int_equal(p, NSCTL_PROPAGATION_SLAVE);
	assert_int_equal(parse_propagation("shared", &p), 0);
	assert_int_equal(parse_propagation("unchanged", &p), 0);
	assert_int_equal(p, NSCTL_PROPAGATION_UNCHANGED);
	assert_int_equal(parse_propagation("Private", &p), -EINVAL);
	assert_int_equal(parse_propagation("", &p), -EINVAL);
	assert_int_equal(p, NSCTL_PROPAGATION_UNCHANGED);
}

static void test_time_offset_parse(void **state)
{
	int64_t s = 99;

	/* The syntax is the command's; the range is the kernel's (nsctl_time_offset_check). */

	assert_int_equal(parse_time_offset("100", CLOCK_MONOTONIC, &s), 0);
	assert_int_equal(s, 100);
	assert_int_equal(parse_time_offset("+5", CLOCK_BOOTTIME, &s), 0);
	assert_int_equal(s, 5);
	assert_int_equal(parse_time_offset("-1", CLOCK_BOOTTIME, &s), 0);
	assert_int_equal(s, -1);
	assert_int_equal(parse_time_offset("4611686018", CLOCK_MONOTONIC, &s), -ERANGE);
	assert_int_equal(parse_time_offset("4000000000", CLOCK_MONOTONIC, &s), 0);
	/* Below zero: the machine has not been up that long. */
	assert_int_equal(parse_time_offset("-4000000000", CLOCK_MONOTONIC, &s), -ERANGE);
	assert_int_equal(parse_time_offset("99999999999999999999", CLOCK_MONOTONIC, &s), -ERANGE);
	s = 7;
	assert_int_equal(parse_time_offset("", CLOCK_MONOTONIC, &s), -EINVAL);
	assert_int_equal(parse_time_offset("1.5", CLOCK_MONOTONIC, &s), -EINVAL);
	assert_int_equal(parse_time_offset(" 1", CLOCK_MONOTONIC, &s), -EINVAL);
	assert_int_equal(parse_time_offset("1s", CLOCK_MONOTONIC, &s), -EINVAL);
	assert_int_equal(parse_time_offset("1", CLOCK_REALTIME, &s), -EINVAL);
	assert_int_equal(s, 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_types_parse),       cmocka_unit_test(test_pid_parse),
		cmocka_unit_test(test_id_parse),          cmocka_unit_test(test_parse_good),
		cmocka_unit_test(test_parse_bad),         cmocka_unit_test(test_uts_name),
		cmocka_unit_test(test_propagation_parse), cmocka_unit_test(test_time_offset_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
