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
	      "another pin), id:ID, the namespace of that 64-bit ID (nsctl list's ID), or\n"
	      "container:NAME, a container's first process (nsctl list's CONTAINER).\n"
	      "PATH is a file to create; a NAME (no slash) pins a network namespace at\n"
	      "/run/netns/NAME, where \"ip netns\" finds it, and any other type at\n"
	      "/run/nsctl/TYPE/NAME.\n"
	      "\nOptions:\n",
	      stdout);
	cli_type_options_help(stdout, "", "pin the");
	fputs(" -t, --type LIST           pin the types in LIST (comma-separated, or \"all\")\n",
	      stdout);
	cli_help_footer(stdout);
	fputs("\nWith a PID or a container, say which types to pin; a namespace file or an\n"
	      "id:ID pins its own type.\n"
	      "Several types need a NAME (each gets its own pin); one PATH takes one type.\n"
	      "PATH must not exist, unless it already pins the same namespace; it is\n"
	      "created without following symlinks.  A failure takes back only the pins\n"
	      "(and directories) this call made.  A mount namespace is refused in a\n"
	      "directory on a shared mount (it would pin itself through propagation):\n"
	      "pin it under a NAME (/run/nsctl/mnt) or on a private mount.\n"
	      "Remove pins with nsctl unpin.\n",
	      stdout);
}

/* What the command line asks for. */
struct pin_request {
	const char *target, *where;
	unsigned types;
	bool is_name; /* WHERE is a pin NAME, not a PATH */
	bool by_id;   /* TARGET is id:ID */
	uint64_t id;
	bool by_pid;           /* TARGET is a PID */
	const char *container; /* TARGET is container:SPEC: SPEC */
	pid_t pid;
};

/* The options and operands, each checked in its form before anything is opened. */
static void parse_pin(int argc, char **argv, struct pin_request *req)
{
	static const struct option own_options[] = {
		{ "type", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 },
	};
	struct option *options = cli_long_options_with_types(own_options, no_argument);
	const char *optstring = cli_optstring_with_types("+t:hV", no_argument);
	char path[PATH_MAX];
	unsigned listed;
	int c;

	while ((c = getopt_long(argc, argv, optstring, options, NULL)) != -1) {
		switch (c) {
		case 't':
			listed = cli_parse_type_list("--type", optarg);
			type_foreach (t)
				if (req->types & listed & NSCTL_TYPE_BIT(t))
					cli_usage_error("--type '%s': namespace type '%s' given "
							"twice",
							optarg, nsctl_type_get(t)->name);
			req->types |= listed;
			break;
		case 'h':
			help();
			exit(EXIT_SUCCESS);
		case 'V':
			cli_version();
		default:
			cli_type_option_once(c, argv, optstring, &req->types, NULL);
		}
	}
	if (argc - optind != 2)
		cli_usage_error("%s", argc - optind < 2 ? "TARGET and PATH|NAME needed"
							: "too many operands");
	req->target = argv[optind];
	req->where = argv[optind + 1];
	req->is_name = !strchr(req->where, '/');
	if (!*req->target)
		cli_usage_error("'': an empty TARGET is neither a PID nor a namespace file");
	if (!*req->where)
		cli_usage_error("'': an empty PATH or NAME");
	req->by_id = cli_ns_id_operand(req->target, &req->id);
	req->container = req->by_id ? NULL : cli_container_operand(req->target);
	req->by_pid = !req->by_id && !req->container && parse_pid(req->target, &req->pid) >= 0;
	if ((req->by_pid || req->container) && !req->types)
		cli_usage_error("which namespaces of %s%s? Give type options (e.g. --net)",
				req->by_pid ? "PID " : "", req->target);
	if (!req->by_pid && cli_all_digits(req->target))
		cli_usage_error("'%s': not a valid PID", req->target);
	if (!req->is_name && __builtin_popcount(req->types) > 1)
		cli_usage_error("one PATH takes one namespace; pin several types under a NAME");
	if (req->is_name && nsctl_pin_name_path(NSCTL_TYPE_NET, req->where, path, sizeof(path)) < 0)
		cli_usage_error(
		    "'%s': not a valid pin name (no '/', not . or .., at most %d bytes)",
		    req->where, NAME_MAX);
}

