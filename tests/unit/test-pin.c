// SPDX-License-Identifier: LGPL-2.1-or-later
/* Unit tests of lib/pin.c: names, and pins made and removed for real (as root). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "nsctl.h"
#include "type-count.h"

static void test_name_path(void **state)
{
	char buf[PATH_MAX], long_name[NAME_MAX + 2];

	assert_int_equal(nsctl_pin_name_path(NSCTL_TYPE_NET, "blue", buf, sizeof(buf)),
			 (int)strlen("/run/netns/blue"));
	assert_string_equal(buf, "/run/netns/blue");
	assert_true(nsctl_pin_name_path(NSCTL_TYPE_UTS, "blue", buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "/run/nsctl/uts/blue");
	assert_true(nsctl_pin_name_path(NSCTL_TYPE_MNT, "blue", buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "/run/nsctl/mnt/blue");

	assert_int_equal(nsctl_pin_name_path(NSCTL_TYPE_NET, "", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(nsctl_pin_name_path(NSCTL_TYPE_NET, ".", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(nsctl_pin_name_path(NSCTL_TYPE_NET, "..", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(nsctl_pin_name_path(NSCTL_TYPE_NET, "a/b", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(nsctl_pin_name_path(NSCTL_TYPE_NET, NULL, buf, sizeof(buf)), -EINVAL);
	assert_int_equal(nsctl_pin_name_path(TYPE_COUNT, "a", buf, sizeof(buf)), -EINVAL);
	memset(long_name, 'x', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	assert_int_equal(nsctl_pin_name_path(NSCTL_TYPE_NET, long_name, buf, sizeof(buf)), -EINVAL);
	assert_int_equal(nsctl_pin_name_path(NSCTL_TYPE_NET, "blue", buf, 5), -ENOBUFS);

	/* The directories of the names, as ip netns and the man page place them. */
	assert_int_equal(nsctl_pin_name_dir(NSCTL_TYPE_NET, buf, sizeof(buf)), 10);
	assert_string_equal(buf, "/run/netns");
	assert_int_equal(nsctl_pin_name_dir(NSCTL_TYPE_TIME, buf, sizeof(buf)), 15);
	assert_string_equal(buf, "/run/nsctl/time");
	assert_int_equal(nsctl_pin_name_dir(NSCTL_TYPE_NET, buf, 10), -ENOBUFS);
	assert_int_equal(nsctl_pin_name_dir(TYPE_COUNT, buf, sizeof(buf)), -EINVAL);
	assert_int_equal(nsctl_pin_name_dir(NSCTL_TYPE_NET, NULL, 0), -EINVAL);
}

static void test_name_types_of_missing_name(void **state)
{
	unsigned types = 99;
	char name[64];

	snprintf(name, sizeof(name), "nsctl-unit-none-%d", (int)getpid());
	assert_int_equal(nsctl_pin_name_types(name, &types), 0);
	assert_int_equal(types, 0);
	assert_int_equal(nsctl_pin_name_types("a/b", &types), -EINVAL);
	assert_int_equal(nsctl_pin_name_types("x", NULL), -EINVAL);
}

