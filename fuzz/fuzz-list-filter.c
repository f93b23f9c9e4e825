// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * list -Q's expressions (src/list-filter.c): any text is parsed without a
 * crash, a leak or undefined behaviour.  A refused expression has a reason and
 * a position inside it (1 to its length + 1).  An accepted one is evaluated
 * on a few rows, and logic holds: "!(E)" is the opposite of E, "(E) && (E)"
 * and "(E) || (E)" are E, where the wrapped text is accepted (it may nest one
 * level too deep); a row E cannot be evaluated on (-EINVAL, -ERANGE) fails
 * them all.
 * Input: the expression (up to a NUL byte).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fuzz.h"
#include "list-filter.h"

static const struct {
	const char *name;
	enum list_filter_type type;
} columns[] = {
	{ "NS", LIST_FILTER_NUMBER },     { "TYPE", LIST_FILTER_STRING },
	{ "NPROCS", LIST_FILTER_NUMBER }, { "PID", LIST_FILTER_NUMBER },
	{ "NSFS", LIST_FILTER_STRING },   { "NETNSID", LIST_FILTER_STRING },
	{ "FLAG", LIST_FILTER_BOOLEAN },
};
#define N_COLUMNS (sizeof(columns) / sizeof(columns[0]))

static int lookup(const char *name, size_t length, enum list_filter_type *ret_type)
{
	for (size_t c = 0; c < N_COLUMNS; c++)
		if (strlen(columns[c].name) == length &&
		    strncasecmp(columns[c].name, name, length) == 0) {
			*ret_type = columns[c].type;
			return (int)c;
		}
	return -1;
}

struct row {
	const char *cells[N_COLUMNS];
};

static const struct row rows[] = {
	{ { "4026531840", "net", "2", "1234", NULL, "0", "1" } },
	{ { "4026532999", "net", "0", NULL, "/run/netns/a\n/run/netns/b", "unassigned", "0" } },
	{ { "4026531838", "uts", "85", "1", "", NULL, "false" } },
	{ { "18446744073709551615", "x\xff\x01", "1.5", "", "\n", "-1", "" } },
};

static const char *cell(void *row, int column)
{
	fuzz_assert(column >= 0 && (size_t)column < N_COLUMNS);
	return ((const struct row *)row)->cells[column];
}

/* Parse TEXT: 1 and the results on every row, 0 when refused, with the reason checked. */
static int evaluate(const char *text, int *ret_results)
{
	struct list_filter_error error = { 0 };
	struct list_filter *filter = NULL;
	int r = list_filter_parse(text, lookup, &filter, &error);

	if (r == -ENOMEM)
		return -1;
	if (r < 0) {
		fuzz_assert(r == -EINVAL);
		fuzz_assert(!filter);
		fuzz_assert(error.reason[0]);
		fuzz_assert(error.position >= 1 && error.position <= strlen(text) + 1);
		return 0;
	}
	fuzz_assert(r == 0 && filter);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		ret_results[i] = list_filter_match(filter, cell, (void *)&rows[i]);
		if (ret_results[i] == -ENOMEM)
			abort();
		fuzz_assert(ret_results[i] == 0 || ret_results[i] == 1 ||
			    ret_results[i] == -EINVAL || ret_results[i] == -ERANGE);
	}
	list_filter_free(filter);
	return 1;
}

static int evaluate_wrapped(const char *format, const char *text, int *ret_results)
{
	size_t size = strlen(format) + 2 * strlen(text) + 1;
	char *wrapped = malloc(size);
	int r;

	if (!wrapped)
		abort();
	snprintf(wrapped, size, format, text, text);
	r = evaluate(wrapped, ret_results);
	free(wrapped);
	return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum { N_ROWS = sizeof(rows) / sizeof(rows[0]) };
	int plain[N_ROWS], other[N_ROWS];
	char *text = fuzz_string(data, size);

	if (evaluate(text, plain) == 1) {
		if (evaluate_wrapped("!(%s)%.0s", text, other) == 1)
			for (size_t i = 0; i < N_ROWS; i++)
				if (plain[i] < 0 ? other[i] != plain[i] : other[i] != !plain[i])
					fuzz_fail("'%s' gives %d and its negation %d on row %zu",
						  text, plain[i], other[i], i);
		if (evaluate_wrapped("(%s) && (%s)", text, other) == 1)
			fuzz_assert(memcmp(plain, other, sizeof(plain)) == 0);
		if (evaluate_wrapped("(%s) || (%s)", text, other) == 1)
			fuzz_assert(memcmp(plain, other, sizeof(plain)) == 0);
	}
	free(text);
	return 0;
}
