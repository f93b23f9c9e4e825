// SPDX-License-Identifier: LGPL-2.1-or-later
/* Copies of other processes' fds and walks of other users' paths, in a process nobody waits for
 * (copier.h). */
#include <errno.h>
#include <signal.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/mman.h>
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

/*
 * One answer as the copier sends it; the nsfs fds of those with HAS_FD ride
 * along, in order.  INDEX RESTART_MARK: the copier stopped, and ERR is the
 * index of the first request it leaves to another copier.
 */
struct wire {
	uint32_t index;
	int32_t err;
	uint64_t dev;
	uint64_t ino;
	uint32_t has_fd;
	uint32_t unused;
};

#define RESTART_MARK UINT32_MAX
/* How many copiers one call may start: each one a copy taken from under it stopped. */
#define COPIERS_MAX 4

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

/*
 * What the copier keeps between requests: a pidfd on the last process asked
 * about; the namespaces whose fds it has sent (a set of inodes, open
 * addressing, in memory of its own: no malloc()); whether a copy turned out
 * not to be the socket seen, after which it makes no more.
 */
struct copier_state {
	int pidfd;
	pid_t pid;
	uint64_t *sent;
	size_t sent_size; /* a power of two, twice the requests at least */
	bool tainted;
};

/* Whether the namespace of INO was sent already; if not, it is from now on. */
static bool sent_before(struct copier_state *s, uint64_t ino)
{
	size_t mask = s->sent_size - 1;

	if (!s->sent)
		return false;
	for (size_t i = (size_t)(ino * 0x9e3779b97f4a7c15ULL) & mask;; i = (i + 1) & mask) {
		if (s->sent[i] == ino)
			return true;
		if (s->sent[i] == 0) {
			s->sent[i] = ino;
			return false;
		}
	}
}

static int socket_netns(struct copier_state *s, const struct copier_request *rq)
{
	char path[64];
	int copy, ns;

	/* The last one is kept open, not closed: see copier_main() on the order of fds. */
	if (s->pid != rq->pid) {
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
	/*
	 * The process may have put another file at that fd since (one on a FUSE
	 * mount whose server never answers a flush): kept, never closed, and the
	 * last copy this copier makes.
	 */
	if (!same_file(copy, "", AT_EMPTY_PATH, rq->dev, rq->ino, S_IFSOCK)) {
		s->tainted = true;
		return -ESTALE;
	}
	ns = ioctl(copy, SIOCGSKNS);
	return ns < 0 ? -errno : ns;
}

/* State a user's file may hold at most: no runtime's is larger. */
#define USER_FILE_MAX (16u << 20)

/*
 * COPIER_USER_FILE: a memfd with the text of the file, or -errno.  The file
 * is never closed here (a FUSE file's close waits on its server): the
 * copier's exit closes it, after its answers are sent.
 */
static int user_file(const struct copier_request *rq)
{
	char buf[16384];
	struct stat st;
	size_t total = 0;
	int fd, mem;

	/* As the user opens it: root's rights reach nothing of the user's it could not. */
	syscall(SYS_setfsgid, rq->gid);
	syscall(SYS_setfsuid, rq->uid);
	fd = open(rq->path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	syscall(SYS_setfsuid, 0);
	syscall(SYS_setfsgid, 0);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode) || st.st_uid != rq->uid || (st.st_mode & (S_IWGRP | S_IWOTH)))
		return -EPERM;
	if ((unsigned long long)st.st_size > USER_FILE_MAX)
		return -EFBIG;
	mem = (int)syscall(SYS_memfd_create, "nsctl-user-file", MFD_CLOEXEC);
	if (mem < 0)
		return -errno;
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || total + (size_t)n > USER_FILE_MAX ||
		    write(mem, buf, (size_t)n) != n) {
			if (n == 0)
				return mem;
			close(mem);
			return n < 0 ? -EIO : -EFBIG;
		}
		total += (size_t)n;
	}
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
	/* The fds sent stay open to the end: see copier_main() on the order of fds. */
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

