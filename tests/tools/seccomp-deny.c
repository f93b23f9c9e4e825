// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Test tool: run a command as if on an older kernel.  A seccomp filter makes
 * the chosen system calls fail with ENOSYS and the chosen ioctls with ENOTTY
 * (or the errno given after a colon), then the command is exec'd.  Before the
 * exec each denial is probed with harmless arguments, so a test never passes
 * because the filter silently did nothing.
 *
 * Usage: seccomp-deny [-s SYSCALL[:ERRNO]]... [-i IOCTL[:ERRNO]]... -- COMMAND [ARG...]
 *        seccomp-deny --list
 * -s waitid-pidfd denies waitid(P_PIDFD, ...) alone; -s unshare-newtime and
 * -s setns-newtime deny unshare() and setns() with CLONE_NEWTIME among their flags.
 * -s setns-pidfd denies setns() with more than one type in its flags, which
 *    only a pidfd takes (Linux 5.8), with EINVAL as an older kernel says to a
 *    pidfd.  A pidfd join of a single type looks like an nsfd one and passes.
 * -s open_by_handle_at fails with EBADF, name_to_handle_at with EOPNOTSUPP, as
 *    before Linux 6.18 for namespace files.
 * -s clone-pidfd denies clone() with CLONE_PIDFD among its flags (EINVAL, as before 5.2).
 * Groups: -s pidfd (pidfd_open, pidfd_send_signal, pidfd_getfd, clone-pidfd),
 *         -s nsfs-handles (open_by_handle_at, name_to_handle_at),
 *         -s newmount (open_tree move_mount fsopen fsconfig fsmount fspick mount_setattr),
 *         -i pidfd-ns (PIDFD_GET_*_NAMESPACE), -i nsfs (every NS_GET_* ioctl).
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define AUDIT_ARCH_NATIVE AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define AUDIT_ARCH_NATIVE AUDIT_ARCH_AARCH64
#else
#error "seccomp-deny: add this architecture's AUDIT_ARCH"
#endif

/* The numbers are the same on every architecture since Linux 5.1 (the unified table). */
static const struct {
	const char *name, *group;
	long nr;
	long arg0;          /* deny only when argument ARG_INDEX is this, or -1 */
	int old_error;      /* what an older kernel answers, when not ENOSYS */
	bool arg0_bits;     /* deny when that argument has any bit of arg0 set */
	int arg_index;      /* which argument: 0, the first, unless said */
	bool several_types; /* deny only when the second argument has several bits */
} syscalls[] = {
	{ "pidfd_send_signal", "pidfd", 424, -1 },
	{ "open_tree", "newmount", 428, -1 },
	{ "move_mount", "newmount", 429, -1 },
	{ "fsopen", "newmount", 430, -1 },
	{ "fsconfig", "newmount", 431, -1 },
	{ "fsmount", "newmount", 432, -1 },
	{ "fspick", "newmount", 433, -1 },
	{ "pidfd_open", "pidfd", 434, -1 },
	{ "clone3", NULL, 435, -1 },
	/* clone() with CLONE_PIDFD among its flags: EINVAL before Linux 5.2. */
	{ "clone-pidfd", "pidfd", __NR_clone, 0x1000, EINVAL, true },
	{ "close_range", NULL, 436, -1 },
	{ "pidfd_getfd", "pidfd", 438, -1 },
	{ "mount_setattr", "newmount", 442, -1 },
	/* waitid(P_PIDFD, ...) of Linux 5.4: before it, EINVAL for the unknown idtype. */
	{ "waitid-pidfd", NULL, __NR_waitid, 3, EINVAL },
	/* unshare() with CLONE_NEWTIME among its flags: EINVAL before Linux 5.6. */
	{ "unshare-newtime", NULL, __NR_unshare, 0x80, EINVAL, true },
	/* setns() of a pidfd with CLONE_NEWTIME among its flags (the second argument). */
	{ "setns-newtime", NULL, __NR_setns, 0x80, EINVAL, true, 1 },
	/* setns(pidfd, CLONE_NEWUTS | CLONE_NEWNET ...) of Linux 5.8: EINVAL before. */
	{ "setns-pidfd", NULL, __NR_setns, -1, EINVAL, false, 0, true },
	/*
	 * Namespace file handles (Linux 6.18): before, open_by_handle_at() takes
	 * FD_NSFS_ROOT for a bad fd (EBADF), or, before 6.9, refuses a caller
	 * without CAP_DAC_READ_SEARCH first (EPERM); name_to_handle_at() on an
	 * nsfs file answers EOPNOTSUPP.
	 */
	{ "open_by_handle_at", "nsfs-handles", __NR_open_by_handle_at, -1, EBADF },
	{ "name_to_handle_at", "nsfs-handles", __NR_name_to_handle_at, -1, EOPNOTSUPP },
};

