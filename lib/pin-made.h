/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/pin.c: a pin one call made, and taking back exactly that pin: what
 * struct nsctl_pin_made (nsctl.h) holds in the caller's room.
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

/* Let go of MADE: the pin stays (nsctl_pin_made_keep() on the caller's room). */
void pin_made_forget(struct pin_made *made);

#endif
