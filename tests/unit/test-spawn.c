// SPDX-License-Identifier: LGPL-2.1-or-later
/* Unit tests of lib/spawn.c: nsctl_spawn() and its attributes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "nsctl.h"

/* The number of fds the test process holds: nsctl_spawn() must leave it as it was. */
static int count_fds(void)
{
	DIR *dir = opendir("/proc/self/fd");
	struct dirent *entry;
	int n = 0;

	assert_non_null(dir);
	while ((entry = readdir(dir)))
		n += entry->d_name[0] != '.';
	closedir(dir);
	return n - 1;
}

/*
 * Whether this kernel (or its seccomp filter) gives pidfds at all: by
 * clone()'s CLONE_PIDFD (5.2; a harmless probe: EFAULT with no place for
 * it) or pidfd_open() (5.3).  Without both, nsctl_spawn()'s pidfd is -1.
 */
static int never_runs(void *unused)
{
	(void)unused;
	return 0;
}

static bool pidfds_expected(void)
{
	static char probe_stack[4096] __attribute__((aligned(16)));

	int fd = (int)syscall(SYS_pidfd_open, getpid(), 0);

	if (fd >= 0) {
		close(fd);
		return true;
	}
	return clone(never_runs, probe_stack + sizeof(probe_stack), CLONE_PIDFD | SIGCHLD, NULL,
		     NULL) < 0 &&
	       errno == EFAULT;
}

/* Spawn ARGV with ATTR, wait for it, and return its exit status (or -errno, with REPORT). */
static int spawn_and_wait(const struct nsctl_spawn_attr *attr, char **argv,
			  struct nsctl_spawn_report *report)
{
	int pidfd = -1, wstatus;
	pid_t pid = nsctl_spawn(attr, argv, NULL, &pidfd, report);

	if (pid < 0)
		return pid;
	assert_true(pidfd >= 0 || (pidfd == -1 && !pidfds_expected()));
	assert_int_equal(waitpid(pid, &wstatus, 0), pid);
	close(pidfd);
	assert_true(WIFEXITED(wstatus));
	return WEXITSTATUS(wstatus);
}

static struct nsctl_spawn_attr *new_attr(void)
{
	struct nsctl_spawn_attr *attr = NULL;

	assert_int_equal(nsctl_spawn_attr_new(&attr), 0);
	assert_non_null(attr);
	return attr;
}

static void test_attr_arguments(void **state)
{
	struct nsctl_spawn_attr *attr = new_attr();
	int fds[] = { 3, -1 };

	assert_int_equal(nsctl_spawn_attr_new(NULL), -EINVAL);
	assert_int_equal(nsctl_spawn_attr_set_types(NULL, 0), -EINVAL);
	assert_int_equal(nsctl_spawn_attr_set_types(attr, 1u << 30), -EINVAL);
	assert_int_equal(nsctl_spawn_attr_set_keep_fds(attr, fds, 2), -EBADF);
	assert_int_equal(nsctl_spawn_attr_set_keep_fds(attr, NULL, 1), -EINVAL);
	assert_int_equal(nsctl_spawn_attr_set_cgroup(attr, -2), -EINVAL);
	assert_int_equal(nsctl_spawn_attr_set_propagation(attr, (enum nsctl_propagation)9),
			 -EINVAL);
	assert_int_equal(nsctl_spawn_attr_set_uts_names(attr, "ok", ""), -EINVAL);
	assert_int_equal(
	    nsctl_spawn_attr_set_uts_names(
		attr, "a-name-of-65-bytes-is-one-more-than-the-kernel-takes-for-a-host-x", NULL),
	    -ENAMETOOLONG);
	assert_int_equal(nsctl_spawn(NULL, (char *[]){ "true", NULL }, NULL, NULL, NULL), -EINVAL);
	assert_int_equal(nsctl_spawn(attr, (char *[]){ NULL }, NULL, NULL, NULL), -EINVAL);
	nsctl_spawn_attr_free(attr);
	nsctl_spawn_attr_free(NULL);
}

static void test_status_and_no_leak(void **state)
{
	struct nsctl_spawn_attr *attr = new_attr();
	struct nsctl_spawn_report report = NSCTL_SPAWN_REPORT_INIT;
	int before = count_fds();

	assert_int_equal(spawn_and_wait(attr, (char *[]){ "sh", "-c", "exit 7", NULL }, &report),
			 7);
	assert_int_equal(report.step, NSCTL_SPAWN_STEP_NONE);
	assert_int_equal(nsctl_spawn_attr_set_die_with_parent(attr, true), 0);
	assert_int_equal(spawn_and_wait(attr, (char *[]){ "true", NULL }, NULL), 0);
	assert_int_equal(spawn_and_wait(attr, (char *[]){ "no-such-program-x", NULL }, &report),
			 -ENOENT);
	assert_int_equal(count_fds(), before);
	nsctl_spawn_attr_free(attr);
}

