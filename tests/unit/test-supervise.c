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
static pid_t start_with(void (*setup)(void), void (*body)(void), struct nsctl_signals_state *saved,
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
	struct nsctl_signals_state saved;
	int pidfd, wstatus = -1;
	pid_t pid = start_with(NULL, exit_seven, &saved, &pidfd);

	assert_int_equal(nsctl_child_supervise(pid, pidfd, 0, &wstatus), 0);
	assert_true(WIFEXITED(wstatus));
	assert_int_equal(WEXITSTATUS(wstatus), 7);
	assert_int_equal(nsctl_signals_restore(&saved), 0);
	close(pidfd);
}

static void test_killed_and_without_pidfd(void **state)
{
	struct nsctl_signals_state saved;
	int pidfd, wstatus = -1;
	pid_t pid = start_with(catch_usr1, wait_forever, &saved, &pidfd);

	close(pidfd);
	kill(pid, SIGTERM);
	assert_int_equal(nsctl_child_supervise(pid, -1, 0, &wstatus), 0);
	assert_true(WIFSIGNALED(wstatus));
	assert_int_equal(WTERMSIG(wstatus), SIGTERM);
	nsctl_signals_restore(&saved);
}

static void test_forwards_signals(void **state)
{
	struct nsctl_signals_state saved;
	int pidfd, wstatus = -1;
	pid_t pid = start_with(catch_usr1, wait_forever, &saved, &pidfd);

	/*
	 * Sent to the supervisor, blocked there, and passed on to the child, at
	 * once: the child may not have unblocked it yet, and must still get it.
	 */
	kill(getpid(), SIGUSR1);
	assert_int_equal(nsctl_child_supervise(pid, pidfd, 0, &wstatus), 0);
	assert_true(WIFEXITED(wstatus));
	assert_int_equal(WEXITSTATUS(wstatus), 42);
	nsctl_signals_restore(&saved);
	close(pidfd);
}

static void test_sigchld_ignored_by_caller(void **state)
{
	struct nsctl_signals_state saved;
	struct sigaction old;
	int pidfd, wstatus = -1;
	pid_t pid;

	/* A caller that ignores SIGCHLD would have its children reaped by the kernel. */
	signal(SIGCHLD, SIG_IGN);
	pid = start_with(NULL, exit_seven, &saved, &pidfd);
	assert_int_equal(nsctl_child_supervise(pid, pidfd, 0, &wstatus), 0);
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

	assert_int_equal(nsctl_child_supervise(0, -1, 0, &wstatus), -EINVAL);
	assert_int_equal(nsctl_child_supervise(1, -1, 0, NULL), -EINVAL);
	assert_int_equal(nsctl_signals_block(NULL), -EINVAL);
	assert_int_equal(nsctl_signals_restore(NULL), -EINVAL);
}

/* A child step that waits to be killed. */
static int wait_to_be_killed(void *userdata)
{
	pause();
	return 0;
}

/* A middle process starts a grandchild (dying with its parent) and dies; the grandchild too. */
static void test_dies_with_parent(void **state)
{
	int wstatus;
	pid_t middle, grandchild;

	assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	middle = fork();
	assert_true(middle >= 0);
	if (middle == 0) {
		struct nsctl_spawn_attr *attr = NULL;

		if (nsctl_spawn_attr_new(&attr) < 0 ||
		    nsctl_spawn_attr_set_die_with_parent(attr, true) < 0 ||
		    nsctl_spawn_attr_set_child_step(attr, wait_to_be_killed, NULL) < 0 ||
		    nsctl_spawn(attr, NULL, NULL, NULL, NULL) < 0)
			_exit(1);
		_exit(0);
	}
	assert_int_equal(waitpid(middle, &wstatus, 0), middle);
	assert_true(WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0);
	/* The grandchild was reparented to us, the subreaper, and must be killed. */
	grandchild = waitpid(-1, &wstatus, 0);
	assert_true(grandchild > 0);
	assert_true(WIFSIGNALED(wstatus));
	assert_int_equal(WTERMSIG(wstatus), SIGKILL);
	prctl(PR_SET_CHILD_SUBREAPER, 0);
}

static struct nsctl_signals_state init_saved;

/* PID 1 of a new PID namespace: PROGRAM leaves an orphan, then dies of SIGUSR1. */
static int init_main(void *userdata)
{
	int wstatus = -1;
	pid_t program = fork();

	if (program == 0) {
		/* A child that ends unwaited for, then PROGRAM waits for its signal. */
		if (fork() == 0)
			_exit(0);
		nsctl_signals_restore(&init_saved);
		pause();
		_exit(1);
	}
	if (nsctl_child_supervise(program, -1, NSCTL_SUPERVISE_REAP_ALL, &wstatus) < 0)
		return 100;
	/* PROGRAM's unwaited child was reaped too: nothing left to wait for. */
	if (waitpid(-1, NULL, WNOHANG) > 0)
		return 101;
	return WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 102;
}

static void test_reap_all_as_init(void **state)
{
	struct nsctl_spawn_attr *attr = NULL;
	int wstatus = -1, outer;
	pid_t init;

	if (geteuid() != 0) {
		skip();
		return;
	}
	assert_int_equal(nsctl_signals_block(&init_saved), 0);
	assert_int_equal(nsctl_spawn_attr_new(&attr), 0);
	assert_int_equal(nsctl_spawn_attr_set_types(attr, NSCTL_TYPE_BIT(NSCTL_TYPE_PID)), 0);
	assert_int_equal(nsctl_spawn_attr_set_child_step(attr, init_main, NULL), 0);
	init = nsctl_spawn(attr, NULL, NULL, NULL, NULL);
	nsctl_spawn_attr_free(attr);
	assert_true(init > 0);
	usleep(50000);
	/* A signal to the init is passed on to PROGRAM. */
	kill(init, SIGUSR1);
	assert_int_equal(waitpid(init, &outer, 0), init);
	assert_int_equal(nsctl_signals_restore(&init_saved), 0);
	assert_true(WIFEXITED(outer));
	assert_int_equal(WEXITSTATUS(outer), SIGUSR1);
	assert_int_equal(nsctl_child_supervise(0, -1, NSCTL_SUPERVISE_REAP_ALL, &wstatus), -EINVAL);
	assert_int_equal(nsctl_child_supervise(1, -1, 0x80, &wstatus), -EINVAL);
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
		cmocka_unit_test(test_reap_all_as_init),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
