/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/copier.c: what nsctl must not do in a process anybody waits for.
 *
 * A copy of another process's fd (pidfd_getfd()) may be a file on a
 * filesystem its owner serves (FUSE): every close() of it, the one at exit
 * included, asks that server to flush, and the kernel waits for the answer
 * with no signal able to end the wait.  The last close() of a socket copy
 * may wait for the owner's SO_LINGER time.  And a walk down a path that
 * another user's mounts lie on (a pin under an overlay of a FUSE mount) asks
 * that user's server for every name.  So these are done in a child of its
 * own, with none of the caller's fds: it hands back nsfs fds, which close at
 * once, and closes no copy before its exit, where the kernel skips the
 * linger; a flush there waits for its server alone (copier_main()).
 * The caller waits for its answers, and then for its end, a bounded time
 * each, and goes on without them: a copier left waiting on a server ends
 * when the server answers or goes.
 */
#ifndef NSCTL_COPIER_H
#define NSCTL_COPIER_H

#include <stddef.h>
#include <sys/types.h>

enum copier_kind {
	/* The network namespace of socket FD of process PID, seen as (DEV, INO) (DEV 0: any). */
	COPIER_SOCKET_NETNS,
	/* The namespace at PATH, of TYPE (or any when -1), where (DEV, INO) was seen. */
	COPIER_NS_PATH,
	/*
	 * The text of the file at PATH of user UID, opened as that user opens
	 * it (fsuid UID, fsgid GID), followed by no symbolic link, without
	 * blocking: a regular file UID owns and no one else may write, of at
	 * most 16 MiB, answered as a memfd holding a copy of it.
	 */
	COPIER_USER_FILE,
};

struct copier_request {
	enum copier_kind kind;
	pid_t pid;
	int fd;
	int type;
	dev_t dev;
	ino_t ino;
	const char *path;
	/* SOCKET_NETNS: the process's own network namespace, told but sent no fd for */
	dev_t own_dev;
	ino_t own_ino;
	/* USER_FILE: whose file it is */
	uid_t uid;
	gid_t gid;
};

struct copier_answer {
	int err; /* 0, a negative errno, or -ETIMEDOUT where no answer came in time */
	dev_t dev;
	ino_t ino;
	/*
	 * With ERR 0, an nsfs fd on (DEV, INO), close-on-exec, in the first answer
	 * that names that namespace, unless it is the process's own; else -1.
	 */
	int fd;
};

/*
 * How long the caller waits for the next answer, and for all of them, before
 * it goes on without the rest.
 */
#define COPIER_WAIT_MS     2000
#define COPIER_DEADLINE_MS 5000

/*
 * Carry out the N REQUESTS in a copier process: ANSWERS[i] answers REQUESTS[i].
 * 0, or a negative errno when no copier could be made (then every answer says so).
 */
int copier_run(const struct copier_request *requests, size_t n, struct copier_answer *answers);

#endif
