/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/pin.c: a pin one call made, and taking back exactly that pin, for the
 * CLI, whose failures take back only what they made.  Linked into the CLI
 * from the library's static archive; never exported.
 */
#ifndef NSCTL_PIN_MADE_H
#define NSCTL_PIN_MADE_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * A pin made: the directory it was made in (held, so that no later change of
 * the path can send its taking back elsewhere), its name there, and the
 * identities of the file made and of the namespace pinned.
 */
struct pin_made {
	int dirfd; /* -1: none held */
	char base[256];
	dev_t file_dev, ns_dev;
	ino_t file_ino, ns_ino;
};

#define PIN_MADE_NONE ((struct pin_made){ .dirfd = -1 })

/*
 * Pin NSFD at WHERE, a path or (IS_NAME) a pin name, as nsctl_pin_create()
 * and nsctl_pin_create_name() do: 1 made (*MADE holds it), 0 pinned there
 * already, -errno.
 */
int pin_create_made(int nsfd, const char *where, bool is_name, struct pin_made *made);

/* Take back the pin MADE, in the directory it was made in: 0 or -errno; MADE is let go. */
int pin_take_back(struct pin_made *made);

/* Let go of MADE: the pin stays. */
void pin_made_forget(struct pin_made *made);

#endif