/* The caller's signal handlers never run here, on a copy of its memory. */
static void default_handlers(void)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };

	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			sigaction(sig, &dfl, NULL);
}

/*
 * The copier: a copy of the caller's memory, made by process_start_copy()
 * (no handlers of pthread_atfork() run, and no lock of libc's is taken:
 * another thread may have held one), so system calls only, no malloc().
 *
 * It closes no copy until its exit, where the kernel closes fds in ascending
 * order and skips a socket's SO_LINGER, and nothing else but its newest fd:
 * each new fd is then above all the others, and a copy that is not the socket
 * seen (a FUSE file, whose close waits on its server) is its last, so that
 * its exit closes every other copy before it waits on that one.  The requests
 * after it are left to another copier (RESTART_MARK), as are those after a
 * full fd table.
 */
static _Noreturn void copier_main(int sock, const struct copier_request *requests, size_t n)
{
	struct copier_state state = { .pidfd = -1 };
	struct batch b;
	struct rlimit limit;
	size_t i;

	default_handlers();
	/* The answer socket at fd 0, nothing above it: the fds to come follow in order. */
	if (sock != 0) {
		if (syscall(__NR_dup3, sock, 0, O_CLOEXEC) < 0)
			syscall(SYS_exit_group, 1);
		sock = 0;
	}
	close_others(sock);
	b = (struct batch){ .sock = sock };
	if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
		limit.rlim_cur = limit.rlim_max;
		setrlimit(RLIMIT_NOFILE, &limit);
	}
	for (state.sent_size = 16; state.sent_size < 2 * n; state.sent_size *= 2)
		;
	state.sent = mmap(NULL, state.sent_size * sizeof(uint64_t), PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (state.sent == MAP_FAILED)
		state.sent = NULL;
	for (i = 0; i < n && !state.tainted; i++) {
		const struct copier_request *rq = &requests[i];
		struct stat st = { 0 };
		bool send_fd;
		int ns;

		/* A walk may wait on a server for ever: what came before is not held back. */
		if (rq->kind != COPIER_SOCKET_NETNS && !batch_send(&b))
			break;
		if (rq->kind == COPIER_SOCKET_NETNS)
			ns = socket_netns(&state, rq);
		else if (rq->kind == COPIER_USER_FILE)
			ns = user_file(rq);
		else
			ns = ns_open_path_checked(rq->path, rq->type, rq->dev, rq->ino, NULL);
		if (ns >= 0 && fstat(ns, &st) < 0) {
			int err = -errno;

			close(ns); /* the newest fd, on top: see below */
			ns = err;
		}
		/* No room for another copy: a new copier has a table of its own. */
		if (ns == -EMFILE || ns == -ENFILE)
			break;
		/* One fd a namespace, and none for the process's own network namespace. */
		send_fd = ns >= 0 &&
			  !(rq->kind == COPIER_SOCKET_NETNS && st.st_dev == rq->own_dev &&
			    st.st_ino == rq->own_ino) &&
			  !sent_before(&state, (uint64_t)st.st_ino);
		b.wires[b.n++] =
		    (struct wire){ (uint32_t)i, ns < 0 ? ns : 0, st.st_dev, st.st_ino, send_fd, 0 };
		if (send_fd)
			b.fds[b.n_fds++] = ns;
		else if (ns >= 0)
			close(ns); /* the newest fd, on top: it leaves no gap below another */
		if ((b.n == BATCH || rq->kind != COPIER_SOCKET_NETNS) && !batch_send(&b))
			break;
	}
	/* (A batch still full is one the caller would not take: nobody reads the mark then.) */
	if (i < n && b.n < BATCH)
		b.wires[b.n++] = (struct wire){ RESTART_MARK, (int32_t)i, 0, 0, 0, 0 };
	batch_send(&b);
	/* Before its exit, which may wait on a copy: the caller sees the end now. */
	close(sock);
	syscall(SYS_exit_group, 0);
	__builtin_unreachable();
}

/* What the copier starts from. */
struct copier_start {
	int sock;
	const struct copier_request *requests;
	size_t n;
};

