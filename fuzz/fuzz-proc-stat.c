// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * /proc/PID/stat as nsctl reads it (proc_stat_parse, lib/process.c): for
 * list the name and parent, for enter and pin the flags that tell a kernel
 * thread.  Properties: the name is what lies between the first '(' and the
 * last ')', cut to 16 bytes and NUL-terminated; the parent PID is taken only
 * in the kernel's form ") S PPID", a decimal from 0 to INT_MAX, and is then
 * the number written there; the flags only after it and four more integer
 * fields, and are then the decimal written there.
 * Input: the file's text.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "fuzz.h"

/* The start of field N (1: the one after the state) after ") S", or NULL. */
static const char *field(const char *close, int n)
{
	const char *p = close + 3;

	while (n-- > 1) {
		p = strchr(p + 1, ' ');
		if (!p)
			return NULL;
	}
	return p + 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size);
	struct proc_stat st;
	const char *open, *close;
	size_t expected;

	memset(&st, 0x5a, sizeof(st));
	proc_stat_parse(text, &st);
	open = strchr(text, '(');
	close = strrchr(text, ')');
	if (!open || !close || close < open) {
		fuzz_assert(!st.has_comm && !st.has_flags && st.ppid == -1 && st.comm[0] == '\0');
		free(text);
		return 0;
	}
	fuzz_assert(st.has_comm);
	expected = (size_t)(close - open - 1);
	if (expected > sizeof(st.comm) - 1)
		expected = sizeof(st.comm) - 1;
	fuzz_assert(memchr(st.comm, '\0', sizeof(st.comm)) == st.comm + expected);
	fuzz_assert(memcmp(st.comm, open + 1, expected) == 0);
	if (st.ppid != -1) {
		fuzz_assert(st.ppid >= 0);
		fuzz_assert(close[1] == ' ' && close[2] && close[3] == ' ');
		fuzz_assert(close[4] >= '0' && close[4] <= '9');
		fuzz_assert(strtol(close + 4, NULL, 10) == st.ppid);
	}
	if (st.has_flags) {
		const char *flags = field(close, 6);

		fuzz_assert(st.ppid != -1);
		fuzz_assert(flags && *flags >= '0' && *flags <= '9');
		fuzz_assert(strtoul(flags, NULL, 10) == st.flags);
		fuzz_assert(st.flags <= UINT_MAX);
	}
	free(text);
	return 0;
}
