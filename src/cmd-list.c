// SPDX-License-Identifier: GPL-2.0-or-later
/* nsctl list: every namespace on the host, as a table, JSON, a tree or a Graphviz graph. */
#include <getopt.h>
#include <inttypes.h>
#include "scols.h"
#include <limits.h>
#include <locale.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <strings.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cli.h"
#include "number.h"
#include "list-filter.h"
#include "util.h"

/* The columns, once: name, width hint, JSON type (the type -Q and -H use), and what they show. */
enum column_id {
	COL_NS,
	COL_ID,
	COL_TYPE,
	COL_PATH,
	COL_NPROCS,
	COL_PID,
	COL_PPID,
	COL_COMMAND,
	COL_UID,
	COL_USER,
	COL_NETNSID,
	COL_NSFS,
	COL_PNS,
	COL_ONS,
	COL_HOLDERS,
	COL_NAME,
	COL_CGROUP,
	COL_CONTAINER,
	COL_COUNT,
};

static const struct column_info {
	const char *name;
	double width;
	int flags;
	int json_type;
	const char *help;
} column_table[COL_COUNT] = {
	[COL_NS] = { "NS", 10, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
		     "namespace identifier (inode number)" },
	[COL_ID] = { "ID", 10, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
		     "64-bit namespace ID (NS_GET_ID), never reused" },
	[COL_TYPE] = { "TYPE", 5, 0, SCOLS_JSON_STRING, "kind of namespace" },
	[COL_PATH] = { "PATH", 0, 0, SCOLS_JSON_STRING, "path to the namespace" },
	[COL_NPROCS] = { "NPROCS", 5, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
			 "number of processes in the namespace" },
	[COL_PID] = { "PID", 5, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "lowest PID in the namespace" },
	[COL_PPID] = { "PPID", 5, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "PPID of the PID" },
	[COL_COMMAND] = { "COMMAND", 0, SCOLS_FL_TRUNC, SCOLS_JSON_STRING,
			  "command line of the PID" },
	[COL_UID] = { "UID", 0, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
		      "UID of the PID, or of the creator of the owner" },
	[COL_USER] = { "USER", 0, 0, SCOLS_JSON_STRING,
		       "username of the PID, or of the creator of the owner" },
	[COL_NETNSID] = { "NETNSID", 0, SCOLS_FL_RIGHT, SCOLS_JSON_STRING,
			  "namespace ID as used by network subsystem" },
	[COL_NSFS] = { "NSFS", 0, SCOLS_FL_WRAP, SCOLS_JSON_STRING,
		       "nsfs mount points (pins): one per line" },
	[COL_PNS] = { "PNS", 10, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
		      "parent namespace (user and pid namespaces)" },
	[COL_ONS] = { "ONS", 10, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
		      "owner namespace (a user namespace)" },
	[COL_HOLDERS] = { "HOLDERS", 0, 0, SCOLS_JSON_STRING,
			  "processes holding the namespace by an open fd or socket" },
	[COL_NAME] = { "NAME", 0, SCOLS_FL_WRAP, SCOLS_JSON_STRING,
		       "names of its pins (ip netns identify's): one per line" },
	[COL_CGROUP] = { "CGROUP", 0, SCOLS_FL_TRUNC, SCOLS_JSON_STRING,
			 "cgroup v2 path of the PID" },
	[COL_CONTAINER] = { "CONTAINER", 0, 0, SCOLS_JSON_STRING,
			    "container of the PID, as RUNTIME:NAME (or RUNTIME:ID)" },
};

/* The columns of lsns by default, so that its scripts keep working. */
static const enum column_id default_columns[] = { COL_NS,  COL_TYPE, COL_NPROCS,
						  COL_PID, COL_USER, COL_COMMAND };

/* lsns NAMESPACE's: the namespace's processes, one a row. */
static const enum column_id process_columns[] = { COL_PID, COL_PPID, COL_USER, COL_COMMAND };

enum tree_kind { TREE_NONE, TREE_OWNER, TREE_PARENT, TREE_PROCESS };

struct request {
	enum column_id columns[COL_COUNT * 2];
	size_t n_columns;
	struct list_filter *filter;
	unsigned types;
	pid_t task;
	bool persistent, json, raw, noheadings, notruncate, nowrap, dot;
	bool flat; /* -l/--list */
	enum tree_kind tree;
	bool default_columns; /* no -o LIST (a +LIST adds to them), no --output-all */
	char **wanted;        /* namespace inodes or IDs ("ino:N": a pin's or file's, resolved) */
	size_t n_wanted;
};

/* The letters lsns reads otherwise than nsctl's type options: list refuses both readings. */
#define LSNS_LETTERS "npTu"

static _Noreturn void refuse_lsns_letter(int letter)
{
	static const struct {
		char letter;
		const char *lsns;
	} lsns[] = {
		{ 'n', "--noheadings" },
		{ 'p', "--task PID" },
		{ 'T', "--tree" },
		{ 'u', "--notruncate" },
	};
	enum nsctl_type type;
	const char *meaning = "";

	for (size_t i = 0; i < ELEMENTSOF(lsns); i++)
		if (lsns[i].letter == letter)
			meaning = lsns[i].lsns;
	(void)cli_type_from_letter(letter, &type);
	cli_usage_error("-%c: lsns reads it as %s, the other nsctl subcommands as --%s: "
			"spell out which (--%s is -t %s)",
			letter, meaning, cli_type_option(type), cli_type_option(type),
			nsctl_type_get(type)->name);
}

