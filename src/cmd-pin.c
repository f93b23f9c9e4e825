// SPDX-License-Identifier: GPL-2.0-or-later
/* nsctl pin: keep namespaces alive with no process in them, by bind-mounting them onto files. */
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "util.h"

static void help(void)
{
	cli_help_begin();
	fputs("Usage: nsctl pin [options] TARGET PATH|NAME\n"
	      "\nKeep namespaces of TARGET alive with no process in them, by bind-mounting\n"
	      "them onto a file.  TARGET is a PID, a namespace file (/proc/PID/ns/TYPE,\n"
	      "another pin) or id:ID, the namespace of that 64-bit ID (nsctl list's ID).  PATH is "
	      "a file to create; a NAME (no slash) pins a network\n"
	      "namespace at " NSCTL_PIN_NETNS_DIR "/NAME, where \"ip netns\" finds it, and any\n"
	      "other type at " NSCTL_PIN_DIR "/TYPE/NAME.\n"
	      "\nOptions:\n",
	      stdout);
	cli_type_options_help(stdout, "", "pin the");
	fputs(" -t, --type LIST           pin the types in LIST (comma-separated, or \"all\")\n",
	      stdout);
	cli_help_footer(stdout);
	fputs("\nWith a PID, say which types to pin; a namespace file or an id:ID pins its\n"
	      "own type.\n"
	      "Several types need a NAME (each gets its own pin); one PATH takes one type.\n"
	      "PATH must not exist, unless it already pins the same namespace; it is\n"
	      "created without following symlinks.  A failure takes back only the pins\n"
	      "(and directories) this call made.  A mount namespace is refused in a\n"
	      "directory on a shared mount (it would pin itself through propagation):\n"
	      "pin it under a NAME (" NSCTL_PIN_DIR "/mnt) or on a private mount.\n"
	      "Remove pins with nsctl unpin.\n",
	      stdout);
}

int cmd_pin(int argc, char **argv)
{
	static const struct option own_options[] = {
		{ "type", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 },
	};
	struct option *options = cli_long_options_with_types(own_options, no_argument);
	const char *optstring = cli_optstring_with_types("+t:hV", no_argument);
	int fds[TYPE_COUNT];
	char paths[TYPE_COUNT][PATH_MAX];
	struct nsctl_process *process = NULL;
	const char *target, *where;
	unsigned types = 0, file_types;
	enum nsctl_type file_type;
	struct cli_pins pins;
	bool is_name, by_id;
	uint64_t id;
	pid_t pid;
	int c, r;

	while ((c = getopt_long(argc, argv, optstring, options, NULL)) != -1) {
		switch (c) {
		case 't': {
			unsigned listed = cli_parse_type_list("--type", optarg);

			type_foreach (t)
				if (types & listed & NSCTL_TYPE_BIT(t))
					cli_usage_error("--type '%s': namespace type '%s' given "
							"twice",
							optarg, nsctl_type_get(t)->name);
			types |= listed;
			break;
		}
		case 'h':
			help();
			exit(EXIT_SUCCESS);
		case 'V':
			cli_version();
		default:
			cli_type_option_once(c, argv, optstring, &types, NULL);
		}
	}
	if (argc - optind != 2)
		cli_usage_error("%s", argc - optind < 2 ? "TARGET and PATH|NAME needed"
							: "too many operands");
	target = argv[optind];
	where = argv[optind + 1];
	is_name = !strchr(where, '/');
	if (!*target)
		cli_usage_error("'': an empty TARGET is neither a PID nor a namespace file");
	if (!*where)
		cli_usage_error("'': an empty PATH or NAME");

	/* The form of every operand first, then everything is opened, then pins are made. */
	by_id = cli_ns_id_operand(target, &id);
	r = by_id ? -EINVAL : parse_pid(target, &pid);
	if (r >= 0 && !types)
		cli_usage_error("which namespaces of PID %s? Give type options (e.g. --net)",
				target);
	if (r < 0 && cli_all_digits(target))
		cli_usage_error("'%s': not a valid PID", target);
	if (!is_name && __builtin_popcount(types) > 1)
		cli_usage_error("one PATH takes one namespace; pin several types under a NAME");
	if (is_name && nsctl_pin_name_path(NSCTL_TYPE_NET, where, paths[0], sizeof(paths[0])) < 0)
		cli_usage_error(
		    "'%s': not a valid pin name (no '/', not . or .., at most %d bytes)", where,
		    NAME_MAX);
	if (cli_parse_only)
		return 0;

	type_foreach (t)
		fds[t] = -1;
	if (r >= 0) {
		r = nsctl_process_open(pid, &process);
		if (r < 0)
			cli_fail(r, "PID %s", target);
		r = nsctl_process_is_kernel_thread(process);
		if (r < 0)
			cli_fail(r, "PID %s", target);
		/* Its namespaces are the machine's initial ones: /proc/1/ns/TYPE, if meant. */
		if (r > 0)
			cli_fail(0, "PID %s is a kernel thread: it has no namespaces to pin",
				 target);
	} else {
		if (by_id)
			r = cli_open_ns_id(EXIT_FAILURE, target, id, -1, &file_type);
		else
			r = nsctl_ns_open_path(target, -1, &file_type);
		if (r < 0)
			cli_fail(r, "%s", target);
		file_types = NSCTL_TYPE_BIT(file_type);
		if (types & ~file_types)
			cli_usage_error("%s is a %s namespace; the type options ask for others",
					target, nsctl_type_get(file_type)->name);
		types = file_types;
		fds[file_type] = r;
	}
	type_foreach (t) {
		if (!(types & NSCTL_TYPE_BIT(t)))
			continue;
		if (process) {
			fds[t] = nsctl_process_open_ns(process, t, false);
			if (fds[t] < 0)
				cli_fail(fds[t], "PID %s: %s namespace", target,
					 nsctl_type_get(t)->name);
		}
		if (is_name) {
			r = nsctl_pin_name_path(t, where, paths[t], sizeof(paths[t]));
			if (r < 0)
				cli_fail(r, "pin name '%s'", where);
		} else {
			snprintf(paths[t], sizeof(paths[t]), "%s", where);
		}
	}
	if (process && nsctl_process_alive(process) != 1)
		cli_fail(-ESRCH, "PID %s", target);

	cli_pins_init(&pins);
	type_foreach (t) {
		const char *why;

		if (!(types & NSCTL_TYPE_BIT(t)))
			continue;
		/* A stale pin of that NAME (an empty file left by a reboot) is replaced. */
		r = is_name ? nsctl_pin_stale_remove(t, where) : 0;
		if (r > 0)
			cli_warn(0,
				 "%s: a stale pin (an empty file, no namespace mounted on it): "
				 "replaced",
				 paths[t]);
		if (r >= 0)
			r = cli_pins_add(&pins, t, fds[t], where, is_name);
		if (r < 0) {
			/* All or nothing: take back the pins, and directories, this call made. */
			cli_pins_take_back(&pins);
			why = cli_pin_refusal(r, t);
			if (why)
				cli_fail(0, "%s: %s", paths[t], why);
			cli_fail(r, "%s", paths[t]);
		}
	}
	type_foreach (t)
		close_fdp(&fds[t]);
	nsctl_process_free(process);
	return EXIT_SUCCESS;
}
