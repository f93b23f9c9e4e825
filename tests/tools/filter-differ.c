// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Test tool: nsctl's own evaluator of list -Q (src/list-filter.c) against the
 * filter of the libsmartcols the dynamic loader finds (2.40 or later), on the
 * same rows.  Each expression (one a line on stdin, or the contents of each
 * FILE) that nsctl's parser accepts must be accepted by libsmartcols too and
 * give the same result on every row: selected, not selected, or a row that
 * cannot be evaluated.  Prints each disagreement; exit 0 when there is none,
 * 1 when there is one, 2 when the library has no filter API.  -v prints each
 * expression compared too, with its results, so a test can see that it ran.
 *
 * The rows are those of fuzz/list-filter-rows.h.
 *
 * Usage: filter-differ [-v] [FILE...]
 */
#include <dlfcn.h>
#include <stdbool.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "list-filter-rows.h"

struct libscols_table;
struct libscols_column;
struct libscols_line;
struct libscols_filter;
struct libscols_iter;

/* The calls made, as libsmartcols 2.40 declares them; looked up with dlsym(). */
static struct {
	struct libscols_table *(*new_table)(void);
	struct libscols_column *(*new_column)(struct libscols_table *, const char *, double, int);
	int (*set_json_type)(struct libscols_column *, int);
	int (*set_data_type)(struct libscols_column *, int);
	struct libscols_line *(*new_line)(struct libscols_table *, struct libscols_line *);
	int (*set_data)(struct libscols_line *, size_t, const char *);
	struct libscols_filter *(*new_filter)(const char *);
	int (*parse_string)(struct libscols_filter *, const char *);
	const char *(*errmsg)(struct libscols_filter *);
	struct libscols_iter *(*new_iter)(int);
	void (*free_iter)(struct libscols_iter *);
	int (*next_holder)(struct libscols_filter *, struct libscols_iter *, const char **, int);
	int (*assign_column)(struct libscols_filter *, struct libscols_iter *, const char *,
			     struct libscols_column *);
	int (*apply)(struct libscols_line *, struct libscols_filter *, int *);
	void (*unref_filter)(struct libscols_filter *);
} scols;

static void load(void)
{
	void *h = dlopen("libsmartcols.so.1", RTLD_NOW);

	if (!h) {
		fprintf(stderr, "filter-differ: %s\n", dlerror());
		exit(2);
	}
#define LOOK_UP(field, symbol)                                                                     \
	if (!(*(void **)&scols.field = dlsym(h, symbol))) {                                        \
		fprintf(stderr, "filter-differ: libsmartcols.so.1 has no %s\n", symbol);           \
		exit(2);                                                                           \
	}
	LOOK_UP(new_table, "scols_new_table")
	LOOK_UP(new_column, "scols_table_new_column")
	LOOK_UP(set_json_type, "scols_column_set_json_type")
	LOOK_UP(set_data_type, "scols_column_set_data_type")
	LOOK_UP(new_line, "scols_table_new_line")
	LOOK_UP(set_data, "scols_line_set_data")
	LOOK_UP(new_filter, "scols_new_filter")
	LOOK_UP(parse_string, "scols_filter_parse_string")
	LOOK_UP(errmsg, "scols_filter_get_errmsg")
	LOOK_UP(new_iter, "scols_new_iter")
	LOOK_UP(free_iter, "scols_free_iter")
	LOOK_UP(next_holder, "scols_filter_next_holder")
	LOOK_UP(assign_column, "scols_filter_assign_column")
	LOOK_UP(apply, "scols_line_apply_filter")
	LOOK_UP(unref_filter, "scols_unref_filter")
#undef LOOK_UP
}

/* The table with one line per row, made once (the library never frees them: a test tool). */
static struct libscols_column *table_columns[N_FILTER_COLUMNS];
static bool verbose;
static struct libscols_line *table_lines[N_FILTER_ROWS];

