// SPDX-License-Identifier: GPL-2.0-or-later
/* nsctl compare: do two processes, or namespace files, share their namespaces? */
#include <getopt.h>
#include <inttypes.h>
#include "scols.h"
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "util.h"

/* One operand: a process (every type) or a namespace file (its one type). */
struct operand {
	const char *text;
	struct nsctl_process *process;
	int fd;
	enum nsctl_type type;
};

struct result {
	enum nsctl_type type;
	struct nsctl_ns_id a, b;
};

static void help(void)
{
	cli_help_begin();
	fputs("Usage: nsctl compare [options] A B\n"
	      "\nTell, type by type, whether A and B share their namespaces.\n"
	      "A and B are PIDs, namespace files (/proc/PID/ns/TYPE, a pin), id:ID, the\n"
	      "namespace of that 64-bit ID (the ID column of nsctl list), or container:NAME,\n"
	      "a container's first process (the CONTAINER column of nsctl list).\n"
	      "\nOptions:\n",
	      stdout);
	cli_type_options_help(stdout, "", "compare the");
	fputs(" -t, --type LIST           compare the types in LIST (comma-separated, or \"all\")\n"
	      " -J, --json                use JSON output format\n"
	      " -r, --raw                 use raw output format\n"
	      "     --noheadings          don't print headings\n"
	      " -q, --quiet               print nothing; the exit status tells\n",
	      stdout);
	cli_help_footer(stdout);
	fputs(
	    "\nWithout type options every type the kernel has is compared; a namespace\n"
	    "file or an id:ID compares its own type.  For pid and time, a process's own namespace\n"
	    "is compared, not the one for its children.\n"
	    "\nExit status: 0 all compared types are the same, 1 some differ, 2 trouble.\n",
	    stdout);
}

static void operand_open(struct operand *op, const char *text)
{
	uint64_t id;
	pid_t pid;
	int r;

	op->text = text;
	op->fd = -1;
	op->process = NULL;
	if (text[0] == '\0')
		cli_usage_error("'': an empty operand is neither a PID nor a file");
	if (cli_container_operand(text)) {
		op->process = cli_container_open(EXIT_COMPARE_TROUBLE, text,
						 cli_container_operand(text), NULL);
		return;
	}
	if (cli_ns_id_operand(text, &id)) {
		op->fd = cli_open_ns_id(EXIT_COMPARE_TROUBLE, text, id, -1, &op->type);
		return;
	}
	r = parse_pid(text, &pid);
	if (r >= 0) {
		r = nsctl_process_open(pid, &op->process);
		if (r < 0)
			cli_die(EXIT_COMPARE_TROUBLE, r, "PID %s", text);
		return;
	}
	/* All digits, yet not a PID ("0", "010", 2^31): say why, rather than look for a file. */
	if (cli_all_digits(text))
		cli_die(EXIT_COMPARE_TROUBLE, 0, "'%s': not a valid PID (%s)", text,
			cli_pid_refusal(r));
	r = nsctl_ns_open_path(text, -1, &op->type);
	if (r == -ENOENT && !strchr(text, '/'))
		cli_die(EXIT_COMPARE_TROUBLE, 0,
			"'%s': neither a PID nor an existing namespace file", text);
	if (r < 0)
		cli_die(EXIT_COMPARE_TROUBLE, r, "%s", text);
	op->fd = r;
}

static void operand_identify(const struct operand *op, enum nsctl_type type,
			     struct nsctl_ns_id *ret_id)
{
	_cleanup_close_ int fd = -1;
	int r;

	if (!op->process) {
		r = nsctl_ns_identify(op->fd, ret_id);
		if (r < 0)
			cli_die(EXIT_COMPARE_TROUBLE, r, "%s", op->text);
		return;
	}
	fd = nsctl_process_open_ns(op->process, type, false);
	r = fd < 0 ? fd : nsctl_ns_identify(fd, ret_id);
	if (r < 0)
		cli_die(EXIT_COMPARE_TROUBLE, r, "%s%s: %s namespace",
			cli_container_operand(op->text) ? "" : "PID ", op->text,
			nsctl_type_get(type)->name);
}

/* Which types to compare: those asked for, else a file's own, else all the kernel has. */
static unsigned select_types(unsigned asked, const struct operand *a, const struct operand *b)
{
	unsigned types = asked ? asked : cli_types_supported_or_fail("compare");

	for (const struct operand *op = a; op; op = op == a ? b : NULL) {
		if (op->process)
			continue;
		if (asked && !(asked & NSCTL_TYPE_BIT(op->type)))
			cli_usage_error("%s is a %s namespace, which the type options leave out",
					op->text, nsctl_type_get(op->type)->name);
		types = NSCTL_TYPE_BIT(op->type);
	}
	if (!a->process && !b->process && a->type != b->type)
		cli_die(EXIT_COMPARE_TROUBLE, 0,
			"%s is a %s namespace and %s a %s namespace: nothing to compare", a->text,
			nsctl_type_get(a->type)->name, b->text, nsctl_type_get(b->type)->name);
	return types;
}

static void set_id_cells(struct libscols_line *line, size_t column, const struct nsctl_ns_id *id)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%ju", (uintmax_t)id->ino);
	scols_line_set_data(line, column, buf);
	if (id->id) {
		snprintf(buf, sizeof(buf), "%" PRIu64, id->id);
		scols_line_set_data(line, column + 2, buf);
	}
}

