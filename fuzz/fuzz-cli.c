// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The command line, parse only: the input is argv, its elements separated by
 * NUL bytes.  Built once per subcommand (FUZZ_SUBCOMMAND, argv[1] fixed to it)
 * and once for nsctl's own options (no FUZZ_SUBCOMMAND).  cli_parse_only makes
 * each subcommand return right after parsing and validating; exit() comes
 * back here (fuzz_catch_exit); system calls that act are forbidden while
 * parsing (fuzz-common.c).  Only the subcommands of FUZZ_SUBCOMMANDS, those
 * with a cli_parse_only check, are ever dispatched.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fuzz.h"

int nsctl_main(int argc, char **argv); /* src/main.c, built with -Dmain=nsctl_main */

extern bool fuzz_parsing;

#define MAX_ARGS 64

struct call {
	int argc;
	char **argv;
	int status;
};

#ifndef FUZZ_SUBCOMMAND
/* A lowercase word is a subcommand name: dispatch it only when it has the parse-only check. */
static bool dispatch_allowed(const char *word)
{
	const char *list = FUZZ_SUBCOMMANDS;
	size_t length = strlen(word);

	if (strspn(word, "abcdefghijklmnopqrstuvwxyz") != length)
		return true;
	for (const char *p = list; *p;) {
		size_t n = strcspn(p, ",");

		if (n == length && memcmp(p, word, n) == 0)
			return true;
		p += n + (p[n] == ',');
	}
	return false;
}
#endif

static void call_main(void *arg)
{
	struct call *call = arg;

	call->status = nsctl_main(call->argc, call->argv);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[MAX_ARGS + 3];
	char *copy = fuzz_string(data, size);
	struct call call = { .argv = argv };
	const char *p = copy, *end = copy + size;
	int status, first;

	argv[call.argc++] = (char *)"nsctl";
#ifdef FUZZ_SUBCOMMAND
	argv[call.argc++] = (char *)FUZZ_SUBCOMMAND;
#endif
	first = call.argc;
	/* fuzz_string ends the copy with a NUL, so the last element is terminated too. */
	while (size > 0 && p <= end && call.argc < MAX_ARGS + 2) {
		argv[call.argc++] = (char *)p;
		p += strlen(p) + 1;
	}
	argv[call.argc] = NULL;
#ifndef FUZZ_SUBCOMMAND
	/* main's options take no argument: the subcommand is the first non-option, or after --. */
	for (int i = first; i < call.argc; i++) {
		if (strcmp(argv[i], "--") == 0 || argv[i][0] != '-' || !argv[i][1]) {
			const char *word = strcmp(argv[i], "--") == 0 ? argv[i + 1] : argv[i];

			if (word && !dispatch_allowed(word)) {
				free(copy);
				return -1; /* not added to the corpus */
			}
			break;
		}
	}
#else
	(void)first;
#endif
	cli_begin(NULL);
	cli_parse_only = true;
	optind = 0; /* glibc: start getopt afresh, as in a new process */
	fuzz_parsing = true;
	if (!fuzz_catch_exit(call_main, &call, &status))
		status = call.status;
	fuzz_parsing = false;
	fuzz_assert(status >= 0 && status <= 255);
	free(copy);
	return 0;
}