/* A child in a new UTS namespace, waiting; its namespace fd. */
static pid_t start_uts_child(int *ret_nsfd)
{
	int pipefd[2];
	char c, path[64];
	pid_t pid;

	assert_int_equal(pipe(pipefd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (unshare(CLONE_NEWUTS) < 0)
			_exit(1);
		(void)!write(pipefd[1], "x", 1);
		pause();
		_exit(0);
	}
	close(pipefd[1]);
	if (read(pipefd[0], &c, 1) != 1) {
		close(pipefd[0]);
		waitpid(pid, NULL, 0);
		return -1;
	}
	close(pipefd[0]);
	snprintf(path, sizeof(path), "/proc/%d/ns/uts", (int)pid);
	*ret_nsfd = open(path, O_RDONLY | O_CLOEXEC);
	assert_true(*ret_nsfd >= 0);
	return pid;
}

static void test_create_list_remove(void **state)
{
	char dir[] = "/tmp/nsctl-unit-pin-XXXXXX", path[128], link[128], other[128];
	struct nsctl_pin_list *pins = NULL;
	const struct nsctl_pin *pin;
	struct stat st, ns_st;
	bool listed = false;
	int nsfd = -1;
	pid_t pid;

	if (geteuid() != 0)
		skip();
	pid = start_uts_child(&nsfd);
	assert_true(pid > 0);
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/uts", dir);
	snprintf(link, sizeof(link), "%s/link", dir);

	/* 1: made by this call; 0 below: already there, which a rollback must leave. */
	assert_int_equal(nsctl_pin_create(nsfd, path, 0), 1);
	assert_int_equal(fstat(nsfd, &ns_st), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_ino, ns_st.st_ino);
	/* The same namespace again: nothing to do. */
	assert_int_equal(nsctl_pin_create(nsfd, path, 0), 0);
	assert_int_equal(nsctl_pin_create(nsfd, path, 1), -EINVAL);
	/* A symlink is never followed, dangling or not. */
	assert_int_equal(symlink("/nonexistent-nsctl", link), 0);
	assert_int_equal(nsctl_pin_create(nsfd, link, 0), -ELOOP);
	assert_int_equal(lstat("/nonexistent-nsctl", &st), -1);
	/* Anything else already there is refused, and a FIFO is not opened (it would block). */
	snprintf(other, sizeof(other), "%s/fifo", dir);
	assert_int_equal(mkfifo(other, 0600), 0);
	assert_int_equal(nsctl_pin_create(nsfd, other, 0), -EEXIST);
	assert_int_equal(nsctl_pin_remove(other), -ENOTTY);
	assert_int_equal(unlink(other), 0);

	assert_int_equal(nsctl_pin_list_scan(TYPES_ALL, &pins), 0);
	for (size_t i = 0; (pin = nsctl_pin_list_get(pins, i)); i++)
		if (strcmp(pin->path, path) == 0) {
			listed = true;
			assert_int_equal(pin->size, sizeof(*pin));
			assert_int_equal(pin->type, NSCTL_TYPE_UTS);
			assert_int_equal(pin->ino, ns_st.st_ino);
		}
	assert_true(listed);
	assert_null(nsctl_pin_list_get(pins, nsctl_pin_list_count(pins)));
	nsctl_pin_list_free(pins);
	assert_int_equal(nsctl_pin_list_scan(NSCTL_TYPE_BIT(NSCTL_TYPE_NET), &pins), 0);
	for (size_t i = 0; (pin = nsctl_pin_list_get(pins, i)); i++)
		assert_string_not_equal(pin->path, path);
	nsctl_pin_list_free(pins);

	assert_int_equal(nsctl_pin_remove(link), -ENOTTY);
	assert_int_equal(nsctl_pin_remove(dir), -ENOTTY);
	assert_int_equal(nsctl_pin_remove(path), 0);
	assert_int_equal(stat(path, &st), -1);
	assert_int_equal(nsctl_pin_remove(path), -ENOENT);

	assert_int_equal(nsctl_pin_create(-1, path, 0), -EBADF);
	assert_int_equal(nsctl_pin_create(nsfd, "", 0), -EINVAL);
	assert_int_equal(nsctl_pin_create(nsfd, NULL, 0), -EINVAL);
	unlink(link);
	rmdir(dir);
	close(nsfd);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

static void test_create_rejects_non_namespace(void **state)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	assert_int_equal(nsctl_pin_create(fd, "/tmp/never-made-by-nsctl", 0), -ENOTTY);
	assert_int_equal(access("/tmp/never-made-by-nsctl", F_OK), -1);
	assert_int_equal(nsctl_pin_create_name(fd, "x", 0), -ENOTTY);
	close(fd);
	assert_int_equal(nsctl_pin_list_scan(TYPES_ALL, NULL), -EINVAL);
	nsctl_pin_list_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_name_path),
		cmocka_unit_test(test_name_types_of_missing_name),
		cmocka_unit_test(test_create_list_remove),
		cmocka_unit_test(test_create_rejects_non_namespace),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
