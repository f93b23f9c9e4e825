// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Unit tests of the library's "the caller's namespaces" in a threaded caller:
 * setns() moves only the calling thread, so a worker thread that joins with
 * NSCTL_JOIN_DIFFERENT must be compared with its own namespaces, not the main
 * thread's, with /proc and (through a pidfd on the thread) without it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "nsctl.h"
#include "type-count.h"

#define UTS_NET (NSCTL_TYPE_BIT(NSCTL_TYPE_UTS) | NSCTL_TYPE_BIT(NSCTL_TYPE_NET))

/*
 * /proc, opened before any test may unmount it: a detached mount stays
 * reachable through an fd, so the checks read the kernel's answer either way.
 */
static int proc_fd = -1;
static pid_t target = -1;
static char target_hostname[64];

/* The ns link text of TYPE for WHO ("thread-self", "self" or a PID), or "" if unreadable. */
static void ns_link(const char *who, const char *type, char *buf, size_t size)
{
	char path[64];
	ssize_t n;

	snprintf(path, sizeof(path), "%s/ns/%s", who, type);
	n = readlinkat(proc_fd, path, buf, size - 1);
	buf[n < 0 ? 0 : n] = '\0';
}

/* A first failed check: its line, so that a forked runner can say it too. */
#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "test-threads.c:%d: %s\n", __LINE__, #cond);               \
			return __LINE__;                                                           \
		}                                                                                  \
	} while (0)

struct worker {
	pid_t home; /* a process in the namespaces the test started in */
	int failed_line;
};

static int same_as(const char *who_a, const char *who_b, const char *type)
{
	char a[64], b[64];

	ns_link(who_a, type, a, sizeof(a));
	ns_link(who_b, type, b, sizeof(b));
	return a[0] && strcmp(a, b) == 0;
}

static int worker_steps(struct worker *w)
{
	struct nsctl_join_report report = NSCTL_JOIN_REPORT_INIT;
	struct nsctl_process *there = NULL, *home = NULL;
	char target_text[16], home_text[16], name[64];
	struct nsctl_ns_set *set = NULL;
	unsigned differ = 0;

	snprintf(target_text, sizeof(target_text), "%d", (int)target);
	snprintf(home_text, sizeof(home_text), "%d", (int)w->home);
	CHECK(nsctl_process_open(target, &there) == 0);
	CHECK(nsctl_process_open(w->home, &home) == 0);

	/* Into the target's namespaces: only this thread moves. */
	CHECK(nsctl_process_join(there, UTS_NET, NSCTL_JOIN_DIFFERENT, &report) == 0);
	CHECK(report.joined == UTS_NET);
	CHECK(same_as("thread-self", target_text, "uts"));
	CHECK(same_as("thread-self", target_text, "net"));
	CHECK(!same_as("self", "thread-self", "uts"));
	CHECK(gethostname(name, sizeof(name)) == 0 && strcmp(name, target_hostname) == 0);

	/* There already: nothing differs, nothing is joined. */
	CHECK(nsctl_process_ns_differ(there, UTS_NET, &differ) == 0);
	CHECK(differ == 0);
	CHECK(nsctl_process_join(there, UTS_NET, NSCTL_JOIN_DIFFERENT, &report) == 0);
	CHECK(report.joined == 0);
	CHECK(nsctl_ns_set_new(&set) == 0);
	CHECK(nsctl_ns_set_add_process(set, there, UTS_NET, NSCTL_JOIN_DIFFERENT, NULL) == 0);
	CHECK(nsctl_ns_set_types(set) == 0);
	nsctl_ns_set_free(set);

	/* Back to where the main thread stayed: those differ from this thread's now. */
	CHECK(nsctl_process_ns_differ(home, UTS_NET, &differ) == 0);
	CHECK(differ == UTS_NET);
	CHECK(nsctl_process_join(home, UTS_NET, NSCTL_JOIN_DIFFERENT, &report) == 0);
	CHECK(report.joined == UTS_NET);
	CHECK(same_as("thread-self", home_text, "uts"));
	CHECK(same_as("thread-self", home_text, "net"));
	CHECK(gethostname(name, sizeof(name)) == 0 && strcmp(name, target_hostname) != 0);

	nsctl_process_free(there);
	nsctl_process_free(home);
	return 0;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	w->failed_line = worker_steps(w);
	return NULL;
}

