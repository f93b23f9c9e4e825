// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of src/list-filter.c: list -Q's parser and evaluator, on rows made up here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <cmocka.h>

#include "list-filter.h"

/* A column table of its own: the filter knows columns only through these callbacks. */
enum { C_NS, C_TYPE, C_NPROCS, C_PID, C_NSFS, C_NETNSID, C_FLAG, C_COUNT };
static const struct {
	const char *name;
	enum list_filter_type type;
} columns[C_COUNT] = {
	[C_NS] = { "NS", LIST_FILTER_NUMBER },
	[C_TYPE] = { "TYPE", LIST_FILTER_STRING },
	[C_NPROCS] = { "NPROCS", LIST_FILTER_NUMBER },
	[C_PID] = { "PID", LIST_FILTER_NUMBER },
	[C_NSFS] = { "NSFS", LIST_FILTER_STRING },
	[C_NETNSID] = { "NETNSID", LIST_FILTER_STRING },
	[C_FLAG] = { "FLAG", LIST_FILTER_BOOLEAN },
};

static int lookup(const char *name, size_t length, enum list_filter_type *ret_type)
{
	for (int c = 0; c < C_COUNT; c++)
		if (strlen(columns[c].name) == length &&
		    strncasecmp(columns[c].name, name, length) == 0) {
			*ret_type = columns[c].type;
			return c;
		}
	return -1;
}

struct row {
	const char *cells[C_COUNT];
};

/* The guard's calls: each "on" followed by its "off", counted. */
struct guard_calls {
	int on, off;
	bool inside;
};

/* The guard calls under way, if a test counts them: no cell is read inside the guard. */
static const struct guard_calls *guard_calls;

static const char *cell(void *row, int column)
{
	assert_false(guard_calls && guard_calls->inside);
	return ((struct row *)row)->cells[column];
}

/* A net namespace with two processes, and a pinned one with none (no PID: an empty cell). */
static struct row busy = { { "4026531840", "net", "2", "1234", NULL, "0", "1" } };
static struct row pinned = { { "4026532999", "net", "0", NULL, "/run/netns/a\n/run/netns/b",
			       "unassigned", "0" } };
static struct row uts = { { "4026531838", "uts", "85", "1", "", NULL, "false" } };

/* 1 or 0, or the negative errno of a row the expression cannot be evaluated on. */
static int evaluated(const char *expression, struct row *row)
{
	struct list_filter_error error = { 0 };
	struct list_filter *filter = NULL;
	int result;
	int r = list_filter_parse(expression, lookup, &filter, &error);

	if (r != 0)
		fail_msg("'%s' refused: at %zu: %s", expression, error.position, error.reason);
	result = list_filter_match(filter, cell, row);
	list_filter_free(filter);
	return result;
}

static bool matches(const char *expression, struct row *row)
{
	int r = evaluated(expression, row);

	if (r < 0)
		fail_msg("'%s' failed: %s", expression, strerror(-r));
	return r;
}

/* The expression is refused at POSITION with a reason that contains WHAT. */
static void refused(const char *expression, size_t position, const char *what)
{
	struct list_filter_error error = { 0 };
	struct list_filter *filter = NULL;
	int r = list_filter_parse(expression, lookup, &filter, &error);

	if (r != -EINVAL)
		fail_msg("'%s' gave %d, not -EINVAL", expression, r);
	assert_null(filter);
	if (error.position != position || !strstr(error.reason, what))
		fail_msg("'%s': at %zu: %s; expected at %zu: ...%s...", expression, error.position,
			 error.reason, position, what);
}