/* The process of a PID TARGET, not a kernel thread; exits saying why it cannot be. */
static struct nsctl_process *open_process(const struct pin_request *req)
{
	struct nsctl_process *process = NULL;
	int r;

	if (req->container)
		return cli_container_open(EXIT_FAILURE, req->target, req->container, NULL);
	r = nsctl_process_open(req->pid, &process);

	if (r >= 0)
		r = nsctl_process_is_kernel_thread(process);
	if (r < 0)
		cli_fail(r, "PID %s", req->target);
	/* Its namespaces are the machine's initial ones: /proc/1/ns/TYPE, if meant. */
	if (r > 0)
		cli_fail(0, "PID %s is a kernel thread: it has no namespaces to pin", req->target);
	return process;
}

/* Every namespace to pin, into FDS, and where each goes, into PATHS; exits on a failure. */
static void open_sources(struct pin_request *req, int *fds, char (*paths)[PATH_MAX])
{
	struct nsctl_process *process = req->by_pid || req->container ? open_process(req) : NULL;
	enum nsctl_type file_type;
	int r;

	if (!process) {
		if (req->by_id)
			r = cli_open_ns_id(EXIT_FAILURE, req->target, req->id, -1, &file_type);
		else
			r = nsctl_ns_open_path(req->target, -1, &file_type);
		if (r < 0)
			cli_fail(r, "%s", req->target);
		if (req->types & ~NSCTL_TYPE_BIT(file_type))
			cli_usage_error("%s is a %s namespace; the type options ask for others",
					req->target, nsctl_type_get(file_type)->name);
		req->types = NSCTL_TYPE_BIT(file_type);
		fds[file_type] = r;
	}
	type_foreach (t) {
		if (!(req->types & NSCTL_TYPE_BIT(t)))
			continue;
		if (process) {
			fds[t] = nsctl_process_open_ns(process, t, false);
			if (fds[t] < 0)
				cli_fail(fds[t], "PID %s: %s namespace", req->target,
					 nsctl_type_get(t)->name);
		}
		if (req->is_name) {
			r = nsctl_pin_name_path(t, req->where, paths[t], sizeof(paths[t]));
			if (r < 0)
				cli_fail(r, "pin name '%s'", req->where);
		} else {
			snprintf(paths[t], sizeof(paths[t]), "%s", req->where);
		}
	}
	if (process && nsctl_process_alive(process) != 1)
		cli_fail(-ESRCH, "PID %s", req->target);
	nsctl_process_free(process);
}

/* A pin of each, all or nothing: a failure takes back the pins and directories made here. */
static void make_pins(const struct pin_request *req, const int *fds, char (*paths)[PATH_MAX])
{
	struct cli_pins pins;
	const char *why;
	int r;

	cli_pins_init(&pins);
	type_foreach (t) {
		if (!(req->types & NSCTL_TYPE_BIT(t)))
			continue;
		/* A stale pin of that NAME (an empty file left by a reboot) is replaced. */
		r = req->is_name ? nsctl_pin_stale_remove(t, req->where) : 0;
		if (r > 0)
			cli_warn(0,
				 "%s: a stale pin (an empty file, no namespace mounted on it): "
				 "replaced",
				 paths[t]);
		if (r >= 0)
			r = cli_pins_add(&pins, t, fds[t], req->where, req->is_name);
		if (r < 0) {
			cli_pins_take_back(&pins);
			why = cli_pin_refusal(r, t);
			if (why)
				cli_fail(0, "%s: %s", paths[t], why);
			cli_fail(r, "%s", paths[t]);
		}
	}
}

int cmd_pin(int argc, char **argv)
{
	struct pin_request req = { 0 };
	int fds[TYPE_SLOTS];
	char paths[TYPE_SLOTS][PATH_MAX];

	/* The form of every operand first, then everything is opened, then pins are made. */
	parse_pin(argc, argv, &req);
	if (cli_parse_only)
		return 0;
	type_foreach (t)
		fds[t] = -1;
	open_sources(&req, fds, paths);
	make_pins(&req, fds, paths);
	type_foreach (t)
		close_fdp(&fds[t]);
	return EXIT_SUCCESS;
}
