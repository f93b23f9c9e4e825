// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Clock offsets (--monotonic, --boottime): parse_time_offset accepts
 * exactly an optional sign and decimal digits, whose value keeps the clock
 * between 0 and the kernel's limit (KTIME_SEC_MAX / 2, 4611686018 s); the
 * value prints back and parses to itself.  Input: one byte for the clock
 * (even: CLOCK_MONOTONIC, odd: CLOCK_BOOTTIME), then the text.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nsctl.h"
#include "parse.h"
#include "fuzz.h"

#define LIMIT INT64_C(4611686018)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	clockid_t clock;
	char *text, printed[32];
	const char *digits;
	int64_t seconds = 77, again = 0;
	struct timespec now;
	int r;

	if (size < 1)
		return -1;
	clock = data[0] % 2 ? CLOCK_BOOTTIME : CLOCK_MONOTONIC;
	text = fuzz_string(data + 1, size - 1);
	digits = text + (text[0] == '+' || text[0] == '-');
	r = parse_time_offset(text, clock, &seconds);
	fuzz_assert(r == 0 || r == -EINVAL || r == -ERANGE);
	if (r == -EINVAL)
		fuzz_assert(!*digits || strspn(digits, "0123456789") != strlen(digits));
	else
		fuzz_assert(*digits && strspn(digits, "0123456789") == strlen(digits));
	if (r < 0) {
		fuzz_assert(seconds == 77); /* ret_seconds written only on success */
	} else {
		fuzz_assert(seconds >= -LIMIT && seconds <= LIMIT);
		fuzz_assert(clock_gettime(clock, &now) == 0);
		/* The clock read here is the same or one second later than the parser's. */
		fuzz_assert(now.tv_sec + seconds >= 0 && now.tv_sec + seconds <= LIMIT + 1);
		snprintf(printed, sizeof(printed), "%" PRId64, seconds);
		fuzz_assert(parse_time_offset(printed, clock, &again) == 0 && again == seconds);
	}
	/* Any other clock is refused, whatever the text. */
	fuzz_assert(parse_time_offset(text, CLOCK_REALTIME, &again) == -EINVAL);
	free(text);
	return 0;
}
