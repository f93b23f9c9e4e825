// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The fuzz build's stand-ins: exit() that returns to the fuzzer, and, for
 * the command-line targets, a parse-only call of main() during which the
 * system calls that act are refused.
 */
#include <dirent.h>
#include <getopt.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "fuzz.h"

static jmp_buf *exit_target;
static int exit_status;

char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

void fuzz_fail(const char *format, ...)
{
	va_list ap;

	va_start(ap, format);
	fputs("fuzz: property broken: ", stderr);
	vfprintf(stderr, format, ap);
	fputc('\n', stderr);
	va_end(ap);
	abort();
}

_Noreturn void __real_exit(int status);
_Noreturn void __wrap_exit(int status);

void __wrap_exit(int status)
{
	jmp_buf *target = exit_target;

	if (target) {
		exit_target = NULL;
		exit_status = status;
		longjmp(*target, 1);
	}
	__real_exit(status);
}

bool fuzz_catch_exit(void (*fn)(void *arg), void *arg, int *ret_status)
{
	jmp_buf target;

	if (setjmp(target)) {
		*ret_status = exit_status;
		return true;
	}
	exit_target = &target;
	fn(arg);
	exit_target = NULL;
	return false;
}

/* Whether a command-line target is inside the parser now (fuzz-cli.c sets it). */
bool fuzz_parsing;

/* The fds open before a call (libFuzzer's, 0-2), as a bitmap of the first 1024. */
#define MAX_FD 1024
static unsigned char fds_before[MAX_FD / 8];

static bool fd_in(const unsigned char *set, int fd)
{
	return fd >= 0 && fd < MAX_FD && (set[fd / 8] & (1u << (fd % 8)));
}

/*
 * Call FN for each fd open now that is not in BEFORE (NULL: record them all
 * in fds_before).  /proc/self/fd, since the fds need not be contiguous.
 */
static void fds_scan(const unsigned char *before, void (*fn)(int fd))
{
	DIR *dir = opendir("/proc/self/fd");
	struct dirent *de;

	if (!dir)
		abort();
	while ((de = readdir(dir))) {
		int fd = atoi(de->d_name);

		if (de->d_name[0] == '.' || fd == dirfd(dir) || fd >= MAX_FD)
			continue;
		if (!before)
			fds_before[fd / 8] |= (unsigned char)(1u << (fd % 8));
		else if (!fd_in(before, fd))
			fn(fd);
	}
	closedir(dir);
}

/* A parse that returned left an fd open: it would reach PROGRAM, or leak in the library. */
static void fd_left_open(int fd)
{
	char path[64], target[256] = "";

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (readlink(path, target, sizeof(target) - 1) < 0)
		target[0] = '\0';
	fuzz_fail("fd %d (%s) left open by a parse-only run", fd, target);
}

/* A parse that ended in exit() loses its fds as a real exit would. */
static void fd_close(int fd)
{
	close(fd);
}

int nsctl_main(int argc, char **argv); /* src/main.c, built with -Dmain=nsctl_main */

struct main_call {
	int argc;
	char **argv;
	int status;
};

static void call_main(void *arg)
{
	struct main_call *call = arg;

	call->status = nsctl_main(call->argc, call->argv);
}

int fuzz_cli_call(int argc, char **argv)
{
	struct main_call call = { argc, argv, 0 };
	int status;

	/* Before each call: libFuzzer and the sanitizers open fds of their own between calls. */
	memset(fds_before, 0, sizeof(fds_before));
	fds_scan(NULL, NULL);
	cli_begin(NULL);
	cli_parse_only = true;
	optind = 0; /* glibc: start getopt afresh, as in a new process */
	fuzz_parsing = true;
	if (!fuzz_catch_exit(call_main, &call, &status)) {
		status = call.status;
		fuzz_parsing = false;
		fds_scan(fds_before, fd_left_open);
	}
	fuzz_parsing = false;
	fds_scan(fds_before, fd_close);
	fuzz_assert(status >= 0 && status <= 255);
	return status;
}

/*
 * Parse only, nothing executed: a subcommand that reaches one of these while
 * fuzzed has gone past its "if (cli_parse_only) return 0;".  That is a bug
 * (the fuzzer runs as root with random arguments), reported as a crash.
 */
#define FORBID(name)                                                                               \
	do {                                                                                       \
		if (fuzz_parsing)                                                                  \
			fuzz_fail("%s() called while parsing: a subcommand misses its "            \
				  "cli_parse_only check",                                          \
				  name);                                                           \
	} while (0)

#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

int __real_execve(const char *path, char *const argv[], char *const envp[]);
int __wrap_execve(const char *path, char *const argv[], char *const envp[]);
int __wrap_execve(const char *path, char *const argv[], char *const envp[])
{
	FORBID("execve");
	return __real_execve(path, argv, envp);
}

int __real_execvp(const char *file, char *const argv[]);
int __wrap_execvp(const char *file, char *const argv[]);
int __wrap_execvp(const char *file, char *const argv[])
{
	FORBID("execvp");
	return __real_execvp(file, argv);
}

int __real_execvpe(const char *file, char *const argv[], char *const envp[]);
int __wrap_execvpe(const char *file, char *const argv[], char *const envp[]);
int __wrap_execvpe(const char *file, char *const argv[], char *const envp[])
{
	FORBID("execvpe");
	return __real_execvpe(file, argv, envp);
}

pid_t __real_fork(void);
pid_t __wrap_fork(void);
pid_t __wrap_fork(void)
{
	FORBID("fork");
	return __real_fork();
}

int __real_unshare(int flags);
int __wrap_unshare(int flags);
int __wrap_unshare(int flags)
{
	FORBID("unshare");
	return __real_unshare(flags);
}

