// SPDX-License-Identifier: LGPL-2.1-or-later
/* Copies of other processes' fds and walks of other users' paths, in a process nobody waits for
 * (copier.h). */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "copier.h"
#include "internal.h"
#include "syscalls.h"
#include "util.h"

/* One answer as the copier sends it; the nsfs fds of those with ERR 0 ride along, in order. */
struct wire {
	uint32_t index;
	int32_t err;
	uint64_t dev;
	uint64_t ino;
};

#define BATCH 64

struct batch {
	int sock;
	size_t n, n_fds;
	struct wire wires[BATCH];
	int fds[BATCH];
};

union fd_control {
	char buf[CMSG_SPACE(sizeof(int) * BATCH)];
	struct cmsghdr align;
};

/* Whether the file at NAME under DIR (or DIR itself, with AT_EMPTY_PATH) is (DEV, INO), of TYPE;
 * DEV 0: any. */
static bool same_file(int dir, const char *name, int flags, dev_t dev, ino_t ino, mode_t type)
{
	struct statx stx;

	/* AT_STATX_DONT_SYNC: a FUSE server is not asked for attributes. */
	if (statx(dir, name, flags | AT_STATX_DONT_SYNC, STATX_TYPE | STATX_INO, &stx) < 0)
		return false;
	return (!dev || makedev(stx.stx_dev_major, stx.stx_dev_minor) == dev) &&
	       stx.stx_ino == ino && (stx.stx_mode & S_IFMT) == type;
}

/* A socket copy goes at once where its release never waits (unix, netlink); else at exit. */
static void copy_done(int fd)
{
	socklen_t length = sizeof(int);
	int domain;

	if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &length) == 0 &&
	    (domain == AF_UNIX || domain == AF_NETLINK))
		close(fd);
}

/* What the copier keeps between requests: a pidfd on the last process asked about. */
struct copier_state {
	int pidfd;
	pid_t pid;
};

static int socket_netns(struct copier_state *s, const struct copier_request *rq)
{
	char path[64];
	int copy, ns, r;

	if (s->pid != rq->pid) {
		if (s->pidfd >= 0)
			close(s->pidfd);
		s->pidfd = sys_pidfd_open(rq->pid, 0);
		s->pid = rq->pid;
	}
	if (s->pidfd < 0)
		return -ESRCH;
	/*
	 * The socket still at that fd of the process of that PID, looked at after
	 * the pidfd was made: then the pidfd is on that process, if it still lives
	 * when the copy is made (else pidfd_getfd() fails).
	 */
	snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)rq->pid, rq->fd);
	if (!same_file(AT_FDCWD, path, 0, rq->dev, rq->ino, S_IFSOCK))
		return -ESTALE;
	copy = sys_pidfd_getfd(s->pidfd, rq->fd, 0);
	if (copy < 0)
		return errno == ENOSYS ? -EOPNOTSUPP : -errno;
	/* The process may have put another file at that fd since: kept, never closed. */
	if (!same_file(copy, "", AT_EMPTY_PATH, rq->dev, rq->ino, S_IFSOCK))
		return -ESTALE;
	ns = ioctl(copy, SIOCGSKNS);
	r = ns < 0 ? -errno : ns;
	copy_done(copy);
	return r;
}

static bool batch_send(struct batch *b)
{
	union fd_control control;
	struct iovec iov = { b->wires, b->n * sizeof(b->wires[0]) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	bool sent;

	if (!b->n)
		return true;
	if (b->n_fds) {
		struct cmsghdr *c;

		memset(&control, 0, sizeof(control));
		msg.msg_control = control.buf;
		msg.msg_controllen = CMSG_SPACE(sizeof(int) * b->n_fds);
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int) * b->n_fds);
		memcpy(CMSG_DATA(c), b->fds, sizeof(int) * b->n_fds);
	}
	sent = sendmsg(b->sock, &msg, MSG_NOSIGNAL) >= 0;
	/* nsfs fds: their close() never waits. */
	for (size_t i = 0; i < b->n_fds; i++)
		close(b->fds[i]);
	b->n = b->n_fds = 0;
	return sent;
}

/* Every fd but KEEP closed: the caller's pipes see their end when the caller is done. */
static void close_others(int keep)
{
	struct rlimit limit;

	if ((keep == 0 || syscall(__NR_close_range, 0U, (unsigned)keep - 1, 0U) == 0) &&
	    syscall(__NR_close_range, (unsigned)keep + 1, ~0U, 0U) == 0)
		return;
	/* Before Linux 5.9. */
	if (getrlimit(RLIMIT_NOFILE, &limit) < 0 || limit.rlim_cur > 65536)
		limit.rlim_cur = 65536;
	for (int fd = 0; fd < (int)limit.rlim_cur; fd++)
		if (fd != keep)
			close(fd);
}

/*
 * The copier: a copy of the caller's memory, made by a raw clone (no
 * handlers of pthread_atfork() run, and no lock of libc's is taken: another
 * thread may have held one), so system calls only, no malloc().
 */
