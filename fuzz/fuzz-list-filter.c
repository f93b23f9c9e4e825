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
#include "list-filter-rows.h"

/* Parse TEXT: 1 and the results on every row, 0 when refused, with the reason checked. */
static int evaluate(const char *text, int *ret_results)
{
	struct list_filter_error error = { 0 };
	struct list_filter *filter = NULL;
	int r = list_filter_parse(text, filter_rows_lookup, &filter, &error);

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
	for (size_t i = 0; i < N_FILTER_ROWS; i++) {
		ret_results[i] =
		    list_filter_match(filter, filter_rows_cell, (void *)filter_rows[i]);
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
	enum { N_ROWS = N_FILTER_ROWS };
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
