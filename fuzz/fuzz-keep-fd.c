// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The argument of --keep-fd (cli_keep_fd_add): it is kept only when it is a
 * decimal fd number that is open, and anything else is a usage error; the
 * table of kept fds never overflows.  Input: the argument text.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fuzz.h"

struct keep_call {
	struct cli_keep_fds *keep;
	const char *text;
};

static void call_add(void *arg)
{
	struct keep_call *call = arg;

	cli_keep_fd_add(call->keep, call->text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct cli_keep_fds full;
	struct cli_keep_fds keep = { .n = 0 };
	char *text = fuzz_string(data, size);
	struct keep_call call = { &keep, text };
	size_t length = strlen(text);
	int status;

	if (fuzz_catch_exit(call_add, &call, &status)) {
		fuzz_assert(status == EXIT_USAGE);
		fuzz_assert(keep.n == 0);
	} else {
		fuzz_assert(length > 0 && strspn(text, "0123456789") == length);
		fuzz_assert(keep.n == 1 && keep.fds[0] == atoi(text));
		fuzz_assert(fcntl(keep.fds[0], F_GETFD) >= 0);
	}
	/* A full table refuses one more, whatever the text. */
	full.n = sizeof(full.fds) / sizeof(full.fds[0]);
	call.keep = &full;
	if (!fuzz_catch_exit(call_add, &call, &status))
		fuzz_fail("a full --keep-fd table accepted '%s'", text);
	fuzz_assert(full.n == sizeof(full.fds) / sizeof(full.fds[0]));
	free(text);
	return 0;
}
