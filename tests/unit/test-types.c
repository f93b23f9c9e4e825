// SPDX-License-Identifier: LGPL-2.1-or-later
/* Unit tests of lib/types.c: the table of types and the parsers of names and PIDs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <string.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "nsctl.h"
#include "type-count.h"

static void test_table_is_complete(void **state)
{
	unsigned long flags = 0;

	type_foreach (t) {
		const struct nsctl_type_info *info = nsctl_type_get(t);

		assert_non_null(info);
		assert_int_equal(info->type, t);
		assert_non_null(info->name);
		/* Every CLONE_NEW* flag is a single bit, and no two types share one. */
		assert_int_equal(__builtin_popcountl(info->clone_flag), 1);
		assert_int_equal(flags & info->clone_flag, 0);
		flags |= info->clone_flag;
	}
	assert_null(nsctl_type_get(TYPE_COUNT));
	assert_null(nsctl_type_get((enum nsctl_type) - 1));
	assert_string_equal(nsctl_type_get(NSCTL_TYPE_MNT)->name, "mnt");
	assert_int_equal(nsctl_type_get(NSCTL_TYPE_NET)->clone_flag, CLONE_NEWNET);
	assert_string_equal(nsctl_type_get(NSCTL_TYPE_PID)->children_name, "pid_for_children");
	assert_string_equal(nsctl_type_get(NSCTL_TYPE_TIME)->children_name, "time_for_children");
	assert_null(nsctl_type_get(NSCTL_TYPE_NET)->children_name);
}

/* The numbers are ABI: fixed for ever, new types appended (nsctl.h). */
static void test_type_numbers_are_fixed(void **state)
{
	static const struct {
		enum nsctl_type type;
		int number;
		const char *name;
	} fixed[] = {
		{ NSCTL_TYPE_CGROUP, 0, "cgroup" }, { NSCTL_TYPE_IPC, 1, "ipc" },
		{ NSCTL_TYPE_MNT, 2, "mnt" },       { NSCTL_TYPE_NET, 3, "net" },
		{ NSCTL_TYPE_PID, 4, "pid" },       { NSCTL_TYPE_TIME, 5, "time" },
		{ NSCTL_TYPE_USER, 6, "user" },     { NSCTL_TYPE_UTS, 7, "uts" },
	};

	assert_int_equal(TYPE_COUNT, 8);
	assert_int_equal(TYPES_ALL, 0xff);
	/* What a caller asks at run time: the eight types, and no row past the last. */
	assert_int_equal(nsctl_type_all(), 0xff);
	assert_null(nsctl_type_get((enum nsctl_type)8));
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		assert_int_equal((int)fixed[i].type, fixed[i].number);
		assert_string_equal(nsctl_type_get(fixed[i].type)->name, fixed[i].name);
	}
}

static void test_type_from_name(void **state)
{
	enum nsctl_type t = TYPE_COUNT;

	assert_int_equal(nsctl_type_from_name("mnt", &t), 0);
	assert_int_equal(t, NSCTL_TYPE_MNT);
	/* The option's spelling is the command's business (src/parse.c), not the library's. */
	assert_int_equal(nsctl_type_from_name("mount", &t), -EINVAL);
	type_foreach (u) {
		assert_int_equal(nsctl_type_from_name(nsctl_type_get(u)->name, &t), 0);
		assert_int_equal(t, u);
	}
	t = TYPE_COUNT;
	assert_int_equal(nsctl_type_from_name("", &t), -EINVAL);
	assert_int_equal(nsctl_type_from_name("nett", &t), -EINVAL);
	assert_int_equal(nsctl_type_from_name("ne", &t), -EINVAL);
	assert_int_equal(nsctl_type_from_name("NET", &t), -EINVAL);
	assert_int_equal(nsctl_type_from_name(NULL, &t), -EINVAL);
	assert_int_equal(nsctl_type_from_name("net", NULL), -EINVAL);
	/* Out-parameters are untouched on failure. */
	assert_int_equal(t, TYPE_COUNT);
}

static void test_type_from_clone_flag(void **state)
{
	enum nsctl_type t = TYPE_COUNT;

	assert_int_equal(nsctl_type_from_clone_flag(CLONE_NEWUSER, &t), 0);
	assert_int_equal(t, NSCTL_TYPE_USER);
	assert_int_equal(nsctl_type_from_clone_flag(CLONE_NEWNS, &t), 0);
	assert_int_equal(t, NSCTL_TYPE_MNT);
	assert_int_equal(nsctl_type_from_clone_flag(0, &t), -EINVAL);
	assert_int_equal(nsctl_type_from_clone_flag(CLONE_NEWNET | CLONE_NEWUTS, &t), -EINVAL);
	assert_int_equal(nsctl_type_from_clone_flag(CLONE_VM, &t), -EINVAL);
	assert_int_equal(nsctl_type_from_clone_flag(CLONE_NEWNET, NULL), -EINVAL);
}

static void test_types_to_clone_flags(void **state)
{
	assert_int_equal(nsctl_type_to_clone_flags(0), 0);
	assert_int_equal(nsctl_type_to_clone_flags(NSCTL_TYPE_BIT(NSCTL_TYPE_PID) |
						   NSCTL_TYPE_BIT(NSCTL_TYPE_USER)),
			 CLONE_NEWPID | CLONE_NEWUSER);
	assert_int_equal(nsctl_type_to_clone_flags(TYPES_ALL),
			 CLONE_NEWCGROUP | CLONE_NEWIPC | CLONE_NEWNS | CLONE_NEWNET |
			     CLONE_NEWPID | CLONE_NEWTIME | CLONE_NEWUSER | CLONE_NEWUTS);
}

