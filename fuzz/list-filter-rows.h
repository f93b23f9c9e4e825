/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The made-up columns and rows list -Q's expressions are evaluated on, away
 * from any namespace, by fuzz/fuzz-list-filter.c.  Numbers, text,
 * an empty cell, a cell of two lines, blanks, the largest 64-bit number, and
 * text that converts to a number or a boolean only in some ways.
 */
#ifndef NSCTL_LIST_FILTER_ROWS_H
#define NSCTL_LIST_FILTER_ROWS_H

#include <string.h>
#include <strings.h>

#include "list-filter.h"

static const struct {
	const char *name;
	enum list_filter_type type;
	int json_type, data_type; /* libsmartcols' SCOLS_JSON_* and SCOLS_DATA_* for it */
} filter_columns[] = {
	{ "NS", LIST_FILTER_NUMBER, 1, 1 },     { "TYPE", LIST_FILTER_STRING, 0, 4 },
	{ "NPROCS", LIST_FILTER_NUMBER, 1, 1 }, { "PID", LIST_FILTER_NUMBER, 1, 1 },
	{ "NSFS", LIST_FILTER_STRING, 0, 4 },   { "NETNSID", LIST_FILTER_STRING, 0, 4 },
	{ "FLAG", LIST_FILTER_BOOLEAN, 2, 2 },
};
#define N_FILTER_COLUMNS (sizeof(filter_columns) / sizeof(filter_columns[0]))

static const char *const filter_rows[][N_FILTER_COLUMNS] = {
	{ "4026531840", "net", "2", "1234", NULL, "0", "1" },
	{ "4026532999", "net", "0", NULL, "/run/netns/a\n/run/netns/b", "unassigned", "0" },
	{ "4026531838", "uts", "85", "1", " spaced ", NULL, "false" },
	{ "18446744073709551615", "x\xff\x01", "1.5", "", "\n", "-1", "" },
	{ "00", "yes", "+5", " 7 ", "1", "0x10", "y" },
};
#define N_FILTER_ROWS (sizeof(filter_rows) / sizeof(filter_rows[0]))

static inline int filter_rows_lookup(const char *name, size_t length,
				     enum list_filter_type *ret_type)
{
	for (size_t c = 0; c < N_FILTER_COLUMNS; c++)
		if (strlen(filter_columns[c].name) == length &&
		    strncasecmp(filter_columns[c].name, name, length) == 0) {
			*ret_type = filter_columns[c].type;
			return (int)c;
		}
	return -1;
}

/* ROW is one of filter_rows. */
static inline const char *filter_rows_cell(void *row, int column)
{
	return ((const char *const *)row)[column];
}

#endif