static void help(void)
{
	cli_help_begin();
	fputs("Usage: nsctl list [options] [NAMESPACE...]\n"
	      "\nList every namespace on the host: those processes are in, those held\n"
	      "only by an open fd, a socket or a bind mount (in any mount namespace), and the\n"
	      "owners and parents of them all.  With NAMESPACE (an inode, a 64-bit ID, a pin\n"
	      "NAME or a namespace file), list the processes in it instead, as lsns does:\n"
	      "PID PPID USER COMMAND, a tree of who started whom (-l: a list).\n"
	      "ip netns pids NAME is nsctl list --noheadings -o PID NAME; ip netns identify\n"
	      "PID is nsctl list --noheadings --task PID -t net -o NAME.\n"
	      "\nOptions:\n",
	      stdout);
	cli_type_options_help_without(stdout, "", "list the", LSNS_LETTERS);
	fputs(" -t, --type LIST           list the types in LIST (comma-separated, or \"all\")\n"
	      "     --task PID            list the namespaces of process PID\n"
	      " -P, --persistent          only namespaces no process is in\n"
	      " -o, --output LIST         the columns to show (\"+LIST\" adds to the default;\n"
	      "                             with -t net, NETNSID and NSFS are among them)\n"
	      "     --output-all          show every column\n"
	      " -Q, --filter EXPR         only the rows where EXPR is true, e.g.\n"
	      "                             -Q 'NPROCS == 0 && TYPE == \"net\"'\n"
	      " -H, --list-columns        describe the columns, with their types, and exit\n"
	      " -J, --json                use JSON output format\n"
	      " -r, --raw                 use raw output format\n"
	      " -l, --list                a list, not a tree (the default; lsns's -l)\n"
	      "     --tree[=RELATION]     a tree by owner (the default), parent or process\n"
	      "     --noheadings          don't print headings\n"
	      "     --notruncate          don't truncate text in columns\n"
	      " -W, --nowrap              one line per namespace: the NSFS pins joined by commas\n"
	      "     --dot                 print a Graphviz graph (dot -Tpng renders it)\n",
	      stdout);
	cli_help_footer(stdout);
	fputs("\nA long option may be abbreviated to a prefix no other long option shares;\n"
	      "one that several share is refused.\n",
	      stdout);
	fputs("\nlsns's -n, -p, -T and -u (--noheadings, --task, --tree, --notruncate) and\n"
	      "nsctl's type letters -n, -p, -T and -u (--net, --pid, --time, --uts) differ:\n"
	      "list takes neither meaning, and says so; spell the long option.\n"
	      "\nControl bytes and invalid UTF-8 in command lines and paths are escaped\n"
	      "in every format (in a table, every byte the locale does not print, as\n"
	      "lsns), as nsctl-list(1) says.\n",
	      stdout);
	fputs("\n-Q's =~ and !~ take POSIX extended regular expressions (no back-references),\n"
	      "which nsctl matches in time linear in the text and memory set by the pattern:\n"
	      "no command line another user writes can fail, slow or hide a row.\n",
	      stdout);
}

static enum list_filter_type column_type(size_t c)
{
	switch (column_table[c].json_type) {
	case SCOLS_JSON_NUMBER:
		return LIST_FILTER_NUMBER;
	case SCOLS_JSON_BOOLEAN:
		return LIST_FILTER_BOOLEAN;
	default:
		return LIST_FILTER_STRING;
	}
}

static void list_columns(void)
{
	for (size_t c = 0; c < COL_COUNT; c++)
		printf("%-8s %-9s %s\n", column_table[c].name,
		       list_filter_type_name(column_type(c)), column_table[c].help);
}

static int column_from_name(const char *name, size_t length)
{
	for (size_t c = 0; c < COL_COUNT; c++)
		if (strlen(column_table[c].name) == length &&
		    strncasecmp(column_table[c].name, name, length) == 0)
			return (int)c;
	return -1;
}

static int filter_column(const char *name, size_t length, enum list_filter_type *ret_type)
{
	int c = column_from_name(name, length);

	if (c >= 0)
		*ret_type = column_type((size_t)c);
	return c;
}

/*
 * -Q EXPR, parsed here whichever library evaluates it, so that a bad one has
 * the same message, with its position, everywhere; and so that libsmartcols'
 * scanner never sees a byte outside the grammar (it copies one to standard
 * output and goes on).  Its columns need not be shown.
 */
static void parse_filter(struct request *req, const char *text)
{
	struct list_filter_error error;
	int r = list_filter_parse(text, filter_column, &req->filter, &error);

	if (r == -EINVAL)
		cli_usage_error("--filter: at %zu: %s", error.position, error.reason);
	if (r < 0)
		cli_die(EXIT_FAILURE, r, "--filter");
}

static void parse_columns(struct request *req, const char *list)
{
	const char *p = list;

	if (*p == '+') {
		p++;
	} else {
		req->n_columns = 0;
		req->default_columns = false;
	}
	for (;;) {
		size_t length = strcspn(p, ",");
		int c = column_from_name(p, length);

		if (c < 0)
			cli_usage_error("--output '%s': unknown column '%.*s'", list, (int)length,
					p);
		if (req->n_columns == ELEMENTSOF(req->columns))
			cli_usage_error("--output '%s': too many columns", list);
		req->columns[req->n_columns++] = (enum column_id)c;
		if (!p[length])
			break;
		p += length + 1;
	}
}

/* COLUMNS (N of them) before the default COMMAND, the columns of a +LIST after them. */
static void default_columns_insert(struct request *req, const enum column_id *columns, size_t n)
{
	size_t at = ELEMENTSOF(default_columns) - 1;

	if (req->n_columns + n > ELEMENTSOF(req->columns))
		cli_usage_error("--output: too many columns");
	memmove(&req->columns[at + n], &req->columns[at],
		(req->n_columns - at) * sizeof(req->columns[0]));
	memcpy(&req->columns[at], columns, n * sizeof(columns[0]));
	req->n_columns += n;
}

/* NETNSID and NSFS, for network namespaces asked for by name. */
static void net_default_columns(struct request *req)
{
	static const enum column_id net[] = { COL_NETNSID, COL_NSFS };

	default_columns_insert(req, net, ELEMENTSOF(net));
}

static bool number_is(const char *wanted, const struct nsctl_list_ns *ns)
{
	uint64_t number;

	/* A pin NAME or a file, resolved to its inode: the inode only, never an ID. */
	if (strncmp(wanted, "ino:", 4) == 0)
		return number_parse(wanted + 4, UINT64_MAX, 0, &number) == 0 &&
		       number == (uint64_t)ns->id->ino;

	/* Checked as digits already; one too large for 64 bits names nothing. */
	if (number_parse(wanted, UINT64_MAX, NUMBER_LEADING_ZEROS, &number) < 0)
		return false;
	return number == (uint64_t)ns->id->ino || (ns->id->id && number == ns->id->id);
}

/* Whether NS is of the types asked for and, with --task, that process's: what lsns reads. */
static bool of_types_and_task(const struct request *req, const struct nsctl_list *list,
			      const struct nsctl_list_ns *ns)
{
	return (req->types & NSCTL_TYPE_BIT(ns->id->type)) &&
	       (!req->task || nsctl_list_find_process(list, req->task, ns->id->type) == ns);
}