static void test_types_supported(void **state)
{
	unsigned types = nsctl_type_supported();

	/* Every kernel nsctl supports has these; the machine's others are checked by the CLI tests.
	 */
	assert_true(types & NSCTL_TYPE_BIT(NSCTL_TYPE_MNT));
	assert_true(types & NSCTL_TYPE_BIT(NSCTL_TYPE_NET));
	assert_int_equal(types & ~TYPES_ALL, 0);
	assert_int_equal(nsctl_type_supported(), types);
}

/* pidfd_open() says ENOSYS from now on, as before Linux 5.3: no fallback through a pidfd. */
static int deny_pidfd_open(void)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_pidfd_open, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog program = { .len = sizeof(filter) / sizeof(filter[0]), .filter = filter };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) < 0)
		return -1;
	/* The filter works, or the test would pass for the wrong reason. */
	return syscall(SYS_pidfd_open, getpid(), 0) < 0 && errno == ENOSYS ? 0 : -1;
}

/*
 * The child of test_types_supported_undumpable, in a fresh image where nothing
 * has asked nsctl_type_supported() yet: an ordinary user, undumpable, as
 * nsctl.h advises a caller about to exec.  Writes "TYPES ERRNO" to FD, ERRNO
 * being what an O_RDONLY open of /proc/self/ns says (the reason for the test).
 */
static int undumpable_child(int fd, bool without_pidfd)
{
	int probe, probe_errno = 0;
	char line[64];
	int n;

	if (without_pidfd && deny_pidfd_open() < 0)
		return 3;
	if (getuid() == 0 && (setgroups(0, NULL) < 0 || setresgid(65534, 65534, 65534) < 0 ||
			      setresuid(65534, 65534, 65534) < 0))
		return 2;
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		return 2;
	probe = open("/proc/self/ns", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (probe < 0)
		probe_errno = errno;
	else
		close(probe);
	n = snprintf(line, sizeof(line), "%u %d", nsctl_type_supported(), probe_errno);
	return write(fd, line, (size_t)n) == n ? 0 : 2;
}

/* This test program, as main() was started: its children exec it again. */
static const char *program;

static void types_supported_undumpable(bool without_pidfd)
{
	unsigned want = 0, got = 0;
	int fds[2], wstatus, probe_errno = -1;
	char line[64] = "", fd_text[16];
	ssize_t n;
	pid_t pid;

	type_foreach (t) {
		char path[64];
		struct stat st;

		snprintf(path, sizeof(path), "/proc/self/ns/%s", nsctl_type_get(t)->name);
		if (lstat(path, &st) == 0)
			want |= NSCTL_TYPE_BIT(t);
	}
	assert_int_not_equal(want, 0);
	assert_int_equal(pipe2(fds, O_CLOEXEC), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* The pipe's write end survives the exec; the image is fresh (argv[0],
		 * not /proc/self/exe, which under valgrind is valgrind's tool). */
		snprintf(fd_text, sizeof(fd_text), "%d", fds[1]);
		if (fcntl(fds[1], F_SETFD, 0) == 0)
			execl(program, "test-types",
			      without_pidfd ? "--undumpable-child-without-pidfd"
					    : "--undumpable-child",
			      fd_text, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	n = read(fds[0], line, sizeof(line) - 1);
	close(fds[0]);
	assert_int_equal(waitpid(pid, &wstatus, 0), pid);
	assert_true(WIFEXITED(wstatus));
	assert_int_equal(WEXITSTATUS(wstatus), 0);
	assert_true(n > 0);
	line[n] = '\0';
	assert_int_equal(sscanf(line, "%u %d", &got, &probe_errno), 2);
	/* The premise: undumpable, the directory cannot be opened to read. */
	assert_int_equal(probe_errno, EACCES);
	assert_int_equal(got, want);
}

static void test_types_supported_undumpable(void **state)
{
	(void)state;
	types_supported_undumpable(false);
}

/* The same where no pidfd can stand in for /proc/self/ns (Linux before 5.3 or 6.11). */
static void test_types_supported_undumpable_without_pidfd(void **state)
{
	(void)state;
	types_supported_undumpable(true);
}

int main(int argc, char **argv)
{
	program = argv[0];
	if (argc == 3 && strcmp(argv[1], "--undumpable-child") == 0)
		return undumpable_child(atoi(argv[2]), false);
	if (argc == 3 && strcmp(argv[1], "--undumpable-child-without-pidfd") == 0)
		return undumpable_child(atoi(argv[2]), true);

	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_is_complete),
		cmocka_unit_test(test_type_numbers_are_fixed),
		cmocka_unit_test(test_type_from_name),
		cmocka_unit_test(test_type_from_clone_flag),
		cmocka_unit_test(test_types_to_clone_flags),
		cmocka_unit_test(test_types_supported),
		cmocka_unit_test(test_types_supported_undumpable),
		cmocka_unit_test(test_types_supported_undumpable_without_pidfd),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