static void test_exec_failures(void **state)
{
	struct nsctl_spawn_attr *attr = new_attr();
	struct nsctl_spawn_report report = NSCTL_SPAWN_REPORT_INIT;
	char dir[] = "/tmp/test-spawn-XXXXXX", path[64];
	int fd;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/plain", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(spawn_and_wait(attr, (char *[]){ "no-such-program-x", NULL }, &report),
			 -ENOENT);
	assert_int_equal(report.step, NSCTL_SPAWN_STEP_EXEC);
	assert_int_equal(report.err, -ENOENT);
	assert_int_equal(spawn_and_wait(attr, (char *[]){ path, NULL }, &report), -EACCES);
	assert_int_equal(report.step, NSCTL_SPAWN_STEP_EXEC);
	assert_int_equal(spawn_and_wait(attr, (char *[]){ dir, NULL }, &report), -EACCES);
	unlink(path);
	rmdir(dir);
	nsctl_spawn_attr_free(attr);
}

/* 100,000 arguments to a script without "#!": the shell gets them all, none lost. */
static void test_many_arguments_to_script(void **state)
{
	struct nsctl_spawn_attr *attr = new_attr();
	enum { N = 100000 };
	char dir[] = "/tmp/test-spawn-XXXXXX", path[64];
	char **argv = calloc(N + 2, sizeof(char *));
	FILE *script;

	assert_non_null(argv);
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/script", dir);
	script = fopen(path, "we");
	assert_non_null(script);
	fputs("[ \"$#\" = 99999 ] || exit 3\nfor last; do :; done\n[ \"$last\" = last ] || exit "
	      "4\nexit 5\n",
	      script);
	fclose(script);
	assert_int_equal(chmod(path, 0755), 0);
	argv[0] = path;
	for (int i = 1; i < N - 1; i++)
		argv[i] = "x";
	argv[N - 1] = "last";
	assert_int_equal(spawn_and_wait(attr, argv, NULL), 5);
	unlink(path);
	rmdir(dir);
	free(argv);
	nsctl_spawn_attr_free(attr);
}

static void test_keep_fds(void **state)
{
	struct nsctl_spawn_attr *attr = new_attr();
	struct nsctl_spawn_report report = NSCTL_SPAWN_REPORT_INIT;
	int fd = open("/dev/null", O_RDONLY), closed;
	char script[128];

	assert_true(fd >= 3);
	snprintf(script, sizeof(script), "[ -e /proc/self/fd/%d ]", fd);
	/* Not close-on-exec, yet not handed on by default. */
	assert_int_equal(spawn_and_wait(attr, (char *[]){ "sh", "-c", script, NULL }, NULL), 1);
	assert_int_equal(nsctl_spawn_attr_set_keep_fds(attr, &fd, 1), 0);
	assert_int_equal(spawn_and_wait(attr, (char *[]){ "sh", "-c", script, NULL }, NULL), 0);
	/* Still close-on-exec-free in the caller: the child's table is its own. */
	assert_int_equal(fcntl(fd, F_GETFD), 0);
	assert_int_equal(nsctl_spawn_attr_set_keep_fds(attr, NULL, 0), 0);
	assert_int_equal(nsctl_spawn_attr_set_keep_all_fds(attr, true), 0);
	assert_int_equal(spawn_and_wait(attr, (char *[]){ "sh", "-c", script, NULL }, NULL), 0);
	/* More fds than the attributes hold in themselves, given twice (the duplicates go). */
	{
		int many[40];

		for (int i = 0; i < 20; i++) {
			many[i] = dup(fd);
			assert_true(many[i] >= 0);
			many[20 + i] = many[i];
		}
		snprintf(script, sizeof(script),
			 "[ -e /proc/self/fd/%d ] && [ -e /proc/self/fd/%d ]", many[0], many[19]);
		assert_int_equal(nsctl_spawn_attr_set_keep_all_fds(attr, false), 0);
		assert_int_equal(nsctl_spawn_attr_set_keep_fds(attr, many, 40), 0);
		assert_int_equal(spawn_and_wait(attr, (char *[]){ "sh", "-c", script, NULL }, NULL),
				 0);
		assert_int_equal(nsctl_spawn_attr_set_keep_fds(attr, many, 1), 0);
		assert_int_equal(spawn_and_wait(attr, (char *[]){ "sh", "-c", script, NULL }, NULL),
				 1);
		for (int i = 0; i < 20; i++)
			close(many[i]);
	}
	/* A kept fd that is not open is refused before anything starts. */
	closed = dup(fd);
	close(closed);
	assert_int_equal(nsctl_spawn_attr_set_keep_fds(attr, &closed, 1), 0);
	assert_int_equal(spawn_and_wait(attr, (char *[]){ "true", NULL }, &report), -EBADF);
	assert_int_equal(report.step, NSCTL_SPAWN_STEP_FDS);
	close(fd);
	nsctl_spawn_attr_free(attr);
}