static void print_results(const struct result *results, size_t n, bool json, bool raw,
			  bool noheadings)
{
	static const struct {
		const char *name;
		double width;
		int json_type;
	} columns[] = {
		{ "TYPE", 6, SCOLS_JSON_STRING }, { "A", 10, SCOLS_JSON_NUMBER },
		{ "B", 10, SCOLS_JSON_NUMBER },   { "A-ID", 4, SCOLS_JSON_NUMBER },
		{ "B-ID", 4, SCOLS_JSON_NUMBER }, { "RESULT", 9, SCOLS_JSON_STRING },
	};
	struct libscols_table *table;

	cli_scols_load();
	table = scols_new_table();
	if (!table)
		cli_die(EXIT_COMPARE_TROUBLE, -ENOMEM, "cannot make the output table");
	scols_table_enable_json(table, json);
	scols_table_enable_raw(table, raw);
	scols_table_enable_noheadings(table, noheadings);
	scols_table_set_name(table, "compare");
	for (size_t c = 0; c < ELEMENTSOF(columns); c++) {
		struct libscols_column *column =
		    scols_table_new_column(table, columns[c].name, columns[c].width, 0);

		if (!column)
			cli_die(EXIT_COMPARE_TROUBLE, -ENOMEM, "cannot make the output table");
		scols_column_set_json_type(column, columns[c].json_type);
	}
	for (size_t i = 0; i < n; i++) {
		struct libscols_line *line = scols_table_new_line(table, NULL);

		if (!line)
			cli_die(EXIT_COMPARE_TROUBLE, -ENOMEM, "cannot make the output table");
		scols_line_set_data(line, 0, nsctl_type_get(results[i].type)->name);
		set_id_cells(line, 1, &results[i].a);
		set_id_cells(line, 2, &results[i].b);
		scols_line_set_data(line, 5,
				    nsctl_ns_id_equal(&results[i].a, &results[i].b) ? "same"
										    : "different");
	}
	scols_print_table(table);
	scols_unref_table(table);
}

/* What the command line asks for. */
struct compare_request {
	unsigned asked;
	bool json, raw, noheadings, quiet;
};

static void parse_compare(int argc, char **argv, struct compare_request *req)
{
	static const struct option own_options[] = {
		{ "type", required_argument, NULL, 't' },
		{ "json", no_argument, NULL, 'J' },
		{ "raw", no_argument, NULL, 'r' },
		{ "noheadings", no_argument, NULL, 'n' + 0x100 },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 },
	};
	static const struct cli_exclusive exclusive[] = {
		{ { 'J', 'r' }, "--json and --raw are mutually exclusive" },
	};
	struct option *options = cli_long_options_with_types(own_options, no_argument);
	char *optstring = cli_optstring_with_types("+t:JrqhV", no_argument);
	unsigned given[ELEMENTSOF(exclusive)] = { 0 };
	enum nsctl_type type;
	int c;

	/* -n is --net, as on every subcommand; --noheadings has no short form here. */
	while ((c = getopt_long(argc, argv, optstring, options, NULL)) != -1) {
		cli_exclusive_note(exclusive, ELEMENTSOF(exclusive), given, c);
		switch (c) {
		case 't':
			req->asked |= cli_parse_type_list("--type", optarg);
			break;
		case 'J':
			req->json = true;
			break;
		case 'r':
			req->raw = true;
			break;
		case 'n' + 0x100:
			req->noheadings = true;
			break;
		case 'q':
			req->quiet = true;
			break;
		case 'h':
			help();
			exit(EXIT_SUCCESS);
		case 'V':
			cli_version();
		default:
			if (cli_type_from_letter(c, &type) < 0)
				cli_bad_option(argv, optstring);
			req->asked |= NSCTL_TYPE_BIT(type);
		}
	}
	if (argc - optind != 2)
		cli_usage_error(argc - optind < 2 ? "two operands needed, A and B"
						  : "too many operands: '%s'",
				argv[optind + 2 < argc ? optind + 2 : 0]);
	cli_exclusive_check(exclusive, ELEMENTSOF(exclusive), given);
	cli_refuse_unsupported(req->asked);
}

int cmd_compare(int argc, char **argv)
{
	struct compare_request req = { 0 };
	struct result results[TYPE_SLOTS];
	struct operand a, b;
	bool differ = false;
	unsigned asked;
	size_t n = 0;

	parse_compare(argc, argv, &req);
	if (cli_parse_only)
		return 0;
	operand_open(&a, argv[optind]);
	operand_open(&b, argv[optind + 1]);
	asked = select_types(req.asked, &a, &b);
	type_foreach (t) {
		if (!(asked & NSCTL_TYPE_BIT(t)))
			continue;
		results[n].type = t;
		results[n].a = (struct nsctl_ns_id)NSCTL_NS_ID_INIT;
		results[n].b = (struct nsctl_ns_id)NSCTL_NS_ID_INIT;
		operand_identify(&a, t, &results[n].a);
		operand_identify(&b, t, &results[n].b);
		if (!nsctl_ns_id_equal(&results[n].a, &results[n].b))
			differ = true;
		n++;
	}
	/* Both handles must still be the processes we opened, or the answer is about others. */
	if ((a.process && nsctl_process_alive(a.process) != 1) ||
	    (b.process && nsctl_process_alive(b.process) != 1))
		cli_die(EXIT_COMPARE_TROUBLE, -ESRCH, "PID %s",
			a.process && nsctl_process_alive(a.process) != 1 ? a.text : b.text);
	if (!req.quiet)
		print_results(results, n, req.json, req.raw, req.noheadings);
	nsctl_process_free(a.process);
	nsctl_process_free(b.process);
	close_fdp(&a.fd);
	close_fdp(&b.fd);
	return differ ? EXIT_COMPARE_DIFFERENT : EXIT_COMPARE_SAME;
}