static void test_comparisons(void **state)
{
	assert_true(matches("TYPE == \"net\"", &busy));
	assert_false(matches("TYPE == \"net\"", &uts));
	assert_true(matches("TYPE != 'net'", &uts));
	assert_true(matches("NPROCS < 3", &busy));
	assert_false(matches("NPROCS < 2", &busy));
	assert_true(matches("NPROCS <= 2", &busy));
	assert_true(matches("NPROCS > 1", &busy));
	assert_false(matches("NPROCS > 2", &busy));
	assert_true(matches("NPROCS >= 2", &busy));
	/* Numbers compare as numbers, not as text: "85" > "100" as strings. */
	assert_false(matches("NPROCS > 100", &uts));
	assert_true(matches("NPROCS > 9.5", &uts));
	assert_true(matches("NPROCS == 85.0", &uts));
	assert_true(matches("NS == 4026531840", &busy));
	assert_true(matches("NS == \"4026531840\"", &busy));
	/* 64-bit values compare exactly. */
	assert_true(matches("NS < 18446744073709551615", &busy));
	/* A string column whose text is a number, against a number: read as a number. */
	assert_true(matches("NETNSID == 0", &busy));
	assert_true(matches("NETNSID == \"unassigned\"", &pinned));
	/* ...and text that is none fails the row, as in libsmartcols. */
	assert_int_equal(evaluated("NETNSID == 0", &pinned), -EINVAL);
	assert_int_equal(evaluated("TYPE > 1", &busy), -EINVAL);
	assert_int_equal(evaluated("NETNSID == 0", &uts), 0); /* empty: no number, no failure */
	/* A number column against a string: compared as text. */
	assert_true(matches("NPROCS == \"85\"", &uts));
	assert_true(matches("NPROCS < \"9\"", &uts));
	/* Blanks around a string or a cell do not count. */
	assert_true(matches("TYPE == \"  net \"", &busy));
	/* Booleans: a condition compared with one, or with a number. */
	assert_true(matches("(TYPE == \"net\") == true", &busy));
	assert_true(matches("(TYPE == \"net\") == 1", &busy));
	assert_true(matches("FLAG == TRUE", &busy));
	assert_true(matches("FLAG == false", &uts));
	/* Strings in order. */
	assert_true(matches("TYPE < \"uts\"", &busy));
	assert_true(matches("TYPE >= \"uts\"", &uts));
	/* Column against column. */
	assert_true(matches("PID < NPROCS", &uts));
	assert_false(matches("PID > NPROCS", &uts));
}

static void test_word_operators(void **state)
{
	assert_true(matches("TYPE eq \"net\" and NPROCS gt 1", &busy));
	assert_true(
	    matches("type NE \"uts\" AND nprocs LT 3 and NPROCS le 2 and NPROCS GE 2", &busy));
	assert_true(matches("not (TYPE eq \"uts\") or NPROCS eq 0", &busy));
	assert_false(matches("NOT (TYPE eq \"net\")", &busy));
}

static void test_empty_cells(void **state)
{
	/* A namespace with no process has no PID: no comparison with a number holds, != neither. */
	assert_false(matches("PID == 0", &pinned));
	assert_false(matches("PID < 100", &pinned));
	assert_false(matches("PID >= 0", &pinned));
	assert_false(matches("PID != 1", &pinned));
	assert_true(matches("!(PID == 1)", &pinned));
	/* A string column's empty cell is before every string, "" too. */
	assert_false(matches("NSFS == \"\"", &busy));
	assert_true(matches("NSFS < \"\"", &busy));
	assert_true(matches("NSFS != \"x\"", &busy));
	/* A number column's, turned into text or a fraction, is 0 (libsmartcols 2.41 does so). */
	assert_true(matches("PID == \"0\"", &pinned));
	assert_true(matches("PID < 1.5", &pinned));
	assert_false(matches("PID", &pinned));
	assert_true(matches("!PID", &pinned));
}

static void test_bare_values(void **state)
{
	assert_true(matches("PID", &busy));
	assert_false(matches("NPROCS", &pinned));
	assert_true(matches("NSFS", &pinned));
	assert_false(matches("NSFS", &busy));
	assert_false(matches("NSFS", &uts));
	assert_true(matches("FLAG", &busy));
	assert_false(matches("FLAG", &pinned));
	assert_false(matches("FLAG", &uts));
	assert_true(matches("1", &busy));
	assert_false(matches("0", &busy));
	assert_true(matches("'x'", &busy));
	assert_false(matches("''", &busy));
}

static void test_precedence(void **state)
{
	/* && and || are one level, from the left: "A || B && C" is "(A || B) && C". */
	assert_false(matches("TYPE == \"net\" || TYPE == \"uts\" && NPROCS == 7", &busy));
	assert_true(matches("TYPE == \"net\" || (TYPE == \"uts\" && NPROCS == 7)", &busy));
	assert_true(matches("NPROCS == 7 && TYPE == \"uts\" || TYPE == \"net\"", &busy));
	/* ! takes the value after it: "! TYPE == X" is "(!TYPE) == X", a boolean compared. */
	assert_true(matches("! TYPE == \"uts\" && NPROCS == 2", &busy));
	assert_false(matches("! TYPE == true", &busy));
	assert_true(matches("! NPROCS == 1", &pinned));
	assert_false(matches("! NPROCS == 1", &busy));
	/* Comparisons chain from the left. */
	assert_true(matches("NPROCS == 2 == true", &busy));
	assert_false(matches("!(TYPE == \"net\" || NPROCS == 0)", &pinned));
	assert_true(matches("!!TYPE", &busy));
	assert_true(matches("!(!(TYPE == \"net\"))", &busy));
	/* Left to right, whatever the nesting. */
	assert_true(matches("((TYPE == \"net\")) && (((NPROCS == 2)))", &busy));
	assert_true(matches("NPROCS==2&&TYPE==\"net\"||NS==1", &busy));
}

