// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Unit tests of lib/copier.c: the copier answers for another process's socket
 * without waiting on it (a long SO_LINGER), hands back only nsfs fds, keeps
 * none of the caller's fds, and is nobody's child of the caller's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <cmocka.h>

#include <sched.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "copier.h"
#include "nsctl.h"

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/*
 * A TCP connection on loopback whose receiver (*RET_PEER) never reads: the
 * sender's queue stays full, and it lingers SECONDS on close.  The sender.
 */
static int lingering_sender(int *ret_peer, int seconds)
{
	struct sockaddr_in addr = { .sin_family = AF_INET,
				    .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t length = sizeof(addr);
	struct linger linger = { .l_onoff = 1, .l_linger = seconds };
	int small = 4096, listener, sender, peer;
	char block[4096] = { 0 };

	listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(listener >= 0);
	assert_int_equal(setsockopt(listener, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small)), 0);
	assert_int_equal(bind(listener, (struct sockaddr *)&addr, sizeof(addr)), 0);
	assert_int_equal(listen(listener, 1), 0);
	assert_int_equal(getsockname(listener, (struct sockaddr *)&addr, &length), 0);
	sender = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	assert_true(sender >= 0);
	assert_int_equal(setsockopt(sender, SOL_SOCKET, SO_SNDBUF, &small, sizeof(small)), 0);
	assert_true(connect(sender, (struct sockaddr *)&addr, sizeof(addr)) == 0 ||
		    errno == EINPROGRESS);
	peer = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
	assert_true(peer >= 0);
	close(listener);
	/* Until neither the peer's window nor our queue takes more. */
	for (int i = 0; i < 100000 && send(sender, block, sizeof(block), MSG_NOSIGNAL) > 0; i++)
		;
	assert_int_equal(errno, EAGAIN);
	assert_int_equal(setsockopt(sender, SOL_SOCKET, SO_LINGER, &linger, sizeof(linger)), 0);
	*ret_peer = peer;
	return sender;
}

static void on_alarm(int sig)
{
	(void)sig;
}

/* The test can fail: a plain close() of such a socket's last reference does wait. */
static void test_plain_close_lingers(void **state)
{
	int peer, sender = lingering_sender(&peer, 30);
	int status;
	pid_t pid;

	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct sigaction sa = { .sa_handler = on_alarm };
		double begin;

		sigaction(SIGALRM, &sa, NULL);
		/* The parent's copy is closed below: this one is the last, blocking again. */
		usleep(200000);
		fcntl(sender, F_SETFL, 0);
		alarm(1);
		begin = now();
		close(sender);
		_exit(now() - begin >= 0.9 ? 0 : 1);
	}
	close(sender);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	close(peer);
}

/* A child that holds FD and waits until its end of GATE closes; FD closed in the caller. */
static pid_t holder(int fd, bool new_netns, int *ret_gate)
{
	int gate[2], ready[2];
	char byte = 0;
	pid_t pid;

	assert_int_equal(pipe2(gate, O_CLOEXEC), 0);
	assert_int_equal(pipe2(ready, O_CLOEXEC), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(gate[1]);
		close(ready[0]);
		if (new_netns) {
			/* Its socket in a network namespace of its own, made after: fd FD again. */
			if (unshare(CLONE_NEWNET) < 0)
				_exit(77);
			close(fd);
			if (dup2(socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), fd) != fd)
				_exit(1);
		}
		if (write(ready[1], &byte, 1) != 1)
			_exit(1);
		_exit(read(gate[0], &byte, 1) < 0);
	}
	close(gate[0]);
	close(ready[1]);
	if (fd >= 0 && !new_netns)
		close(fd);
	if (read(ready[0], &byte, 1) != 1) {
		int status;

		assert_int_equal(waitpid(pid, &status, 0), pid);
		if (WIFEXITED(status) && WEXITSTATUS(status) == 77)
			skip(); /* no network namespace may be made here (not root) */
		fail_msg("the holder ended");
	}
	close(ready[0]);
	*ret_gate = gate[1];
	return pid;
}

