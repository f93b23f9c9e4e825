// SPDX-License-Identifier: LGPL-2.1-or-later
/* Starting a program in new namespaces, safe by construction: the child makes system calls only. */
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "internal.h"
#include "syscalls.h"

#if NSCTL_ASAN
#include <sanitizer/asan_interface.h>
#endif
/* valgrind turns CLONE_VM | CLONE_VFORK into a fork (the parent still waits): see nsctl_spawn(). */
#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND 0
#endif

/*
 * The child's own stack when it shares the parent's memory.  Nothing of the
 * size of argv or envp is ever put on it (the fallback's argument array for a
 * script without "#!" is in the mapping, made room for by the parent), so a
 * fixed size is enough for the few frames of spawn_child(); the guard page
 * below it turns an overflow into a SIGSEGV of the child, never a write into
 * the parent's memory.
 */
#define CHILD_STACK_SIZE (64 * 1024)

/*
 * The guard below the child's stack: 64 KiB is a page or more on every
 * architecture Linux runs on (4 to 64 KiB pages), and needs no sysconf(),
 * whose page of libc nothing else on the way to the start touches.
 */
#define GUARD_SIZE (64 * 1024)

/* The kernel's sigset_t, as rt_sigprocmask() takes it: _NSIG - 1 bits. */
#define KERNEL_SIGSET_SIZE ((_NSIG - 1 + 7) / 8)

/*
 * The kernel's struct sigaction, as rt_sigaction() takes it: the handler
 * first, then the flags (x86-64, arm64 and most others have sa_restorer;
 * where it is missing, this struct is only larger).  The child only reads
 * the handler and sets SIG_DFL or SIG_IGN, for which every other field is 0.
 * MIPS puts the flags first; sparc and alpha take the restorer as an
 * argument of rt_sigaction() of its own.
 */
#if defined(__mips__) || defined(__sparc__) || defined(__alpha__)
#error "spawn: this architecture's struct sigaction of the kernel differs"
#endif
struct kernel_sigaction {
	void (*handler)(int);
	unsigned long flags;
	void (*restorer)(void);
	unsigned char mask[KERNEL_SIGSET_SIZE];
};

/* sigismember() without libc: the kernel's bit order, which glibc's sigset_t keeps. */
static bool mask_has(const sigset_t *set, int sig)
{
	const unsigned long *words = (const unsigned long *)set;
	unsigned bits = 8 * sizeof(unsigned long);

	return (words[(unsigned)(sig - 1) / bits] >> ((unsigned)(sig - 1) % bits)) & 1;
}

/* What the child failed at, written by the child only, read once it has exec'd or ended. */
struct spawn_result {
	volatile int step;
	volatile int err;
};

/* Everything the child needs, computed by the parent before the child exists. */
struct spawn_context {
	const struct nsctl_spawn_attr *attr;
	char *const *argv;
	char *const *envp;
	const char *const *paths; /* where to look for PROGRAM, in order (execvp's PATH walk) */
	char **script_argv; /* argc + 2 slots: "/bin/sh" PATH ARG... NULL, filled on ENOEXEC */
	size_t argc;
	/*
	 * [0] the child's end, [1] the parent's.  A pipe for the death signal
	 * alone; a socket pair with a handshake, where the child says "ready"
	 * and the parent "go", and the child's end closing tells the parent the
	 * child has exec'd, ended, or gone on to its own step.
	 */
	int lifeline[2];
	sigset_t child_mask;  /* the mask PROGRAM starts with */
	sigset_t caller_mask; /* the mask at nsctl_spawn(), for a child step */
	bool reset_handlers;  /* the child shares the parent's memory: no handler of it may run */
	bool handshake;     /* a copy, and the parent waits for its end of the lifeline to close */
	bool sync;          /* ... and says "go" after the parent step or the cgroup move */
	bool time_later;    /* the child makes its time namespace itself, for the parent step */
	bool time_in_child; /* ... or, in a new user namespace that must own it, before its exec */
	struct spawn_result *result; /* own_result, or a page shared with a child that is a copy */
	struct spawn_result own_result;
};

void spawn_attr_init(struct nsctl_spawn_attr *attr)
{
	*attr = (struct nsctl_spawn_attr){
		.cgroup_fd = -1,
		.propagation = NSCTL_PROPAGATION_UNCHANGED,
	};
}

void spawn_attr_clear(struct nsctl_spawn_attr *attr)
{
	if (attr->keep != attr->keep_inline)
		free(attr->keep);
	attr->keep = NULL;
	attr->n_keep = 0;
}

NSCTL_EXPORT int nsctl_spawn_attr_new(struct nsctl_spawn_attr **ret_attr)
{
	struct nsctl_spawn_attr *attr;

	if (!ret_attr)
		return -EINVAL;
	attr = malloc(sizeof(*attr));
	if (!attr)
		return -ENOMEM;
	spawn_attr_init(attr);
	*ret_attr = attr;
	return 0;
}

NSCTL_EXPORT void nsctl_spawn_attr_free(struct nsctl_spawn_attr *attr)
{
	if (!attr)
		return;
	spawn_attr_clear(attr);
	free(attr);
}

NSCTL_EXPORT int nsctl_spawn_attr_set_types(struct nsctl_spawn_attr *attr, unsigned types)
{
	if (!attr || (types & ~TYPES_ALL))
		return -EINVAL;
	attr->types = types;
	return 0;
}

