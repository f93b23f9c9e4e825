// SPDX-License-Identifier: LGPL-2.1-or-later
/* Unit tests of lib/ns.c against the kernel's own namespace files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <pthread.h>
#include <unistd.h>
#include <cmocka.h>

#include "nsctl.h"
#include "type-count.h"

static int open_self(const char *name)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/self/ns/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	return fd;
}

static void test_check(void **state)
{
	type_foreach (t) {
		enum nsctl_type got = TYPE_COUNT;
		int fd;

		if (!(nsctl_type_supported() & NSCTL_TYPE_BIT(t)))
			continue;
		fd = open_self(nsctl_type_get(t)->name);
		assert_int_equal(nsctl_ns_check(fd, &got), 0);
		assert_int_equal(got, t);
		assert_int_equal(nsctl_ns_check(fd, NULL), 0);
		close(fd);
	}
}

static void test_check_rejects_other_files(void **state)
{
	enum nsctl_type got = TYPE_COUNT;
	int pipefd[2], fd;

	assert_int_equal(pipe2(pipefd, O_CLOEXEC), 0);
	assert_int_equal(nsctl_ns_check(pipefd[0], &got), -ENOTTY);
	close(pipefd[0]);
	close(pipefd[1]);
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	assert_int_equal(nsctl_ns_check(fd, &got), -ENOTTY);
	close(fd);
	fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
	assert_int_equal(nsctl_ns_check(fd, &got), -ENOTTY);
	close(fd);
	assert_int_equal(nsctl_ns_check(-1, &got), -EBADF);
	assert_int_equal(nsctl_ns_check(9999, &got), -EBADF);
	assert_int_equal(got, TYPE_COUNT);
}

static void test_identify(void **state)
{
	struct nsctl_ns_id id = NSCTL_NS_ID_INIT, again = NSCTL_NS_ID_INIT;
	struct stat st;
	char text[64];
	int fd = open_self("net");

	assert_int_equal(stat("/proc/self/ns/net", &st), 0);
	assert_int_equal(nsctl_ns_identify(fd, &id), 0);
	assert_int_equal(id.type, NSCTL_TYPE_NET);
	assert_int_equal(id.ino, st.st_ino);
	assert_int_equal(id.dev, st.st_dev);
	assert_int_equal(nsctl_ns_identify(fd, &again), 0);
	assert_true(nsctl_ns_id_equal(&id, &again));
	{
		int n = nsctl_ns_id_format(&id, text, sizeof(text));

		assert_int_equal(n, (int)strlen(text));
	}
	{
		char expected[64];
		ssize_t n = readlink("/proc/self/ns/net", expected, sizeof(expected) - 1);

		assert_true(n > 0);
		expected[n] = '\0';
		assert_string_equal(text, expected);
	}
	assert_int_equal(nsctl_ns_id_format(&id, text, 5), -ENOBUFS);
	assert_int_equal(nsctl_ns_id_format(NULL, text, sizeof(text)), -EINVAL);
	assert_int_equal(nsctl_ns_identify(fd, NULL), -EINVAL);
	assert_false(nsctl_ns_id_equal(&id, NULL));
	close(fd);

	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	assert_int_equal(nsctl_ns_identify(fd, &id), -ENOTTY);
	close(fd);
}

/*
 * The size first (nsctl.h): one short of libnsctl 1.0's is -EINVAL, and a
 * caller built with a newer, larger struct finds 0 in what this library does
 * not fill; what it hands in with a byte there that is not 0 is refused.
 */
static void test_identify_sized(void **state)
{
	struct {
		struct nsctl_ns_id id;
		uint64_t newer;
	} big;
	struct nsctl_ns_id small = NSCTL_NS_ID_INIT;
	char text[64];
	int fd = open_self("uts");

	memset(&big, 0xa5, sizeof(big));
	big.id.size = sizeof(big);
	assert_int_equal(nsctl_ns_identify(fd, &big.id), 0);
	assert_int_equal(big.id.size, sizeof(big));
	assert_int_equal(big.id.type, NSCTL_TYPE_UTS);
	assert_int_equal(big.newer, 0);
	assert_true(nsctl_ns_id_format(&big.id, text, sizeof(text)) > 0);
	big.newer = 1;
	assert_int_equal(nsctl_ns_id_format(&big.id, text, sizeof(text)), -E2BIG);
	assert_false(nsctl_ns_id_equal(&big.id, &big.id));
	small.size = offsetof(struct nsctl_ns_id, id);
	assert_int_equal(nsctl_ns_identify(fd, &small), -EINVAL);
	assert_int_equal(small.size, offsetof(struct nsctl_ns_id, id));
	close(fd);
}

