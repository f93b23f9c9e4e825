// SPDX-License-Identifier: LGPL-2.1-or-later
/* Unit tests of lib/process.c: handles that outlive nothing and confuse no PID. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <pthread.h>
#include <unistd.h>
#include <cmocka.h>

#include "nsctl.h"
#include "type-count.h"

static void test_open_self(void **state)
{
	struct nsctl_process *p = NULL;

	assert_int_equal(nsctl_process_open(getpid(), &p), 0);
	assert_non_null(p);
	assert_int_equal(nsctl_process_pid(p), getpid());
	/* Run under tests/tools/seccomp-deny, the kernel "lacks" pidfd_open: no pidfd then. */
	if (syscall(SYS_pidfd_open, getpid(), 0) < 0 && (errno == ENOSYS || errno == EPERM)) {
		assert_int_equal(nsctl_process_pidfd(p), -1);
	} else {
		assert_true(nsctl_process_pidfd(p) >= 0);
		assert_int_equal(fcntl(nsctl_process_pidfd(p), F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
	}
	assert_true(nsctl_process_procfd(p) >= 0);
	assert_int_equal(fcntl(nsctl_process_procfd(p), F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
	assert_int_equal(nsctl_process_alive(p), 1);
	nsctl_process_free(p);
	nsctl_process_free(NULL);
}

/*
 * Many handles at once, opened and freed by several threads, stay distinct
 * and each names its own process.
 */
#define HANDLES_PER_THREAD 24
#define THREADS            4

struct opener {
	pid_t pids[HANDLES_PER_THREAD];
	int failures;
};

static void *open_and_free_many(void *arg)
{
	struct opener *o = arg;
	struct nsctl_process *h[HANDLES_PER_THREAD];

	for (int round = 0; round < 50; round++) {
		for (int i = 0; i < HANDLES_PER_THREAD; i++)
			if (nsctl_process_open(o->pids[i], &h[i]) < 0)
				o->failures++;
		for (int i = 0; i < HANDLES_PER_THREAD; i++) {
			for (int j = 0; j < i; j++)
				if (h[i] == h[j])
					o->failures++;
			if (nsctl_process_pid(h[i]) != o->pids[i] || nsctl_process_alive(h[i]) != 1)
				o->failures++;
		}
		/* Freed out of order: every other one first. */
		for (int i = 0; i < HANDLES_PER_THREAD; i += 2)
			nsctl_process_free(h[i]);
		for (int i = 1; i < HANDLES_PER_THREAD; i += 2)
			nsctl_process_free(h[i]);
	}
	return NULL;
}

static void test_many_handles_threads(void **state)
{
	struct opener openers[THREADS] = { 0 };
	pthread_t threads[THREADS];
	pid_t children[HANDLES_PER_THREAD];

	/* Two threads handed one slot can wait on each other's fds: a hang fails too. */
	alarm(120);
	for (int i = 0; i < HANDLES_PER_THREAD; i++) {
		children[i] = fork();
		assert_true(children[i] >= 0);
		if (children[i] == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			pause();
			_exit(0);
		}
	}
	for (int t = 0; t < THREADS; t++) {
		for (int i = 0; i < HANDLES_PER_THREAD; i++)
			openers[t].pids[i] = children[(i + t) % HANDLES_PER_THREAD];
		assert_int_equal(pthread_create(&threads[t], NULL, open_and_free_many, &openers[t]),
				 0);
	}
	for (int t = 0; t < THREADS; t++) {
		assert_int_equal(pthread_join(threads[t], NULL), 0);
		assert_int_equal(openers[t].failures, 0);
	}
	for (int i = 0; i < HANDLES_PER_THREAD; i++) {
		kill(children[i], SIGKILL);
		waitpid(children[i], NULL, 0);
	}
	alarm(0);
}

static void test_open_bad_arguments(void **state)
{
	struct nsctl_process *p = NULL;

	assert_int_equal(nsctl_process_open(0, &p), -EINVAL);
	assert_int_equal(nsctl_process_open(-1, &p), -EINVAL);
	assert_int_equal(nsctl_process_open(getpid(), NULL), -EINVAL);
	assert_null(p);
	assert_int_equal(nsctl_process_pid(NULL), -1);
	assert_int_equal(nsctl_process_pidfd(NULL), -1);
	assert_int_equal(nsctl_process_procfd(NULL), -EINVAL);
	assert_int_equal(nsctl_process_alive(NULL), -EINVAL);
	assert_int_equal(nsctl_process_open_ns(NULL, NSCTL_TYPE_NET, false), -EINVAL);
}

static void test_open_ns_matches_proc(void **state)
{
	struct nsctl_process *p = NULL;

	assert_int_equal(nsctl_process_open(getpid(), &p), 0);
	type_foreach (t) {
		const struct nsctl_type_info *info = nsctl_type_get(t);
		struct nsctl_ns_id id = NSCTL_NS_ID_INIT;
		char path[64];
		struct stat st;
		int fd;

		if (!(nsctl_type_supported() & NSCTL_TYPE_BIT(t))) {
			assert_int_equal(nsctl_process_open_ns(p, t, false), -EOPNOTSUPP);
			continue;
		}
		for (int children = 0; children < 2; children++) {
			fd = nsctl_process_open_ns(p, t, children);
			assert_true(fd >= 0);
			assert_int_equal(fcntl(fd, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
			assert_int_equal(nsctl_ns_identify(fd, &id), 0);
			assert_int_equal(id.type, t);
			snprintf(path, sizeof(path), "/proc/self/ns/%s",
				 children && info->children_name ? info->children_name
								 : info->name);
			assert_int_equal(stat(path, &st), 0);
			assert_int_equal(id.ino, st.st_ino);
			close(fd);
		}
	}
	assert_int_equal(nsctl_process_open_ns(p, TYPE_COUNT, false), -EINVAL);
	nsctl_process_free(p);
}

/* Whether pidfd_open() works here (not before Linux 5.3, nor under some seccomp filters). */
static bool have_pidfd(void)
{
	int fd = (int)syscall(SYS_pidfd_open, getpid(), 0);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/*
 * Whether system call NUMBER exists here, asked with arguments it refuses:
 * a seccomp profile, or a tool that cannot follow it (valgrind 3.24 knows
 * neither pidfd_send_signal nor process_madvise), says ENOSYS.
 */
static bool have_call(long number)
{
	return syscall(number, -1, 0, NULL, 0, 0) == 0 || errno != ENOSYS;
}

static void test_zombie_and_reaped(void **state)
{
	struct nsctl_process *p = NULL;
	siginfo_t info;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0)
		_exit(0);
	/* Wait for it to become a zombie, without reaping it. */
	assert_int_equal(waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT), 0);
	assert_int_equal(nsctl_process_open(pid, &p), 0);
	/*
	 * A zombie is still there, but its namespaces are gone.  Where a pidfd
	 * cannot be signalled (pidfd_send_signal denied, or not followed by
	 * valgrind), it polls as exited: gone too (lib/process.c).
	 */
	assert_int_equal(nsctl_process_alive(p),
			 have_pidfd() && !have_call(SYS_pidfd_send_signal) ? 0 : 1);
	assert_int_equal(nsctl_process_open_ns(p, NSCTL_TYPE_NET, false), -ESRCH);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
	assert_int_equal(nsctl_process_alive(p), 0);
	assert_int_equal(nsctl_process_open_ns(p, NSCTL_TYPE_NET, false), -ESRCH);
	nsctl_process_free(p);

	/* Reaped, its PID names no process (unless reused already, which is rare this soon). */
	p = NULL;
	assert_int_equal(nsctl_process_open(pid, &p), -ESRCH);
	assert_null(p);
}

/* A pidfd the caller holds: the handle takes a copy, and the caller still owns its own. */
static void test_from_pidfd(void **state)
{
	struct nsctl_process *p = NULL;
	struct stat a, b;
	int pidfd = (int)syscall(SYS_pidfd_open, getpid(), 0);
	int fd, own;

	if (pidfd < 0)
		skip();
	assert_int_equal(nsctl_process_from_pidfd(pidfd, &p), 0);
	assert_non_null(p);
	assert_int_equal(nsctl_process_pid(p), getpid());
	assert_true(nsctl_process_pidfd(p) >= 0);
	assert_int_not_equal(nsctl_process_pidfd(p), pidfd);
	assert_int_equal(fcntl(nsctl_process_pidfd(p), F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
	/* The caller closes its pidfd at once: the handle goes on working. */
	assert_int_equal(close(pidfd), 0);
	assert_int_equal(nsctl_process_alive(p), 1);
	fd = nsctl_process_open_ns(p, NSCTL_TYPE_NET, false);
	own = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0 && own >= 0);
	assert_int_equal(fstat(fd, &a), 0);
	assert_int_equal(fstat(own, &b), 0);
	assert_int_equal(a.st_ino, b.st_ino);
	close(fd);
	close(own);
	assert_true(nsctl_process_procfd(p) >= 0);
	nsctl_process_free(p);

	/* The other order: freed first, and the caller's pidfd is still open. */
	pidfd = (int)syscall(SYS_pidfd_open, getpid(), 0);
	assert_true(pidfd >= 0);
	assert_int_equal(nsctl_process_from_pidfd(pidfd, &p), 0);
	nsctl_process_free(p);
	assert_int_equal(fcntl(pidfd, F_GETFD) >= 0, 1);
	assert_int_equal(close(pidfd), 0);
}

static void test_from_pidfd_child_and_reaped(void **state)
{
	struct nsctl_process *p = NULL;
	pid_t pid = fork();
	int pidfd;

	assert_true(pid >= 0);
	if (pid == 0) {
		pause();
		_exit(0);
	}
	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		skip();
	}
	assert_int_equal(nsctl_process_from_pidfd(pidfd, &p), 0);
	assert_int_equal(nsctl_process_pid(p), pid);
	assert_int_equal(nsctl_process_is_kernel_thread(p), 0);
	assert_int_equal(kill(pid, SIGKILL), 0);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
	assert_int_equal(nsctl_process_alive(p), 0);
	assert_int_equal(nsctl_process_open_ns(p, NSCTL_TYPE_NET, false), -ESRCH);
	nsctl_process_free(p);
	/* A pidfd of a reaped process names nobody any more: no handle, and no PID reused. */
	p = NULL;
	assert_int_equal(nsctl_process_from_pidfd(pidfd, &p), -ESRCH);
	assert_null(p);
	close(pidfd);
}

/* Anything that is not a pidfd is refused, and nothing is written. */
static void test_from_pidfd_not_a_pidfd(void **state)
{
	struct nsctl_process *p = NULL;
	int pipefd[2], fd;

	assert_int_equal(nsctl_process_from_pidfd(-1, &p), -EBADF);
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(nsctl_process_from_pidfd(fd, NULL), -EINVAL);
	/* A plain file, a device. */
	assert_int_equal(nsctl_process_from_pidfd(fd, &p), -EINVAL);
	close(fd);
	/* An fd number that is not open (the one just closed). */
	assert_int_equal(nsctl_process_from_pidfd(fd, &p), -EBADF);
	/* A /proc/PID directory, which pidfd_send_signal() would take. */
	fd = open("/proc/self", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		assert_int_equal(nsctl_process_from_pidfd(fd, &p), -EINVAL);
		close(fd);
	}
	/* Anonymous inodes, as a pidfd was before pidfs. */
	fd = eventfd(0, EFD_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(nsctl_process_from_pidfd(fd, &p), -EINVAL);
	close(fd);
	assert_int_equal(pipe2(pipefd, O_CLOEXEC), 0);
	assert_int_equal(nsctl_process_from_pidfd(pipefd[0], &p), -EINVAL);
	close(pipefd[0]);
	close(pipefd[1]);
	/* A namespace fd. */
	fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		assert_int_equal(nsctl_process_from_pidfd(fd, &p), -EINVAL);
		close(fd);
	}
	assert_null(p);
}

/*
 * With a pidfd, /proc/PID is opened on first use: after the process is
 * reaped that must fail, even if the PID were reused by then, and never
 * give another process's directory.
 */
static void test_procfd_after_reap(void **state)
{
	struct nsctl_process *p = NULL;
	char **env = NULL;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		pause();
		_exit(0);
	}
	assert_int_equal(nsctl_process_open(pid, &p), 0);
	assert_int_equal(kill(pid, SIGKILL), 0);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
	if (nsctl_process_pidfd(p) >= 0)
		assert_int_equal(nsctl_process_procfd(p), -ESRCH);
	assert_int_equal(nsctl_process_read_environ(p, &env), -ESRCH);
	assert_null(env);
	nsctl_process_free(p);
}

static void test_kernel_thread(void **state)
{
	struct nsctl_process *p = NULL;
	char comm[32] = "";
	FILE *f;

	assert_int_equal(nsctl_process_is_kernel_thread(NULL), -EINVAL);
	assert_int_equal(nsctl_process_open(getpid(), &p), 0);
	assert_int_equal(nsctl_process_is_kernel_thread(p), 0);
	nsctl_process_free(p);
	/* kthreadd, PID 2 of the machine's PID namespace: only its /proc/2/stat is read. */
	f = fopen("/proc/2/comm", "re");
	if (f) {
		if (!fgets(comm, sizeof(comm), f))
			comm[0] = '\0';
		fclose(f);
	}
	if (strcmp(comm, "kthreadd\n") == 0) {
		p = NULL;
		assert_int_equal(nsctl_process_open(2, &p), 0);
		assert_int_equal(nsctl_process_is_kernel_thread(p), 1);
		nsctl_process_free(p);
	}
}

/* Whether /proc/2 is kthreadd, the machine's first kernel thread (read only). */
static bool kthreadd_is_2(void)
{
	char comm[32] = "";
	FILE *f = fopen("/proc/2/comm", "re");

	if (f) {
		if (!fgets(comm, sizeof(comm), f))
			comm[0] = '\0';
		fclose(f);
	}
	return strcmp(comm, "kthreadd\n") == 0;
}

/* In a child without /proc: 0 if every check holds, else the failed one's line. */
static int kernel_thread_without_proc(bool kthreadd)
{
	struct nsctl_process *p = NULL;
	struct stat st;

	/* In a chroot "/" is no mount root (EINVAL): there the mount the tmpfs
	 * goes onto, /proc, is made private instead, so that it reaches no other
	 * mount namespace either.  (Source and type "none", ignored by the
	 * kernel here: valgrind 3.24 takes a NULL type for a bad pointer.) */
	if (unshare(CLONE_NEWNS) < 0 ||
	    (mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) < 0 &&
	     mount("none", "/proc", "none", MS_REC | MS_PRIVATE, NULL) < 0) ||
	    mount("none", "/proc", "tmpfs", 0, NULL) < 0 || stat("/proc/self", &st) == 0)
		return __LINE__;
	/* Without a pidfd nor /proc nothing can hold a process: refused. */
	if (!have_pidfd())
		return nsctl_process_open(getpid(), &p) == -ENOENT ? 0 : __LINE__;
	/* Without process_madvise() nothing tells without /proc, and the library says so. */
	if (!have_call(SYS_process_madvise)) {
		int r =
		    nsctl_process_open(getpid(), &p) < 0 ? 0 : nsctl_process_is_kernel_thread(p);

		nsctl_process_free(p);
		return r == -ENOSYS ? 0 : __LINE__;
	}
	if (nsctl_process_open(getpid(), &p) < 0 || nsctl_process_procfd(p) != -ENOENT ||
	    nsctl_process_is_kernel_thread(p) != 0)
		return __LINE__;
	nsctl_process_free(p);
	if (kthreadd) {
		if (nsctl_process_open(2, &p) < 0 || nsctl_process_is_kernel_thread(p) != 1)
			return __LINE__;
		nsctl_process_free(p);
	}
	return 0;
}

/* Without /proc the pidfd alone tells: a kernel thread has no memory of its own. */
static void test_kernel_thread_without_proc(void **state)
{
	bool kthreadd = kthreadd_is_2();
	int wstatus;
	pid_t pid;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(kernel_thread_without_proc(kthreadd) ? 1 : 0);
	assert_int_equal(waitpid(pid, &wstatus, 0), pid);
	assert_true(WIFEXITED(wstatus));
	assert_int_equal(WEXITSTATUS(wstatus), 0);
}

/*
 * PID 1 of a new PID namespace under the /proc it inherited, the machine's:
 * /proc/1 there is the machine's init, and the handle's procfd must be its own
 * directory (/proc/self) all the same, and it no kernel thread.
 */
static int procfd_under_another_proc(void)
{
	struct nsctl_process *p = NULL;
	struct stat own, got;

	if (getpid() != 1 || stat("/proc/self", &own) < 0)
		return __LINE__;
	/* Without a pidfd nothing tells which of that /proc's directories is ours: refused. */
	if (!have_pidfd())
		return nsctl_process_open(1, &p) == -ENOENT ? 0 : __LINE__;
	if (nsctl_process_open(1, &p) < 0 || nsctl_process_procfd(p) < 0 ||
	    fstat(nsctl_process_procfd(p), &got) < 0)
		return __LINE__;
	if (got.st_ino != own.st_ino || got.st_dev != own.st_dev)
		return __LINE__;
	if (nsctl_process_is_kernel_thread(p) != 0)
		return __LINE__;
	nsctl_process_free(p);
	return 0;
}

static void test_procfd_under_another_pid_namespace_proc(void **state)
{
	int wstatus;
	pid_t pid;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		pid_t inner;
		int inner_status;

		if (unshare(CLONE_NEWPID) < 0)
			_exit(2);
		inner = fork();
		if (inner == 0)
			_exit(procfd_under_another_proc() ? 1 : 0);
		if (inner < 0 || waitpid(inner, &inner_status, 0) != inner)
			_exit(2);
		_exit(WIFEXITED(inner_status) ? WEXITSTATUS(inner_status) : 3);
	}
	assert_int_equal(waitpid(pid, &wstatus, 0), pid);
	assert_true(WIFEXITED(wstatus));
	assert_int_equal(WEXITSTATUS(wstatus), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_self),
		cmocka_unit_test(test_open_bad_arguments),
		cmocka_unit_test(test_open_ns_matches_proc),
		cmocka_unit_test(test_zombie_and_reaped),
		cmocka_unit_test(test_procfd_after_reap),
		cmocka_unit_test(test_from_pidfd),
		cmocka_unit_test(test_from_pidfd_child_and_reaped),
		cmocka_unit_test(test_from_pidfd_not_a_pidfd),
		cmocka_unit_test(test_kernel_thread),
		cmocka_unit_test(test_kernel_thread_without_proc),
		cmocka_unit_test(test_procfd_under_another_pid_namespace_proc),
		cmocka_unit_test(test_many_handles_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