/* The inode of /proc/PID/ns/NAME. */
static ino_t ns_ino(pid_t pid, const char *name)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d/ns/%s", (int)pid, name);
	assert_int_equal(stat(path, &st), 0);
	return st.st_ino;
}

/* A child in new namespaces (uts, and time: the clone3 start), with its hostname and mask. */
static void test_namespaces_and_signals(void **state)
{
	struct nsctl_spawn_attr *attr = new_attr();
	struct nsctl_signals_state saved;
	char status[4096];
	int pidfd = -1, fd;
	sigset_t usr1, before;
	bool with_time = true;
	ssize_t n;
	pid_t pid;

	if (geteuid() != 0)
		skip();
	assert_int_equal(nsctl_spawn_attr_set_types(attr, NSCTL_TYPE_BIT(NSCTL_TYPE_UTS)), 0);
	assert_int_equal(nsctl_spawn_attr_set_uts_names(attr, "spawn-test", NULL), 0);
	assert_int_equal(
	    spawn_and_wait(attr, (char *[]){ "sh", "-c", "[ \"$(uname -n)\" = spawn-test ]", NULL },
			   NULL),
	    0);
	assert_int_equal(nsctl_spawn_attr_set_uts_names(attr, NULL, NULL), 0);
	assert_int_equal(nsctl_spawn_attr_set_types(attr, NSCTL_TYPE_BIT(NSCTL_TYPE_UTS) |
							      NSCTL_TYPE_BIT(NSCTL_TYPE_TIME)),
			 0);
	/* The state saved is this process's: SIGUSR1 blocked, SIGCHLD default. */
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	assert_int_equal(sigprocmask(SIG_BLOCK, &usr1, &before), 0);
	assert_int_equal(nsctl_signals_block(&saved), 0);
	assert_int_equal(nsctl_signals_restore(&saved), 0);
	assert_int_equal(sigprocmask(SIG_SETMASK, &before, NULL), 0);
	assert_int_equal(nsctl_spawn_attr_set_signals(attr, &saved), 0);
	pid = nsctl_spawn(attr, (char *[]){ "sleep", "60", NULL }, NULL, &pidfd, NULL);
	/* A place that refuses a time namespace (EOPNOTSUPP): uts alone. */
	if (pid == -EOPNOTSUPP) {
		with_time = false;
		assert_int_equal(nsctl_spawn_attr_set_types(attr, NSCTL_TYPE_BIT(NSCTL_TYPE_UTS)),
				 0);
		pid = nsctl_spawn(attr, (char *[]){ "sleep", "60", NULL }, NULL, &pidfd, NULL);
	}
	assert_true(pid > 0);
	assert_int_not_equal(ns_ino(pid, "uts"), ns_ino(getpid(), "uts"));
	if (with_time)
		assert_int_not_equal(ns_ino(pid, "time"), ns_ino(getpid(), "time"));
	snprintf(status, sizeof(status), "/proc/%d/status", (int)pid);
	fd = open(status, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	n = read(fd, status, sizeof(status) - 1);
	close(fd);
	assert_true(n > 0);
	status[n] = '\0';
	/* SIGUSR1 (10) is bit 9: the mask asked for, and nothing else. */
	assert_non_null(strstr(status, "SigBlk:\t0000000000000200\n"));
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(pidfd);
	nsctl_spawn_attr_free(attr);
}

/* The cgroup v2 mount point, from /proc/self/mounts, into BUF; false without one. */
static bool cgroup2_mount(char *buf, size_t size)
{
	char line[512], dir[256], type[64];
	FILE *mounts = fopen("/proc/self/mounts", "re");
	bool found = false;

	assert_non_null(mounts);
	while (!found && fgets(line, sizeof(line), mounts))
		found =
		    sscanf(line, "%*s %255s %63s", dir, type) == 2 && strcmp(type, "cgroup2") == 0;
	fclose(mounts);
	if (found)
		snprintf(buf, size, "%s", dir);
	return found;
}

/* A child started in a cgroup (CLONE_INTO_CGROUP, through clone3: a copy). */
static void test_cgroup(void **state)
{
	struct nsctl_spawn_attr *attr = new_attr();
	char base[256], dir[384], path[64], text[8192];
	int cgroup_fd, pidfd = -1, fd;
	ssize_t n;
	pid_t pid;

	if (geteuid() != 0 || !cgroup2_mount(base, sizeof(base))) {
		nsctl_spawn_attr_free(attr);
		skip();
	}
	snprintf(dir, sizeof(dir), "%s/test-spawn-%d", base, (int)getpid());
	assert_int_equal(mkdir(dir, 0755), 0);
	cgroup_fd = nsctl_cgroup_open(dir);
	assert_true(cgroup_fd >= 0);
	assert_int_equal(nsctl_spawn_attr_set_cgroup(attr, cgroup_fd), 0);
	pid = nsctl_spawn(attr, (char *[]){ "sleep", "60", NULL }, NULL, &pidfd, NULL);
	/* Without clone3() (valgrind), a cgroup cannot be given at the start. */
	if (pid != -EOPNOTSUPP) {
		assert_true(pid > 0);
		snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)pid);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		assert_true(fd >= 0);
		/* The whole file: a host with many v1 hierarchies has many lines. */
		n = read(fd, text, sizeof(text) - 1);
		close(fd);
		/* The child first, so that a failed check below leaves nothing running. */
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		close(pidfd);
		assert_true(n > 0);
		text[n] = '\0';
		snprintf(path, sizeof(path), "/test-spawn-%d\n", (int)getpid());
		assert_non_null(strstr(text, path));
	}
	close(cgroup_fd);
	assert_int_equal(rmdir(dir), 0);
	nsctl_spawn_attr_free(attr);
}