/*
 * The namespace WANTED names among those of_types_and_task() keeps; NULL if
 * none.  *RET_ELSEWHERE is the one of another type or process, if any.
 */
static const struct nsctl_list_ns *wanted_find(const struct request *req,
					       const struct nsctl_list *list, const char *wanted,
					       const struct nsctl_list_ns **ret_elsewhere)
{
	*ret_elsewhere = NULL;
	for (size_t i = 0; i < nsctl_list_count(list); i++) {
		const struct nsctl_list_ns *ns = nsctl_list_get(list, i);

		if (!number_is(wanted, ns))
			continue;
		if (of_types_and_task(req, list, ns))
			return ns;
		*ret_elsewhere = ns;
	}
	return NULL;
}

/* The inode of the namespace file PATH, as "ino:N" (static storage); exits if it is none. */
static char *inode_of_file(const char *operand, const char *path)
{
	static char texts[64][32];
	static size_t used;
	enum nsctl_type type;
	struct stat st;
	int fd = nsctl_ns_open_path(path, -1, &type);

	if (fd < 0)
		cli_die(EXIT_FAILURE, fd, "'%s': %s", operand, path);
	if (fstat(fd, &st) < 0)
		cli_die(EXIT_FAILURE, negative_errno(), "'%s': %s", operand, path);
	close(fd);
	if (used == ELEMENTSOF(texts))
		cli_usage_error("at most %zu NAMESPACE operands that are names or files",
				ELEMENTSOF(texts));
	snprintf(texts[used], sizeof(texts[used]), "ino:%ju", (uintmax_t)st.st_ino);
	return texts[used++];
}

/* Whether NAME pins a namespace of TYPE, one of --type's: its path into BUF. */
static bool pin_of_name(const struct request *req, enum nsctl_type type, const char *name,
			char *buf, size_t size)
{
	struct stat st;

	return (req->types & NSCTL_TYPE_BIT(type)) &&
	       nsctl_pin_name_path(type, name, buf, size) >= 0 && lstat(buf, &st) == 0;
}

/*
 * NAMESPACE operands that are a pin NAME (as ip netns pids NAME takes one: a
 * network namespace's first, then another type's of --type) or a namespace
 * file: each as the inode it leads to, opened as a file another user may
 * control is (nsctl_ns_open_path()).
 */
static void resolve_wanted(struct request *req)
{
	for (size_t i = 0; i < req->n_wanted; i++) {
		const char *w = req->wanted[i];
		char path[PATH_MAX];
		bool found = false;

		if (cli_all_digits(w))
			continue;
		if (strchr(w, '/')) {
			req->wanted[i] = inode_of_file(w, w);
			continue;
		}
		found = pin_of_name(req, NSCTL_TYPE_NET, w, path, sizeof(path));
		type_foreach (t)
			found = found || pin_of_name(req, t, w, path, sizeof(path));
		if (found)
			req->wanted[i] = inode_of_file(w, path);
		if (!found)
			cli_die(
			    EXIT_FAILURE, 0,
			    "not found namespace: %s (no pin of that name%s: ip netns add NAME, "
			    "or nsctl pin, makes one)",
			    w, req->types == TYPES_ALL ? "" : " of the types of --type");
	}
}

/* As lsns: a NAMESPACE asked for by number that is not among those listed is an error. */
static void check_wanted(const struct request *req, const struct nsctl_list *list)
{
	for (size_t i = 0; i < req->n_wanted; i++) {
		const struct nsctl_list_ns *elsewhere;

		if (wanted_find(req, list, req->wanted[i], &elsewhere))
			continue;
		if (!elsewhere)
			cli_die(EXIT_FAILURE, 0, "not found namespace: %s", req->wanted[i]);
		cli_die(EXIT_FAILURE, 0, "not found namespace: %s (a %s namespace%s)",
			req->wanted[i], nsctl_type_get(elsewhere->id->type)->name,
			req->types & NSCTL_TYPE_BIT(elsewhere->id->type)
			    ? ", not the one of --task"
			    : ", not of the types of --type");
	}
}

static bool shown(const struct request *req, const struct nsctl_list *list,
		  const struct nsctl_list_ns *ns)
{
	if (!of_types_and_task(req, list, ns))
		return false;
	if (req->persistent && ns->nprocs > 0)
		return false;
	if (req->n_wanted == 0)
		return true;
	for (size_t i = 0; i < req->n_wanted; i++)
		if (number_is(req->wanted[i], ns))
			return true;
	return false;
}

/* The namespace, of the same type, of the parent of a namespace's lowest process. */
static const struct nsctl_list_ns *process_parent(const struct nsctl_list *list,
						  const struct nsctl_list_ns *ns)
{
	if (ns->pid <= 0 || ns->ppid <= 0)
		return NULL;
	return nsctl_list_find_process(list, ns->ppid, ns->id->type);
}

static const struct nsctl_list_ns *tree_parent(const struct request *req,
					       const struct nsctl_list *list,
					       const struct nsctl_list_ns *ns)
{
	const struct nsctl_list_ns *up = NULL;
	unsigned steps = 0;

	switch (req->tree) {
	case TREE_OWNER:
		up = ns->owner;
		break;
	case TREE_PARENT:
		up = ns->parent;
		break;
	case TREE_PROCESS:
		up = process_parent(list, ns);
		/* A process may have changed namespaces since the scan: never make a loop. */
		for (const struct nsctl_list_ns *a = up; a; a = process_parent(list, a))
			if (a == ns || ++steps > 4096) {
				up = NULL;
				break;
			}
		break;
	case TREE_NONE:
		break;
	}
	return up == ns ? NULL : up;
}

static const char *user_name(uid_t uid)
{
	/* Few distinct owners: a small cache saves a getpwuid() per row. */
	static struct {
		uid_t uid;
		char *name;
	} cache[64];
	static size_t n;
	struct passwd *pw;

	for (size_t i = 0; i < n; i++)
		if (cache[i].uid == uid)
			return cache[i].name;
	pw = getpwuid(uid);
	if (!pw)
		return NULL;
	if (n == ELEMENTSOF(cache))
		return pw->pw_name;
	cache[n].uid = uid;
	cache[n].name = strdup(pw->pw_name);
	return cache[n++].name;
}

