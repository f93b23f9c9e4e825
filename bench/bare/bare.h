/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the bare benchmark programs share: reading a type list, failing the way nsctl does. */
#ifndef NSCTL_BENCH_BARE_H
#define NSCTL_BENCH_BARE_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nsctl.h"

/*
 * The bare programs exit as nsctl does (125 when they themselves fail, 126/127
 * when PROGRAM cannot run), so that a broken benchmark never looks like a fast one.
 */
#define BARE_FAILED 125

__attribute__((noreturn)) static inline void bare_die(const char *program, const char *what,
						      int error)
{
	fprintf(stderr, "%s: %s: %s\n", program, what, strerror(error));
	exit(BARE_FAILED);
}

/*
 * The type names come through libnsctl's table, the only list of types in the
 * project ("all", or names separated by commas); parsing them is outside the
 * system calls being measured.
 */
static inline unsigned long bare_clone_flags(const char *program, const char *list)
{
	unsigned types = 0;
	char copy[256], *name, *state = NULL;

	if (strcmp(list, "all") == 0)
		return nsctl_type_to_clone_flags(nsctl_type_all());
	if (strlen(list) >= sizeof(copy))
		bare_die(program, list, ENAMETOOLONG);
	strcpy(copy, list);
	for (name = strtok_r(copy, ",", &state); name; name = strtok_r(NULL, ",", &state)) {
		enum nsctl_type t;
		int r = nsctl_type_from_name(name, &t);

		if (r < 0)
			bare_die(program, list, -r);
		types |= NSCTL_TYPE_BIT(t);
	}
	if (!types)
		bare_die(program, list, EINVAL);
	return nsctl_type_to_clone_flags(types);
}

__attribute__((noreturn)) static inline void bare_exec(char **argv)
{
	execvp(argv[0], argv);
	fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
	_exit(errno == ENOENT ? 127 : 126);
}

/*
 * End as the child ended: its code, or 128 + the signal that killed it.
 * _exit(), not exit(): a bare program runs no exit handlers, and in a
 * sanitizer build the leak checker's exit handler, which ptraces its own
 * process, hangs once the process has joined another PID namespace.
 */
__attribute__((noreturn)) static inline void bare_wait_and_exit(const char *program, pid_t pid)
{
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			bare_die(program, "waitpid", errno);
	_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
}

#endif
