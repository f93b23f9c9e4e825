// SPDX-License-Identifier: GPL-2.0-or-later
/* nsctl: find the subcommand in the table and hand it the command line. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "util.h"

static const struct cli_command commands[] = {
	{ "compare", cmd_compare, "tell whether two processes or files share namespaces",
	  EXIT_COMPARE_TROUBLE },
	{ "run", cmd_run, "start a program as a child in new namespaces", EXIT_EXEC_FAILED },
	{ "unshare", cmd_unshare, "move into new namespaces, then run a program",
	  EXIT_EXEC_FAILED },
	{ "pin", cmd_pin, "keep namespaces alive by bind-mounting them onto files", EXIT_FAILURE,
	  EXIT_USAGE },
	{ "unpin", cmd_unpin, "remove pins", EXIT_FAILURE, EXIT_USAGE },
	{ "enter", cmd_enter, "join the namespaces of a process, file or pin and run a program",
	  EXIT_EXEC_FAILED },
	{ "list", cmd_list, "list every namespace on the host", EXIT_FAILURE, EXIT_USAGE },
};

static void usage(FILE *out)
{
	fputs("Usage: nsctl SUBCOMMAND [options] [arguments]\n"
	      "       nsctl SUBCOMMAND --help | --version\n"
	      "       nsctl --help | --version\n"
	      "\nCreate, join, list, compare and pin Linux namespaces.\n"
	      "\nSubcommands:\n",
	      out);
	for (size_t i = 0; i < ELEMENTSOF(commands); i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fputs("\nNamespace types:", out);
	type_foreach (t)
		fprintf(out, " %s", nsctl_type_get(t)->name);
	fputs("\n\nOptions:\n"
	      " -h, --help     display this help and exit\n"
	      " -V, --version  display the version and exit\n"
	      "\nFor more details see nsctl(1).\n",
	      out);
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 },
	};
	int c;

	/*
	 * Nothing may open a file before the subcommand's parse has checked its
	 * --keep-fd options: they name fds the caller had, and an fd nsctl opened
	 * (a cgroup directory) would pass for one (cli_keep_fds_check).
	 * cli_check_process() opens only onto closed 0-2, which PROGRAM gets anyway.
	 */
	cli_check_process(argc, argv, commands, ELEMENTSOF(commands));
	cli_check_stdout_at_exit();
	/* "+": stop at the subcommand; its options are its own. */
	while ((c = getopt_long(argc, argv, "+hV", options, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return EXIT_SUCCESS;
		case 'V':
			cli_version();
		default:
			cli_bad_option(argv, "+hV");
		}
	}
	if (optind >= argc)
		cli_usage_error("no subcommand given");
	for (size_t i = 0; i < ELEMENTSOF(commands); i++) {
		if (strcmp(argv[optind], commands[i].name) == 0) {
			int first = optind;

			cli_begin(&commands[i]);
			/* The subcommand parses from its own name on, as if it were argv[0]. */
			optind = 0;
			return commands[i].run(argc - first, argv + first);
		}
	}
	cli_usage_error("unknown subcommand '%s'", argv[optind]);
}