/* What the parent step saw of the child, and what it answers. */
struct parent_step_check {
	unsigned long child_uts; /* the inode of the child's uts namespace, when it ran */
	int answer;
	int calls;
};

static int parent_step(pid_t pid, int pidfd, void *userdata)
{
	struct parent_step_check *check = userdata;

	check->calls++;
	check->child_uts = ns_ino(pid, "uts");
	assert_true(pidfd >= 0 || (pidfd == -1 && !pidfds_expected()));
	return check->answer;
}

/* The parent step runs with the child in its namespaces; its error stops the child. */
static void test_parent_step(void **state)
{
	struct nsctl_spawn_attr *attr = new_attr();
	struct parent_step_check check = { 0 };
	struct nsctl_spawn_report report = NSCTL_SPAWN_REPORT_INIT;
	int before;

	if (geteuid() != 0) {
		nsctl_spawn_attr_free(attr);
		skip();
	}
	assert_int_equal(nsctl_spawn_attr_set_types(attr, NSCTL_TYPE_BIT(NSCTL_TYPE_UTS)), 0);
	assert_int_equal(nsctl_spawn_attr_set_parent_step(attr, parent_step, &check), 0);
	assert_int_equal(nsctl_spawn_attr_set_uts_names(attr, "after-step", NULL), 0);
	assert_int_equal(
	    spawn_and_wait(attr, (char *[]){ "sh", "-c", "[ \"$(uname -n)\" = after-step ]", NULL },
			   &report),
	    0);
	assert_int_equal(check.calls, 1);
	assert_int_not_equal(check.child_uts, ns_ino(getpid(), "uts"));
	/* A failing step: its error, nothing run, the child reaped, no fd left open. */
	before = count_fds();
	check.answer = -EPERM;
	assert_int_equal(nsctl_spawn(attr, (char *[]){ "true", NULL }, NULL, NULL, &report),
			 -EPERM);
	assert_int_equal(report.step, NSCTL_SPAWN_STEP_PARENT);
	assert_int_equal(report.err, -EPERM);
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
	assert_int_equal(count_fds(), before);
	nsctl_spawn_attr_free(attr);
}

/* The offsets of a new time namespace, written by the parent step before the child enters. */
static int write_offsets(pid_t pid, int pidfd, void *userdata)
{
	return nsctl_time_offsets_write(pid, 86400, 0);
}

