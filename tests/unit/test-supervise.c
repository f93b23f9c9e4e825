// SPDX-License-Identifier: LGPL-2.1-or-later
/* Unit tests of lib/supervise.c: exit mirroring, signal forwarding, death with the parent. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "nsctl.h"

/*
 * A child running BODY, started as nsctl starts one: signals blocked before the
 * fork, restored in the child.  SETUP runs in the child while they are still
 * blocked: a handler installed there is in place before any signal (one the
 * supervisor forwards early included) can arrive, so no test has to sleep.
 */
static pid_t start_with(void (*setup)(void), void (*body)(void), struct nsctl_signal_state *saved,
			int *ret_pidfd)
{
	pid_t pid;

	assert_int_equal(nsctl_signals_block(saved), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (setup)
			setup();
		nsctl_signals_restore(saved);
		body();
		_exit(99);
	}
	*ret_pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	return pid;
}

static void exit_seven(void)
{
	_exit(7);
}

static void on_usr1(int sig)
{
	_exit(42);
}

static void catch_usr1(void)
{
	signal(SIGUSR1, on_usr1);
}

static void wait_forever(void)
{
	for (;;)
		pause();
}

static void test_exit_code(void **state)
{
	struct nsctl_signal_state saved;
	int pidfd, wstatus = -1;
	pid_t pid = start_with(NULL, exit_seven, &saved, &pidfd);

	assert_int_equal(nsctl_supervise(pid, pidfd, &wstatus), 0);
	assert_true(WIFEXITED(wstatus));
	assert_int_equal(WEXITSTATUS(wstatus), 7);
	assert_int_equal(nsctl_signals_restore(&saved), 0);
	close(pidfd);
}

static void test_killed_and_without_pidfd(void **state)
{
	struct nsctl_signal_state saved;
	int pidfd, wstatus = -1;
	pid_t pid = start_with(catch_usr1, wait_forever, &saved, &pidfd);

	close(pidfd);
	kill(pid, SIGTERM);
	assert_int_equal(nsctl_supervise(pid, -1, &wstatus), 0);
	assert_true(WIFSIGNALED(wstatus));
	assert_int_equal(WTERMSIG(wstatus), SIGTERM);
	nsctl_signals_restore(&saved);
}

static void test_forwards_signals(void **state)
{
	struct nsctl_signal_state saved;
	int pidfd, wstatus = -1;
	pid_t pid = start_with(catch_usr1, wait_forever, &saved, &pidfd);

	/*
	 * Sent to the supervisor, blocked there, and passed on to the child, at
	 * once: the child may not have unblocked it yet, and must still get it.
	 */
	kill(getpid(), SIGUSR1);
	assert_int_equal(nsctl_supervise(pid, pidfd, &wstatus), 0);
	assert_true(WIFEXITED(wstatus));
	assert_int_equal(WEXITSTATUS(wstatus), 42);
	nsctl_signals_restore(&saved);
	close(pidfd);
}

static void test_sigchld_ignored_by_caller(void **state)
{
	struct nsctl_signal_state saved;
	struct sigaction old;
	int pidfd, wstatus = -1;
	pid_t pid;

	/* A caller that ignores SIGCHLD would have its children reaped by the kernel. */
	signal(SIGCHLD, SIG_IGN);
	pid = start_with(NULL, exit_seven, &saved, &pidfd);
	assert_int_equal(nsctl_supervise(pid, pidfd, &wstatus), 0);
	assert_int_equal(WEXITSTATUS(wstatus), 7);
	assert_int_equal(nsctl_signals_restore(&saved), 0);
	sigaction(SIGCHLD, NULL, &old);
	assert_true(old.sa_handler == SIG_IGN);
	signal(SIGCHLD, SIG_DFL);
	close(pidfd);
}

static void test_bad_arguments(void **state)
{
	int wstatus;

	assert_int_equal(nsctl_supervise(0, -1, &wstatus), -EINVAL);
	assert_int_equal(nsctl_supervise(1, -1, NULL), -EINVAL);
	assert_int_equal(nsctl_signals_block(NULL), -EINVAL);
	assert_int_equal(nsctl_signals_restore(NULL), -EINVAL);
}

/*
 * A middle process starts a grandchild and dies; the grandchild must die too.
 * With PARENT_GONE_FIRST the grandchild arms its death signal only once the
 * middle one is gone (it has been reparented to us): then only the lifeline
 * pipe can tell it.
 */
static void check_dies_with_parent(bool parent_gone_first)
{
	int lifeline[2], wstatus;
	pid_t middle, grandchild;

	assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	assert_int_equal(pipe2(lifeline, O_CLOEXEC), 0);
	middle = fork();
	assert_true(middle >= 0);
	if (middle == 0) {
		pid_t parent = getpid(), pid = fork();

		if (pid == 0) {
			int i;

			close(lifeline[1]);
			/* At most 10 s: then it exits 0, failing the test. */
			for (i = 0; parent_gone_first && getppid() == parent; i++) {
				if (i == 10000)
					_exit(0);
				usleep(1000);
			}
			nsctl_child_die_with_parent(lifeline[0]);
			pause();
			_exit(0);
		}
		_exit(0);
	}
	close(lifeline[0]);
	close(lifeline[1]);
	assert_int_equal(waitpid(middle, NULL, 0), middle);
	/* The grandchild was reparented to us, the subreaper, and must be killed. */
	grandchild = waitpid(-1, &wstatus, 0);
	assert_true(grandchild > 0);
	assert_true(WIFSIGNALED(wstatus));
	assert_int_equal(WTERMSIG(wstatus), SIGKILL);
	prctl(PR_SET_CHILD_SUBREAPER, 0);
}

static void test_dies_with_parent(void **state)
{
	check_dies_with_parent(false);
}

static void test_dies_with_parent_that_died_first(void **state)
{
	check_dies_with_parent(true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exit_code),
		cmocka_unit_test(test_killed_and_without_pidfd),
		cmocka_unit_test(test_forwards_signals),
		cmocka_unit_test(test_sigchld_ignored_by_caller),
		cmocka_unit_test(test_bad_arguments),
		cmocka_unit_test(test_dies_with_parent),
		cmocka_unit_test(test_dies_with_parent_that_died_first),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