static void test_regex(void **state)
{
	assert_true(matches("TYPE =~ \"^n.t$\"", &busy));
	assert_false(matches("TYPE =~ \"^n.t$\"", &uts));
	assert_true(matches("TYPE !~ \"^n\"", &uts));
	assert_false(matches("TYPE !~ \"^n\"", &busy));
	/* Extended syntax: alternation and intervals without backslashes. */
	assert_true(matches("TYPE =~ '^(net|uts)$'", &uts));
	assert_true(matches("NS =~ \"^40265[0-9]{5}$\"", &busy));
	/* A cell of several lines: ^ and $ match at its ends only, '.' matches a line end. */
	assert_false(matches("NSFS =~ \"^/run/netns/b$\"", &pinned));
	assert_true(matches("NSFS =~ \"^/run/netns/a./run/netns/b$\"", &pinned));
	/* A backslash stays, for the regex: \. is a dot. */
	assert_false(matches("NSFS =~ '\\.'", &pinned));
	assert_true(matches("NSFS =~ 'netns.a'", &pinned));
	assert_true(matches("TYPE =~ \"\"", &busy));
	/* A number column matched as its text. */
	assert_true(matches("NPROCS =~ \"^8\"", &uts));
}

static void count_guard(void *userdata, bool on)
{
	struct guard_calls *calls = userdata;

	assert_int_equal(calls->inside, !on);
	calls->inside = on;
	if (on)
		calls->on++;
	else
		calls->off++;
}

/* Every regcomp() and regexec() of matching runs inside the guard; nothing else does. */
static void test_pattern_guard(void **state)
{
	struct list_filter_error error = { 0 };
	struct list_filter *filter = NULL;
	struct guard_calls calls = { 0 };

	assert_int_equal(list_filter_parse("TYPE =~ \"^uts$\" || NSFS !~ \"a\" || NPROCS > 1",
					   lookup, &filter, &error),
			 0);
	assert_true(list_filter_has_pattern(filter));
	list_filter_set_pattern_guard(filter, count_guard, &calls);
	guard_calls = &calls;
	/* busy: both patterns tried, the first fails, the second (an empty cell) is true. */
	assert_int_equal(list_filter_match(filter, cell, &busy), 1);
	assert_int_equal(calls.on, 2);
	/* uts: the first pattern matches, and the rest is not evaluated. */
	assert_int_equal(list_filter_match(filter, cell, &uts), 1);
	assert_int_equal(calls.on, 3);
	assert_int_equal(calls.off, 3);
	assert_false(calls.inside);
	guard_calls = NULL;
	list_filter_free(filter);

	assert_int_equal(list_filter_parse("NPROCS > 1", lookup, &filter, &error), 0);
	assert_false(list_filter_has_pattern(filter));
	list_filter_free(filter);
}

/*
 * AddressSanitizer's allocator aborts when one of its own mmap()s meets
 * RLIMIT_DATA: the test of running out of memory is not in that build.
 */
#if defined(__SANITIZE_ADDRESS__)
#define WITH_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WITH_ASAN 1
#endif
#endif

#ifndef WITH_ASAN
/* RLIMIT_DATA inside the guard (8 MiB above what was mapped) and outside it. */
static struct rlimit tight, loose;

static void tight_guard(void *userdata, bool on)
{
	count_guard(userdata, on);
	assert_int_equal(setrlimit(RLIMIT_DATA, on ? &tight : &loose), 0);
}

/* What this process has mapped, as RLIMIT_DATA counts it, in bytes. */
static rlim_t data_mapped(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[128];
	unsigned long kib = 0;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f) && sscanf(line, "VmData: %lu kB", &kib) != 1)
		;
	fclose(f);
	assert_true(kib > 0);
	return (rlim_t)kib * 1024;
}