static _Noreturn void copier_main(int sock, const struct copier_request *requests, size_t n)
{
	struct copier_state state = { -1, 0 };
	struct batch b = { .sock = sock };
	struct rlimit limit;

	close_others(sock);
	/* Copies are kept to the end: room for them. */
	if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
		limit.rlim_cur = limit.rlim_max;
		setrlimit(RLIMIT_NOFILE, &limit);
	}
	for (size_t i = 0; i < n; i++) {
		const struct copier_request *rq = &requests[i];
		struct stat st = { 0 };
		int ns;

		if (rq->kind == COPIER_SOCKET_NETNS)
			ns = socket_netns(&state, rq);
		else
			ns = ns_open_path_checked(rq->path, rq->type, rq->dev, rq->ino, NULL);
		if (ns >= 0 && fstat(ns, &st) < 0) {
			close(ns);
			ns = -errno;
		}
		b.wires[b.n++] =
		    (struct wire){ (uint32_t)i, ns < 0 ? ns : 0, st.st_dev, st.st_ino };
		if (ns >= 0)
			b.fds[b.n_fds++] = ns;
		/* A walk may wait on a server for ever: what came before is not held back. */
		if ((b.n == BATCH || rq->kind == COPIER_NS_PATH) && !batch_send(&b))
			break;
	}
	batch_send(&b);
	/* Before the copies' close() at exit, which may wait: the caller sees the end now. */
	close(sock);
	syscall(SYS_exit_group, 0);
	for (;;)
		;
}

/*
 * A copy of this process, as fork() makes one but raw (see copier_main()),
 * and with no exit signal: a caller's SIGCHLD handler never hears of it.
 */
static long clone_raw(unsigned long flags)
{
	return syscall(SYS_clone, flags, NULL, NULL, NULL, NULL);
}

/* The answers of one message: false at the end (or on a message that makes no sense). */
static bool read_batch(int sock, size_t n, struct copier_answer *answers, size_t *left)
{
	union fd_control control;
	struct wire wires[BATCH];
	struct iovec iov = { wires, sizeof(wires) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	int fds[BATCH];
	size_t n_fds = 0, used = 0, n_wires;
	ssize_t got;

	msg.msg_control = control.buf;
	msg.msg_controllen = sizeof(control.buf);
	got = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
	if (got < 0)
		return errno == EINTR || errno == EAGAIN;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
		size_t k;

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < k && n_fds < BATCH; i++)
			memcpy(&fds[n_fds++], CMSG_DATA(c) + i * sizeof(int), sizeof(int));
	}
	n_wires = (size_t)got / sizeof(wires[0]);
	for (size_t i = 0; i < n_wires; i++) {
		const struct wire *w = &wires[i];
		int fd = w->err == 0 && used < n_fds ? fds[used++] : -1;
		struct copier_answer *a = w->index < n ? &answers[w->index] : NULL;

		if (!a || a->err != -ETIMEDOUT) {
			if (fd >= 0)
				close(fd);
			continue;
		}
		/* MSG_CTRUNC: no room in our fd table for the fd that came with it. */
		*a = (struct copier_answer){ w->err == 0 && fd < 0 ? -EMFILE : w->err,
					     (dev_t)w->dev, (ino_t)w->ino, fd };
		(*left)--;
	}
	while (used < n_fds)
		close(fds[used++]);
	return got > 0 && (size_t)got % sizeof(wires[0]) == 0;
}

/*
 * The copier's end, reaped where it comes within the bound: it comes at once
 * unless a copy's close() at its exit waits on a server; then it is left, to
 * end when the server answers or goes (and be reaped by whoever it then belongs to).
 */
static void copier_reap(pid_t pid, bool answered)
{
	_cleanup_close_ int pidfd = answered ? sys_pidfd_open(pid, 0) : -1;
	struct pollfd p = { pidfd, POLLIN, 0 };

	if (pidfd >= 0) {
		while (poll(&p, 1, COPIER_WAIT_MS) < 0 && errno == EINTR)
			;
	} else if (answered) {
		/* Before Linux 5.3: a look every millisecond. */
		for (int i = 0; i < COPIER_WAIT_MS && waitpid(pid, NULL, WNOHANG | __WALL) == 0;
		     i++)
			poll(NULL, 0, 1);
		return;
	}
	waitpid(pid, NULL, WNOHANG | __WALL);
}

int copier_run(const struct copier_request *requests, size_t n, struct copier_answer *answers)
{
	int pair[2];
	bool ended = false;
	size_t left = n;
	long pid;

	for (size_t i = 0; i < n; i++)
		answers[i] = (struct copier_answer){ -ETIMEDOUT, 0, 0, -1 };
	if (!n)
		return 0;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) < 0)
		return negative_errno();
	pid = clone_raw(0);
	if (pid == 0)
		copier_main(pair[1], requests, n);
	close(pair[1]);
	if (pid < 0) {
		int r = negative_errno();

		close(pair[0]);
		for (size_t i = 0; i < n; i++)
			answers[i].err = r;
		return r;
	}
	while (left > 0) {
		struct pollfd p = { pair[0], POLLIN, 0 };
		int ready = poll(&p, 1, COPIER_WAIT_MS);

		if (ready < 0 && errno == EINTR)
			continue;
		if (ready <= 0)
			break;
		if (!read_batch(pair[0], n, answers, &left)) {
			ended = true;
			break;
		}
	}
	close(pair[0]);
	copier_reap((pid_t)pid, ended || left == 0);
	return 0;
}