int __real_setns(int fd, int type);
int __wrap_setns(int fd, int type);
int __wrap_setns(int fd, int type)
{
	FORBID("setns");
	return __real_setns(fd, type);
}

int __real_mount(const char *source, const char *target, const char *type, unsigned long flags,
		 const void *data);
int __wrap_mount(const char *source, const char *target, const char *type, unsigned long flags,
		 const void *data);
int __wrap_mount(const char *source, const char *target, const char *type, unsigned long flags,
		 const void *data)
{
	FORBID("mount");
	return __real_mount(source, target, type, flags, data);
}

int __real_umount2(const char *target, int flags);
int __wrap_umount2(const char *target, int flags);
int __wrap_umount2(const char *target, int flags)
{
	FORBID("umount2");
	return __real_umount2(target, flags);
}

int __real_unlink(const char *path);
int __wrap_unlink(const char *path);
int __wrap_unlink(const char *path)
{
	FORBID("unlink");
	return __real_unlink(path);
}

int __real_unlinkat(int dirfd, const char *path, int flags);
int __wrap_unlinkat(int dirfd, const char *path, int flags);
int __wrap_unlinkat(int dirfd, const char *path, int flags)
{
	FORBID("unlinkat");
	return __real_unlinkat(dirfd, path, flags);
}

int __real_mkdir(const char *path, mode_t mode);
int __wrap_mkdir(const char *path, mode_t mode);
int __wrap_mkdir(const char *path, mode_t mode)
{
	FORBID("mkdir");
	return __real_mkdir(path, mode);
}

int __real_kill(pid_t pid, int sig);
int __wrap_kill(pid_t pid, int sig);
int __wrap_kill(pid_t pid, int sig)
{
	FORBID("kill");
	return __real_kill(pid, sig);
}

int __real_sethostname(const char *name, size_t length);
int __wrap_sethostname(const char *name, size_t length);
int __wrap_sethostname(const char *name, size_t length)
{
	FORBID("sethostname");
	return __real_sethostname(name, length);
}

/* clone3, pidfd_open, pidfd_send_signal and the new mount API go through syscall(). */
long __real_syscall(long number, ...);
long __wrap_syscall(long number, ...);
long __wrap_syscall(long number, ...)
{
	va_list ap;
	long a[6];

	FORBID("syscall");
	va_start(ap, number);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	return __real_syscall(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}

/* What would change the process itself, or start a helper (newuidmap). */
int __real_chroot(const char *path);
int __wrap_chroot(const char *path);
int __wrap_chroot(const char *path)
{
	FORBID("chroot");
	return __real_chroot(path);
}

int __real_chdir(const char *path);
int __wrap_chdir(const char *path);
int __wrap_chdir(const char *path)
{
	FORBID("chdir");
	return __real_chdir(path);
}

int __real_fchdir(int fd);
int __wrap_fchdir(int fd);
int __wrap_fchdir(int fd)
{
	FORBID("fchdir");
	return __real_fchdir(fd);
}

int __real_setuid(uid_t uid);
int __wrap_setuid(uid_t uid);
int __wrap_setuid(uid_t uid)
{
	FORBID("setuid");
	return __real_setuid(uid);
}

int __real_setgid(gid_t gid);
int __wrap_setgid(gid_t gid);
int __wrap_setgid(gid_t gid)
{
	FORBID("setgid");
	return __real_setgid(gid);
}

int __real_setgroups(size_t size, const gid_t *list);
int __wrap_setgroups(size_t size, const gid_t *list);
int __wrap_setgroups(size_t size, const gid_t *list)
{
	FORBID("setgroups");
	return __real_setgroups(size, list);
}

int __real_prctl(int option, unsigned long a2, unsigned long a3, unsigned long a4,
		 unsigned long a5);
int __wrap_prctl(int option, unsigned long a2, unsigned long a3, unsigned long a4,
		 unsigned long a5);
int __wrap_prctl(int option, unsigned long a2, unsigned long a3, unsigned long a4, unsigned long a5)
{
	FORBID("prctl");
	return __real_prctl(option, a2, a3, a4, a5);
}

int __real_posix_spawnp(pid_t *pid, const char *file, const void *actions, const void *attr,
			char *const argv[], char *const envp[]);
int __wrap_posix_spawnp(pid_t *pid, const char *file, const void *actions, const void *attr,
			char *const argv[], char *const envp[]);
int __wrap_posix_spawnp(pid_t *pid, const char *file, const void *actions, const void *attr,
			char *const argv[], char *const envp[])
{
	FORBID("posix_spawnp");
	return __real_posix_spawnp(pid, file, actions, attr, argv, envp);
}

/*
 * Opening to write or create: a pin file, uid_map, timens_offsets,
 * cgroup.procs.  Opening to read is validation, and allowed.
 */
#include <fcntl.h>

#define WRITES(flags) ((flags) & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC))

int __real_open(const char *path, int flags, ...);
int __wrap_open(const char *path, int flags, ...);
int __wrap_open(const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	if (WRITES(flags) && strcmp(path, "/dev/null") != 0)
		FORBID("open for writing");
	va_start(ap, flags);
	mode = (mode_t)va_arg(ap, int);
	va_end(ap);
	return __real_open(path, flags, mode);
}

int __real_openat(int dirfd, const char *path, int flags, ...);
int __wrap_openat(int dirfd, const char *path, int flags, ...);
int __wrap_openat(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	if (WRITES(flags))
		FORBID("openat for writing");
	va_start(ap, flags);
	mode = (mode_t)va_arg(ap, int);
	va_end(ap);
	return __real_openat(dirfd, path, flags, mode);
}
