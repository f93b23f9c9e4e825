/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * list -Q/--filter: expressions of libsmartcols' filter grammar (as lsns
 * 2.40 takes them).  Every expression is parsed here, so that a bad one gets
 * the same message, with its position, whichever library is installed; it is
 * evaluated here only where libsmartcols has no filter API (before 2.40: 2.38
 * in Debian 12), with libsmartcols 2.41's rules for types, empty cells and
 * errors, so that both give the same rows.  It knows nothing of namespaces:
 * the caller names the columns and gives each row's text through two callbacks.
 */
#ifndef NSCTL_LIST_FILTER_H
#define NSCTL_LIST_FILTER_H

#include <stdbool.h>
#include <stddef.h>

enum list_filter_type {
	LIST_FILTER_STRING,
	LIST_FILTER_NUMBER,
	LIST_FILTER_BOOLEAN,
};

/* "string", "number", "boolean": as --list-columns shows the type. */
const char *list_filter_type_name(enum list_filter_type type);

/* The column called NAME (LENGTH bytes, not NUL-terminated) and its type; -1 when none is. */
typedef int (*list_filter_lookup_fn)(const char *name, size_t length,
				     enum list_filter_type *ret_type);

/* ROW's text in COLUMN, as printed; NULL for an empty cell. */
typedef const char *(*list_filter_value_fn)(void *row, int column);

struct list_filter;

/* Why an expression was refused: where (1-based byte position in it) and what is wrong. */
struct list_filter_error {
	size_t position;
	char reason[192];
};

/*
 * Parse TEXT.  0 and *RET_FILTER on success; -EINVAL with *RET_ERROR filled
 * for an expression that is not one; -ENOMEM.
 */
int list_filter_parse(const char *text, list_filter_lookup_fn lookup,
		      struct list_filter **ret_filter, struct list_filter_error *ret_error);

/*
 * Whether ROW, whose cells VALUE gives, is one FILTER selects: 1 or 0; or
 * -EINVAL / -ERANGE when a cell cannot be read as the type the expression
 * compares it as (text against a number), -ENOMEM.  libsmartcols fails the
 * row so too.
 */
int list_filter_match(const struct list_filter *filter, list_filter_value_fn value, void *row);

/* Whether FILTER names COLUMN (a number the lookup gave). */
bool list_filter_uses(const struct list_filter *filter, int column);

void list_filter_free(struct list_filter *filter);

#endif