/*
 * How cell text is made safe for a reader's terminal and for the format:
 * each character that must not reach the output as it is becomes U+FFFD, the
 * replacement character (an escape of ours would be escaped again by
 * libsmartcols, its backslash too).  In a table, the invisible formatting
 * characters (bidirectional controls, zero-width characters), which a UTF-8
 * locale counts as printable; libsmartcols escapes controls and bytes that
 * are not UTF-8 itself (\x9b).  In JSON, those too but C0 controls (which
 * libsmartcols escapes as JSON does): libsmartcols writes every other byte
 * as it is, and JSON text must be UTF-8 (RFC 8259).
 */
static bool must_replace(int32_t c, bool json)
{
	if (c < 0)
		return json;
	if (is_control(c))
		return json && c >= 0x7f;
	return is_control_or_format(c);
}

/* TEXT made safe (above), or NULL when it needs no change (or on no memory: the caller stops). */
static char *text_safe(const char *text, bool json, bool *ret_changed)
{
	const unsigned char *p = (const unsigned char *)text;
	char *safe, *out;
	size_t n;
	int32_t c;

	*ret_changed = false;
	for (; *p && !*ret_changed; p += n) {
		n = 1;
		*ret_changed = must_replace(utf8_decode(p, &n), json);
	}
	if (!*ret_changed)
		return NULL;
	/* Each byte becomes at most the three bytes of U+FFFD. */
	safe = malloc(strlen(text) * 3 + 1);
	if (!safe)
		return NULL;
	out = safe;
	for (p = (const unsigned char *)text; *p; p += n) {
		n = 1;
		c = utf8_decode(p, &n);
		if (must_replace(c, json)) {
			memcpy(out, "\xef\xbf\xbd", 3);
			out += 3;
		} else {
			memcpy(out, p, n);
			out += n;
		}
	}
	*out = '\0';
	return safe;
}

static void set_text(const struct request *req, struct libscols_line *line, size_t column,
		     const char *text)
{
	_cleanup_free_ char *safe = NULL;
	bool changed = false;

	safe = text_safe(text, req->json, &changed);
	if (changed && !safe)
		cli_die(EXIT_FAILURE, -ENOMEM, "cannot make the output table");
	if (scols_line_set_data(line, column, safe ? safe : text) < 0)
		cli_die(EXIT_FAILURE, -ENOMEM, "cannot make the output table");
}

/* Room for a number's text: the 20 digits of a 64-bit one, and the NUL. */
#define NUMBER_SIZE 24

static const char *number_text(char *buffer, uintmax_t value)
{
	snprintf(buffer, NUMBER_SIZE, "%ju", value);
	return buffer;
}

/*
 * TEXTS, or else PIDS, joined by SEPARATOR, for the caller to free; NULL when
 * N is 0.  Where SEPARATOR is a newline, a newline in a text (a mount point
 * is anyone's to choose) is written \x0a, as the table writes it elsewhere:
 * "/mnt/a\n/run/netns/prod" is one pin, never two.
 */
static char *joined(const char *const *texts, const pid_t *pids, size_t n, const char *separator)
{
	bool escape_newlines = strchr(separator, '\n');
	char *text = NULL;
	size_t length = 0;
	FILE *f;

	if (n == 0)
		return NULL;
	f = open_memstream(&text, &length);
	if (!f)
		cli_die(EXIT_FAILURE, -ENOMEM, "cannot make the output table");
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputs(separator, f);
		if (texts && escape_newlines) {
			for (const char *p = texts[i]; *p; p++) {
				if (*p == '\n')
					fputs("\\x0a", f);
				else
					fputc(*p, f);
			}
		} else if (texts) {
			fputs(texts[i], f);
		} else {
			fprintf(f, "%d", pids[i]);
		}
	}
	if (fclose(f) != 0) {
		free(text);
		cli_die(EXIT_FAILURE, -ENOMEM, "cannot make the output table");
	}
	return text;
}

/*
 * The NAMEs of NS's pins that are at a pin NAME's place (/run/netns/NAME,
 * /run/nsctl/TYPE/NAME), as ip netns identify prints them, joined by
 * SEPARATOR: the caller frees it.
 */
static char *pin_names(const struct nsctl_list_ns *ns, const char *separator)
{
	_cleanup_free_ const char **names = calloc(ns->n_pins + 1, sizeof(*names));
	char path[PATH_MAX];
	size_t n = 0;

	if (!names)
		cli_die(EXIT_FAILURE, -ENOMEM, "cannot make the output table");
	for (size_t i = 0; i < ns->n_pins; i++) {
		const char *base = strrchr(ns->pins[i], '/');

		if (base && nsctl_pin_name_path(ns->id->type, base + 1, path, sizeof(path)) >= 0 &&
		    strcmp(path, ns->pins[i]) == 0)
			names[n++] = base + 1;
	}
	return joined(names, NULL, n, separator);
}

/*
 * The text of NS's cell in column ID, NULL for an empty cell: a number's in
 * BUFFER, a list's in *RET_JOINED (the caller frees it), the pins joined by
 * PIN_SEPARATOR.  What the table prints (JSON escaped by set_text()), and
 * what -Q reads.
 */
static const char *cell_text(const struct nsctl_list_ns *ns, enum column_id id,
			     const char *pin_separator, char buffer[static NUMBER_SIZE],
			     char **ret_joined)
{
	const char *name;

	switch (id) {
	case COL_NS:
		return number_text(buffer, ns->id->ino);
	case COL_ID:
		return ns->id->id ? number_text(buffer, ns->id->id) : NULL;
	case COL_TYPE:
		return nsctl_type_get(ns->id->type)->name;
	case COL_PATH:
		return ns->path;
	case COL_NPROCS:
		return number_text(buffer, ns->nprocs);
	case COL_PID:
		return ns->pid > 0 ? number_text(buffer, (uintmax_t)ns->pid) : NULL;
	case COL_PPID:
		return ns->pid > 0 ? number_text(buffer, (uintmax_t)ns->ppid) : NULL;
	case COL_COMMAND:
		return ns->command;
	case COL_UID:
		/* With no process, the creator of its user namespace, as lsns. */
		return ns->has_uid ? number_text(buffer, ns->uid) : NULL;
	case COL_USER:
		/* A UID no passwd entry names is shown as its number, a string in JSON. */
		if (!ns->has_uid)
			return NULL;
		name = user_name(ns->uid);
		return name ? name : number_text(buffer, ns->uid);
	case COL_NETNSID:
		/* As lsns writes it: a number, or "unassigned"; nothing for other types. */
		if (ns->netnsid >= 0)
			return number_text(buffer, (uintmax_t)ns->netnsid);
		return ns->netnsid == -1 ? "unassigned" : NULL;
	case COL_NSFS:
		return *ret_joined = joined(ns->pins, NULL, ns->n_pins, pin_separator);
	case COL_PNS:
		/* 0 for none, as lsns writes it. */
		return number_text(buffer, ns->parent ? ns->parent->id->ino : 0);
	case COL_ONS:
		return number_text(buffer, ns->owner ? ns->owner->id->ino : 0);
	case COL_HOLDERS:
		return *ret_joined = joined(NULL, ns->holders, ns->n_holders, ",");
	case COL_NAME:
		return *ret_joined = pin_names(ns, pin_separator);
	case COL_CGROUP:
		return ns->cgroup;
	case COL_CONTAINER:
		return ns->container;
	case COL_COUNT:
		break;
	}
	return NULL;
}

