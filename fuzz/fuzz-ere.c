// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * list -Q's regular expressions (src/ere.c) against glibc's regcomp() and
 * regexec() as the reference: input is a pattern, a NUL, then a text.
 * Where glibc takes the pattern and nsctl's matcher does too, both say the
 * same of the text, in the C locale and in C.UTF-8; nsctl refuses only
 * what glibc refuses, back-references, patterns too big for it and
 * intervals of more than digits and a comma.  The
 * pattern is kept short: glibc's own matcher is the slow one here.  In
 * C.UTF-8 a text or pattern that is not UTF-8 is matched but not compared:
 * there glibc finds word boundaries (\<, \b) in a text with no word
 * character at all, and a lone byte of the pattern inside a character; nor
 * is a pattern with an anchor inside it (anchor_inside()).
 */
#include <errno.h>
#include <locale.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "ere.h"
#include "fuzz.h"
#include "parse.h"

/*
 * Whether glibc may be asked: it writes repetitions out and takes memory as
 * the square of the result ("x{,7272}{,72}" took 2 GB), and backtracks over
 * stacked repetitions for seconds ("($a*+++++...)*++++..."), so not for a
 * count above 99 nor more than four repetition operators (nsctl's matcher is
 * asked all the same).
 */
static bool glibc_can_take(const char *pattern)
{
	unsigned long count = 0, operators = 0;

	for (const char *p = pattern; *p; p++) {
		count = *p >= '0' && *p <= '9' ? count * 10 + (unsigned long)(*p - '0') : 0;
		operators += strchr("*+?{", *p) != NULL;
		if (count > 99 || operators > 4)
			return false;
	}
	return true;
}

/* Whether TEXT is UTF-8 as RFC 3629 has it (glibc's decoder also takes 0xf5-0xf7 leads). */
static bool is_utf8(const char *text)
{
	size_t length;

	for (const unsigned char *p = (const unsigned char *)text; *p; p += length)
		if (utf8_decode(p, &length) < 0)
			return false;
	return true;
}

/*
 * Whether PATTERN has an anchor anywhere but at its very start (^) or end ($):
 * there glibc lets a ^ or $ match beside a newline (without REG_NEWLINE), and
 * an anchor in a repeated group count more than once ("(^\\S){2,}"); POSIX
 * and nsctl have anchors match at the ends of the text only.  Not compared.
 */
static bool anchor_inside(const char *pattern)
{
	size_t length = strlen(pattern);

	for (size_t i = 0; i < length; i++) {
		if (pattern[i] == '\\' && (pattern[i + 1] == '`' || pattern[i + 1] == '\''))
			return true;
		if (pattern[i] == '^' && i > 0 && pattern[i - 1] != '[')
			return true;
		if (pattern[i] == '$' && i + 1 < length)
			return true;
	}
	return false;
}

static void check(const char *pattern, const char *text, bool utf8)
{
	bool compared = !utf8 || (is_utf8(text) && is_utf8(pattern));
	const char *error = NULL;
	struct ere *ours = NULL;
	size_t offset = 0;
	regex_t theirs;
	int r, g;

	if (anchor_inside(pattern))
		compared = false;

	g = glibc_can_take(pattern) ? regcomp(&theirs, pattern, REG_EXTENDED | REG_NOSUB) : -1;
	r = ere_compile(pattern, utf8, &ours, &error, &offset);
	if (r == -ENOMEM)
		abort();
	if (r == 0) {
		bool match = ere_match(ours, text);

		/* Matching again gives the same: nothing of the last match stays. */
		fuzz_assert(ere_match(ours, text) == match);
		if (g == 0 && compared)
			fuzz_assert(match == (regexec(&theirs, text, 0, NULL, 0) == 0));
		ere_free(ours);
	} else {
		fuzz_assert(error && *error && offset <= strlen(pattern));
		/*
		 * What glibc takes, nsctl takes too, but back-references, the too
		 * big, and an interval with more than digits and a comma ("{2\\,}").
		 */
		if (g == 0 && compared)
			fuzz_assert(strstr(error, "back-references") || strstr(error, "too big") ||
				    strstr(error, "invalid content of {}"));
	}
	if (g == 0)
		regfree(&theirs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	char *pattern, *text;

	if (!nul || nul - data > 16 || size - (size_t)(nul - data) > 128)
		return -1;
	pattern = fuzz_string(data, (size_t)(nul - data));
	text = fuzz_string(nul + 1, size - (size_t)(nul - data) - 1);
	if (!setlocale(LC_CTYPE, "C"))
		abort();
	check(pattern, text, false);
	if (setlocale(LC_CTYPE, "C.UTF-8"))
		check(pattern, text, true);
	free(pattern);
	free(text);
	return 0;
}
