// SPDX-License-Identifier: LGPL-2.1-or-later
/* Copies of other processes' sockets, closed without waiting on them (graveyard.h). */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "graveyard.h"

/* Unix and netlink sockets release without waiting, whatever their options. */
static bool closes_at_once(int fd)
{
	socklen_t length = sizeof(int);
	int domain;

	return getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &length) == 0 &&
	       (domain == AF_UNIX || domain == AF_NETLINK);
}

void graveyard_flush(struct graveyard *graveyard)
{
	int gate[2] = { -1, -1 };
	long pid = -1;
	char byte;

	if (!graveyard->n)
		return;
	/*
	 * A copy of this process, as fork() makes but with no exit signal (a
	 * caller's SIGCHLD handler never hears of it): it holds a copy of every
	 * fd, and waits until ours are closed.  Its system calls are raw: it may
	 * have been made while another thread held a lock of libc's.
	 */
	if (pipe2(gate, O_CLOEXEC) == 0) {
		pid = syscall(SYS_clone, 0UL, NULL, NULL, NULL, NULL);
		if (pid == 0) {
			syscall(SYS_close, gate[1]);
			syscall(SYS_read, gate[0], &byte, 1);
			syscall(SYS_exit_group, 0);
		}
		close(gate[0]);
	}
	/* No child (EAGAIN: the process limit): closed here, as any lister would. */
	for (size_t i = 0; i < graveyard->n; i++)
		close(graveyard->fds[i]);
	graveyard->n = 0;
	if (gate[1] >= 0)
		close(gate[1]);
	if (pid > 0)
		while (waitpid((pid_t)pid, NULL, __WALL) < 0 && errno == EINTR)
			;
}

void graveyard_bury(struct graveyard *graveyard, int fd)
{
	if (fd < 0)
		return;
	if (closes_at_once(fd)) {
		close(fd);
		return;
	}
	if (graveyard->n == GRAVEYARD_SIZE)
		graveyard_flush(graveyard);
	graveyard->fds[graveyard->n++] = fd;
}