/* Whether the tight limit holds here: under valgrind, whose allocator is its own, it does not. */
static bool data_limit_enforced(void)
{
	void *p;

	assert_int_equal(setrlimit(RLIMIT_DATA, &tight), 0);
	p = mmap(NULL, 32 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_int_equal(setrlimit(RLIMIT_DATA, &loose), 0);
	if (p == MAP_FAILED)
		return true;
	munmap(p, 32 << 20);
	return false;
}

/*
 * A text made for the pattern needs 100 MB of glibc's matcher: out of memory
 * twice, the row is -ENOMEM (glibc alone would say "no match"); the pattern,
 * compiled anew, still matches the next text that matches.
 */
static void test_pattern_out_of_memory(void **state)
{
	static char text[4001];
	struct row hostile = { { "4026532000", text, "1", "1000", NULL, NULL, "0" } };
	struct row fine = { { "4026532001",
			      "zzzzx"
			      "qqqqqqqqqqqqqqqqqqqqqqqqqqqqqq"
			      "y",
			      "1", "1001", NULL, NULL, "0" } };
	struct list_filter_error error = { 0 };
	struct list_filter *filter = NULL;
	struct guard_calls calls = { 0 };

	srand(5);
	for (size_t i = 0; i < sizeof(text) - 1; i++)
		text[i] = rand() % 2 ? 'x' : 'z';
	assert_int_equal(list_filter_parse("TYPE =~ \".*x.{30}y\"", lookup, &filter, &error), 0);
	assert_int_equal(getrlimit(RLIMIT_DATA, &loose), 0);
	tight = loose;
	tight.rlim_cur = data_mapped() + (8 << 20);
	if (!data_limit_enforced()) {
		list_filter_free(filter);
		skip();
	}
	list_filter_set_pattern_guard(filter, tight_guard, &calls);
	guard_calls = &calls;
	assert_int_equal(list_filter_match(filter, cell, &hostile), -ENOMEM);
	assert_int_equal(list_filter_match(filter, cell, &fine), 1);
	/* The hostile row: a match, then a compile and a match; the fine one: a compile and a
	 * match. */
	assert_int_equal(calls.on, 5);
	assert_int_equal(calls.off, 5);
	guard_calls = NULL;
	list_filter_free(filter);
}
#endif

/* TYPE =~ "HEAD (N times) MIDDLE TAIL (M times)", in BUF (2048 bytes). */
static const char *pattern_of(char *buf, const char *head, size_t n, const char *middle,
			      const char *tail, size_t m)
{
	strcpy(buf, "TYPE =~ \"");
	for (size_t i = 0; i < n; i++)
		strcat(buf, head);
	strcat(buf, middle);
	for (size_t i = 0; i < m; i++)
		strcat(buf, tail);
	strcat(buf, "\"");
	return buf;
}

/* glibc's regcomp() writes repetitions out and recurses into groups: both are bounded first. */
static void test_regex_size(void **state)
{
	char expression[2048];

	/* 1024 items written out at most: "(n{31}){31}" is exactly that, one more copy is not. */
	assert_false(matches("TYPE =~ \"(n{31}){31}\"", &busy));
	refused("TYPE =~ \"(n{31}){32}\"", 6,
		"is too big: written out, with those before it, its repetitions come to more than "
		"1024");
	assert_true(matches("TYPE =~ \"n{1019}|net\"", &busy));
	refused("TYPE =~ \"n{1019}|nets\"", 6, "is too big");
	refused("TYPE =~ \"(a{3000}){3000}\"", 6, "is too big");
	refused("TYPE =~ \"n{600}{2}\"", 6, "is too big");
	refused("TYPE !~ \"((a{10}){10}){10}\"", 6, "is too big");
	/* Every branch of a group is written out with it, and each '|'; + twice. */
	assert_false(matches("TYPE =~ \"(ab|cd|ef){113}\"", &busy));
	refused("TYPE =~ \"(ab|cd|ef){114}\"", 6, "is too big");
	assert_false(matches("TYPE =~ \"n{600}\"", &busy));
	refused("TYPE =~ \"n{600}+\"", 6, "is too big");
	/* The patterns of one expression add up: all are compiled before the first row. */
	refused("TYPE =~ \"n{600}\" || TYPE =~ \"n{600}\"", 26, "with those before it");
	/* A brace inside brackets or after a backslash is no repetition. */
	assert_true(matches("TYPE =~ \"^[[:alpha:]{30000}]+$\"", &busy));
	assert_true(matches("TYPE =~ \"^[]{30000}]|net\"", &busy));
	assert_false(matches("TYPE =~ \"t\\{30000\\}\"", &busy));
	/* No back-references: glibc's regexec() overflowed its stack on this one. */
	refused("TYPE =~ \"(|)(\\1\\1)*\"", 6,
		"has a back-reference, \\1: extended ones have none in POSIX");
	refused("NS == 1 || TYPE !~ \"(n)\\9\"", 17, "has a back-reference, \\9");
	assert_true(matches("TYPE =~ \"^n[\\1]?e\\0?t$\"", &busy));
	/* A count past RE_DUP_MAX is regcomp()'s to refuse, with its own reason. */
	refused("TYPE =~ \"a{99999999999999999999}\"", 6, "bad regular expression after '=~'");
	/* Groups nest 200 deep, no deeper: 30,000 overflowed regcomp()'s stack. */
	assert_true(matches(pattern_of(expression, "(", 200, "net", ")", 200), &busy));
	refused(pattern_of(expression, "(", 201, "", "", 0), 6,
		"nests groups deeper than 200 levels");
	/* Each '|' is an item: 60,000 empty branches took regcomp() 12 GB. */
	assert_true(matches(pattern_of(expression, "|", 1023, "n", "", 0), &busy));
	refused(pattern_of(expression, "|", 1024, "n", "", 0), 6, "is too big");
}

static void test_type_names(void **state)
{
	list_filter_free(NULL);
	assert_string_equal(list_filter_type_name(LIST_FILTER_NUMBER), "number");
	assert_string_equal(list_filter_type_name(LIST_FILTER_STRING), "string");
	assert_string_equal(list_filter_type_name(LIST_FILTER_BOOLEAN), "boolean");
}

static void test_bad_expressions(void **state)
{
	char deep[1024];

	refused("", 1, "empty");
	refused("   ", 4, "empty");
	refused("NPROCS ==", 10, "expected a value after '=='");
	refused("NPROCS == 0 && TYPE ==", 23, "expected a value after '=='");
	refused("NPROCS eq && 1", 11, "expected a value after 'eq', not '&&'");
	refused("NOPE == 1", 1, "unknown column 'NOPE'");
	refused("TYPE == net", 9, "unknown column 'net'");
	refused("TYPE == \"net", 9, "no closing \"");
	refused("TYPE == 'net", 9, "no closing '");
	refused("(TYPE == \"net\"", 15, "expected ')' to close the '(' at 1");
	refused("TYPE == \"net\")", 14, "expected an operator, '&&', '||' or the end, not ')'");
	refused("TYPE == \"n\\\"et\"", 13, "not 'et'");
	refused("TYPE == \"net\nx\"", 9, "no closing \" on its line");
	refused("TYPE Eq \"net\"", 6, "not 'Eq'");
	refused("TYPE == True", 9, "unknown column 'True'");
	refused("NS == 18446744073709551616", 7, "larger than 18446744073709551615");
	refused("1 =~ \"x\"", 3, "needs a column or a string before it");
	refused("TYPE == \"x\" ;", 13, "unexpected character ';'");
	refused("TYPE\r== \"x\"", 5, "unexpected byte 0x0d");
	refused("TYPE \"net\"", 6, "not '\"net\"'");
	refused("! ", 3, "expected a value after '!'");
	refused("NPROCS = 1", 8, "'=' is not an operator");
	refused("NPROCS == 1 & 1", 13, "unexpected character '&'");
	refused("NPROCS == 1 | 1", 13, "unexpected character '|'");
	refused("NPROCS == 1x", 11, "'1x' is not a number");
	refused("NPROCS == 1.", 11, "not a number");
	refused("NPROCS == \x01", 11, "unexpected byte 0x01");
	refused("TYPE =~ \"(\"", 6, "bad regular expression after '=~'");
	refused("TYPE =~ 1", 6, "'=~' needs a regular expression in quotes");
	refused("TYPE !~ NSFS", 6, "'!~' needs a regular expression in quotes");
	refused("&& TYPE", 1, "expected a value here, not '&&'");
	refused("()", 2, "expected a value here, not ')'");
	refused("!", 2, "expected a value after '!'");
	refused("NPROCS == 1 ==", 15, "expected a value after '=='");
	refused("TYPE == == 1", 9, "expected a value after '==', not '=='");
	/* Nesting is bounded, so a long command line cannot overflow the stack. */
	memset(deep, '(', sizeof(deep) - 1);
	deep[sizeof(deep) - 1] = '\0';
	refused(deep, 201, "nested deeper than 200");
	memset(deep, '!', sizeof(deep) - 1);
	refused(deep, 201, "nested deeper than 200");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_comparisons),
		cmocka_unit_test(test_word_operators),
		cmocka_unit_test(test_empty_cells),
		cmocka_unit_test(test_bare_values),
		cmocka_unit_test(test_precedence),
		cmocka_unit_test(test_regex),
		cmocka_unit_test(test_regex_size),
		cmocka_unit_test(test_pattern_guard),
		cmocka_unit_test(test_type_names),
		cmocka_unit_test(test_bad_expressions),
#ifndef WITH_ASAN
		cmocka_unit_test(test_pattern_out_of_memory),
#endif
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