NSCTL_EXPORT int nsctl_spawn_attr_set_cgroup(struct nsctl_spawn_attr *attr, int cgroup_fd)
{
	if (!attr || cgroup_fd < -1)
		return -EINVAL;
	attr->cgroup_fd = cgroup_fd;
	return 0;
}

static int compare_ints(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

NSCTL_EXPORT int nsctl_spawn_attr_set_keep_fds(struct nsctl_spawn_attr *attr, const int *fds,
					       size_t n)
{
	int *copy = NULL;
	size_t unique = 0;

	if (!attr || (n && !fds))
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (fds[i] < 0)
			return -EBADF;
	if (n > KEEP_INLINE) {
		copy = malloc(n * sizeof(int));
		if (!copy)
			return -ENOMEM;
	} else if (n)
		copy = attr->keep_inline;
	if (n) {
		/* memmove: FDS may be the very array the attributes hold. */
		memmove(copy, fds, n * sizeof(int));
		/* Sorted here, in the parent: the child only walks the gaps between them. */
		qsort(copy, n, sizeof(int), compare_ints);
		for (size_t i = 0; i < n; i++)
			if (unique == 0 || copy[unique - 1] != copy[i])
				copy[unique++] = copy[i];
	}
	if (attr->keep != attr->keep_inline && attr->keep != copy)
		free(attr->keep);
	attr->keep = copy;
	attr->n_keep = unique;
	return 0;
}

NSCTL_EXPORT int nsctl_spawn_attr_set_keep_all_fds(struct nsctl_spawn_attr *attr, bool all)
{
	if (!attr)
		return -EINVAL;
	attr->keep_all = all;
	return 0;
}

NSCTL_EXPORT int nsctl_spawn_attr_set_die_with_parent(struct nsctl_spawn_attr *attr, bool on)
{
	if (!attr)
		return -EINVAL;
	attr->die_with_parent = on;
	return 0;
}

NSCTL_EXPORT int nsctl_spawn_attr_set_exec_path(struct nsctl_spawn_attr *attr, const char *path)
{
	if (!attr || (path && !*path))
		return -EINVAL;
	attr->exec_path = path;
	return 0;
}

NSCTL_EXPORT int nsctl_spawn_attr_set_new_session(struct nsctl_spawn_attr *attr, bool on)
{
	if (!attr)
		return -EINVAL;
	attr->new_session = on;
	return 0;
}

NSCTL_EXPORT int nsctl_spawn_attr_set_signals(struct nsctl_spawn_attr *attr,
					      const struct nsctl_signal_state *saved)
{
	if (!attr)
		return -EINVAL;
	attr->has_signals = saved != NULL;
	if (saved) {
		attr->mask = saved->mask;
		/* Of a disposition, only "ignored" outlives an exec. */
		attr->sigchld_ignored =
		    saved->sigchld.sa_handler == SIG_IGN && !(saved->sigchld.sa_flags & SA_SIGINFO);
	}
	return 0;
}

NSCTL_EXPORT int nsctl_spawn_attr_set_parent_step(struct nsctl_spawn_attr *attr,
						  nsctl_spawn_parent_step_fn step, void *userdata)
{
	if (!attr)
		return -EINVAL;
	attr->parent_step = step;
	attr->parent_data = userdata;
	return 0;
}

NSCTL_EXPORT int nsctl_spawn_attr_set_child_step(struct nsctl_spawn_attr *attr,
						 nsctl_spawn_child_step_fn step, void *userdata)
{
	if (!attr)
		return -EINVAL;
	attr->child_step = step;
	attr->child_data = userdata;
	return 0;
}

NSCTL_EXPORT int nsctl_spawn_attr_set_propagation(struct nsctl_spawn_attr *attr,
						  enum nsctl_propagation propagation)
{
	if (!attr || (unsigned)propagation > NSCTL_PROPAGATION_SHARED)
		return -EINVAL;
	attr->propagation = propagation;
	return 0;
}

/* NAME (checked: at most 64 bytes), or "" for NULL, into a buffer of UTS_NAME_SIZE. */
static void copy_name(char *buf, const char *name)
{
	size_t length = name ? strnlen(name, UTS_NAME_SIZE - 1) : 0;

	if (length)
		memcpy(buf, name, length);
	buf[length] = '\0';
}

NSCTL_EXPORT int nsctl_spawn_attr_set_uts_names(struct nsctl_spawn_attr *attr, const char *hostname,
						const char *domainname)
{
	int r;

	if (!attr)
		return -EINVAL;
	/* Both checked before either changes: all or nothing. */
	r = hostname ? nsctl_uts_name_check(hostname) : 0;
	if (r >= 0 && domainname)
		r = nsctl_uts_name_check(domainname);
	if (r < 0)
		return r;
	/* (Not snprintf(): two more pages of libc to fault in on the way to the start.) */
	copy_name(attr->hostname, hostname);
	copy_name(attr->domainname, domainname);
	return 0;
}

/*
 * The child.  From here to the exec, only system calls: it may share the
 * parent's memory (and its thread's TLS, its locks, its malloc arenas), so
 * nothing here allocates, takes a lock, uses stdio or calls a glibc wrapper
 * that keeps state (the set*id() family signals every thread of the parent).
 * The failing step and its errno go into the context, and the child ends.
 */
static long child_fail(struct spawn_context *c, int step, int err)
{
	c->result->step = step;
	c->result->err = err > 0 ? -err : -EIO;
	/* Not _exit(): not a noreturn call, so that AddressSanitizer leaves this stack alone. */
	syscall(SYS_exit_group, 127);
	return -1;
}

static bool child_lifeline_dead(int lifeline)
{
	struct pollfd pfd = { .fd = lifeline, .events = POLLIN };

	return syscall(SYS_ppoll, &pfd, 1, &(struct timespec){ 0, 0 }, NULL, 0) > 0 &&
	       (pfd.revents & (POLLHUP | POLLIN));
}

/* execvp()'s walk of PATH, on the list the parent made, with its fallback for scripts. */
static int child_exec(struct spawn_context *c)
{
	bool refused = false;
	int err = ENOENT;

	for (const char *const *path = c->paths; *path; path++) {
		syscall(SYS_execve, *path, c->argv, c->envp);
		err = errno;
		if (err == ENOEXEC) {
			/* No "#!": a shell script, as execvp() and the shells have it. */
			c->script_argv[0] = (char *)"/bin/sh";
			c->script_argv[1] = (char *)*path;
			for (size_t i = 1; i <= c->argc; i++)
				c->script_argv[i + 1] = c->argv[i];
			syscall(SYS_execve, "/bin/sh", c->script_argv, c->envp);
			err = errno;
		}
		switch (err) {
		case EACCES:
			refused = true;
			/* fall through */
		case ENOENT:
		case ENOTDIR:
		case ESTALE:
		case ENODEV:
		case ETIMEDOUT:
			continue;
		default:
			return err;
		}
	}
	return refused ? EACCES : err;
}

/* One byte over the lifeline, either way; EINTR cannot happen: every signal is blocked. */
static bool child_say(int fd, char byte)
{
	return syscall(SYS_write, fd, &byte, 1) == 1;
}

static bool child_hear(int fd, char byte)
{
	char got;

	return syscall(SYS_read, fd, &got, 1) == 1 && got == byte;
}

/*
 * The handshake: in the namespaces, say "ready", wait for the parent's "go"
 * (id maps, clock offsets written; the cgroup joined).  A new time namespace
 * takes offsets only while nobody is in it: the child unshares it for its
 * children first, and enters it once the parent has written them.  0, or the
 * child has ended.
 */
static int child_wait_for_parent(struct spawn_context *c)
{
	int fd;

	if (c->time_later && syscall(SYS_unshare, CLONE_NEWTIME) < 0)
		return (int)child_fail(c, NSCTL_SPAWN_STEP_TIME, errno);
	/*
	 * Dumpable, as a child is once it execs: the parent step opens our
	 * /proc/PID files (uid_map), which an undumpable process's root owns.
	 */
	if (c->attr->parent_step && syscall(SYS_prctl, PR_SET_DUMPABLE, 1, 0, 0, 0) < 0)
		return (int)child_fail(c, NSCTL_SPAWN_STEP_PARENT, errno);
	/* No "go": the parent failed, and reports it itself. */
	if (!child_say(c->lifeline[0], 'r') || !child_hear(c->lifeline[0], 'g'))
		return (int)child_fail(c, NSCTL_SPAWN_STEP_PARENT, ECANCELED);
	if (c->time_later) {
		fd = (int)syscall(SYS_openat, AT_FDCWD, "/proc/thread-self/ns/time_for_children",
				  O_RDONLY | O_CLOEXEC | O_NOCTTY);
		if (fd < 0 || syscall(SYS_setns, fd, CLONE_NEWTIME) < 0)
			return (int)child_fail(c, NSCTL_SPAWN_STEP_TIME_ENTER, errno);
		syscall(SYS_close, fd);
	}
	return 0;
}

static int spawn_child(void *data)
{
	struct spawn_context *c = data;
	const struct nsctl_spawn_attr *attr = c->attr;
	static const unsigned long propagation_flags[] = {
		[NSCTL_PROPAGATION_UNCHANGED] = 0,
		[NSCTL_PROPAGATION_PRIVATE] = MS_REC | MS_PRIVATE,
		[NSCTL_PROPAGATION_SLAVE] = MS_REC | MS_SLAVE,
		[NSCTL_PROPAGATION_SHARED] = MS_REC | MS_SHARED,
	};
	int r;

	/* Our copy of the parent's end: else the lifeline could not show the parent's end. */
	if (attr->die_with_parent || c->handshake)
		syscall(SYS_close, c->lifeline[1]);
	if (attr->die_with_parent) {
		if (syscall(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
			return (int)child_fail(c, NSCTL_SPAWN_STEP_DIE_WITH_PARENT, errno);
		/*
		 * The parent died before the line above: no death signal will
		 * come, but its end of the pipe has closed.  (Not getppid(): in a
		 * new PID namespace it is 0 from the start.)
		 */
		if (child_lifeline_dead(c->lifeline[0]))
			return (int)child_fail(c, NSCTL_SPAWN_STEP_DIE_WITH_PARENT, ESRCH);
	}
	if (c->reset_handlers) {
		/*
		 * A handler of the parent's must never run here, on its memory:
		 * every signal is blocked until the exec (but the two glibc keeps
		 * for its threads, which no mask of its blocks), and those that
		 * have a handler go back to their default first, those two too
		 * (exec would do it anyway).
		 */
		static const struct kernel_sigaction dfl = { .handler = SIG_DFL };

		for (int sig = 1; sig < _NSIG; sig++) {
			struct kernel_sigaction sa;

			if (mask_has(&c->child_mask, sig) || sig == SIGKILL || sig == SIGSTOP)
				continue;
			if (syscall(SYS_rt_sigaction, sig, NULL, &sa, KERNEL_SIGSET_SIZE) < 0 ||
			    sa.handler == SIG_DFL || sa.handler == SIG_IGN)
				continue;
			syscall(SYS_rt_sigaction, sig, &dfl, NULL, KERNEL_SIGSET_SIZE);
		}
	}
	/* Its exec moves it in (see time_for_children_new). */
	if (c->time_in_child && syscall(SYS_unshare, CLONE_NEWTIME) < 0)
		return (int)child_fail(c, NSCTL_SPAWN_STEP_TIME, errno);
	if (c->sync) {
		r = child_wait_for_parent(c);
		if (r)
			return r;
	}
	if (attr->has_signals && attr->sigchld_ignored && !attr->child_step) {
		static const struct kernel_sigaction ign = { .handler = SIG_IGN };

		if (syscall(SYS_rt_sigaction, SIGCHLD, &ign, NULL, KERNEL_SIGSET_SIZE) < 0)
			return (int)child_fail(c, NSCTL_SPAWN_STEP_SIGNALS, errno);
	}
	if (attr->new_session && syscall(SYS_setsid) < 0)
		return (int)child_fail(c, NSCTL_SPAWN_STEP_NEW_SESSION, errno);
	if (attr->hostname[0] &&
	    syscall(SYS_sethostname, attr->hostname, strnlen(attr->hostname, 64)) < 0)
		return (int)child_fail(c, NSCTL_SPAWN_STEP_HOSTNAME, errno);
	if (attr->domainname[0] &&
	    syscall(SYS_setdomainname, attr->domainname, strnlen(attr->domainname, 64)) < 0)
		return (int)child_fail(c, NSCTL_SPAWN_STEP_DOMAINNAME, errno);
	if (attr->propagation != NSCTL_PROPAGATION_UNCHANGED &&
	    syscall(SYS_mount, NULL, "/", NULL, propagation_flags[attr->propagation], NULL) < 0)
		return (int)child_fail(c, NSCTL_SPAWN_STEP_PROPAGATION, errno);
	if (attr->child_step) {
		/* From here the step is the caller's: the parent stops waiting, and its mask is
		 * back. */
		syscall(SYS_close, c->lifeline[0]);
		syscall(SYS_rt_sigprocmask, SIG_SETMASK, &c->caller_mask, NULL, KERNEL_SIGSET_SIZE);
		syscall(SYS_exit_group, attr->child_step(attr->child_data));
	}
	if (!attr->keep_all) {
		r = -fds_keep_only_sorted(attr->keep, attr->n_keep);
		if (r)
			return (int)child_fail(c, NSCTL_SPAWN_STEP_FDS, r);
	}
	if (syscall(SYS_rt_sigprocmask, SIG_SETMASK, &c->child_mask, NULL, KERNEL_SIGSET_SIZE) < 0)
		return (int)child_fail(c, NSCTL_SPAWN_STEP_SIGNALS, errno);
	r = child_exec(c);
	return (int)child_fail(c, NSCTL_SPAWN_STEP_EXEC, r);
}

/*
 * Where execvp() would look for PROGRAM: the room the list takes (see
 * paths_make), or -errno.  *RET_SEARCH is the PATH to walk, NULL for a
 * PROGRAM with a '/', which is taken as it is.
 */
static ssize_t paths_room(const char *program, const char **ret_search)
{
	const char *search = getenv("PATH");
	size_t n = 1, program_length = strlen(program);

	if (!*program)
		return -ENOENT;
	if (strchr(program, '/')) {
		*ret_search = NULL;
		return 2 * sizeof(char *);
	}
	if (program_length > NAME_MAX)
		return -ENAMETOOLONG;
	/* glibc's default, confstr(_CS_PATH), when the environment has none. */
	if (!search)
		search = "/bin:/usr/bin";
	for (const char *p = search; *p; p++)
		n += *p == ':';
	*ret_search = search;
	return (ssize_t)((n + 1) * sizeof(char *) + n * (program_length + 2) + strlen(search) + 1);
}

/* The list itself, in ROOM (pointer-aligned): NULL-terminated pointers, then their text. */
static const char *const *paths_make(const char *program, const char *search, void *room)
{
	size_t n = 1, program_length = strlen(program);
	char **paths = room, *text;

	if (!search) {
		paths[0] = (char *)program;
		paths[1] = NULL;
		return (const char *const *)paths;
	}
	for (const char *p = search; *p; p++)
		n += *p == ':';
	text = (char *)(paths + n + 1);
	for (size_t i = 0; i < n; i++) {
		const char *end = strchrnul(search, ':');
		size_t length = (size_t)(end - search);

		/* An empty element is the working directory, as execvp() has it. */
		paths[i] = text;
		if (length) {
			memcpy(text, search, length);
			text += length;
			*text++ = '/';
		}
		memcpy(text, program, program_length + 1);
		text += program_length + 1;
		search = *end ? end + 1 : end;
	}
	paths[n] = NULL;
	return (const char *const *)paths;
}

static void report_set(struct nsctl_spawn_report *report, int step, int err)
{
	if (report) {
		report->step = step;
		report->err = err;
	}
}

/* The lifeline's ends, and the mapping C lives in. */
static void spawn_context_free(struct spawn_context *c, char *map, size_t size)
{
	close_fdp(&c->lifeline[0]);
	close_fdp(&c->lifeline[1]);
	if (c->result != &c->own_result)
		munmap(c->result, sizeof(*c->result));
	munmap(map, size);
}

/* A page shared with the child for its report, for a child that is a copy. */
static int share_result(struct spawn_context *c)
{
	void *page;

	if (c->result != &c->own_result)
		return 0;
	page = mmap(NULL, sizeof(*c->result), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		    -1, 0);
	if (page == MAP_FAILED)
		return negative_errno();
	c->result = page;
	return 0;
}

/* clone3()'s arguments, up to the cgroup (5.7); the first eight are those of 5.3. */
struct clone3_args {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls, set_tid,
	    set_tid_size, cgroup;
};

#if defined(__x86_64__)
#define HAVE_CLONE3_SHARED 1
_Static_assert((GUARD_SIZE + CHILD_STACK_SIZE) % 16 == 0,
	       "clone3_shared: the child's stack top must be aligned to 16 bytes");
#ifdef __GCC_HAVE_DWARF2_CFI_ASM
#define CHILD_CFI_BEGIN ".cfi_remember_state\n\t.cfi_undefined rip\n\t"
#define CHILD_CFI_END   ".cfi_restore_state\n\t"
#else
#define CHILD_CFI_BEGIN ""
#define CHILD_CFI_END   ""
#endif
/*
 * clone3() of a child that shares our memory while we wait (CLONE_VM |
 * CLONE_VFORK), with CLONE_CLEAR_SIGHAND (5.5): the kernel sets the child's
 * handlers back to their defaults (the ignored stay ignored) in this one call,
 * where after clone() the child makes one rt_sigaction() per signal (2% of
 * `run -u`, paired).  The child starts on the top of STACK, where no frame of
 * ours is, so it cannot return here: it calls FN(ARG) there and ends with its
 * result, as glibc's clone() does.  The PID, or -errno: ENOSYS without
 * clone3() (before 5.3, or a seccomp filter's answer), EINVAL without
 * CLONE_CLEAR_SIGHAND.
 */
static pid_t clone3_shared(uint64_t flags, char *stack, size_t stack_size, int *pidfd,
			   int (*fn)(void *), void *arg)
{
	struct clone3_args args = {
		.flags = flags | CLONE_VM | CLONE_VFORK | CLONE_PIDFD | CLONE_CLEAR_SIGHAND,
		.pidfd = (uint64_t)(uintptr_t)pidfd,
		.exit_signal = SIGCHLD,
		.stack = (uint64_t)(uintptr_t)stack,
		.stack_size = stack_size,
	};
	/* Kept by the system call in the child as in the parent. */
	register int (*child_fn)(void *) __asm__("r12") = fn;
	register void *child_arg __asm__("r13") = arg;
	long r;

	__asm__ volatile("syscall\n\t"
			 "test %%rax, %%rax\n\t"
			 "jnz 1f\n\t"
			 /*
			  * The child: a stack aligned to 16 bytes, as the call wants, and
			  * the outermost frame, for a debugger's or a sanitizer's unwinder.
			  */
			 CHILD_CFI_BEGIN "xor %%ebp, %%ebp\n\t"
			 "mov %%r13, %%rdi\n\t"
			 "call *%%r12\n\t"
			 "mov %%eax, %%edi\n\t"
			 "mov %[exit_group], %%eax\n\t"
			 "syscall\n\t"
			 "hlt\n"
			 "1:\n\t" CHILD_CFI_END
			 : "=a"(r)
			 : "0"((long)__NR_clone3), "D"(&args),
			   "S"(offsetof(struct clone3_args, set_tid)), "r"(child_fn),
			   "r"(child_arg), [exit_group] "i"(SYS_exit_group)
			 : "rcx", "r11", "memory");
	return (pid_t)r;
}
#endif

/* clone3() as fork(); VFORK: the parent held until the child's exec or end. */
static pid_t clone3_copy(uint64_t flags, int cgroup_fd, bool vfork, int *pidfd)
{
	struct clone3_args args;
	long r;

	memset(&args, 0, sizeof(args));
	args.flags = flags | CLONE_PIDFD | (vfork ? CLONE_VFORK : 0);
	args.pidfd = (uint64_t)(uintptr_t)pidfd;
	args.exit_signal = SIGCHLD;
	if (cgroup_fd >= 0) {
		args.flags |= CLONE_INTO_CGROUP;
		args.cgroup = (uint64_t)cgroup_fd;
	}
	r = syscall(__NR_clone3, &args,
		    cgroup_fd >= 0 ? sizeof(args) : offsetof(struct clone3_args, set_tid));
	if (r < 0)
		return negative_errno();
	return (pid_t)r;
}

/*
 * A new time namespace for our children, made before the child: since Linux
 * 6.0 a child that shares our memory (CLONE_VM | CLONE_VFORK) may start with
 * our time_for_children differing from our own time namespace, and its exec
 * moves it in: no clone3() copy of our page tables for a time namespace.  An
 * older kernel refuses that start with EINVAL, which is how we know: then
 * clone3() makes it, in a copy.  With a new user namespace, the one made here
 * only asks the kernel; the child makes its own in the new user namespace,
 * which must own it.  *RET_OWN is our own time namespace, to go back to after
 * the start (time_for_children_restore): the calling thread's time_for_children
 * is its own time namespace again then, whatever it was before.  0, or
 * -errno (EPERM without CAP_SYS_ADMIN, EUSERS in a multi-threaded process:
 * then clone3() makes it).
 */
static int time_for_children_new(int *ret_own)
{
	int own = (int)syscall(SYS_openat, AT_FDCWD, "/proc/thread-self/ns/time",
			       O_RDONLY | O_CLOEXEC | O_NOCTTY);

	if (own < 0)
		return negative_errno();
	/*
	 * Asked first: can we go back?  setns() takes a time namespace only in a
	 * single-threaded process (EUSERS), and only with CAP_SYS_ADMIN.
	 */
	if (setns(own, CLONE_NEWTIME) < 0 || unshare(CLONE_NEWTIME) < 0) {
		int r = negative_errno();

		close(own);
		return r;
	}
	*ret_own = own;
	return 0;
}

/*
 * Our time_for_children back to our own time namespace, after the child's
 * start: 0, or -errno where it cannot be (a thread of the caller's started
 * meanwhile: setns() takes a time namespace only in a single-threaded
 * process), which the caller must hear of.
 */
static int time_for_children_restore(int *own)
{
	int r = 0;

	if (*own < 0)
		return 0;
	/* Our own namespace: setns() changes only time_for_children here. */
	if (setns(*own, CLONE_NEWTIME) < 0)
		r = negative_errno();
	close_fdp(own);
	return r;
}

/*
 * clone() as fork() where clone3() is missing (before Linux 5.3): a copy
 * (no CLONE_VM) that goes on from here, on this stack (a stack of its own
 * would be one the sanitizers do not know).  The pidfd comes from
 * CLONE_PIDFD (5.2; the kernel puts it at parent_tid), else from
 * pidfd_open() once the child is there (none before 5.3).  The child sees 0.
 */
static pid_t clone_copy(unsigned long flags, int *pidfd)
{
	long pid = syscall(SYS_clone, flags | CLONE_PIDFD | SIGCHLD, NULL, pidfd, NULL, NULL);

	/* Before 5.2 no CLONE_PIDFD. */
	if (pid < 0 && errno == EINVAL) {
		pid = syscall(SYS_clone, flags | SIGCHLD, NULL, NULL, NULL, NULL);
		if (pid > 0)
			*pidfd = sys_pidfd_open((pid_t)pid, 0);
	}
	return pid < 0 ? negative_errno() : (pid_t)pid;
}

/* The child ended or failed at STEP: it must not run anything more; reap it. */
static void child_abandon(pid_t pid)
{
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

/* The lifeline as a socket pair, for a conversation (in place of the death signal's pipe). */
static int handshake_open(struct spawn_context *c)
{
	close_fdp(&c->lifeline[0]);
	close_fdp(&c->lifeline[1]);
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, c->lifeline) < 0)
		return negative_errno();
	c->handshake = true;
	c->reset_handlers = false;
	return share_result(c);
}

/* A read of one byte that goes on after a signal; 1, 0 at the end, or -1. */
static ssize_t read_byte(int fd, char *byte)
{
	ssize_t n;

	do
		n = read(fd, byte, 1);
	while (n < 0 && errno == EINTR);
	return n;
}

/*
 * The start with a conversation: the child is a copy, and the parent goes on
 * while it runs.  Between the child's "ready" (in its namespaces) and the
 * parent's "go", the parent moves it into the cgroup where clone3() could not
 * (before Linux 5.7) and runs the caller's parent step; then it waits until
 * the child's end of the lifeline closes: at its exec, at its end, or before
 * the caller's child step.  The PID, or -errno with *RET_STEP.
 */
static pid_t start_with_handshake(struct spawn_context *c, unsigned long clone_flags,
				  const sigset_t *caller_mask, int *pidfd, int *ret_step)
{
	const struct nsctl_spawn_attr *attr = c->attr;
	bool attach_after = false;
	pid_t pid;
	char byte;
	int r;

	c->time_later = attr->parent_step && (clone_flags & CLONE_NEWTIME);
	if (c->time_later)
		clone_flags &= ~(unsigned long)CLONE_NEWTIME;
	c->sync = attr->parent_step != NULL;
	pid = clone3_copy(clone_flags, attr->cgroup_fd, false, pidfd);
	/* A kernel before 5.7 has clone3() without CLONE_INTO_CGROUP: the child is moved after. */
	if (attr->cgroup_fd >= 0 && (pid == -E2BIG || pid == -EINVAL)) {
		attach_after = c->sync = true;
		pid = clone3_copy(clone_flags, -1, false, pidfd);
	}
	/* Before 5.3, clone(), which cannot take CLONE_NEWTIME: its bit is in the exit signal. */
	if (pid == -ENOSYS && (clone_flags & CLONE_NEWTIME))
		pid = -EOPNOTSUPP;
	else if (pid == -ENOSYS) {
		attach_after = attr->cgroup_fd >= 0;
		c->sync = c->sync || attach_after;
		pid = clone_copy(clone_flags, pidfd);
	}
	if (pid == 0)
		syscall(SYS_exit_group, spawn_child(c));
	if (pid < 0) {
		*ret_step = NSCTL_SPAWN_STEP_CLONE;
		return pid;
	}
	close_fdp(&c->lifeline[0]);
	/* The child is a copy: none of our handlers can run on its memory.  Ours again. */
	sigprocmask(SIG_SETMASK, caller_mask, NULL);
	/* No "ready": the child failed on its way, and its report says where. */
	if (c->sync && read_byte(c->lifeline[1], &byte) == 1) {
		r = attach_after ? cgroup_procs_write(attr->cgroup_fd, pid) : 0;
		*ret_step = NSCTL_SPAWN_STEP_CGROUP;
		if (r >= 0 && attr->parent_step) {
			r = attr->parent_step(pid, *pidfd, attr->parent_data);
			r = r < 0 ? r : 0;
			*ret_step = NSCTL_SPAWN_STEP_PARENT;
		}
		if (r >= 0 && write(c->lifeline[1], "g", 1) != 1)
			r = negative_errno();
		if (r < 0) {
			child_abandon(pid);
			close_fdp(pidfd);
			return r;
		}
	}
	while (read_byte(c->lifeline[1], &byte) > 0)
		;
	*ret_step = NSCTL_SPAWN_STEP_NONE;
	return pid;
}

NSCTL_EXPORT pid_t nsctl_spawn(const struct nsctl_spawn_attr *attr, char *const argv[],
			       char *const envp[], int *ret_pidfd,
			       struct nsctl_spawn_report *report)
{
	extern char **environ;
	const char *search = NULL, *file;
	ssize_t paths_size = 0;
	struct spawn_context *c;
	struct spawn_result result;
	sigset_t all, caller_mask;
	size_t argc = 0, size;
	unsigned long clone_flags;
	int pidfd = -1, step = NSCTL_SPAWN_STEP_CLONE, own_time = -1, restored, r;
	bool time_first;
	char *map;
	pid_t pid;

	report_set(report, NSCTL_SPAWN_STEP_PREPARE, 0);
	if (!attr || (!attr->child_step && (!argv || !argv[0])))
		return -EINVAL;
	/* With a child step, the step runs the program, if any: ARGV is its business. */
	if (attr->child_step)
		argv = NULL;
	for (size_t i = 0; !attr->child_step && i < attr->n_keep; i++)
		if (fcntl(attr->keep[i], F_GETFD) < 0) {
			report_set(report, NSCTL_SPAWN_STEP_FDS, -EBADF);
			return -EBADF;
		}
	while (argv && argv[argc])
		argc++;
	clone_flags = nsctl_types_to_clone_flags(attr->types);
	/* See time_for_children_new(). */
	time_first = (clone_flags & CLONE_NEWTIME) && attr->cgroup_fd < 0 && !attr->parent_step &&
		     !attr->child_step;
	/* The file to execute: argv[0], or one apart from it (a login shell's "-bash"). */
	file = argv ? (attr->exec_path ? attr->exec_path : argv[0]) : NULL;
	if (argv)
		paths_size = paths_room(file, &search);
	/* Not found before anything started: the message says so, as the exec's would. */
	if (paths_size < 0) {
		report_set(report, NSCTL_SPAWN_STEP_EXEC, (int)paths_size);
		return (int)paths_size;
	}
	/*
	 * One mapping, and no malloc(): a guard page, the child's stack above
	 * it, then the context, room for the script fallback's argv (argc + 2
	 * pointers, touched only if the child needs it) and the paths to try.
	 * Private: a child that shares our memory sees it as it is, a child
	 * that is a copy gets a copy.
	 */
	size = GUARD_SIZE + CHILD_STACK_SIZE + sizeof(*c) + (argc + 2) * sizeof(char *) +
	       (size_t)paths_size;
	size = (size + GUARD_SIZE - 1) / GUARD_SIZE * GUARD_SIZE;
	map = mmap(NULL, size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
	if (map == MAP_FAILED) {
		r = negative_errno();
		report_set(report, NSCTL_SPAWN_STEP_PREPARE, r);
		return r;
	}
	if (mprotect(map, GUARD_SIZE, PROT_NONE) < 0) {
		r = negative_errno();
		munmap(map, size);
		report_set(report, NSCTL_SPAWN_STEP_PREPARE, r);
		return r;
	}
	c = (struct spawn_context *)(map + GUARD_SIZE + CHILD_STACK_SIZE);
	c->attr = attr;
	c->argv = argv;
	c->envp = envp ? envp : environ;
	c->script_argv = (char **)(c + 1);
	c->paths = argv ? paths_make(file, search, c->script_argv + argc + 2) : NULL;
	c->argc = argc;
	c->lifeline[0] = c->lifeline[1] = -1;
	/*
	 * The child's report goes into memory it shares with us.  A child that
	 * is a copy (clone3, or the fork valgrind makes of CLONE_VM |
	 * CLONE_VFORK) gets a shared page for it; not the others: a shared
	 * mapping is a file of its own to the kernel, and made the start about
	 * 20 us slower (measured, minimum of 2,000 starts).
	 */
	c->result = &c->own_result;
	if (attr->parent_step || attr->child_step)
		r = handshake_open(c);
	else if (((clone_flags & CLONE_NEWTIME) && !time_first) || attr->cgroup_fd >= 0 ||
		 RUNNING_ON_VALGRIND)
		r = share_result(c);
	else
		r = 0;
	if (r >= 0 && !c->handshake && attr->die_with_parent && pipe2(c->lifeline, O_CLOEXEC) < 0)
		r = negative_errno();
	if (r < 0) {
		spawn_context_free(c, map, size);
		report_set(report, NSCTL_SPAWN_STEP_PREPARE, r);
		return r;
	}

	/* Every signal blocked until the child's exec: see spawn_child(). */
	sigfillset(&all);
	if (sigprocmask(SIG_SETMASK, &all, &caller_mask) < 0) {
		r = negative_errno();
		spawn_context_free(c, map, size);
		report_set(report, NSCTL_SPAWN_STEP_PREPARE, r);
		return r;
	}
	c->caller_mask = caller_mask;
	c->child_mask = attr->has_signals ? attr->mask : caller_mask;

	if (time_first && time_for_children_new(&own_time) == 0) {
		clone_flags &= ~(unsigned long)CLONE_NEWTIME;
		/* A new user namespace owns the time namespace the child makes in it, not ours. */
		c->time_in_child = clone_flags & CLONE_NEWUSER;
	}
	pid = -EINVAL;
	if (c->handshake) {
		pid = start_with_handshake(c, clone_flags, &caller_mask, &pidfd, &step);
		goto started;
	}
	/*
	 * The child shares our memory until it execs, on its own stack, and we
	 * wait meanwhile (CLONE_VM | CLONE_VFORK, as posix_spawn does): no copy
	 * of our page tables, no page re-faulted: by clone3_shared() where there
	 * is one, else by clone().  A new time namespace (clone() has no bit for
	 * it: its bit is part of the exit signal there) and a cgroup take the
	 * copy below.
	 */
	if (!(clone_flags & CLONE_NEWTIME) && attr->cgroup_fd < 0) {
#ifdef HAVE_CLONE3_SHARED
		c->reset_handlers = false;
		pid = clone3_shared(clone_flags, map + GUARD_SIZE, CHILD_STACK_SIZE, &pidfd,
				    spawn_child, c);
#else
		pid = -ENOSYS;
#endif
		/* Refused, for whatever reason: clone()'s answer is the one that counts. */
		if (pid < 0) {
			int flags =
			    (int)clone_flags | CLONE_VM | CLONE_VFORK | CLONE_PIDFD | SIGCHLD;

			c->reset_handlers = true;
			pid = clone(spawn_child, map + GUARD_SIZE + CHILD_STACK_SIZE, flags, c,
				    &pidfd);
			if (pid < 0)
				pid = negative_errno();
		}
	}
	/* Refused (before 6.0): the copy makes the time namespace as clone3() does. */
	if (pid == -EINVAL && own_time >= 0) {
		r = time_for_children_restore(&own_time);
		if (r < 0) {
			pid = r;
			step = NSCTL_SPAWN_STEP_TIME_RESTORE;
			goto started;
		}
		clone_flags |= CLONE_NEWTIME;
		c->time_in_child = false;
	}
	/*
	 * Not taken, or refused (a kernel before 5.2 has no CLONE_PIDFD, a
	 * joined time namespace refuses CLONE_VM on older kernels): a copy.
	 */
	if (pid == -EINVAL) {
		r = share_result(c);
		if (r < 0) {
			pid = r;
			goto started;
		}
		c->reset_handlers = false;
		pid = clone3_copy(clone_flags, attr->cgroup_fd, true, &pidfd);
		if (pid == 0)
			syscall(SYS_exit_group, spawn_child(c));
		/* No CLONE_INTO_CGROUP (before 5.7) or no clone3() (5.3): moved by the parent. */
		if (attr->cgroup_fd >= 0 && (pid == -E2BIG || pid == -EINVAL || pid == -ENOSYS)) {
			r = handshake_open(c);
			pid = r < 0 ? r
				    : start_with_handshake(c, clone_flags, &caller_mask, &pidfd,
							   &step);
		} else if (pid == -ENOSYS && (clone_flags & CLONE_NEWTIME))
			pid = -EOPNOTSUPP;
		else if (pid == -ENOSYS) {
			pid = clone_copy(clone_flags | CLONE_VFORK, &pidfd);
			if (pid == 0)
				syscall(SYS_exit_group, spawn_child(c));
		}
	}
started:
	/* The child has exec'd or ended (or gone on to the child step): what it wrote is all. */
	restored = time_for_children_restore(&own_time);
	sigprocmask(SIG_SETMASK, &caller_mask, NULL);
	result = *c->result;
#if NSCTL_ASAN
	/* The child's frames, on a stack that is going away, leave their redzones behind. */
	__asan_unpoison_memory_region(map, size);
#endif
	if (pid < 0) {
		report_set(report, step, pid);
		spawn_context_free(c, map, size);
		return pid;
	}
	if (result.err) {
		int err = result.err;

		step = result.step;
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		close_fdp(&pidfd);
		spawn_context_free(c, map, size);
		report_set(report, step, err);
		return err;
	}
	if (restored < 0) {
		/* The caller's state is not what it was: the child this call made goes. */
		if (pidfd < 0 || sys_pidfd_send_signal(pidfd, SIGKILL, NULL, 0) < 0)
			kill(pid, SIGKILL);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		close_fdp(&pidfd);
		spawn_context_free(c, map, size);
		report_set(report, NSCTL_SPAWN_STEP_TIME_RESTORE, restored);
		return restored;
	}
	spawn_context_free(c, map, size);
	report_set(report, NSCTL_SPAWN_STEP_NONE, 0);
	if (ret_pidfd)
		*ret_pidfd = pidfd;
	else
		close_fdp(&pidfd);
	return pid;
}