#define NSIO 0xb7
static const struct {
	const char *name, *group;
	unsigned long request;
} ioctls[] = {
	{ "NS_GET_USERNS", "nsfs", _IO(NSIO, 0x1) },
	{ "NS_GET_PARENT", "nsfs", _IO(NSIO, 0x2) },
	{ "NS_GET_NSTYPE", "nsfs", _IO(NSIO, 0x3) },
	{ "NS_GET_OWNER_UID", "nsfs", _IO(NSIO, 0x4) },
	{ "NS_GET_ID", "nsfs", _IOR(NSIO, 0xd, uint64_t) },
	{ "PIDFD_GET_CGROUP_NAMESPACE", "pidfd-ns", _IO(0xFF, 1) },
	{ "PIDFD_GET_IPC_NAMESPACE", "pidfd-ns", _IO(0xFF, 2) },
	{ "PIDFD_GET_MNT_NAMESPACE", "pidfd-ns", _IO(0xFF, 3) },
	{ "PIDFD_GET_NET_NAMESPACE", "pidfd-ns", _IO(0xFF, 4) },
	{ "PIDFD_GET_PID_NAMESPACE", "pidfd-ns", _IO(0xFF, 5) },
	{ "PIDFD_GET_PID_FOR_CHILDREN_NAMESPACE", "pidfd-ns", _IO(0xFF, 6) },
	{ "PIDFD_GET_TIME_NAMESPACE", "pidfd-ns", _IO(0xFF, 7) },
	{ "PIDFD_GET_TIME_FOR_CHILDREN_NAMESPACE", "pidfd-ns", _IO(0xFF, 8) },
	{ "PIDFD_GET_USER_NAMESPACE", "pidfd-ns", _IO(0xFF, 9) },
	{ "PIDFD_GET_UTS_NAMESPACE", "pidfd-ns", _IO(0xFF, 10) },
};

static const struct {
	const char *name;
	int value;
} errnos[] = {
	{ "ENOSYS", ENOSYS }, { "ENOTTY", ENOTTY }, { "EINVAL", EINVAL },
	{ "EPERM", EPERM },   { "EACCES", EACCES }, { "EOPNOTSUPP", EOPNOTSUPP },
	{ "EBADF", EBADF },
};

struct denial {
	bool is_ioctl;
	unsigned long what; /* the syscall number or the ioctl request */
	long arg0;          /* a system call's argument ARG_INDEX, or -1 for any */
	bool arg0_bits;     /* arg0 is a set of bits, any of which denies */
	int arg_index;
	int error;
	bool several_types; /* only when the second argument has more than one bit */
};

static struct denial denials[64];
static size_t n_denials;

static _Noreturn void usage(const char *why)
{
	fprintf(stderr,
		"seccomp-deny: %s\n"
		"usage: seccomp-deny [-s SYSCALL[:ERRNO]]... [-i IOCTL[:ERRNO]]... -- COMMAND "
		"[ARG...]\n",
		why);
	exit(2);
}

