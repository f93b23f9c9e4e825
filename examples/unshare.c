// SPDX-License-Identifier: GPL-2.0-or-later
/* The namespaces article's unshare on libnsctl: new namespaces for this process, then a command. */
#include <errno.h>
#include <nsctl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* This program's options, util-linux's letters: one a type. */
static const struct {
	char letter;
	enum nsctl_type type;
} options[] = {
	{ 'C', NSCTL_TYPE_CGROUP }, { 'i', NSCTL_TYPE_IPC }, { 'm', NSCTL_TYPE_MNT },
	{ 'n', NSCTL_TYPE_NET },    { 'p', NSCTL_TYPE_PID }, { 'T', NSCTL_TYPE_TIME },
	{ 'U', NSCTL_TYPE_USER },   { 'u', NSCTL_TYPE_UTS },
};

static _Noreturn void usage(const char *program)
{
	fprintf(stderr, "Usage: %s [options] cmd [arg...]\nOptions:\n", program);
	/* The names and descriptions are libnsctl's, from its table of types. */
	for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++) {
		const struct nsctl_type_info *info = nsctl_type_get(options[i].type);

		if (info)
			fprintf(stderr, "    -%c   new %s namespace (%s)\n", options[i].letter,
				info->name, info->description);
	}
	exit(EXIT_FAILURE);
}

static _Noreturn void fail(const char *call, const char *input, int negative_errno)
{
	fprintf(stderr, "unshare: %s(%s): %s\n", call, input, strerror(-negative_errno));
	exit(EXIT_FAILURE);
}

int main(int argc, char **argv)
{
	/* A letter for each type the library that runs knows (nsctl_type_get()). */
	char optstring[2 + sizeof(options) / sizeof(options[0])] = "+", names[32 * 20] = "";
	unsigned types = 0;
	size_t n = 1;
	int opt, r;

	for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++)
		if (nsctl_type_get(options[i].type))
			optstring[n++] = options[i].letter;
	while ((opt = getopt(argc, argv, optstring)) != -1) {
		bool known = false;

		for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++) {
			if (opt == options[i].letter) {
				types |= NSCTL_TYPE_BIT(options[i].type);
				known = true;
			}
		}
		if (!known)
			usage(argv[0]);
	}
	if (optind >= argc)
		usage(argv[0]);

	/* For the message: the types asked for, by name. */
	for (enum nsctl_type t = 0; nsctl_type_get(t); t++) {
		if (types & NSCTL_TYPE_BIT(t)) {
			if (names[0])
				strcat(names, ",");
			strcat(names, nsctl_type_get(t)->name);
		}
	}
	if (unshare((int)nsctl_type_to_clone_flags(types)) < 0)
		fail("unshare", names, -errno);
	/*
	 * The new mount namespace is a copy of the old one, shared mounts and all:
	 * where "/" is shared (systemd makes it so), an unmount here would happen
	 * there too.  Cut the new namespace off first, as util-linux's unshare does.
	 */
	if (types & NSCTL_TYPE_BIT(NSCTL_TYPE_MNT)) {
		r = nsctl_mnt_propagation_set(NSCTL_PROPAGATION_PRIVATE);
		if (r < 0)
			fail("mount", "/, MS_REC|MS_PRIVATE", r);
	}
	/*
	 * As the kernel defines it, a new pid namespace takes cmd's children, not
	 * cmd (its first child is PID 1 there); a new time namespace takes cmd at
	 * the exec.
	 */
	execvp(argv[optind], &argv[optind]);
	fail("execvp", argv[optind], -errno);
}