/* A worker thread joins and comes back; the main thread never moves. 0, or a failed line. */
static int scenario(pid_t home)
{
	struct worker w = { .home = home };
	char uts_before[64], net_before[64], uts_after[64], net_after[64];
	pthread_t thread;

	ns_link("self", "uts", uts_before, sizeof(uts_before));
	ns_link("self", "net", net_before, sizeof(net_before));
	CHECK(uts_before[0] && net_before[0]);
	CHECK(pthread_create(&thread, NULL, worker_main, &w) == 0);
	CHECK(pthread_join(thread, NULL) == 0);
	if (w.failed_line)
		return w.failed_line;
	ns_link("self", "uts", uts_after, sizeof(uts_after));
	ns_link("self", "net", net_after, sizeof(net_after));
	CHECK(strcmp(uts_before, uts_after) == 0);
	CHECK(strcmp(net_before, net_after) == 0);
	return 0;
}

static void test_worker_thread_joins_alone(void **state)
{
	(void)state;
	assert_int_equal(scenario(getpid()), 0);
}

/*
 * The same where the caller's mount namespace has no /proc: the library then
 * asks through a pidfd on the calling thread (PIDFD_THREAD, Linux 6.9; its
 * namespace ioctls, 6.11).  In a child, which unmounts /proc privately.
 */
static void test_worker_thread_joins_alone_without_proc(void **state)
{
	int wstatus;
	pid_t pid;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct stat st;

		/* In a chroot "/" is no mount root (EINVAL): /proc is one. */
		if (unshare(CLONE_NEWNS) < 0 ||
		    (mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) < 0 &&
		     mount("none", "/proc", "none", MS_REC | MS_PRIVATE, NULL) < 0) ||
		    mount("none", "/proc", "tmpfs", 0, NULL) < 0)
			_exit(2);
		/* Nothing of /proc is left to fall back on. */
		if (stat("/proc/thread-self", &st) == 0 || stat("/proc/self", &st) == 0)
			_exit(3);
		_exit(scenario(getpid()) ? 1 : 0);
	}
	assert_int_equal(waitpid(pid, &wstatus, 0), pid);
	assert_true(WIFEXITED(wstatus));
	assert_int_equal(WEXITSTATUS(wstatus), 0);
}

/*
 * A thread with an fd table of its own (unshare(CLONE_FILES)): the fds the
 * library opens are in that table, and /proc/self/fd, the main thread's,
 * does not have them.  nsctl_ns_open_path() reopens its O_PATH fd by its link.
 */
static void *own_fd_table_main(void *arg)
{
	int *result = arg;
	enum nsctl_type type = TYPE_COUNT;
	int fd;

	if (unshare(CLONE_FILES) < 0) {
		*result = -errno;
		return NULL;
	}
	fd = nsctl_ns_open_path("/proc/thread-self/ns/uts", -1, &type);
	*result = fd < 0 ? fd : type == NSCTL_TYPE_UTS ? 0 : -EMEDIUMTYPE;
	if (fd >= 0)
		close(fd);
	return NULL;
}

static void test_worker_thread_own_fd_table(void **state)
{
	pthread_t thread;
	int result = 1;

	(void)state;
	assert_int_equal(pthread_create(&thread, NULL, own_fd_table_main, &result), 0);
	assert_int_equal(pthread_join(thread, NULL), 0);
	assert_int_equal(result, 0);
}

/* The target: a child in new uts and net namespaces, with a hostname of its own. */
static int setup(void **state)
{
	int fds[2];
	char ready;

	(void)state;
	proc_fd = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (proc_fd < 0 || pipe2(fds, O_CLOEXEC) < 0)
		return -1;
	snprintf(target_hostname, sizeof(target_hostname), "nsctl-threads-%d", (int)getpid());
	target = fork();
	if (target < 0)
		return -1;
	if (target == 0) {
		close(fds[0]);
		if (unshare(CLONE_NEWUTS | CLONE_NEWNET) < 0 ||
		    sethostname(target_hostname, strlen(target_hostname)) < 0)
			_exit(1);
		if (write(fds[1], "r", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(fds[1]);
	if (read(fds[0], &ready, 1) != 1) {
		close(fds[0]);
		return -1;
	}
	close(fds[0]);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	if (target > 0) {
		kill(target, SIGKILL);
		waitpid(target, NULL, 0);
	}
	if (proc_fd >= 0)
		close(proc_fd);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_worker_thread_joins_alone),
		cmocka_unit_test(test_worker_thread_joins_alone_without_proc),
		cmocka_unit_test(test_worker_thread_own_fd_table),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
