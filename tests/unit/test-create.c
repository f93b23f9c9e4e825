// SPDX-License-Identifier: LGPL-2.1-or-later
/* Unit tests of lib/create.c: cgroup v2 directories, and the one writer of cgroup.procs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "nsctl.h"

/* A child step that waits to be killed. */
static int wait_forever(void *userdata)
{
	pause();
	return 0;
}

/* A child that waits, started by nsctl_spawn(): its PID. */
static pid_t start_waiting_child(void)
{
	struct nsctl_spawn_attr *attr = NULL;
	pid_t pid;

	assert_int_equal(nsctl_spawn_attr_new(&attr), 0);
	assert_int_equal(nsctl_spawn_attr_set_die_with_parent(attr, true), 0);
	assert_int_equal(nsctl_spawn_attr_set_child_step(attr, wait_forever, NULL), 0);
	pid = nsctl_spawn(attr, NULL, NULL, NULL, NULL);
	nsctl_spawn_attr_free(attr);
	assert_true(pid > 0);
	return pid;
}

static void test_cgroup_open(void **state)
{
	assert_int_equal(nsctl_cgroup_open("/tmp"), -EMEDIUMTYPE);
	assert_int_equal(nsctl_cgroup_open("/nonexistent-nsctl"), -ENOENT);
	assert_int_equal(nsctl_cgroup_open("/etc/passwd"), -ENOTDIR);
	assert_int_equal(nsctl_cgroup_open(""), -EINVAL);
	assert_int_equal(nsctl_cgroup_attach(-1, 1), -EINVAL);
	assert_int_equal(nsctl_cgroup_attach(0, -1), -EINVAL);
}

/* The cgroup v2 mount, from /proc/self/mounts. */
static int cgroup2_root(char *buf, size_t size)
{
	FILE *f = fopen("/proc/self/mounts", "r");
	char dev[256], dir[256], type[64];
	int found = -1;

	if (!f)
		return -1;
	while (fscanf(f, "%255s %255s %63s %*[^\n]", dev, dir, type) == 3) {
		if (strcmp(type, "cgroup2") == 0) {
			snprintf(buf, size, "%s", dir);
			found = 0;
			break;
		}
	}
	fclose(f);
	return found;
}

static void test_cgroup_attach(void **state)
{
	char root[256], dir[512], path[64], line[600], want[600];
	int fd, wstatus;
	pid_t pid;
	FILE *f;

	if (geteuid() != 0 || cgroup2_root(root, sizeof(root)) < 0) {
		skip();
		return;
	}
	snprintf(dir, sizeof(dir), "%s/nsctl-unit-create-%d", root, (int)getpid());
	assert_int_equal(mkdir(dir, 0755), 0);
	fd = nsctl_cgroup_open(dir);
	assert_true(fd >= 0);
	pid = start_waiting_child();
	assert_int_equal(nsctl_cgroup_attach(fd, pid), 0);
	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)pid);
	f = fopen(path, "r");
	assert_non_null(f);
	line[0] = '\0';
	while (fgets(line, sizeof(line), f) && strncmp(line, "0::", 3) != 0)
		;
	fclose(f);
	snprintf(want, sizeof(want), "0::/nsctl-unit-create-%d\n", (int)getpid());
	kill(pid, SIGKILL);
	waitpid(pid, &wstatus, 0);
	close(fd);
	rmdir(dir);
	assert_string_equal(line, want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cgroup_open),
		cmocka_unit_test(test_cgroup_attach),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
