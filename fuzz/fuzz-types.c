// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Namespace type names and lists: nsctl_type_from_name, parse_types and
 * the CLI's cli_parse_type_list must agree, and a parsed list must survive a
 * round trip through the canonical names.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fuzz.h"

struct list_call {
	const char *text;
	unsigned types;
};

static void call_cli_parse(void *arg)
{
	struct list_call *call = arg;

	call->types = cli_parse_type_list("--type", call->text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size);
	struct list_call call = { .text = text };
	enum nsctl_type type;
	unsigned types = 0, again = 0;
	char canonical[128] = "";
	int r, status;

	r = nsctl_type_from_name(text, &type);
	fuzz_assert(r == 0 || r == -EINVAL);
	if (r == 0) {
		const struct nsctl_type_info *info = nsctl_type_get(type);

		fuzz_assert(info);
		fuzz_assert(strcmp(info->name, text) == 0);
	}

	r = parse_types(text, &types);
	fuzz_assert(r == 0 || r == -EINVAL || r == -EEXIST);
	if (r == 0) {
		fuzz_assert(types != 0 && (types & ~TYPES_ALL) == 0);
		type_foreach (t) {
			if (!(types & NSCTL_TYPE_BIT(t)))
				continue;
			if (canonical[0])
				strcat(canonical, ",");
			strcat(canonical, nsctl_type_get(t)->name);
		}
		fuzz_assert(parse_types(canonical, &again) == 0 && again == types);
	}

	/* The CLI returns the same set, or ends with a usage error: never anything else. */
	if (fuzz_catch_exit(call_cli_parse, &call, &status)) {
		fuzz_assert(r < 0);
		fuzz_assert(status == EXIT_USAGE);
	} else {
		fuzz_assert(r == 0);
		fuzz_assert(call.types == types);
	}
	free(text);
	return 0;
}
