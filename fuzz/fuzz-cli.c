// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The command line, parse only: the input is argv, its elements separated by
 * NUL bytes.  Built once per subcommand (FUZZ_SUBCOMMAND, argv[1] fixed to it)
 * and once for nsctl's own options (no FUZZ_SUBCOMMAND).  fuzz_cli_call
 * (fuzz-common.c) runs main() with cli_parse_only set: each subcommand returns
 * right after parsing and validating, exit() comes back, system calls that
 * act are forbidden, and no fd may be left open.  Only the subcommands of
 * FUZZ_SUBCOMMANDS, those with a cli_parse_only check, are ever dispatched.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fuzz.h"

#define MAX_ARGS 64

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[MAX_ARGS + 3];
	char *copy = fuzz_string(data, size);
	int argc = 0;
	const char *p = copy, *end = copy + size;
	int first;

	argv[argc++] = (char *)"nsctl";
#ifdef FUZZ_SUBCOMMAND
	argv[argc++] = (char *)FUZZ_SUBCOMMAND;
#endif
	first = argc;
	/* fuzz_string ends the copy with a NUL, so the last element is terminated too. */
	while (size > 0 && p <= end && argc < MAX_ARGS + 2) {
		argv[argc++] = (char *)p;
		p += strlen(p) + 1;
	}
	argv[argc] = NULL;
#ifndef FUZZ_SUBCOMMAND
	/* main's options take no argument: the subcommand is the first non-option, or after --. */
	for (int i = first; i < argc; i++) {
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
	fuzz_cli_call(argc, argv);
	free(copy);
	return 0;
}