static void file_of(pid_t pid, const char *name, dev_t *ret_dev, ino_t *ret_ino)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, name);
	assert_int_equal(stat(path, &st), 0);
	*ret_dev = st.st_dev;
	*ret_ino = st.st_ino;
}

static void holder_end(pid_t pid, int gate)
{
	close(gate);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
}

/* The namespace of another process's lingering socket, at once; no child of ours is left. */
static void test_socket_netns_at_once(void **state)
{
	int peer, sender = lingering_sender(&peer, 30), gate;
	struct copier_request request = { COPIER_SOCKET_NETNS, 0, sender, -1, 0, 0, NULL };
	struct copier_answer answer;
	dev_t net_dev;
	ino_t net_ino;
	char name[32];
	double begin;
	pid_t pid;

	pid = holder(sender, false, &gate);
	snprintf(name, sizeof(name), "fd/%d", sender);
	request.pid = pid;
	file_of(pid, name, &request.dev, &request.ino);
	file_of(pid, "ns/net", &net_dev, &net_ino);
	begin = now();
	assert_int_equal(copier_run(&request, 1, &answer), 0);
	assert_true(now() - begin < 1.0);
	assert_int_equal(answer.err, 0);
	assert_true(answer.fd >= 0);
	assert_true(answer.dev == net_dev && answer.ino == net_ino);
	assert_true(fcntl(answer.fd, F_GETFD) & FD_CLOEXEC);
	close(answer.fd);
	kill(pid, SIGKILL);
	holder_end(pid, gate);
	/* The first process is reaped; the copier was never a child of ours. */
	assert_int_equal(waitpid(-1, NULL, WNOHANG | __WALL), -1);
	assert_int_equal(errno, ECHILD);
	close(peer);
}

/* A socket in a network namespace that is not ours: that one, as an fd on it. */
static void test_socket_in_other_netns(void **state)
{
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), gate;
	struct copier_request request = { COPIER_SOCKET_NETNS, 0, fd, -1, 0, 0, NULL };
	struct copier_answer answer;
	struct stat own, got;
	char name[32];
	pid_t pid;

	assert_true(fd >= 0);
	pid = holder(fd, true, &gate);
	close(fd);
	snprintf(name, sizeof(name), "fd/%d", request.fd);
	request.pid = pid;
	file_of(pid, name, &request.dev, &request.ino);
	assert_int_equal(copier_run(&request, 1, &answer), 0);
	assert_int_equal(answer.err, 0);
	assert_int_equal(stat("/proc/self/ns/net", &own), 0);
	assert_int_equal(fstat(answer.fd, &got), 0);
	assert_true(got.st_ino == answer.ino && got.st_ino != own.st_ino);
	close(answer.fd);
	holder_end(pid, gate);
}

/* An fd that is not the socket the scan saw (swapped since): no copy comes back. */
static void test_swapped_fd_refused(void **state)
{
	int pair[2], sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct copier_request requests[2];
	struct copier_answer answers[2];
	struct stat st;

	assert_int_equal(pipe2(pair, O_CLOEXEC), 0);
	assert_int_equal(fstat(sock, &st), 0);
	/* A pipe where a socket was seen; a socket whose inode is not the one seen. */
	requests[0] = (struct copier_request){ COPIER_SOCKET_NETNS, getpid(),  pair[0], -1,
					       st.st_dev,           st.st_ino, NULL };
	requests[1] = (struct copier_request){ COPIER_SOCKET_NETNS, getpid(),      sock, -1,
					       st.st_dev,           st.st_ino + 1, NULL };
	assert_int_equal(copier_run(requests, 2, answers), 0);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(answers[i].err, -ESTALE);
		assert_int_equal(answers[i].fd, -1);
	}
	close(pair[0]);
	close(pair[1]);
	close(sock);
}

