/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libsmartcols, loaded with dlopen() by the subcommands that print a table.
 *
 * run, unshare and enter are measured against the bare system calls: every
 * library the dynamic linker maps at startup costs them time (about 8% of an
 * `nsctl enter` that exits at once), for tables they never print.  So the
 * binary does not link libsmartcols; list and compare call cli_scols_load()
 * before their first table, and the scols_* names below go through
 * pointers that dlsym() filled, typed from libsmartcols.h itself so that a
 * mismatch with the header cannot compile.
 */
#ifndef NSCTL_SCOLS_H
#define NSCTL_SCOLS_H

#include <libsmartcols.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

/* X(name) for every libsmartcols function nsctl calls (libsmartcols 2.38 has them all). */
#define CLI_SCOLS_FUNCTIONS(X)                                                                     \
	X(scols_column_set_json_type)                                                              \
	X(scols_column_set_safechars)                                                              \
	X(scols_column_set_wrapfunc)                                                               \
	X(scols_free_iter)                                                                         \
	X(scols_get_library_version)                                                               \
	X(scols_init_debug)                                                                        \
	X(scols_line_add_child)                                                                    \
	X(scols_line_refer_data)                                                                   \
	X(scols_line_set_data)                                                                     \
	X(scols_new_iter)                                                                          \
	X(scols_new_table)                                                                         \
	X(scols_print_table)                                                                       \
	X(scols_table_enable_json)                                                                 \
	X(scols_table_enable_noheadings)                                                           \
	X(scols_table_enable_raw)                                                                  \
	X(scols_table_new_column)                                                                  \
	X(scols_table_new_line)                                                                    \
	X(scols_table_remove_line)                                                                 \
	X(scols_table_set_name)                                                                    \
	X(scols_unref_table)                                                                       \
	X(scols_wrapnl_chunksize)                                                                  \
	X(scols_wrapnl_nextchunk)

#define CLI_SCOLS_POINTER(name) __typeof__(name) *name;
struct cli_scols {
	CLI_SCOLS_FUNCTIONS(CLI_SCOLS_POINTER)
};
#undef CLI_SCOLS_POINTER

extern struct cli_scols cli_scols;

/*
 * Load libsmartcols once; on failure exit with the subcommand's failure
 * status and a message naming the library and the loader's reason.
 */
void cli_scols_load(void);

/*
 * Start loading libsmartcols on a thread of its own, so that the work of the
 * caller meanwhile hides the loader's; false where it is loaded already or no
 * thread starts.  After a true, cli_scols_load_end() before any other use of
 * the library (cli_scols_load() then reports a failure to load).
 */
bool cli_scols_load_begin(pthread_t *thread);
void cli_scols_load_end(pthread_t thread);

/* Every call below this header goes through the loaded pointers. */
#ifndef CLI_SCOLS_NO_REDIRECT
#define scols_column_set_json_type    (*cli_scols.scols_column_set_json_type)
#define scols_column_set_safechars    (*cli_scols.scols_column_set_safechars)
#define scols_column_set_wrapfunc     (*cli_scols.scols_column_set_wrapfunc)
#define scols_free_iter               (*cli_scols.scols_free_iter)
#define scols_get_library_version     (*cli_scols.scols_get_library_version)
#define scols_init_debug              (*cli_scols.scols_init_debug)
#define scols_line_add_child          (*cli_scols.scols_line_add_child)
#define scols_line_refer_data         (*cli_scols.scols_line_refer_data)
#define scols_line_set_data           (*cli_scols.scols_line_set_data)
#define scols_new_iter                (*cli_scols.scols_new_iter)
#define scols_new_table               (*cli_scols.scols_new_table)
#define scols_print_table             (*cli_scols.scols_print_table)
#define scols_table_enable_json       (*cli_scols.scols_table_enable_json)
#define scols_table_enable_noheadings (*cli_scols.scols_table_enable_noheadings)
#define scols_table_enable_raw        (*cli_scols.scols_table_enable_raw)
#define scols_table_new_column        (*cli_scols.scols_table_new_column)
#define scols_table_new_line          (*cli_scols.scols_table_new_line)
#define scols_table_remove_line       (*cli_scols.scols_table_remove_line)
#define scols_table_set_name          (*cli_scols.scols_table_set_name)
#define scols_unref_table             (*cli_scols.scols_unref_table)
#define scols_wrapnl_chunksize        (*cli_scols.scols_wrapnl_chunksize)
#define scols_wrapnl_nextchunk        (*cli_scols.scols_wrapnl_nextchunk)
#endif

#endif