static void fill_line(const struct request *req, struct libscols_line *line,
		      const struct nsctl_list_ns *ns)
{
	/* -W, as lsns's, and -r: one line per namespace, the pins joined with commas. */
	const char *pin_separator = req->nowrap || req->raw ? "," : "\n";

	for (size_t c = 0; c < req->n_columns; c++) {
		_cleanup_free_ char *list = NULL;
		char number[NUMBER_SIZE];
		const char *text = cell_text(ns, req->columns[c], pin_separator, number, &list);

		if (text)
			set_text(req, line, c, text);
	}
}

/*
 * -Q reads a row from its namespace, each cell as the table shows it, in every
 * format: the pins one per line (where -r and -W join them with commas), no
 * JSON escaping.  A cell is made once, when the expression first reads it.
 */
struct filter_row {
	const struct nsctl_list_ns *ns;
	bool made[COL_COUNT];
	const char *text[COL_COUNT];
	char number[COL_COUNT][NUMBER_SIZE];
	char *list[COL_COUNT];
};

static const char *filter_cell(void *userdata, int column)
{
	struct filter_row *row = userdata;

	if (column < 0 || column >= COL_COUNT)
		return NULL;
	if (!row->made[column]) {
		row->text[column] = cell_text(row->ns, (enum column_id)column, "\n",
					      row->number[column], &row->list[column]);
		row->made[column] = true;
	}
	return row->text[column];
}

/*
 * A row the expression cannot be evaluated on (text compared with a number):
 * libsmartcols fails so, and lsns with it.
 */
_Noreturn static void filter_failed(const struct nsctl_list_ns *ns, int r)
{
	if (r == -ENOMEM)
		cli_die(EXIT_FAILURE, r, "--filter");
	cli_die(EXIT_FAILURE, 0,
		"--filter: cannot evaluate it on namespace %ju: a value is not of the type it is "
		"compared as (a number in quotes compares as text)",
		(uintmax_t)ns->id->ino);
}

/* Whether -Q, evaluated by nsctl, selects NS: 1 or 0, or a negative errno. */
static int filter_selects(const struct request *req, const struct nsctl_list_ns *ns)
{
	struct filter_row row = { .ns = ns };
	int selected = list_filter_match(req->filter, filter_cell, &row);

	for (size_t c = 0; c < COL_COUNT; c++)
		free(row.list[c]);
	return selected;
}

/* The rows shown that -Q selects, or NULL where there is no -Q: all evaluated before the table. */
static bool *filter_rows(const struct request *req, const struct nsctl_list *list, size_t n)
{
	bool *selected;

	if (!req->filter)
		return NULL;
	selected = calloc(n + 1, sizeof(*selected));
	if (!selected)
		cli_die(EXIT_FAILURE, -ENOMEM, "--filter");
	for (size_t i = 0; i < n; i++) {
		const struct nsctl_list_ns *ns = nsctl_list_get(list, i);
		int r = shown(req, list, ns) ? filter_selects(req, ns) : 0;

		if (r < 0)
			filter_failed(ns, r);
		selected[i] = r;
	}
	return selected;
}

/* Where NS is in the list's inode order: a binary search, as the list is sorted. */
static size_t index_of(const struct nsctl_list *list, const struct nsctl_list_ns *ns)
{
	size_t low = 0, high = nsctl_list_count(list);

	while (low < high) {
		size_t middle = low + (high - low) / 2;
		const struct nsctl_list_ns *m = nsctl_list_get(list, middle);

		if (m == ns)
			return middle;
		if (m->id->ino < ns->id->ino ||
		    (m->id->ino == ns->id->ino && m->id->dev < ns->id->dev))
			low = middle + 1;
		else
			high = middle;
	}
	return nsctl_list_count(list); /* lines[] has one more slot, always NULL */
}

/* The table, its columns as REQ says: the tree in column TREE_COLUMN (-1: none). */
static struct libscols_table *table_make(const struct request *req, int tree_column)
{
	struct libscols_table *table;

	cli_scols_load();
	table = scols_new_table();
	if (!table)
		cli_die(EXIT_FAILURE, -ENOMEM, "cannot make the output table");
	scols_table_enable_json(table, req->json);
	scols_table_enable_raw(table, req->raw);
	scols_table_enable_noheadings(table, req->noheadings);
	scols_table_set_name(table, "namespaces");
	for (size_t c = 0; c < req->n_columns; c++) {
		const struct column_info *info = &column_table[req->columns[c]];
		int flags = info->flags;
		struct libscols_column *column;

		if (req->notruncate)
			flags &= ~(SCOLS_FL_TRUNC | SCOLS_FL_WRAP);
		if (req->nowrap)
			flags &= ~SCOLS_FL_WRAP;
		/* Branches grow from the left: a right-aligned tree column has no shape. */
		if ((int)c == tree_column)
			flags = (flags & ~SCOLS_FL_RIGHT) | SCOLS_FL_TREE;
		column = scols_table_new_column(table, info->name, info->width, flags);
		if (!column)
			cli_die(EXIT_FAILURE, -ENOMEM, "cannot make the output table");
		scols_column_set_json_type(column, info->json_type);
		/*
		 * One pin per line: libsmartcols escapes a newline as \x0a unless
		 * the column says it is safe, and splits the cell at each one.  In
		 * JSON the pins stay one string, a newline between them, as lsns
		 * writes them (its scripts read a string there).
		 */
		if ((req->columns[c] == COL_NSFS || req->columns[c] == COL_NAME) && !req->nowrap &&
		    !req->raw && !req->json) {
			scols_column_set_safechars(column, "\n");
			scols_column_set_wrapfunc(column, scols_wrapnl_chunksize,
						  scols_wrapnl_nextchunk, NULL);
		}
	}
	return table;
}

