// SPDX-License-Identifier: LGPL-2.1-or-later
/* json-c, loaded on first use (lib/jsonc.h). */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>

#define JSONC_NO_REDIRECT
#include "jsonc.h"

/* Debian 12's json-c 0.16 and 13's 0.18 both have this soname. */
#define JSONC_SONAME "libjson-c.so.5"

struct jsonc jsonc;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static bool loaded;

static void load(void)
{
	/* Never unloaded: parsed objects point into it until they are put. */
	void *handle = dlopen(JSONC_SONAME, RTLD_NOW | RTLD_LOCAL);

	if (!handle)
		return;
#define JSONC_RESOLVE(name)                                                                        \
	jsonc.name = (__typeof__(name) *)dlsym(handle, #name);                                     \
	if (!jsonc.name)                                                                           \
		return;
	JSONC_FUNCTIONS(JSONC_RESOLVE)
#undef JSONC_RESOLVE
	loaded = true;
}

int jsonc_load(void)
{
	pthread_once(&once, load);
	return loaded ? 0 : -ELIBACC;
}
