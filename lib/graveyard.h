/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/graveyard.c: copies of other processes' sockets (pidfd_getfd()),
 * closed without ever waiting on them.
 *
 * A copy is a reference to the owner's socket.  If the owner drops all of its
 * own while the copy is held, the copy's close() is the last one and runs the
 * socket's release: for TCP, SCTP, vsock and the others that honour
 * SO_LINGER, that waits until the data still queued is sent or the linger
 * time the owner chose runs out (years, if it likes), and a thread of
 * nsctl list would hang there.  The kernel skips that wait for an exiting
 * task only.  So such copies are buried here, and a child holding a copy of
 * the fd table takes the last references into its exit.
 */
#ifndef NSCTL_GRAVEYARD_H
#define NSCTL_GRAVEYARD_H

#include <stddef.h>

#define GRAVEYARD_SIZE 64

struct graveyard {
	int fds[GRAVEYARD_SIZE];
	size_t n;
};

/* Close the socket copy FD: at once where its release never waits (unix, netlink), else later. */
void graveyard_bury(struct graveyard *graveyard, int fd);

/* Close every copy buried, the last references going with a child's exit. */
void graveyard_flush(struct graveyard *graveyard);

#endif
