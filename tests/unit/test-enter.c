// SPDX-License-Identifier: LGPL-2.1-or-later
/* Unit tests of lib/enter.c and lib/target.c: the join order, sets of fds, real joins in children.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "internal.h"

#define BIT(t) NSCTL_TYPE_BIT(NSCTL_TYPE_##t)

/* A pretend kernel for join_in_order(): it records the calls and refuses as told. */
struct fake {
	enum nsctl_type calls[32];
	size_t n_calls;
	unsigned eperm_until_user; /* types refused with EPERM until user is joined */
	unsigned fail;             /* types refused with EINVAL, always */
	unsigned eperm_always;     /* types refused with EPERM, always */
	unsigned skip;             /* types skipped (the caller's own user namespace) */
	bool user_joined;
};

static int fake_join(enum nsctl_type type, void *userdata)
{
	struct fake *f = userdata;

	f->calls[f->n_calls++] = type;
	if (f->fail & NSCTL_TYPE_BIT(type))
		return -EINVAL;
	if (f->eperm_always & NSCTL_TYPE_BIT(type))
		return -EPERM;
	if ((f->eperm_until_user & NSCTL_TYPE_BIT(type)) && !f->user_joined)
		return -EPERM;
	if (f->skip & NSCTL_TYPE_BIT(type))
		return 0;
	if (type == NSCTL_TYPE_USER)
		f->user_joined = true;
	return 1;
}

static void assert_calls(const struct fake *f, const enum nsctl_type *want, size_t n)
{
	assert_int_equal(f->n_calls, n);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(f->calls[i], want[i]);
}

static void test_order_privileged_user_last(void **state)
{
	enum nsctl_type order[TYPE_COUNT];
	size_t n = join_order(TYPES_ALL, false, order);

	assert_int_equal(n, TYPE_COUNT);
	assert_int_equal(order[n - 1], NSCTL_TYPE_USER);
	for (size_t i = 1; i + 1 < n; i++)
		assert_true(order[i - 1] < order[i]);
}

static void test_order_unprivileged_user_first(void **state)
{
	enum nsctl_type order[TYPE_COUNT];
	size_t n = join_order(BIT(USER) | BIT(UTS) | BIT(NET), true, order);

	assert_int_equal(n, 3);
	assert_int_equal(order[0], NSCTL_TYPE_USER);
	assert_int_equal(order[1], NSCTL_TYPE_NET);
	assert_int_equal(order[2], NSCTL_TYPE_UTS);
}

static void test_order_without_user_and_empty(void **state)
{
	enum nsctl_type order[TYPE_COUNT];

	assert_int_equal(join_order(BIT(MNT) | BIT(PID), true, order), 2);
	assert_int_equal(order[0], NSCTL_TYPE_MNT);
	assert_int_equal(order[1], NSCTL_TYPE_PID);
	assert_int_equal(join_order(0, false, order), 0);
	assert_int_equal(join_order(0, true, order), 0);
}

/*
 * A report as nsctl_process_join() starts it, for join_in_order() called
 * alone.  (Out of clang-format's hands: versions 14 and 19 lay it out
 * differently.)
 */
/* clang-format off */
#define REPORT_BEGUN { .size = sizeof(struct nsctl_join_report), .failed_type = -1 }
/* clang-format on */

static void test_in_order_all_succeed(void **state)
{
	struct fake f = { 0 };
	struct nsctl_join_report report = REPORT_BEGUN;
	const enum nsctl_type want[] = { NSCTL_TYPE_NET, NSCTL_TYPE_UTS, NSCTL_TYPE_USER };

	assert_int_equal(
	    join_in_order(BIT(USER) | BIT(UTS) | BIT(NET), false, fake_join, &f, &report), 0);
	assert_calls(&f, want, 3);
	assert_int_equal(report.joined, BIT(USER) | BIT(UTS) | BIT(NET));
	assert_int_equal(report.failed_type, -1);
}

