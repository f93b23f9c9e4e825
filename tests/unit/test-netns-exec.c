// SPDX-License-Identifier: LGPL-2.1-or-later
/* Unit tests of lib/netns-exec.c: /sys of the joined network namespace, in a child (as root). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "nsctl.h"

/* In a new network namespace, only lo exists: /sys/class/net must say so. */
static int child(void)
{
	DIR *dir;
	struct dirent *entry;
	int n = 0;

	if (unshare(CLONE_NEWNET) < 0)
		return 2;
	if (nsctl_net_exec_setup(NULL) < 0)
		return 3;
	dir = opendir("/sys/class/net");
	if (!dir)
		return 4;
	while ((entry = readdir(dir)))
		if (entry->d_name[0] != '.')
			n += strcmp(entry->d_name, "lo") == 0 ? 1 : 100;
	closedir(dir);
	return n == 1 ? 0 : 5;
}

static void test_sysfs_of_the_joined_namespace(void **state)
{
	int wstatus;
	pid_t pid;

	(void)state;
	if (geteuid() != 0)
		skip();
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(child());
	assert_int_equal(waitpid(pid, &wstatus, 0), pid);
	assert_true(WIFEXITED(wstatus));
	assert_int_equal(WEXITSTATUS(wstatus), 0);
}

static void test_bad_names(void **state)
{
	(void)state;
	/* Refused before anything is unshared. */
	assert_int_equal(nsctl_net_exec_setup(""), -EINVAL);
	assert_int_equal(nsctl_net_exec_setup("a/b"), -EINVAL);
	assert_int_equal(nsctl_net_exec_setup(".."), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sysfs_of_the_joined_namespace),
		cmocka_unit_test(test_bad_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
