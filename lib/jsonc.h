/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * json-c, loaded with dlopen() by the library's readers of container
 * runtimes' state (lib/container.c), the first time one is asked.
 *
 * run, unshare and enter are measured against the bare system calls, and
 * every library the dynamic linker maps at their start costs them time: they
 * never read a runtime's state.  So neither libnsctl nor nsctl links json-c;
 * the json_* names below go through pointers that dlsym() filled, typed from
 * json-c's own header so that a mismatch cannot compile (as src/scols.h does
 * for libsmartcols).
 */
#ifndef NSCTL_JSONC_H
#define NSCTL_JSONC_H

#include <json-c/json.h>

/* X(name) for every json-c function the library calls (json-c 0.15 has them all). */
#define JSONC_FUNCTIONS(X)                                                                         \
	X(json_tokener_parse_verbose)                                                              \
	X(json_object_put)                                                                         \
	X(json_object_get_type)                                                                    \
	X(json_object_object_get_ex)                                                               \
	X(json_object_get_string)                                                                  \
	X(json_object_get_string_len)                                                              \
	X(json_object_array_length)                                                                \
	X(json_object_array_get_idx)

#define JSONC_POINTER(name) __typeof__(name) *name;
struct jsonc {
	JSONC_FUNCTIONS(JSONC_POINTER)
};
#undef JSONC_POINTER

extern struct jsonc jsonc;

/* Load json-c once (thread-safe): 0, or -ELIBACC where it cannot be loaded. */
int jsonc_load(void);

#ifndef JSONC_NO_REDIRECT
#define json_tokener_parse_verbose (*jsonc.json_tokener_parse_verbose)
#define json_object_put            (*jsonc.json_object_put)
#define json_object_get_type       (*jsonc.json_object_get_type)
#define json_object_object_get_ex  (*jsonc.json_object_object_get_ex)
#define json_object_get_string     (*jsonc.json_object_get_string)
#define json_object_get_string_len (*jsonc.json_object_get_string_len)
#define json_object_array_length   (*jsonc.json_object_array_length)
#define json_object_array_get_idx  (*jsonc.json_object_array_get_idx)
#endif

#endif
