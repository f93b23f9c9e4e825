/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the libFuzzer targets share.  A target is one file, fuzz-NAME.c, with
 * LLVMFuzzerTestOneInput(), listed in fuzz/meson.build, with its seeds in
 * fuzz/corpus/fuzz-NAME/.  A failed property calls fuzz_fail(), which aborts:
 * libFuzzer saves the input and reports it like a crash.
 */
#ifndef NSCTL_FUZZ_H
#define NSCTL_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* DATA as a C string (freed by the caller): it ends at the first NUL, as argv would. */
char *fuzz_string(const uint8_t *data, size_t size);

/*
 * Call FN(ARG).  If it calls exit() (cli_usage_error, cli_die, --help), come
 * back here instead, since the fuzzer must go on: return true and the status.
 * exit() is wrapped by the linker (-Wl,--wrap=exit) in the fuzz build only.
 * Memory FN allocated before exiting is not freed: LeakSanitizer reports it,
 * as it would be a leak on a path that does not end the process.
 */
bool fuzz_catch_exit(void (*fn)(void *arg), void *arg, int *ret_status);

/*
 * nsctl's main(ARGC, ARGV) with cli_parse_only set: the subcommand parses and
 * validates, then returns before it opens, creates or runs anything.  Returns
 * its exit status (a usage error, --help and failures exit(); that comes back
 * here).  Fails if a system call that acts is reached, or if a run that
 * returned left an fd open; the fds of a run that exited are closed.
 */
int fuzz_cli_call(int argc, char **argv);

/* A broken property: print it and abort, so libFuzzer keeps the input. */
_Noreturn void fuzz_fail(const char *format, ...) __attribute__((format(printf, 1, 2)));

#define fuzz_assert(cond)                                                                          \
	do {                                                                                       \
		if (!(cond))                                                                       \
			fuzz_fail("%s:%d: %s", __FILE__, __LINE__, #cond);                         \
	} while (0)

#endif
