// SPDX-License-Identifier: GPL-2.0-or-later
/* nsctl unpin: remove pins, and nothing that is not one. */
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "util.h"

static void help(void)
{
	cli_help_begin();
	fputs("Usage: nsctl unpin [options] PATH|NAME...\n"
	      "\nRemove pins: unmount each namespace bind-mounted on PATH and remove the\n"
	      "file.  A NAME (no slash) is the pin of that name of every type\n"
	      "(/run/netns/NAME, as \"ip netns\" makes them, and /run/nsctl"
	      "/TYPE/NAME).\n"
	      "Anything that is not a pin is refused and left untouched.\n"
	      "\nOptions:\n",
	      stdout);
	cli_type_options_help(stdout, "", "only unpin a NAME's");
	cli_help_footer(stdout);
}

static int unpin_path(const char *path)
{
	int r = nsctl_pin_remove(path);

	if (r == -ENOTTY)
		cli_warn(0, "%s: not a pin (no namespace is mounted there); left untouched", path);
	else if (r < 0)
		cli_warn(r, "%s", path);
	return r;
}

/*
 * A stale pin NAME of TYPE at PATH (an empty file left by a reboot) goes, as
 * "ip netns delete" removes it, saying so: whether this took care of PATH.
 */
static bool unpin_stale(enum nsctl_type type, const char *name, const char *path)
{
	int r = nsctl_pin_stale_remove(type, name);

	if (r > 0)
		cli_warn(0, "%s: a stale pin (an empty file, no namespace mounted on it): removed",
			 path);
	else if (r < 0)
		cli_warn(r, "%s: cannot remove the stale pin", path);
	return r != 0;
}

int cmd_unpin(int argc, char **argv)
{
	static const struct option own_options[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 },
	};
	struct option *options = cli_long_options_with_types(own_options, no_argument);
	const char *optstring = cli_optstring_with_types("+hV", no_argument);
	unsigned only = 0;
	bool failed = false;
	int c, r;

	while ((c = getopt_long(argc, argv, optstring, options, NULL)) != -1) {
		enum nsctl_type type;

		if (c == 'h') {
			help();
			exit(EXIT_SUCCESS);
		}
		if (c == 'V')
			cli_version();
		if (cli_type_from_letter(c, &type) < 0)
			cli_bad_option(argv, optstring);
		only |= NSCTL_TYPE_BIT(type);
	}
	if (optind >= argc)
		cli_usage_error("no PATH or NAME given");
	/* Check every operand's form before removing anything. */
	for (int i = optind; i < argc; i++) {
		char path[PATH_MAX];

		if (!*argv[i])
			cli_usage_error("'': an empty PATH or NAME");
		if (!strchr(argv[i], '/') &&
		    nsctl_pin_name_path(NSCTL_TYPE_NET, argv[i], path, sizeof(path)) < 0)
			cli_usage_error("'%s': not a valid pin name", argv[i]);
	}
	if (cli_parse_only)
		return 0;
	for (int i = optind; i < argc; i++) {
		unsigned types;

		if (strchr(argv[i], '/')) {
			failed |= unpin_path(argv[i]) < 0;
			continue;
		}
		r = nsctl_pin_name_types(argv[i], &types);
		if (r >= 0 && only)
			types &= only;
		if (r < 0 || !types) {
			cli_warn(0, "%s: no pin of that name", argv[i]);
			failed = true;
			continue;
		}
		type_foreach (t) {
			char path[PATH_MAX];

			if (!(types & NSCTL_TYPE_BIT(t)))
				continue;
			nsctl_pin_name_path(t, argv[i], path, sizeof(path));
			if (unpin_stale(t, argv[i], path))
				continue;
			failed |= unpin_path(path) < 0;
		}
	}
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
