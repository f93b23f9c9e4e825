// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Unit tests of lib/graveyard.c: the last reference to a socket whose owner
 * chose a long SO_LINGER is closed at once, not after the linger time.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <cmocka.h>

#include "graveyard.h"

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

static void test_buried_socket_closes_at_once(void **state)
{
	struct graveyard graveyard = { .n = 0 };
	int peer, sender = lingering_sender(&peer, 30);
	double begin;

	fcntl(sender, F_SETFL, 0);
	graveyard_bury(&graveyard, sender);
	assert_int_equal(graveyard.n, 1);
	begin = now();
	graveyard_flush(&graveyard);
	assert_true(now() - begin < 0.5);
	assert_int_equal(graveyard.n, 0);
	assert_int_equal(fcntl(sender, F_GETFD), -1);
	assert_int_equal(errno, EBADF);
	/* No child is left behind, reaped or not. */
	assert_int_equal(waitpid(-1, NULL, WNOHANG | __WALL), -1);
	assert_int_equal(errno, ECHILD);
	close(peer);
}

static void test_unix_socket_closed_at_once(void **state)
{
	struct graveyard graveyard = { .n = 0 };
	int pair[2];

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair), 0);
	graveyard_bury(&graveyard, pair[0]);
	assert_int_equal(graveyard.n, 0);
	assert_int_equal(fcntl(pair[0], F_GETFD), -1);
	close(pair[1]);
}

static void test_full_graveyard_flushes(void **state)
{
	struct graveyard graveyard = { .n = 0 };
	int fds[GRAVEYARD_SIZE + 1];

	for (size_t i = 0; i < GRAVEYARD_SIZE + 1; i++) {
		fds[i] = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		assert_true(fds[i] >= 0);
		graveyard_bury(&graveyard, fds[i]);
	}
	/* The first GRAVEYARD_SIZE were closed when the next came. */
	assert_int_equal(graveyard.n, 1);
	assert_int_equal(fcntl(fds[0], F_GETFD), -1);
	assert_int_equal(fcntl(fds[GRAVEYARD_SIZE - 1], F_GETFD), -1);
	assert_true(fcntl(fds[GRAVEYARD_SIZE], F_GETFD) >= 0);
	graveyard_flush(&graveyard);
	assert_int_equal(fcntl(fds[GRAVEYARD_SIZE], F_GETFD), -1);
	graveyard_bury(&graveyard, -1);
	assert_int_equal(graveyard.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_close_lingers),
		cmocka_unit_test(test_buried_socket_closes_at_once),
		cmocka_unit_test(test_unix_socket_closed_at_once),
		cmocka_unit_test(test_full_graveyard_flushes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