static void print_table(const struct request *req, const struct nsctl_list *list)
{
	size_t n = nsctl_list_count(list);
	struct libscols_table *table = table_make(req, req->tree != TREE_NONE ? 0 : -1);
	struct libscols_line **lines = calloc(n + 1, sizeof(*lines));
	bool *selected = filter_rows(req, list, n);

	if (!lines)
		cli_die(EXIT_FAILURE, -ENOMEM, "cannot make the output table");
	for (size_t i = 0; i < n; i++) {
		const struct nsctl_list_ns *ns = nsctl_list_get(list, i);

		/* As lsns: a row -Q drops takes its place in a tree too; its children become roots.
		 */
		if (selected ? !selected[i] : !shown(req, list, ns))
			continue;
		lines[i] = scols_table_new_line(table, NULL);
		if (!lines[i])
			cli_die(EXIT_FAILURE, -ENOMEM, "cannot make the output table");
		fill_line(req, lines[i], ns);
	}
	/* Lines are in inode order; a tree hangs each under its relation when that is shown. */
	for (size_t i = 0; req->tree != TREE_NONE && i < n; i++) {
		const struct nsctl_list_ns *ns = nsctl_list_get(list, i), *up;

		if (!lines[i])
			continue;
		up = tree_parent(req, list, ns);
		if (up && lines[index_of(list, up)])
			scols_line_add_child(lines[index_of(list, up)], lines[i]);
	}
	scols_print_table(table);
	scols_unref_table(table);
	free(lines);
	free(selected);
}

/*
 * The rows of NS's processes (nsctl_list_process()) that -Q selects, into
 * TABLE; with a tree, each under the row of its parent where that is one of them.
 */
static void add_process_rows(const struct request *req, struct nsctl_list *list,
			     const struct nsctl_list_ns *ns, struct libscols_table *table)
{
	struct libscols_line **lines = calloc(ns->nprocs + 1, sizeof(*lines));
	pid_t *pids = calloc(ns->nprocs + 1, sizeof(*pids));
	const struct nsctl_list_ns *row;
	size_t n = 0;

	if (!lines || !pids)
		cli_die(EXIT_FAILURE, -ENOMEM, "cannot make the output table");
	for (; n < ns->nprocs && (row = nsctl_list_process(list, ns, n)); n++) {
		int r = req->filter ? filter_selects(req, row) : 1;

		if (r < 0)
			filter_failed(row, r);
		pids[n] = row->pid;
		if (!r)
			continue;
		lines[n] = scols_table_new_line(table, NULL);
		if (!lines[n])
			cli_die(EXIT_FAILURE, -ENOMEM, "cannot make the output table");
		fill_line(req, lines[n], row);
		/* In PID order: a parent started before its child is already a line. */
		for (size_t p = 0; req->tree != TREE_NONE && p < n; p++)
			if (pids[p] == row->ppid && lines[p]) {
				scols_line_add_child(lines[p], lines[n]);
				break;
			}
	}
	free(lines);
	free(pids);
}

/* lsns NAMESPACE: the processes of each NAMESPACE, in the order given. */
static void print_processes(const struct request *req, struct nsctl_list *list)
{
	int tree_column = -1;
	struct libscols_table *table;

	for (size_t c = 0; req->tree != TREE_NONE && c < req->n_columns; c++)
		if (req->columns[c] == COL_COMMAND)
			tree_column = (int)c;
	table = table_make(req, tree_column);
	for (size_t i = 0; i < req->n_wanted; i++) {
		const struct nsctl_list_ns *elsewhere;

		add_process_rows(req, list, wanted_find(req, list, req->wanted[i], &elsewhere),
				 table);
	}
	scols_print_table(table);
	scols_unref_table(table);
}

/*
 * A DOT string: quotes, backslashes and line ends escaped, every other
 * control byte (command lines are anyone's: an ESC, a BEL or a CR would reach
 * the terminal of whoever reads the graph) or byte of no valid UTF-8 sequence
 * (which dot refuses) written as the text \xNN, and an invisible formatting
 * character (U+202E ...) as U+FFFD, as in a table.
 */
static void dot_string(FILE *out, const char *text)
{
	const unsigned char *p = (const unsigned char *)text;
	size_t n;
	int32_t c;

	fputc('"', out);
	for (; *p; p += n) {
		n = 1;
		c = utf8_decode(p, &n);
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", *p);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c < 0 || is_control(c))
			for (size_t i = 0; i < n; i++)
				fprintf(out, "\\\\x%02x", p[i]);
		else if (is_control_or_format(c))
			fputs("\xef\xbf\xbd", out);
		else
			fwrite(p, 1, n, out);
	}
	fputc('"', out);
}

/*
 * The hierarchy as Graphviz: user namespaces own the others (solid), user and
 * pid namespaces have parents (dashed), and the lowest process of each
 * namespace is in it (dotted, to an ellipse).
 */
static void print_dot(const struct request *req, const struct nsctl_list *list)
{
	size_t n = nsctl_list_count(list);

	puts("digraph namespaces {\n"
	     "\trankdir=LR;\n"
	     "\tnode [shape=box, fontname=\"monospace\"];");
	for (size_t i = 0; i < n; i++) {
		const struct nsctl_list_ns *ns = nsctl_list_get(list, i);
		char label[256];

		if (!shown(req, list, ns))
			continue;
		snprintf(label, sizeof(label), "%s\n%ju\n%u process%s",
			 nsctl_type_get(ns->id->type)->name, (uintmax_t)ns->id->ino, ns->nprocs,
			 ns->nprocs == 1 ? "" : "es");
		printf("\tns%ju [label=", (uintmax_t)ns->id->ino);
		dot_string(stdout, label);
		puts(ns->id->type == NSCTL_TYPE_USER ? ", style=bold];" : "];");
		if (ns->owner && shown(req, list, ns->owner))
			printf("\tns%ju -> ns%ju [label=\"owns\"];\n",
			       (uintmax_t)ns->owner->id->ino, (uintmax_t)ns->id->ino);
		if (ns->parent && shown(req, list, ns->parent))
			printf("\tns%ju -> ns%ju [label=\"parent of\", style=dashed];\n",
			       (uintmax_t)ns->parent->id->ino, (uintmax_t)ns->id->ino);
		if (ns->pid > 0) {
			snprintf(label, sizeof(label), "%d %s", ns->pid,
				 ns->command ? ns->command : "");
			printf("\tpid%d [shape=ellipse, label=", ns->pid);
			dot_string(stdout, label);
			printf("];\n\tns%ju -> pid%d [style=dotted];\n", (uintmax_t)ns->id->ino,
			       ns->pid);
		}
	}
	puts("}");
}

