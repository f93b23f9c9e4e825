// SPDX-License-Identifier: GPL-2.0-or-later
/* Loading libsmartcols on demand (see scols.h for why). */
#define CLI_SCOLS_NO_REDIRECT
#include "scols.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

#include "cli.h"

/* The soname the -dev package's libsmartcols.so points at; API version 1. */
#define CLI_SCOLS_SONAME "libsmartcols.so.1"

struct cli_scols cli_scols;

/* Set once, by the main thread or by the loader's thread before its join. */
static bool loaded;

/* Load the library once: NULL, or why it cannot be (into WHY, SIZE bytes). */
static const char *try_load(char *why, size_t size)
{
	void *handle;

	if (loaded)
		return NULL;
	/* Never unloaded: the table's callbacks point into it until exit. */
	handle = dlopen(CLI_SCOLS_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!handle) {
		snprintf(why, size, "cannot load %s: %s", CLI_SCOLS_SONAME, dlerror());
		return why;
	}
#define CLI_SCOLS_RESOLVE(name)                                                                    \
	cli_scols.name = (__typeof__(name) *)dlsym(handle, #name);                                 \
	if (!cli_scols.name) {                                                                     \
		snprintf(why, size, "cannot load %s: it has no %s", CLI_SCOLS_SONAME, #name);      \
		return why;                                                                        \
	}
	CLI_SCOLS_FUNCTIONS(CLI_SCOLS_RESOLVE)
#undef CLI_SCOLS_RESOLVE
	/* LIBSMARTCOLS_DEBUG=all traces the library on stderr, as for util-linux's tools. */
	cli_scols.scols_init_debug(0);
	loaded = true;
	return NULL;
}

static void *load_on_thread(void *unused)
{
	char why[512];

	(void)unused;
	/* A failure is cli_scols_load()'s to report, when it tries again. */
	try_load(why, sizeof(why));
	return NULL;
}

bool cli_scols_load_begin(pthread_t *thread)
{
	return !loaded && pthread_create(thread, NULL, load_on_thread, NULL) == 0;
}

void cli_scols_load_end(pthread_t thread)
{
	pthread_join(thread, NULL);
}

void cli_scols_load(void)
{
	char why[512];

	if (try_load(why, sizeof(why)))
		cli_fail(0, "%s", why);
}
