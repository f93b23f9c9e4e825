// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * User and group ID maps: parse_idmap_range accepts exactly three
 * decimal numbers INNER:OUTER:COUNT (or OUTER,INNER,COUNT) with COUNT >= 1 and no range reaching
 * 4294967295 ((uid_t)-1, "no change"), and prints back to the same range;
 * nsctl_idmap_add keeps a map the kernel takes (no overlap on either side,
 * at most 340 lines, less than a page); nsctl_idmap_format writes that map
 * within its buffer, and its text reads back as the same ranges.
 * Input: one range a line.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nsctl.h"
#include "parse.h"
#include "fuzz.h"

/* Whether TEXT is three runs of digits separated by ':', or all by ',', nothing else. */
static bool three_numbers(const char *text)
{
	char separator = text[strcspn(text, ":,")] == ',' ? ',' : ':';

	for (int i = 0; i < 3; i++) {
		size_t n = strspn(text, "0123456789");

		if (n == 0 || text[n] != (i < 2 ? separator : '\0'))
			return false;
		text += n + 1;
	}
	return true;
}

/* The kernel's limit of lines in a map (Linux 4.15); the fuzzed map has room for all. */
#define KERNEL_LINES 340

static bool overlaps(uint64_t a, uint64_t count_a, uint64_t b, uint64_t count_b)
{
	return a < b + count_b && b < a + count_a;
}

/* The kernel's view: is RANGE acceptable beside the ranges already in MAP? */
static int expected_add(const struct nsctl_idmap *map, const struct nsctl_idmap_range *range,
			size_t text_length)
{
	if (range->count == 0 || (uint64_t)range->inner + range->count > UINT32_MAX ||
	    (uint64_t)range->outer + range->count > UINT32_MAX)
		return -ERANGE;
	for (size_t i = 0; i < map->n; i++) {
		const struct nsctl_idmap_range *old = &map->ranges[i];

		if (overlaps(old->inner, old->count, range->inner, range->count) ||
		    overlaps(old->outer, old->count, range->outer, range->count))
			return -EEXIST;
	}
	if (map->n == KERNEL_LINES || text_length >= (size_t)sysconf(_SC_PAGESIZE))
		return -E2BIG;
	return 0;
}

/* MAP's text, "INNER OUTER COUNT\n" a line, read back. */
static void check_text(const struct nsctl_idmap *map, const char *text)
{
	size_t i = 0;

	for (const char *p = text; *p; i++) {
		unsigned long long inner, outer, count;
		int consumed = 0;

		fuzz_assert(i < map->n);
		fuzz_assert(sscanf(p, "%llu %llu %llu\n%n", &inner, &outer, &count, &consumed) ==
			    3);
		fuzz_assert(consumed > 0 && p[consumed - 1] == '\n');
		fuzz_assert(inner == map->ranges[i].inner && outer == map->ranges[i].outer &&
			    count == map->ranges[i].count);
		p += consumed;
	}
	fuzz_assert(i == map->n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct nsctl_idmap_range ranges[KERNEL_LINES];
	struct nsctl_idmap map = NSCTL_IDMAP_INIT(ranges, KERNEL_LINES);
	char *text = fuzz_string(data, size), *line, *next, *buf;
	size_t formatted = 0;
	int r;

	for (line = text; line; line = next) {
		struct nsctl_idmap_range range = { 7, 7, 7 }, again;
		char printed[48];
		int expected;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		r = parse_idmap_range(line, &range);
		fuzz_assert(r == 0 || r == -EINVAL || r == -ERANGE);
		if (r < 0) {
			fuzz_assert(range.inner == 7 && range.outer == 7 && range.count == 7);
			/* A range out of bounds is still three numbers; bad syntax is not. */
			fuzz_assert(r == -EINVAL || three_numbers(line));
			if (r == -EINVAL)
				fuzz_assert(!three_numbers(line));
			continue;
		}
		fuzz_assert(three_numbers(line));
		fuzz_assert(range.count >= 1);
		fuzz_assert((uint64_t)range.inner + range.count <= UINT32_MAX);
		fuzz_assert((uint64_t)range.outer + range.count <= UINT32_MAX);
		snprintf(printed, sizeof(printed), "%" PRIu32 ":%" PRIu32 ":%" PRIu32, range.inner,
			 range.outer, range.count);
		fuzz_assert(parse_idmap_range(printed, &again) == 0);
		fuzz_assert(memcmp(&again, &range, sizeof(range)) == 0);

		expected = expected_add(&map, &range, formatted + strlen(printed) + 1);
		r = nsctl_idmap_add(&map, &range);
		if (r != expected)
			fuzz_fail("nsctl_idmap_add(%s) gave %d, expected %d (map of %zu)", printed,
				  r, expected, map.n);
		if (r == 0)
			formatted += strlen(printed) + 1; /* "I O C\n" is as long as "I:O:C" + 1 */
	}
	fuzz_assert(map.n <= KERNEL_LINES);

	/* A buffer of exactly the text's size, then one byte short (ASan sees past its end). */
	buf = malloc(formatted + 1);
	if (!buf)
		abort();
	r = nsctl_idmap_format(&map, buf, formatted + 1);
	fuzz_assert(r == (int)formatted);
	fuzz_assert(strlen(buf) == formatted);
	check_text(&map, buf);
	if (formatted > 0)
		fuzz_assert(nsctl_idmap_format(&map, buf, formatted) == -ENOBUFS);
	free(buf);
	free(text);
	return 0;
}
