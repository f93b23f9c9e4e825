// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * PIDs as given on a command line: parse_pid accepts exactly the
 * canonical decimal form of 1..INT_MAX, so printing what it parsed gives the
 * input back; everything else is EINVAL (syntax) or ERANGE (too large).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nsctl.h"
#include "parse.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size), printed[32];
	size_t length = strlen(text);
	bool digits = length > 0 && strspn(text, "0123456789") == length;
	pid_t pid = -77;
	int r = parse_pid(text, &pid);

	fuzz_assert(r == 0 || r == -EINVAL || r == -ERANGE);
	if (r == 0) {
		fuzz_assert(pid >= 1);
		snprintf(printed, sizeof(printed), "%d", (int)pid);
		fuzz_assert(strcmp(printed, text) == 0);
	} else {
		fuzz_assert(pid == -77); /* ret_pid written only on success */
	}
	if (r == -ERANGE)
		fuzz_assert(digits && text[0] != '0' && length >= 10);
	if (r == -EINVAL)
		fuzz_assert(!digits || text[0] == '0');
	free(text);
	return 0;
}
