// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * /proc/PID/stat as list reads it (proc_stat_parse): the name is what lies
 * between the first '(' and the last ')', cut to 16 bytes and always
 * NUL-terminated; the parent PID is taken only in the kernel's form
 * ") S PPID", a decimal from 0 to INT_MAX, and then it is the number written there.
 * Input: the file's text.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "list.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size);
	struct proc_record rec;
	const char *open, *close;
	size_t expected;

	memset(&rec, 0x5a, sizeof(rec));
	rec.ppid = -7;
	proc_stat_parse(text, &rec);
	open = strchr(text, '(');
	close = strrchr(text, ')');
	if (!open || !close || close < open) {
		fuzz_assert(rec.comm[0] == 0x5a && rec.ppid == -7);
		free(text);
		return 0;
	}
	expected = (size_t)(close - open - 1);
	if (expected > sizeof(rec.comm) - 1)
		expected = sizeof(rec.comm) - 1;
	fuzz_assert(memchr(rec.comm, '\0', sizeof(rec.comm)) == rec.comm + expected);
	fuzz_assert(memcmp(rec.comm, open + 1, expected) == 0);
	if (rec.ppid != -7) {
		fuzz_assert(rec.ppid >= 0);
		fuzz_assert(close[1] == ' ' && close[2] && close[3] == ' ');
		fuzz_assert(close[4] >= '0' && close[4] <= '9');
		fuzz_assert(strtol(close + 4, NULL, 10) == rec.ppid);
	}
	free(text);
	return 0;
}
