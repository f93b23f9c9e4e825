// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * /proc/PID/stat as nsctl reads it to tell a kernel thread (PF_KTHREAD in its
 * flags field): the command name between "(" and the last ")" may hold
 * anything, so the parser must find the flags after the last ")" and never
 * read past the text.  Reading is checked against a second, naive parse.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nsctl.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size);
	const char *close = strrchr(text, ')');
	unsigned long flags = 77, again = 0;
	int r = nsctl_proc_stat_flags_parse(text, &flags);

	fuzz_assert(r == 0 || r == -EINVAL);
	if (r == 0) {
		char state;

		/* Only after a ")": the command name never reaches the flags. */
		fuzz_assert(close != NULL);
		fuzz_assert(sscanf(close + 1, " %c %*d %*d %*d %*d %*d %lu", &state, &again) == 2);
		fuzz_assert(again == flags);
	} else {
		fuzz_assert(flags == 77); /* ret_flags written only on success */
	}
	free(text);
	return 0;
}
