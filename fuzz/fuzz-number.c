// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * common/number.c, the one decimal parser: the first byte chooses the flags and
 * the maximum, the rest is the text.  What it accepts is digits only, whose
 * value, printed, gives the text back (less its leading zeros where they are
 * allowed); -ERANGE only for well-formed text above the maximum; nothing
 * written on failure.  number_scan agrees with number_parse on a prefix.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "number.h"
#include "fuzz.h"

static const uint64_t maxima[] = { 0, 1, 9, 10, 255, 2147483647, 4294967294, UINT64_MAX };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned choice = size ? data[0] : 0;
	unsigned flags = choice & (NUMBER_LEADING_ZEROS | NUMBER_NOT_ZERO);
	uint64_t max = maxima[(choice >> 2) % (sizeof(maxima) / sizeof(maxima[0]))];
	char *text = fuzz_string(size ? data + 1 : data, size ? size - 1 : 0), printed[32];
	size_t length = strlen(text), zeros = strspn(text, "0");
	bool digits = length > 0 && strspn(text, "0123456789") == length;
	const char *significant = zeros == length ? text + length - (length > 0) : text + zeros;
	uint64_t value = 77, scanned = 78;
	const char *p = text;
	int r = number_parse(text, max, flags, &value), s;
	bool too_big;

	fuzz_assert(r == 0 || r == -EINVAL || r == -ERANGE);
	if (!digits)
		fuzz_assert(r == -EINVAL);
	if (digits && length > 1 && text[0] == '0' && !(flags & NUMBER_LEADING_ZEROS))
		fuzz_assert(r == -EINVAL);
	if (r == 0) {
		fuzz_assert(value <= max);
		fuzz_assert(!(flags & NUMBER_NOT_ZERO) || value != 0);
		snprintf(printed, sizeof(printed), "%" PRIu64, value);
		fuzz_assert(strcmp(printed, significant) == 0);
	} else {
		fuzz_assert(value == 77);
	}
	/* Too large: more significant digits than MAX has, or as many and greater. */
	snprintf(printed, sizeof(printed), "%" PRIu64, max);
	too_big = digits &&
		  (strlen(significant) > strlen(printed) ||
		   (strlen(significant) == strlen(printed) && strcmp(significant, printed) > 0));
	if (r == -ERANGE)
		fuzz_assert(too_big);
	s = number_scan(&p, max, &scanned);
	if (digits) {
		fuzz_assert(s == (too_big ? -ERANGE : 0));
		fuzz_assert(s < 0 ? p == text : *p == '\0');
		if (r == 0)
			fuzz_assert(scanned == value);
	}
	if (!digits && length > 0 && (text[0] < '0' || text[0] > '9'))
		fuzz_assert(s == -EINVAL && p == text);
	free(text);
	return 0;
}