/*
 * Whether a NETNSID cell is ever made: shown, or read by -Q.  Else the scan
 * leaves it out: a netlink request per network namespace, which a container
 * host has one of per container.
 */
/* Whether column ID is shown or may be read by -Q: the scan finds it only then. */
static bool wants_column(const struct request *req, enum column_id id)
{
	if (req->filter)
		return true;
	for (size_t c = 0; c < req->n_columns; c++)
		if (req->columns[c] == id)
			return true;
	return false;
}

static bool task_seen(const struct nsctl_list *list, pid_t pid)
{
	type_foreach (t)
		if (nsctl_list_find_process(list, pid, t))
			return true;
	return false;
}

/* Why a process's namespaces could not be seen: it is not ours to trace, or it is gone. */
static int access_or_gone(pid_t pid)
{
	char path[32];

	snprintf(path, sizeof(path), "/proc/%d", pid);
	return access(path, F_OK) == 0 ? -EACCES : -ESRCH;
}

enum {
	OPT_TASK = CHAR_MAX + 1,
	OPT_TREE,
	OPT_NOHEADINGS,
	OPT_NOTRUNCATE,
	OPT_OUTPUT_ALL,
	OPT_DOT,
};

static const struct option list_own_options[] = {
	{ "type", required_argument, NULL, 't' },
	{ "task", required_argument, NULL, OPT_TASK },
	{ "persistent", no_argument, NULL, 'P' },
	{ "output", required_argument, NULL, 'o' },
	{ "output-all", no_argument, NULL, OPT_OUTPUT_ALL },
	{ "filter", required_argument, NULL, 'Q' },
	{ "list-columns", no_argument, NULL, 'H' },
	{ "json", no_argument, NULL, 'J' },
	{ "raw", no_argument, NULL, 'r' },
	{ "list", no_argument, NULL, 'l' },
	{ "tree", optional_argument, NULL, OPT_TREE },
	{ "noheadings", no_argument, NULL, OPT_NOHEADINGS },
	{ "notruncate", no_argument, NULL, OPT_NOTRUNCATE },
	{ "nowrap", no_argument, NULL, 'W' },
	{ "dot", no_argument, NULL, OPT_DOT },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ 0 },
};

static const struct cli_exclusive list_exclusive[] = {
	{ { 'J', 'r', OPT_DOT }, "--json, --raw and --dot are mutually exclusive" },
	{ { OPT_DOT, OPT_TREE }, "--dot and --tree are mutually exclusive" },
	{ { 'l', OPT_TREE, OPT_DOT }, "--list, --tree and --dot are mutually exclusive" },
	{ { OPT_DOT, 'Q' }, "--dot and --filter are mutually exclusive" },
};

/* How the rows are printed: columns, format, tree.  False: C is no such option. */
static bool parse_output_option(struct request *req, int c)
{
	switch (c) {
	case 'o':
		parse_columns(req, optarg);
		return true;
	case OPT_OUTPUT_ALL:
		for (size_t i = 0; i < COL_COUNT; i++)
			req->columns[i] = (enum column_id)i;
		req->n_columns = COL_COUNT;
		req->default_columns = false;
		return true;
	case 'J':
		req->json = true;
		return true;
	case 'r':
		req->raw = true;
		return true;
	case 'l':
		req->flat = true; /* what list prints without --tree */
		return true;
	case OPT_TREE:
		if (!optarg || strcmp(optarg, "owner") == 0)
			req->tree = TREE_OWNER;
		else if (strcmp(optarg, "parent") == 0)
			req->tree = TREE_PARENT;
		else if (strcmp(optarg, "process") == 0)
			req->tree = TREE_PROCESS;
		else
			cli_usage_error("--tree '%s': not owner, parent or process", optarg);
		return true;
	case OPT_NOHEADINGS:
		req->noheadings = true;
		return true;
	case OPT_NOTRUNCATE:
		req->notruncate = true;
		return true;
	case 'W':
		req->nowrap = true;
		return true;
	case OPT_DOT:
		req->dot = true;
		return true;
	}
	return false;
}

/*
 * NAMESPACE given: its processes, a row each, as lsns NAMESPACE lists them
 * (PID PPID USER COMMAND, COMMAND a tree of who started whom), not the
 * namespace's one row.
 */
static void process_mode(struct request *req)
{
	if (req->task)
		cli_usage_error("--task and NAMESPACE are mutually exclusive (as lsns's): "
				"NAMESPACE lists the processes in it");
	if (req->dot)
		cli_usage_error("--dot draws namespaces, and NAMESPACE lists the processes of one");
	if (req->tree == TREE_OWNER || req->tree == TREE_PARENT)
		cli_usage_error("--tree=%s draws namespaces, and NAMESPACE lists the processes "
				"of one: its tree is of processes (--tree=process)",
				req->tree == TREE_OWNER ? "owner" : "parent");
	if (req->persistent)
		cli_usage_error("--persistent lists namespaces no process is in, and NAMESPACE "
				"the processes in one");
	req->tree = req->flat ? TREE_NONE : TREE_PROCESS;
	/* Its own default columns, and a +LIST after them. */
	if (req->default_columns) {
		size_t extra = req->n_columns - ELEMENTSOF(default_columns);

		memmove(&req->columns[ELEMENTSOF(process_columns)],
			&req->columns[ELEMENTSOF(default_columns)],
			extra * sizeof(req->columns[0]));
		memcpy(req->columns, process_columns, sizeof(process_columns));
		req->n_columns = ELEMENTSOF(process_columns) + extra;
	}
}

