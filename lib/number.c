// SPDX-License-Identifier: LGPL-2.1-or-later
/* The one decimal-number parser of lib/ and src/: see number.h for its rules. */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "number.h"

static int digits_value(const char *text, size_t length, uint64_t max, uint64_t *ret)
{
	uint64_t value = 0;

	for (size_t i = 0; i < length; i++) {
		unsigned digit = (unsigned)(text[i] - '0');

		if (max < digit || value > (max - digit) / 10)
			return -ERANGE;
		value = value * 10 + digit;
	}
	*ret = value;
	return 0;
}

int number_parse_length(const char *text, size_t length, uint64_t max, unsigned flags,
			uint64_t *ret)
{
	uint64_t value;
	bool zero = true;
	int r;

	if (!text || !ret || length == 0)
		return -EINVAL;
	for (size_t i = 0; i < length; i++) {
		if (text[i] < '0' || text[i] > '9')
			return -EINVAL;
		if (text[i] != '0')
			zero = false;
	}
	if (text[0] == '0' && length > 1 && !(flags & NUMBER_LEADING_ZEROS))
		return -EINVAL;
	if (zero && (flags & NUMBER_NOT_ZERO))
		return -EINVAL;
	r = digits_value(text, length, max, &value);
	if (r < 0)
		return r;
	*ret = value;
	return 0;
}

int number_parse(const char *text, uint64_t max, unsigned flags, uint64_t *ret)
{
	if (!text)
		return -EINVAL;
	return number_parse_length(text, strlen(text), max, flags, ret);
}

int number_parse_int(const char *text, int max, unsigned flags, int *ret)
{
	uint64_t value;
	int r;

	if (max < 0 || !ret)
		return -EINVAL;
	r = number_parse(text, (uint64_t)max, flags, &value);
	if (r < 0)
		return r;
	*ret = (int)value;
	return 0;
}

int number_scan(const char **p, uint64_t max, uint64_t *ret)
{
	const char *start, *end;
	uint64_t value;
	int r;

	if (!p || !*p || !ret)
		return -EINVAL;
	start = end = *p;
	while (*end >= '0' && *end <= '9')
		end++;
	if (end == start)
		return -EINVAL;
	r = digits_value(start, (size_t)(end - start), max, &value);
	if (r < 0)
		return r;
	*p = end;
	*ret = value;
	return 0;
}