static void make_table(void)
{
	struct libscols_table *table = scols.new_table();

	for (size_t c = 0; c < N_FILTER_COLUMNS; c++) {
		table_columns[c] = scols.new_column(table, filter_columns[c].name, 0, 0);
		scols.set_json_type(table_columns[c], filter_columns[c].json_type);
		scols.set_data_type(table_columns[c], filter_columns[c].data_type);
	}
	for (size_t r = 0; r < N_FILTER_ROWS; r++) {
		table_lines[r] = scols.new_line(table, NULL);
		for (size_t c = 0; c < N_FILTER_COLUMNS; c++)
			if (filter_rows[r][c])
				scols.set_data(table_lines[r], c, filter_rows[r][c]);
	}
}

/*
 * libsmartcols' filter for TEXT, its columns assigned; NULL when it refuses it
 * or reads a column nsctl does not know, which it prints.
 */
static struct libscols_filter *library_filter(const char *text)
{
	struct libscols_filter *library = scols.new_filter(NULL);
	struct libscols_iter *iterator;
	const char *name;

	if (scols.parse_string(library, text) != 0) {
		printf("'%s': accepted by nsctl, refused by libsmartcols: %s\n", text,
		       scols.errmsg(library));
		scols.unref_filter(library);
		return NULL;
	}
	iterator = scols.new_iter(0);
	while (library && scols.next_holder(library, iterator, &name, 0) == 0) {
		enum list_filter_type type;
		int c = filter_rows_lookup(name, strlen(name), &type);

		if (c < 0) {
			printf("'%s': libsmartcols reads a column '%s' nsctl does not\n", text,
			       name);
			scols.unref_filter(library);
			library = NULL;
		} else {
			scols.assign_column(library, iterator, name, table_columns[c]);
		}
	}
	scols.free_iter(iterator);
	return library;
}

/*
 * 1 for a disagreement on TEXT, which it prints; 0 otherwise, also where nsctl
 * refuses TEXT.  Each row gets a filter of its own: after a row it fails,
 * libsmartcols 2.41 keeps a column's value as text for the next rows (nsctl
 * stops at the first failure, so never sees that).
 */
static int differ(const char *text)
{
	struct list_filter_error error;
	struct list_filter *own = NULL;
	int differs = 0;

	if (list_filter_parse(text, filter_rows_lookup, &own, &error) < 0)
		return 0;
	for (size_t r = 0; r < N_FILTER_ROWS && !differs; r++) {
		struct libscols_filter *library = library_filter(text);
		int status = 0, rc, ours, theirs;

		if (!library) {
			differs = 1;
			break;
		}
		rc = scols.apply(table_lines[r], library, &status);
		scols.unref_filter(library);
		ours = list_filter_match(own, filter_rows_cell, (void *)filter_rows[r]);
		theirs = rc < 0 ? -1 : status != 0;
		if ((ours < 0 ? -1 : ours) != theirs) {
			printf("'%s': row %zu: nsctl %d, libsmartcols %d (rc %d)\n", text, r, ours,
			       theirs, rc);
			differs = 1;
		}
		if (verbose)
			printf("%s%d", r ? " " : "agree on ", theirs);
	}
	if (verbose && !differs)
		printf(": %s\n", text);
	list_filter_free(own);
	return differs;
}

static char *read_all(FILE *f)
{
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);
	int c;

	if (!out)
		exit(2);
	while ((c = fgetc(f)) != EOF && c != '\0')
		fputc(c, out);
	fclose(out);
	return text;
}

int main(int argc, char **argv)
{
	int differs = 0;

	int first = 1;

	if (argc > 1 && strcmp(argv[1], "-v") == 0)
		verbose = true, first = 2;
	load();
	make_table();
	if (argc > first) {
		for (int i = first; i < argc; i++) {
			FILE *f = fopen(argv[i], "re");
			char *text;

			if (!f) {
				perror(argv[i]);
				return 2;
			}
			text = read_all(f);
			fclose(f);
			differs |= differ(text);
			free(text);
		}
	} else {
		char *line = NULL;
		size_t size = 0;
		ssize_t n;

		while ((n = getline(&line, &size, stdin)) > 0) {
			if (line[n - 1] == '\n')
				line[n - 1] = '\0';
			differs |= differ(line);
		}
		free(line);
	}
	return differs;
}