static int copier_start(void *data)
{
	const struct copier_start *start = data;

	copier_main(start->sock, start->requests, start->n);
}

/*
 * The answers of one message, into ANSWERS (of N requests); *RESTART, where
 * the copier stopped, the first it left.  False at the end (or on a message
 * that makes no sense).
 */
static bool read_batch(int sock, size_t n, struct copier_answer *answers, size_t *left,
		       size_t *restart)
{
	union fd_control control;
	struct wire wires[BATCH + 1];
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
		for (size_t i = 0; i < k; i++) {
			int fd;

			memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
			if (n_fds < BATCH)
				fds[n_fds++] = fd;
			else
				close(fd);
		}
	}
	n_wires = (size_t)got / sizeof(wires[0]);
	for (size_t i = 0; i < n_wires; i++) {
		const struct wire *w = &wires[i];
		int fd = w->has_fd && used < n_fds ? fds[used++] : -1;
		struct copier_answer *a = w->index < n ? &answers[w->index] : NULL;

		if (w->index == RESTART_MARK && w->err >= 0 && (size_t)w->err <= n)
			*restart = (size_t)w->err;
		if (!a || a->err != -ETIMEDOUT) {
			if (fd >= 0)
				close(fd);
			continue;
		}
		/* MSG_CTRUNC: no room in our fd table for the fd that came with it. */
		*a = (struct copier_answer){ w->has_fd && fd < 0 ? -EMFILE : w->err, (dev_t)w->dev,
					     (ino_t)w->ino, fd };
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
static void copier_reap(pid_t pid, int pidfd, bool answered)
{
	struct pollfd p = { pidfd, POLLIN, 0 };

	if (pidfd >= 0 && answered) {
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
	close_fdp(&pidfd);
}

static long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/*
 * One copier, for the N REQUESTS, until DEADLINE (now_ms()); *RESTART: the
 * first request it left to another one, N when none.
 */
static int copier_run_one(const struct copier_request *requests, size_t n,
			  struct copier_answer *answers, long deadline, size_t *restart)
{
	int pair[2], pidfd;
	bool ended = false;
	size_t left = n;
	pid_t pid;

	*restart = n;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) < 0)
		return negative_errno();
	/* No exit signal: a caller's SIGCHLD handler never hears of it. */
	pid = process_start_copy(copier_start, &(struct copier_start){ pair[1], requests, n }, 0, 0,
				 &pidfd);
	close(pair[1]);
	if (pid < 0) {
		close(pair[0]);
		return pid;
	}
	while (left > 0) {
		struct pollfd p = { pair[0], POLLIN, 0 };
		long wait = deadline - now_ms();
		int ready;

		if (wait <= 0)
			break;
		ready = poll(&p, 1, wait < COPIER_WAIT_MS ? (int)wait : COPIER_WAIT_MS);
		if (ready < 0 && errno == EINTR)
			continue;
		if (ready <= 0)
			break;
		if (!read_batch(pair[0], n, answers, &left, restart)) {
			ended = true;
			break;
		}
	}
	close(pair[0]);
	/* A copier that stopped on a copy that is no socket waits on it at exit: not waited for. */
	copier_reap(pid, pidfd, (ended || left == 0) && *restart == n);
	return 0;
}

int copier_run(const struct copier_request *requests, size_t n, struct copier_answer *answers)
{
	long deadline = now_ms() + COPIER_DEADLINE_MS;
	size_t start = 0, restart;
	int r = 0;

	for (size_t i = 0; i < n; i++)
		answers[i] = (struct copier_answer){ -ETIMEDOUT, 0, 0, -1 };
	for (int copiers = 0; start < n && copiers < COPIERS_MAX; copiers++) {
		r = copier_run_one(requests + start, n - start, answers + start, deadline,
				   &restart);
		/* RESTART: after a copy that was no socket (answered), or the one a full table
		 * refused. */
		if (r < 0 || restart >= n - start || restart == 0)
			break;
		start += restart;
	}
	if (r < 0)
		for (size_t i = 0; i < n; i++)
			if (answers[i].err == -ETIMEDOUT)
				answers[i].err = r;
	return r;
}
