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

static const char *cell(void *row, int column)
{
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

/*
 * nsctl's matcher (src/ere.c) sets aside, at compile time, all the memory a
 * match needs: its repetitions written out, a pattern has at most 20,000
 * states, and its groups and repetitions nest at most 200 deep.
 */
static void test_regex_size(void **state)
{
	char expression[2048];

	assert_false(matches("TYPE =~ \"(n{31}){31}\"", &busy));
	assert_false(matches("TYPE =~ \"n{600}{2}\"", &busy));
	assert_true(matches("TYPE =~ \"n{19990}|net\"", &busy));
	refused("TYPE =~ \"(a{3000}){3000}\"", 6, "too big: written out");
	refused("TYPE =~ \"n{20000}\"", 6, "too big");
	refused("TYPE !~ \"((a{100}){100}){100}\"", 6, "too big");
	/* A brace inside brackets or after a backslash is no repetition. */
	assert_true(matches("TYPE =~ \"^[[:alpha:]{30000}]+$\"", &busy));
	assert_true(matches("TYPE =~ \"^[]{30000}]|net\"", &busy));
	assert_false(matches("TYPE =~ \"t\\{30000\\}\"", &busy));
	/* No back-references: extended expressions have none in POSIX. */
	refused("TYPE =~ \"(|)(\\1\\1)*\"", 6, "back-references are not supported");
	refused("NS == 1 || TYPE !~ \"(n)\\9\"", 17, "back-references are not supported");
	assert_true(matches("TYPE =~ \"^n[\\1]?e\\0?t$\"", &busy));
	/* A count past regcomp()'s RE_DUP_MAX is refused as regcomp() refuses it. */
	refused("TYPE =~ \"a{99999999999999999999}\"", 6, "invalid content of {}");
	refused("TYPE =~ \"a{32768}\"", 6, "invalid content of {}");
	/* Groups nest 200 deep, no deeper. */
	assert_true(matches(pattern_of(expression, "(", 200, "net", ")", 200), &busy));
	refused(pattern_of(expression, "(", 201, "", "", 0), 6, "nest too deep");
	/* Where in the pattern, said. */
	refused("TYPE =~ 'ab[c'", 6, "unmatched [, at character 3 of it");
	refused("TYPE =~ '*'", 6, "a repetition with nothing before it, at character 1");
}

/*
 * What made glibc's matcher slow or fail (exponential or quadratic patterns on
 * texts made for them) is one pass over the text here, whatever the text.
 */
static void test_regex_hostile(void **state)
{
	static char text[1 << 16];
	struct row row = { { "1", text, "1", "1", "", "0", "0" } };

	memset(text, 'a', sizeof(text) - 1);
	assert_false(matches("TYPE =~ \"^(a|a)*b$\"", &row));
	assert_false(matches("TYPE =~ \"(a*)*b\"", &row));
	assert_false(matches("TYPE =~ \"(a+a+)+b\"", &row));
	assert_false(matches("TYPE =~ \".*x.{30}y\"", &row));
	assert_true(matches("TYPE =~ \"^(a|aa){100}\"", &row));
	assert_true(matches("TYPE =~ \"a{1000}$\"", &row));
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
		cmocka_unit_test(test_comparisons), cmocka_unit_test(test_word_operators),
		cmocka_unit_test(test_empty_cells), cmocka_unit_test(test_bare_values),
		cmocka_unit_test(test_precedence),  cmocka_unit_test(test_regex),
		cmocka_unit_test(test_regex_size),  cmocka_unit_test(test_regex_hostile),
		cmocka_unit_test(test_type_names),  cmocka_unit_test(test_bad_expressions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