static void test_in_order_eperm_retried_after_user(void **state)
{
	/* A privileged caller whose target's net namespace only its user namespace opens. */
	struct fake f = { .eperm_until_user = BIT(NET) };
	struct nsctl_join_report report = REPORT_BEGUN;
	const enum nsctl_type want[] = { NSCTL_TYPE_IPC, NSCTL_TYPE_NET, NSCTL_TYPE_UTS,
					 NSCTL_TYPE_USER, NSCTL_TYPE_NET };

	assert_int_equal(join_in_order(BIT(USER) | BIT(UTS) | BIT(NET) | BIT(IPC), false, fake_join,
				       &f, &report),
			 0);
	assert_calls(&f, want, ELEMENTSOF(want));
	assert_int_equal(report.joined, BIT(USER) | BIT(UTS) | BIT(NET) | BIT(IPC));
}

static void test_in_order_unprivileged(void **state)
{
	/* An unprivileged caller: nothing works before the user namespace, everything after. */
	struct fake f = { .eperm_until_user = TYPES_ALL & ~BIT(USER) };
	struct nsctl_join_report report = REPORT_BEGUN;
	const enum nsctl_type want[] = { NSCTL_TYPE_USER, NSCTL_TYPE_MNT, NSCTL_TYPE_UTS };

	assert_int_equal(
	    join_in_order(BIT(USER) | BIT(UTS) | BIT(MNT), true, fake_join, &f, &report), 0);
	assert_calls(&f, want, 3);
	assert_int_equal(report.joined, BIT(USER) | BIT(UTS) | BIT(MNT));
}

static void test_in_order_eperm_without_user_fails(void **state)
{
	struct fake f = { .eperm_until_user = BIT(UTS) };
	struct nsctl_join_report report = REPORT_BEGUN;

	assert_int_equal(join_in_order(BIT(NET) | BIT(UTS), false, fake_join, &f, &report), -EPERM);
	assert_int_equal(report.failed_type, NSCTL_TYPE_UTS);
	assert_string_equal(report.failed_call, "setns");
	assert_int_equal(report.joined, BIT(NET));
}

static void test_in_order_failure_names_the_type(void **state)
{
	struct fake f = { .fail = BIT(MNT) };
	struct nsctl_join_report report = REPORT_BEGUN;

	assert_int_equal(join_in_order(BIT(IPC) | BIT(MNT) | BIT(UTS) | BIT(USER), false, fake_join,
				       &f, &report),
			 -EINVAL);
	assert_int_equal(report.failed_type, NSCTL_TYPE_MNT);
	assert_int_equal(report.joined, BIT(IPC));
	assert_int_equal(f.n_calls, 2);
}

static void test_in_order_deferred_still_refused(void **state)
{
	/* Refused before and after the user namespace: the error names it, user stays joined. */
	struct fake f = { .eperm_always = BIT(NET) };
	struct nsctl_join_report report = REPORT_BEGUN;
	const enum nsctl_type want[] = { NSCTL_TYPE_NET, NSCTL_TYPE_USER, NSCTL_TYPE_NET };

	assert_int_equal(join_in_order(BIT(NET) | BIT(USER), false, fake_join, &f, &report),
			 -EPERM);
	assert_calls(&f, want, 3);
	assert_int_equal(report.failed_type, NSCTL_TYPE_NET);
	assert_int_equal(report.joined, BIT(USER));

	/* User first, then a refusal: no retry, the user namespace stays joined. */
	f = (struct fake){ .fail = BIT(NET) };
	report = (struct nsctl_join_report)REPORT_BEGUN;
	assert_int_equal(join_in_order(BIT(NET) | BIT(USER), true, fake_join, &f, &report),
			 -EINVAL);
	assert_int_equal(f.n_calls, 2);
	assert_int_equal(report.failed_type, NSCTL_TYPE_NET);
	assert_int_equal(report.joined, BIT(USER));
}

