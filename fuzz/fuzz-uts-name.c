// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Hostnames and domain names of --hostname/--domainname:
 * check_printable_uts_name (src/parse.c) decodes UTF-8 itself, so its answer
 * holds in every locale and C library.  An accepted name is 1..64 bytes,
 * valid UTF-8 by glibc's own decoder (iconv, an oracle independent of
 * nsctl's), with no C0 or C1 control, DEL, bidirectional control or
 * zero-width character; a refused one says why with -EINVAL, -ENAMETOOLONG
 * or -EILSEQ.  Printable ASCII names of 1..64 bytes are always accepted.
 */
#include <errno.h>
#include <iconv.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "parse.h"

/* NAME as UTF-32 code points by iconv; the count, or -1 where it is not UTF-8. */
static long decode(const char *name, uint32_t *out, size_t capacity)
{
	iconv_t cd = iconv_open("UTF-32LE", "UTF-8");
	char *in = (char *)name, *to = (char *)out;
	size_t in_left = strlen(name), to_left = capacity * sizeof(*out);
	size_t r;

	if (cd == (iconv_t)-1)
		fuzz_fail("iconv_open: %s", strerror(errno));
	r = iconv(cd, &in, &in_left, &to, &to_left);
	iconv_close(cd);
	if (r == (size_t)-1 || in_left)
		return -1;
	return (long)((capacity * sizeof(*out) - to_left) / sizeof(*out));
}

/* The code points no name may hold, written out here apart from src/parse.c's. */
static bool refused(uint32_t c)
{
	static const uint32_t ranges[][2] = {
		{ 0x00, 0x1f },     { 0x7f, 0x9f },     { 0x061c, 0x061c }, { 0x200b, 0x200f },
		{ 0x2028, 0x202e }, { 0x2066, 0x2069 }, { 0xfeff, 0xfeff },
	};

	for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++)
		if (c >= ranges[i][0] && c <= ranges[i][1])
			return true;
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *name = fuzz_string(data, size);
	size_t length = strlen(name);
	uint32_t points[128];
	bool ascii = true;
	long n;
	int r = check_printable_uts_name(name);

	for (size_t i = 0; i < length; i++)
		ascii = ascii && name[i] >= 0x20 && name[i] < 0x7f;
	if (length == 0)
		fuzz_assert(r == -EINVAL);
	else if (length > 64)
		fuzz_assert(r == -ENAMETOOLONG);
	else if (ascii)
		fuzz_assert(r == 0);
	else
		fuzz_assert(r == 0 || r == -EILSEQ);
	if (r == 0) {
		n = decode(name, points, sizeof(points) / sizeof(points[0]));
		fuzz_assert(n > 0);
		for (long i = 0; i < n; i++)
			fuzz_assert(!refused(points[i]));
	}
	free(name);
	return 0;
}
