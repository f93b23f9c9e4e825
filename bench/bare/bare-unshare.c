// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The floor under `nsctl unshare`: unshare() and execvp(), the article's unshare.c.
 * Usage: bare-unshare TYPES PROGRAM [ARG...]
 */
#include <sched.h>

#include "bare.h"

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: bare-unshare TYPES PROGRAM [ARG...]\n");
		return BARE_FAILED;
	}
	unsigned long flags = bare_clone_flags("bare-unshare", argv[1]);
	if (unshare((int)flags) < 0)
		bare_die("bare-unshare", "unshare", errno);
	bare_exec(argv + 2);
}