/* The options of list into REQ: *TASK and *FILTER the texts of --task and -Q. */
static void parse_list_options(int argc, char **argv, struct request *req, const char **task,
			       const char **filter)
{
	struct option *options = cli_long_options_with_types(list_own_options, no_argument);
	char *optstring = cli_optstring_with_types("+t:Po:Q:HJrlWhV", no_argument);
	unsigned given[ELEMENTSOF(list_exclusive)] = { 0 }, net_named = 0;
	int c, long_index = -1;

	memcpy(req->columns, default_columns, sizeof(default_columns));
	req->n_columns = ELEMENTSOF(default_columns);
	req->default_columns = true;
	while ((c = getopt_long(argc, argv, optstring, options, &long_index)) != -1) {
		bool long_form = long_index >= 0; /* getopt sets it for a long option only */
		enum nsctl_type type;
		unsigned types;

		long_index = -1;
		cli_exclusive_note(list_exclusive, ELEMENTSOF(list_exclusive), given, c);
		if (parse_output_option(req, c))
			continue;
		switch (c) {
		case 't':
			types = cli_parse_type_list("--type", optarg);
			/* "all" is nsctl's, and names no type as lsns's -t net does. */
			if (strcmp(optarg, "all") != 0)
				net_named |= types & NSCTL_TYPE_BIT(NSCTL_TYPE_NET);
			req->types |= types;
			break;
		case OPT_TASK:
			if (parse_pid(optarg, &req->task) < 0)
				cli_usage_error("--task '%s': not a valid PID", optarg);
			*task = optarg;
			break;
		case 'P':
			req->persistent = true;
			break;
		case 'Q':
			*filter = optarg;
			break;
		case 'H':
			list_columns();
			exit(EXIT_SUCCESS);
		case 'h':
			help();
			exit(EXIT_SUCCESS);
		case 'V':
			cli_version();
		default:
			if (cli_type_from_letter(c, &type) < 0)
				cli_bad_option(argv, optstring);
			if (!long_form && strchr(LSNS_LETTERS, c))
				refuse_lsns_letter(c);
			req->types |= NSCTL_TYPE_BIT(type);
			net_named |= NSCTL_TYPE_BIT(type) & NSCTL_TYPE_BIT(NSCTL_TYPE_NET);
		}
	}
	cli_exclusive_check(list_exclusive, ELEMENTSOF(list_exclusive), given);
	req->wanted = argv + optind;
	req->n_wanted = (size_t)(argc - optind);
	for (size_t i = 0; i < req->n_wanted; i++) {
		const char *w = req->wanted[i];
		char path[PATH_MAX];

		if (cli_all_digits(w)
			? strlen(w) > 20
			: !strchr(w, '/') &&
			      nsctl_pin_name_path(NSCTL_TYPE_NET, w, path, sizeof(path)) < 0)
			cli_usage_error(
			    "'%s': not a namespace inode, ID, pin NAME or namespace file", w);
	}
	/* As lsns: network namespaces asked for, the default columns show their IDs and pins. */
	if (req->n_wanted)
		process_mode(req);
	else if (req->default_columns && net_named)
		net_default_columns(req);
	if (!req->types)
		req->types = TYPES_ALL;
}

/* CONTAINER joins the default columns of the namespaces' table where a row shown has one. */
static void container_default_column(struct request *req, const struct nsctl_list *list)
{
	static const enum column_id container[] = { COL_CONTAINER };
	const struct nsctl_list_ns *ns;

	if (!req->default_columns || req->n_wanted)
		return;
	for (size_t i = 0; (ns = nsctl_list_get(list, i)); i++)
		if (ns->container && of_types_and_task(req, list, ns)) {
			default_columns_insert(req, container, ELEMENTSOF(container));
			return;
		}
}

/* The scan, with the table's library loading meanwhile; exits saying why it failed. */
static struct nsctl_list *list_scan(const struct request *req, const char *task)
{
	struct nsctl_list *list = NULL;
	pthread_t loader;
	bool loading;
	int r;

	/*
	 * The table's library loads on a thread while the scan runs: the loader
	 * took 0.7 ms here, 5% of a list of 100 processes.  Paired against loading
	 * it after the scan (bench/ farms): 0.889 of the time at 100 processes
	 * (601 rounds), 0.935 at 1,000 (61 rounds).
	 */
	loading = !req->dot && cli_scols_load_begin(&loader);
	/* A netlink request per network namespace, a string per row: only for what is shown. */
	r = nsctl_list_scan(
	    (NSCTL_LIST_ALL & ~(wants_column(req, COL_CGROUP) ? 0 : NSCTL_LIST_CGROUPS)) |
		(wants_column(req, COL_NETNSID) ? 0 : NSCTL_LIST_WITHOUT_NETNSID),
	    &list);
	if (loading)
		cli_scols_load_end(loader);
	if (r == -ENOENT)
		cli_die(EXIT_FAILURE, 0, "cannot scan /proc: no proc filesystem is mounted there");
	if (r < 0)
		cli_die(EXIT_FAILURE, r, "cannot scan /proc");
	if (task && !task_seen(list, req->task)) {
		char pin[PATH_MAX];

		/* "ip netns add 123": --task takes a PID only; the pin is among -P's rows. */
		if (access_or_gone(req->task) == -ESRCH &&
		    cli_pin_path_of_name(task, pin, sizeof(pin)))
			cli_die(EXIT_FAILURE, 0,
				"--task %s: no process %s; %s is a pin: nsctl list -P lists "
				"pinned namespaces",
				task, task, pin);
		cli_die(EXIT_FAILURE, access_or_gone(req->task), "--task %s", task);
	}
	return list;
}

int cmd_list(int argc, char **argv)
{
	struct request req = { 0 };
	struct nsctl_list *list;
	const char *task = NULL, *filter = NULL;

	parse_list_options(argc, argv, &req, &task, &filter);
	/*
	 * The user's character set, as lsns takes it, before any thread starts
	 * and before -Q's patterns are compiled: in a UTF-8 locale a table writes
	 * "café" as it is, and escapes what is not a printable character there
	 * (controls, C1 controls, invalid bytes) and the format characters of
	 * text_safe(); a pattern's "." is one character.
	 */
	if (!req.dot)
		setlocale(LC_CTYPE, "");
	/* Last of the parse: nothing exits between it and the parse-only return: no leak. */
	if (filter)
		parse_filter(&req, filter);
	if (cli_parse_only) {
		list_filter_free(req.filter);
		return 0;
	}
	list = list_scan(&req, task);
	container_default_column(&req, list);
	resolve_wanted(&req);
	check_wanted(&req, list);
	if (req.dot)
		print_dot(&req, list);
	else if (req.n_wanted)
		print_processes(&req, list);
	else
		print_table(&req, list);
	nsctl_list_free(list);
	list_filter_free(req.filter);
	if (fflush(stdout) != 0)
		cli_die(EXIT_FAILURE, negative_errno(), "write error");
	return EXIT_SUCCESS;
}