static void test_in_order_own_user_skipped(void **state)
{
	/* The caller's own user namespace is skipped; what waited for it is still tried. */
	struct fake f = { .skip = BIT(USER), .eperm_until_user = BIT(UTS) };
	struct nsctl_join_report report = REPORT_BEGUN;
	const enum nsctl_type want[] = { NSCTL_TYPE_UTS, NSCTL_TYPE_USER, NSCTL_TYPE_UTS };

	assert_int_equal(join_in_order(BIT(UTS) | BIT(USER), false, fake_join, &f, &report),
			 -EPERM);
	assert_calls(&f, want, 3);
	assert_int_equal(report.failed_type, NSCTL_TYPE_UTS);
	assert_int_equal(report.joined, 0);

	f = (struct fake){ .skip = BIT(USER) };
	report = (struct nsctl_join_report)REPORT_BEGUN;
	assert_int_equal(join_in_order(BIT(UTS) | BIT(USER), true, fake_join, &f, &report), 0);
	assert_int_equal(report.joined, BIT(UTS));
}

static void test_set_add_and_free(void **state)
{
	struct nsctl_ns_set *set = NULL;
	int fd, null_fd, taken;

	assert_int_equal(nsctl_ns_set_new(&set), 0);
	assert_non_null(set);
	assert_int_equal(nsctl_ns_set_types(set), 0);
	assert_int_equal(nsctl_ns_set_add_path(set, "/proc/self/ns/uts", -1), NSCTL_TYPE_UTS);
	assert_int_equal(nsctl_ns_set_add_path(set, "/proc/self/ns/uts", -1), -EEXIST);
	assert_int_equal(nsctl_ns_set_add_path(set, "/proc/self/ns/net", NSCTL_TYPE_IPC),
			 -EMEDIUMTYPE);
	assert_int_equal(nsctl_ns_set_add_path(set, "/dev/null", -1), -ENOTTY);
	assert_int_equal(nsctl_ns_set_add_path(set, "/nonexistent", -1), -ENOENT);
	fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(nsctl_ns_set_add_fd(set, fd), NSCTL_TYPE_NET);
	assert_int_equal(nsctl_ns_set_types(set), BIT(UTS) | BIT(NET));
	null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	assert_int_equal(nsctl_ns_set_add_fd(set, null_fd), -ENOTTY);
	close(null_fd);
	assert_int_equal(nsctl_ns_set_add_fd(set, -1), -EBADF);

	/* Taken out, the fd is the caller's: the set no longer has that type. */
	taken = nsctl_ns_set_take(set, NSCTL_TYPE_UTS);
	assert_true(taken >= 0);
	assert_int_equal(nsctl_ns_set_types(set), BIT(NET));
	assert_int_equal(nsctl_ns_set_take(set, NSCTL_TYPE_UTS), -ENOENT);
	assert_int_equal(nsctl_ns_set_take(set, TYPE_COUNT), -EINVAL);
	assert_int_equal(nsctl_ns_set_add_fd(set, taken), NSCTL_TYPE_UTS);

	/* The set owned its fds and closed them. */
	nsctl_ns_set_free(set);
	assert_int_equal(fcntl(fd, F_GETFD), -1);
	assert_int_equal(fcntl(taken, F_GETFD), -1);
	nsctl_ns_set_free(NULL);
	assert_int_equal(nsctl_ns_set_new(NULL), -EINVAL);
	assert_int_equal(nsctl_ns_set_types(NULL), 0);
	assert_int_equal(nsctl_ns_set_add_fd(NULL, 0), -EINVAL);
	assert_int_equal(nsctl_ns_set_take(NULL, NSCTL_TYPE_NET), -EINVAL);
	assert_int_equal(nsctl_ns_set_join(NULL, NULL), -EINVAL);
	assert_int_equal(nsctl_process_join(NULL, BIT(NET), 0, NULL), -EINVAL);
}

