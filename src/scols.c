// SPDX-License-Identifier: GPL-2.0-or-later
/* Loading libsmartcols on demand (see scols.h for why). */
#define CLI_SCOLS_NO_REDIRECT
#include "scols.h"

#include <dlfcn.h>
#include <stdbool.h>

#include "cli.h"

/* The soname the -dev package's libsmartcols.so points at; API version 1. */
#define CLI_SCOLS_SONAME "libsmartcols.so.1"

struct cli_scols cli_scols;

void cli_scols_load(void)
{
	static bool loaded;
	void *handle;

	if (loaded)
		return;
	/* Never unloaded: the table's callbacks point into it until exit. */
	handle = dlopen(CLI_SCOLS_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!handle)
		cli_fail(0, "cannot load %s: %s", CLI_SCOLS_SONAME, dlerror());
#define CLI_SCOLS_RESOLVE(name)                                                                    \
	cli_scols.name = (__typeof__(name) *)dlsym(handle, #name);                                 \
	if (!cli_scols.name)                                                                       \
		cli_fail(0, "cannot load %s: it has no %s", CLI_SCOLS_SONAME, #name);
	CLI_SCOLS_FUNCTIONS(CLI_SCOLS_RESOLVE)
#undef CLI_SCOLS_RESOLVE
	loaded = true;
}
