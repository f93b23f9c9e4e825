// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The fuzz build's stand-ins: exit() that returns to the fuzzer, and, for
 * the command-line targets, system calls that must never run while parsing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
