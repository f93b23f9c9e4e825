// SPDX-License-Identifier: LGPL-2.1-or-later
/* Unit tests of lib/create.c: clone into namespaces and a cgroup, and the init's reaping. */
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

static ino_t ns_inode(pid_t pid, const char *name)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d/ns/%s", (int)pid, name);
	if (stat(path, &st) < 0)
		return 0;
	return st.st_ino;
}

static void test_clone_new_uts(void **state)
{
	int pidfd = -1, go[2], wstatus;
	pid_t pid;
	char c;

	if (geteuid() != 0) {
		skip();
		return;
	}
	assert_int_equal(pipe(go), 0);
	pid = nsctl_clone(CLONE_NEWUTS | CLONE_NEWIPC, -1, &pidfd);
	assert_true(pid >= 0);
	if (pid == 0) {
		close(go[1]);
		_exit(read(go[0], &c, 1) == 1 ? 5 : 6);
	}
	close(go[0]);
	assert_true(pidfd >= 0);
	assert_int_not_equal(ns_inode(pid, "uts"), ns_inode(getpid(), "uts"));
	assert_int_not_equal(ns_inode(pid, "ipc"), ns_inode(getpid(), "ipc"));
	assert_int_equal(ns_inode(pid, "net"), ns_inode(getpid(), "net"));
	assert_int_equal(write(go[1], "g", 1), 1);
	assert_int_equal(waitpid(pid, &wstatus, 0), pid);
	assert_true(WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 5);
	close(go[1]);
	close(pidfd);
}

static void test_clone_bad_flags(void **state)
{
	int pidfd = 42;

	assert_int_equal(nsctl_clone(CLONE_VM, -1, &pidfd), -EINVAL);
	assert_int_equal(nsctl_clone(CLONE_NEWUTS | CLONE_THREAD, -1, &pidfd), -EINVAL);
	assert_int_equal(pidfd, 42);
}

static void test_cgroup_open(void **state)
{
	assert_int_equal(nsctl_cgroup_open("/tmp"), -EMEDIUMTYPE);
	assert_int_equal(nsctl_cgroup_open("/nonexistent-nsctl"), -ENOENT);
	assert_int_equal(nsctl_cgroup_open("/etc/passwd"), -ENOTDIR);
	assert_int_equal(nsctl_cgroup_open(""), -EINVAL);
	assert_int_equal(nsctl_cgroup_attach(-1, 1), -EINVAL);
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

static void test_clone_into_cgroup(void **state)
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
	pid = nsctl_clone(0, fd, NULL);
	assert_true(pid >= 0);
	if (pid == 0) {
		pause();
		_exit(0);
	}
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

static void test_reap_as_init(void **state)
{
	struct nsctl_signal_state saved;
	int wstatus = -1, outer;
	pid_t init;

	if (geteuid() != 0) {
		skip();
		return;
	}
	assert_int_equal(nsctl_signals_block(&saved), 0);
	init = nsctl_clone(CLONE_NEWPID, -1, NULL);
	assert_true(init >= 0);
	if (init == 0) {
		pid_t program = fork();

		if (program == 0) {
			/* A child that ends unwaited for, then PROGRAM dies of SIGUSR1. */
			if (fork() == 0)
				_exit(0);
			nsctl_signals_restore(&saved);
			pause();
			_exit(1);
		}
		if (nsctl_reap_as_init(program, &wstatus) < 0)
			_exit(100);
		/* PROGRAM's unwaited child was reaped too: nothing left to wait for. */
		while (waitpid(-1, NULL, WNOHANG) > 0)
			_exit(101);
		_exit(WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 102);
	}
	usleep(50000);
	/* A signal to the init is passed on to PROGRAM. */
	kill(init, SIGUSR1);
	assert_int_equal(waitpid(init, &outer, 0), init);
	assert_int_equal(nsctl_signals_restore(&saved), 0);
	assert_true(WIFEXITED(outer));
	assert_int_equal(WEXITSTATUS(outer), SIGUSR1);
	assert_int_equal(nsctl_reap_as_init(0, &wstatus), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clone_new_uts), cmocka_unit_test(test_clone_bad_flags),
		cmocka_unit_test(test_cgroup_open),   cmocka_unit_test(test_clone_into_cgroup),
		cmocka_unit_test(test_reap_as_init),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
