// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * nsctl_spawn() into a new time namespace, where the caller's own
 * time_for_children cannot be set back after the start (a thread of the
 * caller's started meanwhile, which the kernel refuses it for): the failure
 * is reported, and the child the call made is gone.  Linked with
 * -Wl,--wrap=setns, so that the setns() back fails as it would then.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "nsctl.h"

int __real_setns(int fd, int nstype);
int __wrap_setns(int fd, int nstype);

/*
 * The time setns() calls counted; the one numbered FAIL_CALL fails with
 * EINVAL.  nsctl_spawn() makes two: the first asks whether it can go back
 * (lib/spawn.c, time_for_children_new), the second goes back.
 */
static int time_calls, fail_call;

int __wrap_setns(int fd, int nstype)
{
	if (nstype == CLONE_NEWTIME && ++time_calls == fail_call) {
		errno = EINVAL;
		return -1;
	}
	return __real_setns(fd, nstype);
}

static void test_restore_fails(void **state)
{
	struct nsctl_spawn_attr *attr = NULL;
	struct nsctl_spawn_report report = NSCTL_SPAWN_REPORT_INIT;
	char *argv[] = { "sleep", "600", NULL };
	char before[64] = "", after[64] = "";
	int pidfd = -1;
	pid_t pid;

	(void)state;
	if (geteuid() != 0)
		skip();
	assert_true(readlink("/proc/thread-self/ns/time_for_children", before, sizeof(before) - 1) >
		    0);
	assert_int_equal(nsctl_spawn_attr_new(&attr), 0);
	assert_int_equal(nsctl_spawn_attr_set_types(attr, NSCTL_TYPE_BIT(NSCTL_TYPE_TIME)), 0);
	time_calls = 0;
	fail_call = 2;
	pid = nsctl_spawn(attr, argv, NULL, &pidfd, &report);
	nsctl_spawn_attr_free(attr);
	assert_int_equal(time_calls, 2);
	assert_int_equal(pid, -EINVAL);
	assert_int_equal(pidfd, -1);
	assert_int_equal(report.step, NSCTL_SPAWN_STEP_TIME_RESTORE);
	assert_int_equal(report.err, -EINVAL);
	/* The child it made is gone: killed and reaped, none to wait for. */
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
	/* And the caller's time_for_children is the new one, as the report says. */
	assert_true(readlink("/proc/thread-self/ns/time_for_children", after, sizeof(after) - 1) >
		    0);
	assert_string_not_equal(before, after);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_restore_fails),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