/* A flag bit the library does not define is refused, never ignored. */
static void test_unknown_flags(void **state)
{
	struct nsctl_process *self = NULL;
	struct nsctl_ns_set *set = NULL;
	struct nsctl_join_report report = NSCTL_JOIN_REPORT_INIT;

	assert_int_equal(nsctl_process_open(getpid(), &self), 0);
	assert_int_equal(nsctl_ns_set_new(&set), 0);
	assert_int_equal(nsctl_process_join(self, BIT(UTS), 1u << 7, &report), -EINVAL);
	assert_int_equal(report.joined, 0);
	/* One by one means nothing to adding files to a set. */
	assert_int_equal(nsctl_ns_set_add_process(set, self, BIT(UTS), NSCTL_JOIN_ONE_BY_ONE, NULL),
			 -EINVAL);
	assert_int_equal(nsctl_ns_set_add_process(set, self, BIT(UTS), 1u << 7, NULL), -EINVAL);
	assert_int_equal(nsctl_ns_set_types(set), 0);
	/* The known flags still work: the caller's own namespaces differ in nothing. */
	assert_int_equal(nsctl_ns_set_add_process(set, self, BIT(UTS), NSCTL_JOIN_DIFFERENT, NULL),
			 0);
	assert_int_equal(nsctl_ns_set_types(set), 0);
	assert_int_equal(nsctl_process_join(self, BIT(UTS),
					    NSCTL_JOIN_DIFFERENT | NSCTL_JOIN_ONE_BY_ONE, &report),
			 0);
	nsctl_ns_set_free(set);
	nsctl_process_free(self);
}

static void test_join_fd_bad_input(void **state)
{
	int null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	int net = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);

	assert_int_equal(nsctl_ns_join_fd(-1, -1), -EBADF);
	assert_int_equal(nsctl_ns_join_fd(null_fd, -1), -ENOTTY);
	assert_int_equal(nsctl_ns_join_fd(net, NSCTL_TYPE_UTS), -EMEDIUMTYPE);
	assert_int_equal(nsctl_ns_join_fd(net, TYPE_COUNT), -EINVAL);
	assert_int_equal(nsctl_ns_join_path("/nonexistent", -1), -ENOENT);
	assert_int_equal(nsctl_ns_join_path("/proc/self/ns/net", NSCTL_TYPE_MNT), -EMEDIUMTYPE);
	close(null_fd);
	close(net);
}

/* Run FN in a child and return its exit status (0 means every check passed). */
static int in_child(int (*fn)(void *), void *arg)
{
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0)
		_exit(fn(arg));
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static void *idle_thread(void *arg)
{
	pause();
	return arg;
}

static int join_while_threaded(void *arg)
{
	struct nsctl_join_report report = NSCTL_JOIN_REPORT_INIT;
	struct nsctl_ns_set *set = NULL;
	pthread_t thread;
	int r;

	if (pthread_create(&thread, NULL, idle_thread, NULL) != 0)
		return 10;
	/* A mount namespace needs a single-threaded caller: the kernel says EINVAL. */
	if (nsctl_ns_join_path("/proc/self/ns/mnt", NSCTL_TYPE_MNT) != -EINVAL)
		return 11;
	if (nsctl_ns_set_new(&set) < 0 || nsctl_ns_set_add_path(set, "/proc/self/ns/mnt", -1) < 0)
		return 12;
	r = nsctl_ns_set_join(set, &report);
	nsctl_ns_set_free(set);
	if (r != -EINVAL || report.failed_type != NSCTL_TYPE_MNT ||
	    strcmp(report.failed_call, "setns") != 0)
		return 13;
	return 0;
}

static void test_multithreaded_caller_refused(void **state)
{
	if (geteuid() != 0)
		skip();
	assert_int_equal(in_child(join_while_threaded, NULL), 0);
}

/*
 * In a thread of its own uts namespace, the process (its main thread) differs
 * in uts and in nothing else: "ours" is the calling thread's, through
 * /proc/thread-self, not /proc/self.  The main thread sees it the other way.
 */