static void add(bool is_ioctl, unsigned long what, long arg0, bool arg0_bits, int arg_index,
		int error, bool several_types)
{
	if (n_denials >= sizeof(denials) / sizeof(denials[0]))
		usage("too many denials");
	denials[n_denials++] =
	    (struct denial){ is_ioctl, what, arg0, arg0_bits, arg_index, error, several_types };
}

static void parse(bool is_ioctl, const char *arg)
{
	char name[64];
	const char *colon = strchr(arg, ':');
	int error = is_ioctl ? ENOTTY : ENOSYS;
	size_t found = 0;

	snprintf(name, sizeof(name), "%.*s", (int)(colon ? (size_t)(colon - arg) : strlen(arg)),
		 arg);
	if (colon) {
		size_t i;

		for (i = 0; i < sizeof(errnos) / sizeof(errnos[0]); i++)
			if (strcmp(errnos[i].name, colon + 1) == 0)
				break;
		if (i == sizeof(errnos) / sizeof(errnos[0]))
			usage("unknown errno name");
		error = errnos[i].value;
	}
	if (is_ioctl) {
		for (size_t i = 0; i < sizeof(ioctls) / sizeof(ioctls[0]); i++)
			if (strcmp(ioctls[i].name, name) == 0 ||
			    (ioctls[i].group && strcmp(ioctls[i].group, name) == 0)) {
				add(true, ioctls[i].request, -1, false, 0, error, false);
				found++;
			}
	} else {
		for (size_t i = 0; i < sizeof(syscalls) / sizeof(syscalls[0]); i++)
			if (strcmp(syscalls[i].name, name) == 0 ||
			    (syscalls[i].group && strcmp(syscalls[i].group, name) == 0)) {
				add(false, (unsigned long)syscalls[i].nr, syscalls[i].arg0,
				    syscalls[i].arg0_bits, syscalls[i].arg_index,
				    !colon && syscalls[i].old_error ? syscalls[i].old_error : error,
				    syscalls[i].several_types);
				found++;
			}
	}
	if (!found)
		usage(is_ioctl ? "unknown ioctl name" : "unknown system call name");
}

#define LOAD(field) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, field))
#define RET(value)  BPF_STMT(BPF_RET | BPF_K, (value))

