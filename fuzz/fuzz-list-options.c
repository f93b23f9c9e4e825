// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * list's -o column list and --type argument (parse only, through the command
 * line): a column list is accepted exactly when it is accepted in another
 * letter case (column names ignore case) and with a leading '+' (add to the
 * default columns, while the total fits); an accepted list is non-empty names of letters and '-'
 * between commas.  --type is accepted exactly when cli_parse_type_list
 * accepts the text.  Anything refused is a usage error (2).
 * Input: the -o argument, a NUL byte, then the --type argument.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fuzz.h"

static int list_with(const char *option, char *argument)
{
	char *argv[] = { (char *)"nsctl", (char *)"list", (char *)option, argument, NULL };
	int status = fuzz_cli_call(4, argv);

	fuzz_assert(status == 0 || status == EXIT_USAGE);
	return status;
}

/* Whether every comma-separated element of TEXT is a non-empty word of letters, digits, '-'. */
static bool names_only(const char *text)
{
	for (;;) {
		size_t n = strcspn(text, ",");

		if (n == 0)
			return false;
		for (size_t i = 0; i < n; i++)
			if (!isalnum((unsigned char)text[i]) && text[i] != '-' && text[i] != '_')
				return false;
		if (!text[n])
			return true;
		text += n + 1;
	}
}

static size_t elements(const char *text)
{
	size_t n = 1;

	for (; *text; text++)
		n += *text == ',';
	return n;
}

static void call_types(void *arg)
{
	cli_parse_type_list("--type", arg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *columns = fuzz_string(data, size), *types, *swapped, *plus;
	size_t length = strlen(columns);
	int status, other, types_status;
	bool types_ok;

	types = length < size ? columns + length + 1 : columns + length;
	swapped = strdup(columns);
	plus = malloc(length + 2);
	if (!swapped || !plus)
		abort();
	for (char *c = swapped; *c; c++)
		*c = (char)(islower((unsigned char)*c) ? toupper((unsigned char)*c)
						       : tolower((unsigned char)*c));
	plus[0] = '+';
	memcpy(plus + 1, columns, length + 1);

	status = list_with("-o", columns);
	if (status == 0)
		fuzz_assert(names_only(columns[0] == '+' ? columns + 1 : columns));
	other = list_with("--output", swapped);
	if (other != status)
		fuzz_fail("-o '%s' gave %d, -o '%s' gave %d", columns, status, swapped, other);
	/* With '+' the list adds to the 6 default columns; list takes 28 in all (twice its 14). */
	if (columns[0] != '+' && elements(columns) <= 28 - 6) {
		other = list_with("-o", plus);
		if (other != status)
			fuzz_fail("-o '%s' gave %d, -o '%s' gave %d", columns, status, plus, other);
	}

	types_ok = !fuzz_catch_exit(call_types, types, &types_status);
	status = list_with("--type", types);
	fuzz_assert(status == (types_ok ? 0 : EXIT_USAGE));
	free(plus);
	free(swapped);
	free(columns);
	return 0;
}