static void test_id_equal_by_type_and_inode(void **state)
{
	struct nsctl_ns_id a = { sizeof(a), NSCTL_TYPE_NET, 4, 100, 0 }, b = a;

	assert_true(nsctl_ns_id_equal(&a, &b));
	b.ino = 101;
	assert_false(nsctl_ns_id_equal(&a, &b));
	b = a;
	b.type = NSCTL_TYPE_UTS;
	assert_false(nsctl_ns_id_equal(&a, &b));
	/* With 64-bit IDs on both sides, they decide. */
	a.id = 7;
	b = a;
	b.ino = 999;
	assert_true(nsctl_ns_id_equal(&a, &b));
	b.id = 8;
	assert_false(nsctl_ns_id_equal(&a, &b));
}

static void test_open_path(void **state)
{
	char dir[] = "/tmp/nsctl-unit-XXXXXX", fifo[128], regular[128];
	enum nsctl_type got = TYPE_COUNT;
	int fd;

	fd = nsctl_ns_open_path("/proc/self/ns/uts", -1, &got);
	assert_true(fd >= 0);
	assert_int_equal(got, NSCTL_TYPE_UTS);
	assert_int_equal(fcntl(fd, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
	close(fd);
	fd = nsctl_ns_open_path("/proc/self/ns/uts", NSCTL_TYPE_UTS, NULL);
	assert_true(fd >= 0);
	close(fd);

	got = TYPE_COUNT;
	assert_int_equal(nsctl_ns_open_path("/proc/self/ns/uts", NSCTL_TYPE_NET, &got),
			 -EMEDIUMTYPE);
	assert_int_equal(nsctl_ns_open_path("/nonexistent/ns", -1, &got), -ENOENT);
	assert_int_equal(nsctl_ns_open_path("/proc/self/ns", -1, &got), -EISDIR);
	assert_int_equal(nsctl_ns_open_path("/proc/self/status", -1, &got), -ENOTTY);
	assert_int_equal(nsctl_ns_open_path("/dev/null", -1, &got), -ENOTTY);
	assert_int_equal(nsctl_ns_open_path("", -1, &got), -EINVAL);
	assert_int_equal(nsctl_ns_open_path(NULL, -1, &got), -EINVAL);
	assert_int_equal(nsctl_ns_open_path("/proc/self/ns/uts", TYPE_COUNT, &got), -EINVAL);

	/* A FIFO must be refused without being opened: opening it for reading would block. */
	assert_non_null(mkdtemp(dir));
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	snprintf(regular, sizeof(regular), "%s/file", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(nsctl_ns_open_path(fifo, -1, &got), -ENOTTY);
	fd = open(regular, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	close(fd);
	assert_int_equal(nsctl_ns_open_path(regular, -1, &got), -ENOTTY);
	assert_int_equal(got, TYPE_COUNT);
	unlink(fifo);
	unlink(regular);
	rmdir(dir);
}

static void test_owner_and_parent(void **state)
{
	struct nsctl_ns_id owner = NSCTL_NS_ID_INIT, user = NSCTL_NS_ID_INIT;
	int net = open_self("net"), self_user = open_self("user"), fd;
	uid_t uid = 4242;

	fd = nsctl_ns_open_owner(net);
	assert_true(fd >= 0);
	assert_int_equal(fcntl(fd, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
	assert_int_equal(nsctl_ns_identify(fd, &owner), 0);
	assert_int_equal(nsctl_ns_identify(self_user, &user), 0);
	assert_true(nsctl_ns_id_equal(&owner, &user));
	close(fd);

	/* Only user and pid namespaces have parents. */
	assert_int_equal(nsctl_ns_open_parent(net), -EINVAL);
	assert_int_equal(nsctl_ns_get_owner_uid(net, &uid), -EINVAL);
	assert_int_equal(nsctl_ns_get_owner_uid(self_user, NULL), -EINVAL);
	assert_int_equal(nsctl_ns_get_owner_uid(self_user, &uid), 0);
	assert_int_equal(nsctl_ns_open_owner(-1), -EBADF);
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	assert_int_equal(nsctl_ns_open_owner(fd), -ENOTTY);
	assert_int_equal(nsctl_ns_open_parent(fd), -ENOTTY);
	close(fd);
	close(net);
	close(self_user);
}

static void test_parent_of_child_user_namespace(void **state)
{
	struct nsctl_ns_id parent = NSCTL_NS_ID_INIT, ours = NSCTL_NS_ID_INIT;
	int pipefd[2], ns, fd;
	char path[64], c = 0;
	uid_t uid = 4242;
	pid_t pid;

	assert_int_equal(pipe2(pipefd, O_CLOEXEC), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (unshare(CLONE_NEWUSER) < 0)
			_exit(1);
		close(pipefd[1]);
		/* Wait until the parent has looked, then go. */
		(void)!read(pipefd[0], &c, 1);
		_exit(0);
	}
	close(pipefd[0]);
	snprintf(path, sizeof(path), "/proc/%d/ns/user", (int)pid);
	/* The child's unshare has happened once its user link differs from ours. */
	for (int i = 0; i < 1000; i++) {
		ns = nsctl_ns_open_path(path, NSCTL_TYPE_USER, NULL);
		assert_true(ns >= 0);
		fd = open("/proc/self/ns/user", O_RDONLY | O_CLOEXEC);
		if (nsctl_ns_same(ns, fd) == 0) {
			close(fd);
			break;
		}
		close(fd);
		close(ns);
		ns = -1;
		usleep(1000);
	}
	if (ns < 0) {
		close(pipefd[1]);
		waitpid(pid, NULL, 0);
		skip();
	}
	fd = nsctl_ns_open_parent(ns);
	assert_true(fd >= 0);
	assert_int_equal(nsctl_ns_identify(fd, &parent), 0);
	close(fd);
	fd = open("/proc/self/ns/user", O_RDONLY | O_CLOEXEC);
	assert_int_equal(nsctl_ns_identify(fd, &ours), 0);
	close(fd);
	assert_true(nsctl_ns_id_equal(&parent, &ours));
	assert_int_equal(nsctl_ns_get_owner_uid(ns, &uid), 0);
	assert_int_equal(uid, geteuid());
	close(ns);
	close(pipefd[1]);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
}

/*
 * A pin (a bind mount of an nsfs file) has the type of what it holds, also
 * where NS_GET_NSTYPE is missing and the fd's link reads as the pin's path
 * (tests/cli/older-kernels.bats runs this under seccomp-deny).  In a child
 * with a private mount namespace of its own: the host's mount table stays.
 */
static void test_check_pin(void **state)
{
	char path[] = "/tmp/nsctl-test-pin-XXXXXX";
	int wstatus, fd;
	pid_t pid;

	(void)state;
	if (geteuid() != 0)
		skip();
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		enum nsctl_type type;

		/* The library's propagation_set: a raw mount(2) on "/" fails in a chroot. */
		if (unshare(CLONE_NEWNS) < 0 ||
		    nsctl_mnt_propagation_set(NSCTL_PROPAGATION_PRIVATE) < 0 ||
		    mount("/proc/self/ns/uts", path, NULL, MS_BIND, NULL) < 0)
			_exit(2);
		fd = nsctl_ns_open_path(path, -1, &type);
		_exit(fd >= 0 && type == NSCTL_TYPE_UTS && nsctl_ns_check(fd, &type) == 0 &&
			      type == NSCTL_TYPE_UTS
			  ? 0
			  : 1);
	}
	assert_int_equal(waitpid(pid, &wstatus, 0), pid);
	unlink(path);
	assert_true(WIFEXITED(wstatus));
	assert_int_equal(WEXITSTATUS(wstatus), 0);
}

static void test_same(void **state)
{
	int a = open_self("uts"), b = open_self("uts"), c = open_self("ipc");

	assert_int_equal(nsctl_ns_same(a, b), 1);
	assert_int_equal(nsctl_ns_same(a, c), 0);
	assert_int_equal(nsctl_ns_same(a, -1), -EBADF);
	close(a);
	close(b);
	close(c);
}

/* nsctl_ns_open_id(): the caller's own namespaces, by the ID NS_GET_ID gives. */
static void test_open_id(void **state)
{
	(void)state;
	type_foreach (t) {
		struct nsctl_ns_id own = NSCTL_NS_ID_INIT, got = NSCTL_NS_ID_INIT;
		enum nsctl_type type = TYPE_COUNT;
		int fd, byid;

		if (!(nsctl_type_supported() & NSCTL_TYPE_BIT(t)))
			continue;
		fd = open_self(nsctl_type_get(t)->name);
		assert_int_equal(nsctl_ns_identify(fd, &own), 0);
		close(fd);
		if (!own.id) {
			/* No NS_GET_ID (before 6.18, or taken away): no ID to name it by. */
			assert_true(nsctl_ns_open_id(4099, -1, &type) < 0);
			continue;
		}
		byid = nsctl_ns_open_id(own.id, -1, &type);
		if (byid == -EOPNOTSUPP)
			continue; /* no namespace file handles (taken away by a filter) */
		assert_true(byid >= 0);
		assert_int_equal(type, t);
		assert_int_equal(nsctl_ns_identify(byid, &got), 0);
		assert_true(nsctl_ns_id_equal(&own, &got));
		assert_int_equal(got.ino, own.ino);
		assert_int_not_equal(fcntl(byid, F_GETFD) & FD_CLOEXEC, 0);
		close(byid);
		/* Of another type than expected. */
		assert_int_equal(nsctl_ns_open_id(own.id, (int)((t + 1) % TYPE_COUNT), NULL),
				 -EMEDIUMTYPE);
	}
	assert_int_equal(nsctl_ns_open_id(0, -1, NULL), -EINVAL);
	assert_int_equal(nsctl_ns_open_id(1, TYPE_COUNT, NULL), -EINVAL);
}

static ino_t inode_of(int fd)
{
	struct stat st;

	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	return st.st_ino;
}

static ino_t inode_of_path(const char *path)
{
	struct stat st;

	assert_int_equal(stat(path, &st), 0);
	return st.st_ino;
}

/* Every type the kernel has, and the _for_children ones, as /proc shows them. */
static void test_open_own(void **state)
{
	unsigned supported = nsctl_type_supported();

	type_foreach (t) {
		const struct nsctl_type_info *info = nsctl_type_get(t);
		char path[64];
		int fd = nsctl_ns_open_own(t, false);
		enum nsctl_type type;

		if (supported && !(supported & NSCTL_TYPE_BIT(t))) {
			assert_int_equal(fd, -EOPNOTSUPP);
			continue;
		}
		assert_true(fd >= 0);
		assert_int_equal(fcntl(fd, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
		assert_int_equal(nsctl_ns_check(fd, &type), 0);
		assert_int_equal(type, t);
		snprintf(path, sizeof(path), "/proc/thread-self/ns/%s", info->name);
		assert_int_equal(inode_of(fd), inode_of_path(path));
		close(fd);
		fd = nsctl_ns_open_own(t, true);
		snprintf(path, sizeof(path), "/proc/thread-self/ns/%s",
			 info->children_name ? info->children_name : info->name);
		assert_int_equal(inode_of(fd), inode_of_path(path));
		close(fd);
	}
	assert_int_equal(nsctl_ns_open_own(TYPE_COUNT, false), -EINVAL);
	assert_int_equal(nsctl_ns_open_own((enum nsctl_type) - 1, false), -EINVAL);
}

/*
 * A thread in a UTS namespace of its own: nsctl_ns_open_own() there is the
 * thread's, not the main thread's; WITH_PROC says whether /proc shows it too.
 */
struct own_thread {
	bool with_proc;
	ino_t main_ino;
	int main_fd;
	int failed; /* the line of the first failed check, or 0 */
};

#define CHECK(o, cond)                                                                             \
	do {                                                                                       \
		if (!(cond) && !(o)->failed)                                                       \
			(o)->failed = __LINE__;                                                    \
	} while (0)

static void *own_in_thread(void *arg)
{
	struct own_thread *o = arg;
	int fd;

	if (unshare(CLONE_NEWUTS) < 0) {
		o->failed = -1;
		return NULL;
	}
	fd = nsctl_ns_open_own(NSCTL_TYPE_UTS, false);
	CHECK(o, fd >= 0);
	if (fd < 0)
		return NULL;
	{
		struct stat st;

		CHECK(o, fstat(fd, &st) == 0 && st.st_ino != o->main_ino);
		if (o->with_proc) {
			struct stat mine;

			CHECK(o, stat("/proc/thread-self/ns/uts", &mine) == 0 &&
				     mine.st_ino == st.st_ino);
		}
	}
	close(fd);
	/* Back into the main thread's: then it is that one again. */
	CHECK(o, setns(o->main_fd, CLONE_NEWUTS) == 0);
	fd = nsctl_ns_open_own(NSCTL_TYPE_UTS, false);
	{
		struct stat st;

		CHECK(o, fd >= 0 && fstat(fd, &st) == 0 && st.st_ino == o->main_ino);
	}
	if (fd >= 0)
		close(fd);
	return NULL;
}

/* 0 if the checks passed, else the line that failed (-1: could not unshare). */
static int own_thread_run(bool with_proc)
{
	struct own_thread o = { .with_proc = with_proc };
	pthread_t thread;
	struct stat st;
	int fd;

	o.main_fd = nsctl_ns_open_own(NSCTL_TYPE_UTS, false);
	if (o.main_fd < 0 || fstat(o.main_fd, &st) < 0)
		return __LINE__;
	o.main_ino = st.st_ino;
	if (pthread_create(&thread, NULL, own_in_thread, &o) != 0)
		return __LINE__;
	pthread_join(thread, NULL);
	/* The main thread never moved. */
	fd = nsctl_ns_open_own(NSCTL_TYPE_UTS, false);
	if (fd < 0 || fstat(fd, &st) < 0 || st.st_ino != o.main_ino)
		return __LINE__;
	close(fd);
	close(o.main_fd);
	return o.failed;
}

static void test_open_own_thread(void **state)
{
	if (geteuid() != 0)
		skip(); /* a UTS namespace for one thread needs CAP_SYS_ADMIN */
	assert_int_equal(own_thread_run(true), 0);
}

/*
 * The same with no /proc: in a child, /proc is covered by an empty tmpfs in a
 * mount namespace of its own, and only a thread's pidfd (PIDFD_THREAD, 6.9)
 * and its namespace ioctls (6.11) can tell.
 */
static void test_open_own_thread_without_proc(void **state)
{
	int wstatus, pidfd;
	pid_t pid;

	if (geteuid() != 0)
		skip();
	/* A kernel before 6.11 has no pidfd namespace ioctls: -ENOENT is all it can say. */
	pidfd = (int)syscall(SYS_pidfd_open, getpid(), 0);
	if (pidfd < 0)
		skip();
	{
		int fd = ioctl(pidfd, _IO(0xFF, 7), 0); /* PIDFD_GET_UTS_NAMESPACE */

		close(pidfd);
		if (fd < 0)
			skip();
		close(fd);
	}
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct stat st;

		if (unshare(CLONE_NEWNS) < 0 ||
		    (mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) < 0 &&
		     mount("none", "/proc", "none", MS_REC | MS_PRIVATE, NULL) < 0) ||
		    mount("none", "/proc", "tmpfs", 0, NULL) < 0 || stat("/proc/self", &st) == 0)
			_exit(100);
		_exit(own_thread_run(false) == 0 ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &wstatus, 0), pid);
	assert_true(WIFEXITED(wstatus));
	if (WEXITSTATUS(wstatus) == 100)
		skip();
	assert_int_equal(WEXITSTATUS(wstatus), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_check_rejects_other_files),
		cmocka_unit_test(test_identify),
		cmocka_unit_test(test_identify_sized),
		cmocka_unit_test(test_id_equal_by_type_and_inode),
		cmocka_unit_test(test_open_path),
		cmocka_unit_test(test_owner_and_parent),
		cmocka_unit_test(test_parent_of_child_user_namespace),
		cmocka_unit_test(test_same),
		cmocka_unit_test(test_check_pin),
		cmocka_unit_test(test_open_id),
		cmocka_unit_test(test_open_own),
		cmocka_unit_test(test_open_own_thread),
		cmocka_unit_test(test_open_own_thread_without_proc),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
