// SPDX-License-Identifier: LGPL-2.1-or-later
/* The one number parser of lib/ and src/: see number.h for its rules. */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "number.h"

/* The value of C as a digit of BASE (10 or 16), or -1. */
static int digit_value(char c, unsigned base)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (base == 16 && c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (base == 16 && c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The LENGTH digits at TEXT, all of BASE, as a number up to MAX. */
static int digits_value(const char *text, size_t length, unsigned base, uint64_t max, uint64_t *ret)
{
	uint64_t value = 0;

	for (size_t i = 0; i < length; i++) {
		unsigned digit = (unsigned)digit_value(text[i], base);

		if (max < digit || value > (max - digit) / base)
			return -ERANGE;
		value = value * base + digit;
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
	r = digits_value(text, length, 10, max, &value);
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

static int scan(const char **p, unsigned base, uint64_t max, uint64_t *ret)
{
	const char *start, *end;
	uint64_t value;
	int r;

	if (!p || !*p || !ret)
		return -EINVAL;
	start = end = *p;
	while (digit_value(*end, base) >= 0)
		end++;
	if (end == start)
		return -EINVAL;
	r = digits_value(start, (size_t)(end - start), base, max, &value);
	if (r < 0)
		return r;
	*p = end;
	*ret = value;
	return 0;
}

int number_scan(const char **p, uint64_t max, uint64_t *ret)
{
	return scan(p, 10, max, ret);
}

int number_scan_hex(const char **p, uint64_t max, uint64_t *ret)
{
	return scan(p, 16, max, ret);
}