static void *differ_in_thread(void *arg)
{
	struct nsctl_process *process = arg;
	unsigned different = 0;

	if (unshare(CLONE_NEWUTS) < 0)
		return (void *)1;
	if (nsctl_process_ns_differ(process, BIT(UTS) | BIT(IPC) | BIT(NET), &different) < 0)
		return (void *)2;
	return different == BIT(UTS) ? NULL : (void *)3;
}

static int differ_threads(void *arg)
{
	struct nsctl_process *process;
	unsigned different = ~0U;
	pthread_t thread;
	void *result;

	(void)arg;
	if (nsctl_process_open(getpid(), &process) < 0)
		return 30;
	if (nsctl_process_ns_differ(process, nsctl_type_supported(), &different) < 0 ||
	    different != 0)
		return 31;
	if (pthread_create(&thread, NULL, differ_in_thread, process) != 0)
		return 32;
	if (pthread_join(thread, &result) != 0 || result != NULL)
		return 33;
	nsctl_process_free(process);
	return 0;
}

static void test_process_ns_differ_thread(void **state)
{
	if (geteuid() != 0)
		skip();
	assert_int_equal(in_child(differ_threads, NULL), 0);
}

/* A target: a child in a new uts namespace called "unit-enter", stopped until killed. */
static pid_t start_uts_target(void)
{
	int ready[2];
	char c;
	pid_t pid;

	assert_int_equal(pipe(ready), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(ready[0]);
		if (unshare(CLONE_NEWUTS) < 0 || sethostname("unit-enter", 10) < 0)
			_exit(1);
		if (write(ready[1], "x", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(ready[1]);
	assert_int_equal(read(ready[0], &c, 1), 1);
	close(ready[0]);
	return pid;
}

static void stop_target(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

struct join_case {
	pid_t target;
	unsigned types, flags, want_joined;
};

static int join_and_check(void *arg)
{
	const struct join_case *c = arg;
	struct nsctl_process *process;
	struct nsctl_join_report report = NSCTL_JOIN_REPORT_INIT;
	char name[64] = "";

	if (nsctl_process_open(c->target, &process) < 0)
		return 20;
	if (nsctl_process_join(process, c->types, c->flags, &report) < 0)
		return 21;
	nsctl_process_free(process);
	if (report.joined != c->want_joined)
		return 22;
	if (gethostname(name, sizeof(name)) < 0 || strcmp(name, "unit-enter") != 0)
		return 23;
	return 0;
}

static void test_process_join(void **state)
{
	pid_t target;

	if (geteuid() != 0)
		skip();
	target = start_uts_target();
	for (unsigned flags = 0; flags < 4; flags++) {
		struct join_case c = { target, BIT(UTS) | BIT(IPC), flags, BIT(UTS) | BIT(IPC) };

		/* Different-only: ipc is ours already, so only uts is joined. */
		if (flags & NSCTL_JOIN_DIFFERENT)
			c.want_joined = BIT(UTS);
		assert_int_equal(in_child(join_and_check, &c), 0);
	}
	stop_target(target);
}

static int become_nobody(void)
{
	if (setgroups(0, NULL) < 0 || setresgid(65534, 65534, 65534) < 0 ||
	    setresuid(65534, 65534, 65534) < 0)
		return -1;
	/* Changing uid made us undumpable; the other process of nobody must see our /proc. */
	return prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
}

static int unprivileged_join(void *arg)
{
	const struct join_case *c = arg;
	struct nsctl_process *process;
	struct nsctl_join_report report = NSCTL_JOIN_REPORT_INIT;
	char name[64] = "";
	int r;

	if (become_nobody() < 0)
		return 40;
	if (nsctl_process_open(c->target, &process) < 0)
		return 41;
	r = nsctl_process_join(process, c->types, c->flags, &report);
	nsctl_process_free(process);
	if (!(c->types & BIT(USER))) {
		/* Without the user namespace nobody has no right to the uts one: named. */
		if (r != -EPERM || report.failed_type != NSCTL_TYPE_UTS ||
		    strcmp(report.failed_call, "setns") != 0)
			return 42;
		return 0;
	}
	if (r < 0 || report.joined != c->want_joined)
		return 43;
	if (gethostname(name, sizeof(name)) < 0 || strcmp(name, "unit-nobody") != 0)
		return 44;
	if (geteuid() != 65534 && geteuid() != 0)
		return 45;
	return 0;
}

static void test_unprivileged_join_user_first(void **state)
{
	int ready[2];
	char c;
	pid_t target;

	if (geteuid() != 0)
		skip();
	assert_int_equal(pipe(ready), 0);
	target = fork();
	assert_true(target >= 0);
	if (target == 0) {
		close(ready[0]);
		if (become_nobody() < 0 || unshare(CLONE_NEWUSER | CLONE_NEWUTS) < 0 ||
		    sethostname("unit-nobody", 11) < 0)
			_exit(1);
		if (write(ready[1], "x", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(ready[1]);
	if (read(ready[0], &c, 1) != 1) {
		waitpid(target, NULL, 0);
		close(ready[0]);
		skip(); /* this kernel does not let nobody make a user namespace */
	}
	close(ready[0]);
	for (unsigned flags = 0; flags < 4; flags++) {
		struct join_case jc = { target, BIT(USER) | BIT(UTS), flags, BIT(USER) | BIT(UTS) };

		assert_int_equal(in_child(unprivileged_join, &jc), 0);
		jc.types = BIT(UTS);
		jc.want_joined = 0;
		assert_int_equal(in_child(unprivileged_join, &jc), 0);
	}
	stop_target(target);
}

static int join_gone(void *arg)
{
	const struct join_case *c = arg;
	struct nsctl_process *process;
	struct nsctl_ns_set *set = NULL;
	pid_t target;

	target = start_uts_target();
	if (nsctl_process_open(target, &process) < 0)
		return 30;
	stop_target(target);
	if (nsctl_process_join(process, BIT(UTS), c->flags, NULL) != -ESRCH)
		return 31;
	if (nsctl_ns_set_new(&set) < 0 ||
	    nsctl_ns_set_add_process(set, process, BIT(UTS), 0, NULL) != -ESRCH)
		return 32;
	if (nsctl_ns_set_types(set) != 0)
		return 33;
	nsctl_ns_set_free(set);
	nsctl_process_free(process);
	return 0;
}

static void test_process_gone_is_esrch(void **state)
{
	struct join_case c = { 0 };

	for (c.flags = 0; c.flags < 4; c.flags++)
		assert_int_equal(in_child(join_gone, &c), 0);
}

static void test_read_environ(void **state)
{
	int ready[2];
	char c, **env = NULL;
	struct nsctl_process *process;
	pid_t pid;

	/* The write end closes on exec: EOF means the new image, with its environment, is there. */
	assert_int_equal(pipe2(ready, O_CLOEXEC), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char *const argv[] = { "sleep", "60", NULL };
		char *const envp[] = { "NSCTL_A=1", "NSCTL_B=two words", NULL };

		execve("/bin/sleep", argv, envp);
		_exit(127);
	}
	close(ready[1]);
	assert_int_equal(read(ready[0], &c, 1), 0);
	close(ready[0]);
	assert_int_equal(nsctl_process_open(pid, &process), 0);
	assert_int_equal(nsctl_process_read_environ(process, &env), 0);
	assert_string_equal(env[0], "NSCTL_A=1");
	assert_string_equal(env[1], "NSCTL_B=two words");
	assert_null(env[2]);
	free(env);
	env = NULL;
	stop_target(pid);
	assert_int_equal(nsctl_process_read_environ(process, &env), -ESRCH);
	assert_null(env);
	assert_int_equal(nsctl_process_read_environ(NULL, &env), -EINVAL);
	nsctl_process_free(process);
}

/* True if the cgroup directory DIRFD lists us: one PID a line, ours a whole line (112 is not 12).
 */
static bool cgroup_lists_us(int dirfd)
{
	char buf[64], mine[32];
	bool found = false;
	int procs = openat(dirfd, "cgroup.procs", O_RDONLY | O_CLOEXEC);
	FILE *listing;

	assert_true(procs >= 0);
	listing = fdopen(procs, "r");
	assert_non_null(listing);
	snprintf(mine, sizeof(mine), "%d\n", (int)getpid());
	while (!found && fgets(buf, sizeof(buf), listing))
		found = strcmp(buf, mine) == 0;
	fclose(listing);
	return found;
}

static void test_open_cgroup_self(void **state)
{
	struct nsctl_process *process;
	int fd;

	assert_int_equal(nsctl_process_open(getpid(), &process), 0);
	fd = nsctl_process_open_cgroup(process);
	if (fd == -ENOENT) {
		nsctl_process_free(process);
		skip();
	}
	assert_true(fd >= 0);
	assert_int_equal(fcntl(fd, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
	/* Our own cgroup lists us. */
	assert_true(cgroup_lists_us(fd));
	if (geteuid() == 0)
		assert_int_equal(nsctl_cgroup_attach(fd, 0), 0);
	close(fd);
	nsctl_process_free(process);
	assert_int_equal(nsctl_process_open_cgroup(NULL), -EINVAL);
	assert_int_equal(nsctl_cgroup_attach(-1, 0), -EINVAL);
}

static void test_proc_status_caps(void **state)
{
	struct nsctl_caps caps;

	assert_int_equal(proc_status_caps("Name:\tsleep\nUid:\t0\t0\t0\t0\n"
					  "CapInh:\t0000000000002000\n"
					  "CapPrm:\t0000000000002001\n"
					  "CapEff:\t0000000000000001\n"
					  "CapBnd:\t000001ffffffffff\n"
					  "CapAmb:\t0000000000000000\n"
					  "NoNewPrivs:\t1\nSeccomp:\t0\n",
					  &caps),
			 0);
	assert_true(caps.inheritable == 0x2000);
	assert_true(caps.permitted == 0x2001);
	assert_true(caps.effective == 1);
	assert_true(caps.bounding == 0x1ffffffffffULL);
	assert_true(caps.ambient == 0);
	assert_true(caps.no_new_privs);
	/* A line missing (CapAmb before 4.3), a value that is no number, a flag above 1. */
	assert_int_equal(proc_status_caps("CapInh:\t0\nCapPrm:\t0\nCapEff:\t0\nCapBnd:\t0\n"
					  "NoNewPrivs:\t0\n",
					  &caps),
			 -ENODATA);
	assert_int_equal(proc_status_caps("CapInh:\tzz\nCapPrm:\t0\nCapEff:\t0\nCapBnd:\t0\n"
					  "CapAmb:\t0\nNoNewPrivs:\t0\n",
					  &caps),
			 -EINVAL);
	assert_int_equal(proc_status_caps("CapInh:\t0\nCapPrm:\t0\nCapEff:\t0\nCapBnd:\t0\n"
					  "CapAmb:\t0\nNoNewPrivs:\t2\n",
					  &caps),
			 -EINVAL);
	/* "CapInhX:" is not "CapInh:". */
	assert_int_equal(proc_status_caps("CapInhX:\t1\n", &caps), -ENODATA);
}

static void test_proc_cgroup_v1_next(void **state)
{
	char text[] = "12:cpu,cpuacct:/a/b\n3:name=systemd:/\n0::/user.slice\n";
	char bad[] = "1:pids:/../up\n";
	char odd[] = "no colon\n";
	const char *controllers;
	char *cursor = text, *path;
	size_t length;

	assert_int_equal(proc_cgroup_v1_next(&cursor, &controllers, &length, &path), 1);
	assert_int_equal(length, strlen("cpu,cpuacct"));
	assert_memory_equal(controllers, "cpu,cpuacct", length);
	assert_string_equal(path, "/a/b");
	assert_int_equal(proc_cgroup_v1_next(&cursor, &controllers, &length, &path), 1);
	assert_memory_equal(controllers, "name=systemd", length);
	assert_string_equal(path, "/");
	/* The v2 line is passed over. */
	assert_int_equal(proc_cgroup_v1_next(&cursor, &controllers, &length, &path), 0);
	cursor = bad;
	assert_int_equal(proc_cgroup_v1_next(&cursor, &controllers, &length, &path), -EACCES);
	cursor = odd;
	assert_int_equal(proc_cgroup_v1_next(&cursor, &controllers, &length, &path), -EINVAL);
}

static void test_read_caps(void **state)
{
	struct nsctl_process *process;
	struct nsctl_caps caps = NSCTL_CAPS_INIT;
	pid_t pid;

	assert_int_equal(nsctl_process_open(getpid(), &process), 0);
	assert_int_equal(nsctl_process_read_caps(process, &caps), 0);
	/* What the kernel says of ourselves: the bounding set and no_new_privs. */
	for (unsigned cap = 0; cap < 64; cap++) {
		int has = prctl(PR_CAPBSET_READ, cap, 0, 0, 0);

		if (has < 0)
			break;
		assert_int_equal(has, (caps.bounding >> cap) & 1);
	}
	assert_int_equal(caps.no_new_privs, prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
	nsctl_process_free(process);
	/* A process gone after the open is -ESRCH, never another's sets. */
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		pause();
		_exit(0);
	}
	assert_int_equal(nsctl_process_open(pid, &process), 0);
	stop_target(pid);
	assert_int_equal(nsctl_process_read_caps(process, &caps), -ESRCH);
	nsctl_process_free(process);
	assert_int_equal(nsctl_process_read_caps(NULL, &caps), -EINVAL);
}

static void test_open_cgroups_v1_self(void **state)
{
	struct nsctl_process *process;
	int *fds = NULL, n;

	assert_int_equal(nsctl_process_open(getpid(), &process), 0);
	n = nsctl_process_open_cgroups_v1(process, &fds);
	assert_true(n >= 0);
	for (int i = 0; i < n; i++) {
		/* Each hierarchy's cgroup of ours lists us. */
		assert_true(cgroup_lists_us(fds[i]));
		if (geteuid() == 0)
			assert_int_equal(nsctl_cgroup_attach(fds[i], 0), 0);
		close(fds[i]);
	}
	free(fds);
	nsctl_process_free(process);
	assert_int_equal(nsctl_process_open_cgroups_v1(NULL, &fds), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order_privileged_user_last),
		cmocka_unit_test(test_order_unprivileged_user_first),
		cmocka_unit_test(test_order_without_user_and_empty),
		cmocka_unit_test(test_in_order_all_succeed),
		cmocka_unit_test(test_in_order_eperm_retried_after_user),
		cmocka_unit_test(test_in_order_unprivileged),
		cmocka_unit_test(test_in_order_eperm_without_user_fails),
		cmocka_unit_test(test_in_order_failure_names_the_type),
		cmocka_unit_test(test_in_order_deferred_still_refused),
		cmocka_unit_test(test_in_order_own_user_skipped),
		cmocka_unit_test(test_set_add_and_free),
		cmocka_unit_test(test_unknown_flags),
		cmocka_unit_test(test_join_fd_bad_input),
		cmocka_unit_test(test_multithreaded_caller_refused),
		cmocka_unit_test(test_process_ns_differ_thread),
		cmocka_unit_test(test_process_join),
		cmocka_unit_test(test_unprivileged_join_user_first),
		cmocka_unit_test(test_process_gone_is_esrch),
		cmocka_unit_test(test_read_environ),
		cmocka_unit_test(test_open_cgroup_self),
		cmocka_unit_test(test_proc_status_caps),
		cmocka_unit_test(test_proc_cgroup_v1_next),
		cmocka_unit_test(test_read_caps),
		cmocka_unit_test(test_open_cgroups_v1_self),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