/* A pin's path: the namespace, checked; anything else there is refused, a FIFO without waiting. */
static void test_path(void **state)
{
	char dir[] = "/tmp/test-copier-XXXXXX", fifo[64], file[64];
	struct copier_request requests[3];
	struct copier_answer answers[3];
	struct stat st;

	assert_int_equal(stat("/proc/self/ns/uts", &st), 0);
	assert_non_null(mkdtemp(dir));
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	snprintf(file, sizeof(file), "%s/file", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	close(open(file, O_CREAT | O_WRONLY | O_CLOEXEC, 0600));
	requests[0] = (struct copier_request){ COPIER_NS_PATH,     0,         -1,
					       NSCTL_TYPE_UTS,     st.st_dev, st.st_ino,
					       "/proc/self/ns/uts" };
	requests[1] =
	    (struct copier_request){ COPIER_NS_PATH, 0, -1, -1, st.st_dev, st.st_ino, fifo };
	requests[2] =
	    (struct copier_request){ COPIER_NS_PATH, 0, -1, -1, st.st_dev, st.st_ino, file };
	assert_int_equal(copier_run(requests, 3, answers), 0);
	assert_int_equal(answers[0].err, 0);
	assert_true(answers[0].ino == st.st_ino);
	close(answers[0].fd);
	assert_int_equal(answers[1].err, -ENOTTY);
	assert_true(answers[2].err == -ESTALE || answers[2].err == -ENOTTY);
	unlink(fifo);
	unlink(file);
	rmdir(dir);
}

/*
 * A user's file, as that user reads it: its text in a memfd; refused when it
 * is not that user's own regular file, or others may write it, or the user
 * cannot reach it (root's rights do not), or it is a symlink; a FIFO there
 * answers at once.
 */
static void test_user_file(void **state)
{
	char dir[] = "/tmp/test-copier-XXXXXX", path[6][80], text[32];
	const uid_t uid = 65534;
	struct copier_request requests[6];
	struct copier_answer answers[6];
	double start;
	int fd;

	if (geteuid() != 0)
		skip();
	assert_non_null(mkdtemp(dir));
	assert_int_equal(chmod(dir, 0755), 0);
	for (int i = 0; i < 6; i++)
		snprintf(path[i], sizeof(path[i]), "%s/%d", dir, i);
	/* 0: the user's own; 1: root's; 2: writable by others; 3: a symlink to 0; 4: a FIFO. */
	for (int i = 0; i < 3; i++) {
		fd = open(path[i], O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
		assert_true(fd >= 0);
		assert_int_equal(write(fd, "[{\"id\": 1}]", 11), 11);
		close(fd);
	}
	assert_int_equal(chown(path[0], uid, uid), 0);
	assert_int_equal(chown(path[2], uid, uid), 0);
	assert_int_equal(chmod(path[2], 0666), 0);
	assert_int_equal(symlink(path[0], path[3]), 0);
	assert_int_equal(mkfifo(path[4], 0600), 0);
	assert_int_equal(chown(path[4], uid, uid), 0);
	/* 5: the user's own, in a directory only root may enter. */
	snprintf(path[5], sizeof(path[5]), "%s/closed", dir);
	assert_int_equal(mkdir(path[5], 0700), 0);
	strcat(path[5], "/file");
	fd = open(path[5], O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(chown(path[5], uid, uid), 0);
	for (int i = 0; i < 6; i++)
		requests[i] = (struct copier_request){ .kind = COPIER_USER_FILE,
						       .fd = -1,
						       .type = -1,
						       .path = path[i],
						       .uid = uid,
						       .gid = uid };
	start = now();
	assert_int_equal(copier_run(requests, 6, answers), 0);
	assert_true(now() - start < 1.5);
	assert_int_equal(answers[0].err, 0);
	assert_true(answers[0].fd >= 0);
	assert_int_equal(pread(answers[0].fd, text, sizeof(text), 0), 11);
	assert_memory_equal(text, "[{\"id\": 1}]", 11);
	close(answers[0].fd);
	assert_int_equal(answers[1].err, -EPERM);
	assert_int_equal(answers[2].err, -EPERM);
	assert_int_equal(answers[3].err, -ELOOP);
	assert_int_equal(answers[4].err, -EPERM);
	assert_int_equal(answers[5].err, -EACCES);
	for (int i = 1; i < 6; i++)
		assert_int_equal(answers[i].fd, -1);
	unlink(path[5]);
	*strrchr(path[5], '/') = '\0';
	rmdir(path[5]);
	for (int i = 0; i < 5; i++)
		unlink(path[i]);
	rmdir(dir);
}

/* The copier holds none of the caller's fds: a pipe's reader sees its end when the caller closes.
 */
static void test_caller_fds_not_kept(void **state)
{
	int pipe_fds[2], sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct copier_request request = { COPIER_SOCKET_NETNS, 0, sock, -1, 0, 0, NULL };
	struct copier_answer answer;
	struct pollfd p;
	struct stat st;
	char byte;

	assert_int_equal(pipe(pipe_fds), 0); /* not close-on-exec, as a caller's stdout */
	assert_int_equal(fstat(sock, &st), 0);
	request.pid = getpid();
	request.dev = st.st_dev;
	request.ino = st.st_ino;
	assert_int_equal(copier_run(&request, 1, &answer), 0);
	assert_int_equal(answer.err, 0);
	close(answer.fd);
	close(pipe_fds[1]);
	p = (struct pollfd){ pipe_fds[0], POLLIN, 0 };
	assert_int_equal(poll(&p, 1, 2000), 1);
	assert_int_equal(read(pipe_fds[0], &byte, 1), 0);
	close(pipe_fds[0]);
	close(sock);
}

/*
 * N requests about M sockets of ours (each asked N / M times), as a scan would
 * make them: each answers our network namespace.
 */
static void ask_own_sockets(int n, int m, bool tell_own, struct copier_answer *answers)
{
	struct copier_request requests[128];
	struct stat own;
	int fds[128];

	assert_true(n <= 128 && m <= n);
	assert_int_equal(stat("/proc/self/ns/net", &own), 0);
	for (int i = 0; i < m; i++) {
		fds[i] = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		assert_true(fds[i] >= 0);
	}
	for (int i = 0; i < n; i++) {
		struct stat st;

		assert_int_equal(fstat(fds[i % m], &st), 0);
		requests[i] = (struct copier_request){ .kind = COPIER_SOCKET_NETNS,
						       .pid = getpid(),
						       .fd = fds[i % m],
						       .type = -1,
						       .dev = st.st_dev,
						       .ino = st.st_ino,
						       .own_dev = tell_own ? own.st_dev : 0,
						       .own_ino = tell_own ? own.st_ino : 0 };
	}
	assert_int_equal(copier_run(requests, (size_t)n, answers), 0);
	for (int i = 0; i < n; i++) {
		assert_int_equal(answers[i].err, 0);
		assert_true(answers[i].dev == own.st_dev && answers[i].ino == own.st_ino);
	}
	for (int i = 0; i < m; i++)
		close(fds[i]);
}

/* One fd a namespace, with its first answer; none where it is the process's own. */
static void test_one_fd_a_namespace(void **state)
{
	struct copier_answer answers[20];

	ask_own_sockets(20, 20, false, answers);
	assert_true(answers[0].fd >= 0);
	for (int i = 1; i < 20; i++)
		assert_int_equal(answers[i].fd, -1);
	close(answers[0].fd);
	ask_own_sockets(20, 20, true, answers);
	for (int i = 0; i < 20; i++)
		assert_int_equal(answers[i].fd, -1);
}

/* A copier whose fd table is full leaves the rest to another: every socket is answered. */
static void test_full_table_goes_on(void **state)
{
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		/*
		 * Room for our 5 sockets; a copier, which keeps each of its 100
		 * copies, fills it after about 30 and leaves the rest to others.
		 */
		struct rlimit limit = { 32, 32 };
		struct copier_answer answers[100];

		if (setrlimit(RLIMIT_NOFILE, &limit) < 0)
			_exit(2);
		ask_own_sockets(100, 5, true, answers);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_close_lingers),
		cmocka_unit_test(test_socket_netns_at_once),
		cmocka_unit_test(test_socket_in_other_netns),
		cmocka_unit_test(test_swapped_fd_refused),
		cmocka_unit_test(test_path),
		cmocka_unit_test(test_user_file),
		cmocka_unit_test(test_caller_fds_not_kept),
		cmocka_unit_test(test_one_fd_a_namespace),
		cmocka_unit_test(test_full_table_goes_on),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