static void install(void)
{
	struct sock_filter program[8 + 8 * 64];
	size_t n = 0;

	program[n++] = (struct sock_filter)LOAD(arch);
	program[n++] =
	    (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_NATIVE, 1, 0);
	program[n++] = (struct sock_filter)RET(SECCOMP_RET_ALLOW);
	program[n++] = (struct sock_filter)LOAD(nr);
	for (size_t i = 0; i < n_denials; i++) {
		if (denials[i].is_ioctl)
			continue;
		if (denials[i].several_types) {
			/* nr matches: A = args[1]; deny when A & (A - 1), then reload nr. */
			program[n++] = (struct sock_filter)BPF_JUMP(
			    BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)denials[i].what, 0, 6);
			program[n++] = (struct sock_filter)LOAD(args[1]);
			program[n++] = (struct sock_filter)BPF_STMT(BPF_MISC | BPF_TAX, 0);
			program[n++] = (struct sock_filter)BPF_STMT(BPF_ALU | BPF_SUB | BPF_K, 1);
			program[n++] = (struct sock_filter)BPF_STMT(BPF_ALU | BPF_AND | BPF_X, 0);
			program[n++] =
			    (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0);
			program[n++] =
			    (struct sock_filter)RET(SECCOMP_RET_ERRNO | (uint32_t)denials[i].error);
			program[n++] = (struct sock_filter)LOAD(nr);
			continue;
		}
		if (denials[i].arg0 >= 0) {
			/* nr matches: look at the argument, then reload nr either way. */
			program[n++] = (struct sock_filter)BPF_JUMP(
			    BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)denials[i].what, 0, 3);
			program[n++] = (struct sock_filter)BPF_STMT(
			    BPF_LD | BPF_W | BPF_ABS,
			    offsetof(struct seccomp_data, args) +
				sizeof(uint64_t) * (uint32_t)denials[i].arg_index);
			program[n++] = (struct sock_filter)BPF_JUMP(
			    BPF_JMP | (denials[i].arg0_bits ? BPF_JSET : BPF_JEQ) | BPF_K,
			    (uint32_t)denials[i].arg0, 0, 1);
			program[n++] =
			    (struct sock_filter)RET(SECCOMP_RET_ERRNO | (uint32_t)denials[i].error);
			program[n++] = (struct sock_filter)LOAD(nr);
			continue;
		}
		program[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
							    (uint32_t)denials[i].what, 0, 1);
		program[n++] =
		    (struct sock_filter)RET(SECCOMP_RET_ERRNO | (uint32_t)denials[i].error);
	}
	program[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_ioctl, 1, 0);
	program[n++] = (struct sock_filter)RET(SECCOMP_RET_ALLOW);
	/* The request is an unsigned int to the kernel: its low 32 bits (little-endian). */
	program[n++] = (struct sock_filter)LOAD(args[1]);
	for (size_t i = 0; i < n_denials; i++) {
		if (!denials[i].is_ioctl)
			continue;
		program[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
							    (uint32_t)denials[i].what, 0, 1);
		program[n++] =
		    (struct sock_filter)RET(SECCOMP_RET_ERRNO | (uint32_t)denials[i].error);
	}
	program[n++] = (struct sock_filter)RET(SECCOMP_RET_ALLOW);

	struct sock_fprog fprog = { .len = (unsigned short)n, .filter = program };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog) < 0) {
		perror("seccomp-deny: installing the filter");
		exit(125);
	}
}

/* Each denied call, with arguments that do nothing, must now fail with its errno. */
static void probe(void)
{
	for (size_t i = 0; i < n_denials; i++) {
		long r;

		errno = 0;
		if (denials[i].is_ioctl)
			r = ioctl(-1, denials[i].what, NULL);
		else if (denials[i].several_types)
			/* Two types: uts and ipc. */
			r = syscall((long)denials[i].what, -1L, 0x0c000000L, 0L, 0L, 0L);
		else if (denials[i].arg_index == 1)
			r = syscall((long)denials[i].what, -1L, denials[i].arg0, 0L, 0L, 0L);
		else
			r = syscall((long)denials[i].what,
				    denials[i].arg0 >= 0 ? denials[i].arg0 : -1L, 0L, 0L, 0L, 0L);
		if (r != -1 || errno != denials[i].error) {
			fprintf(stderr, "seccomp-deny: %s %#lx is not denied (%ld, %s)\n",
				denials[i].is_ioctl ? "ioctl" : "system call", denials[i].what, r,
				strerror(errno));
			exit(125);
		}
	}
}

int main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		if (strcmp(argv[i], "--list") == 0) {
			for (size_t j = 0; j < sizeof(syscalls) / sizeof(syscalls[0]); j++)
				printf("-s %s\n", syscalls[j].name);
			for (size_t j = 0; j < sizeof(ioctls) / sizeof(ioctls[0]); j++)
				printf("-i %s\n", ioctls[j].name);
			return 0;
		}
		if ((strcmp(argv[i], "-s") == 0 || strcmp(argv[i], "-i") == 0) && i + 1 < argc) {
			parse(argv[i][1] == 'i', argv[i + 1]);
			i++;
			continue;
		}
		usage("unknown option");
	}
	if (i >= argc)
		usage("no command");
	install();
	probe();
	execvp(argv[i], argv + i);
	fprintf(stderr, "seccomp-deny: %s: %s\n", argv[i], strerror(errno));
	return 127;
}