/* The link at PATH, into BUF (64 bytes). */
static void read_ns_link(const char *path, char *buf)
{
	ssize_t n = readlink(path, buf, 63);

	assert_true(n > 0);
	buf[n] = '\0';
}

/*
 * A new time namespace, PROGRAM in it and ours as it was (time_for_children
 * too, never changed): without a step (the child makes it, its exec moves it
 * in), the same where the kernel's release is before 6.0 (the child is a copy
 * that enters it: UNAME26 makes uname() say 2.6), and with a parent step that
 * writes its offsets before the child enters it.
 */
static void test_time_namespace(void **state)
{
	int persona = personality(0xffffffff);

	struct nsctl_spawn_attr *attr = new_attr();
	char own[64], children[64];
	char *in_it[] = { "sh",
			  "-c",
			  "[ \"$(readlink /proc/self/ns/time)\" != \"$0\" ] && "
			  "[ \"$(readlink /proc/self/ns/time)\" = "
			  "\"$(readlink /proc/self/ns/time_for_children)\" ] && "
			  "grep -q \"^monotonic  *$1 \" /proc/self/timens_offsets",
			  own,
			  "0",
			  NULL };

	if (geteuid() != 0) {
		nsctl_spawn_attr_free(attr);
		skip();
	}
	read_ns_link("/proc/self/ns/time", own);
	assert_int_equal(nsctl_spawn_attr_set_types(attr, NSCTL_TYPE_BIT(NSCTL_TYPE_TIME)), 0);
	assert_int_equal(spawn_and_wait(attr, in_it, NULL), 0);
	read_ns_link("/proc/thread-self/ns/time_for_children", children);
	assert_string_equal(children, own);
	assert_true(persona >= 0);
	assert_true(personality((unsigned long)persona | UNAME26) >= 0);
	assert_int_equal(spawn_and_wait(attr, in_it, NULL), 0);
	assert_true(personality((unsigned long)persona) >= 0);
	read_ns_link("/proc/thread-self/ns/time_for_children", children);
	assert_string_equal(children, own);
	assert_int_equal(nsctl_spawn_attr_set_parent_step(attr, write_offsets, NULL), 0);
	in_it[4] = "86400";
	assert_int_equal(spawn_and_wait(attr, in_it, NULL), 0);
	nsctl_spawn_attr_free(attr);
}

static int child_step(void *userdata)
{
	sigset_t mask;

	/* The caller's mask, as it was at nsctl_spawn(): SIGUSR2 blocked. */
	if (sigprocmask(SIG_BLOCK, NULL, &mask) < 0 || sigismember(&mask, SIGUSR2) != 1)
		return 2;
	return *(const int *)userdata;
}

/* A child step in place of the exec: no ARGV, its return is the child's status. */
static void test_child_step(void **state)
{
	struct nsctl_spawn_attr *attr = new_attr();
	sigset_t usr2, old;
	int status = 42, wstatus, before = count_fds();
	pid_t pid;

	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	assert_int_equal(sigprocmask(SIG_BLOCK, &usr2, &old), 0);
	assert_int_equal(nsctl_spawn_attr_set_child_step(attr, child_step, &status), 0);
	assert_int_equal(nsctl_spawn_attr_set_die_with_parent(attr, true), 0);
	pid = nsctl_spawn(attr, NULL, NULL, NULL, NULL);
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &wstatus, 0), pid);
	assert_true(WIFEXITED(wstatus));
	assert_int_equal(WEXITSTATUS(wstatus), 42);
	assert_int_equal(count_fds(), before);
	assert_int_equal(sigprocmask(SIG_SETMASK, &old, NULL), 0);
	/* Without a child step, ARGV is needed. */
	assert_int_equal(nsctl_spawn_attr_set_child_step(attr, NULL, NULL), 0);
	assert_int_equal(nsctl_spawn(attr, NULL, NULL, NULL, NULL), -EINVAL);
	nsctl_spawn_attr_free(attr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attr_arguments),
		cmocka_unit_test(test_status_and_no_leak),
		cmocka_unit_test(test_exec_failures),
		cmocka_unit_test(test_many_arguments_to_script),
		cmocka_unit_test(test_keep_fds),
		cmocka_unit_test(test_namespaces_and_signals),
		cmocka_unit_test(test_cgroup),
		cmocka_unit_test(test_parent_step),
		cmocka_unit_test(test_time_namespace),
		cmocka_unit_test(test_child_step),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
