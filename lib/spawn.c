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
#include <sys/utsname.h>
#include <sys/wait.h>

#include "internal.h"
#include "number.h"
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

/*
 * The stack of a child that runs the caller's own code (a child step, or a
 * copy started by process_start_copy()): as large as a main thread's, and
 * mapped MAP_NORESERVE, so that only the pages it touches cost anything.
 */
#define COPY_STACK_SIZE (8 * 1024 * 1024)

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
	int cgroup_procs; /* the cgroup's cgroup.procs, opened by the parent, or -1 */
	char *stack;      /* the child's stack: the bottom, and its size */
	size_t stack_size;
	sigset_t child_mask;  /* the mask PROGRAM starts with */
	sigset_t caller_mask; /* the mask at nsctl_spawn(), for a child step */
	bool shared;          /* the child shares the parent's memory until its exec */
	bool reset_handlers;  /* ... so no handler of the parent's may run in it */
	bool cgroup_ns_later; /* a new cgroup namespace, made once in the cgroup */
	bool handshake;     /* a copy, and the parent waits for its end of the lifeline to close */
	bool sync;          /* ... and says "go" after the parent step */
	bool time_later;    /* a copy: the child makes its time namespace itself, and enters it */
	bool time_in_child; /* shared: the child makes its time namespace, its exec moves it in */
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

_Static_assert(sizeof(struct nsctl_spawn_attr) <= sizeof(struct nsctl_spawn_attr_room) &&
		   _Alignof(struct nsctl_spawn_attr) <= _Alignof(struct nsctl_spawn_attr_room),
	       "struct nsctl_spawn_attr must fit its room");

NSCTL_EXPORT struct nsctl_spawn_attr *nsctl_spawn_attr_init(struct nsctl_spawn_attr_room *room)
{
	struct nsctl_spawn_attr *attr = (struct nsctl_spawn_attr *)room;

	if (!room)
		return NULL;
	spawn_attr_init(attr);
	return attr;
}

NSCTL_EXPORT void nsctl_spawn_attr_clear(struct nsctl_spawn_attr *attr)
{
	if (attr)
		spawn_attr_clear(attr);
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
					      const struct nsctl_signals_state *saved)
{
	if (!attr)
		return -EINVAL;
	attr->has_signals = saved != NULL;
	if (saved) {
		const struct signal_state *state = signal_state_const(saved);

		attr->mask = state->mask;
		/* Of a disposition, only "ignored" outlives an exec. */
		attr->sigchld_ignored =
		    state->sigchld.sa_handler == SIG_IGN && !(state->sigchld.sa_flags & SA_SIGINFO);
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
 * (id maps, clock offsets written).  0, or the child has ended.
 */
static int child_wait_for_parent(struct spawn_context *c)
{
	/*
	 * Dumpable, as a child is once it execs: the parent step opens our
	 * /proc/PID files (uid_map), which an undumpable process's root owns.
	 */
	if (c->attr->parent_step && syscall(SYS_prctl, PR_SET_DUMPABLE, 1, 0, 0, 0) < 0)
		return (int)child_fail(c, NSCTL_SPAWN_STEP_PARENT, errno);
	/* No "go": the parent failed, and reports it itself. */
	if (!child_say(c->lifeline[0], 'r') || !child_hear(c->lifeline[0], 'g'))
		return (int)child_fail(c, NSCTL_SPAWN_STEP_PARENT, ECANCELED);
	return 0;
}

/*
 * A handler of the parent's must never run in a child that shares its
 * memory: every signal is blocked until the exec, and those that have a
 * handler go back to their default first (the exec would do it anyway).
 * glibc refuses its own two here; their handlers act only on a signal this
 * process sent itself.
 */
static void child_default_handlers(const struct spawn_context *c)
{
	static const struct sigaction dfl = { .sa_handler = SIG_DFL };
	struct sigaction old;

	for (int sig = 1; sig < NSIG; sig++) {
		if (sig == SIGKILL || sig == SIGSTOP || sigismember(&c->child_mask, sig) == 1)
			continue;
		if (sigaction(sig, NULL, &old) == 0 && old.sa_handler != SIG_DFL &&
		    old.sa_handler != SIG_IGN)
			sigaction(sig, &dfl, NULL);
	}
}

/*
 * Into the cgroup before anything else (the namespaces of the clone aside),
 * through the file the parent opened, so that PROGRAM never runs outside it.
 */
static int child_join_cgroup(struct spawn_context *c)
{
	if (syscall(SYS_write, c->cgroup_procs, "0", 1) != 1)
		return (int)child_fail(c, NSCTL_SPAWN_STEP_CGROUP, errno);
	syscall(SYS_close, c->cgroup_procs);
	if (c->cgroup_ns_later && syscall(SYS_unshare, CLONE_NEWCGROUP) < 0)
		return (int)child_fail(c, NSCTL_SPAWN_STEP_CGROUP, errno);
	return 0;
}

/*
 * A copy's time namespace: made for its children (offsets are written while
 * nobody is in it: by the parent step, between "ready" and "go"), then entered.
 */
static int child_enter_time(struct spawn_context *c)
{
	int fd = nsctl_ns_open_own(NSCTL_TYPE_TIME, true);

	if (fd < 0 || syscall(SYS_setns, fd, CLONE_NEWTIME) < 0)
		return (int)child_fail(c, NSCTL_SPAWN_STEP_TIME_ENTER, fd < 0 ? -fd : errno);
	syscall(SYS_close, fd);
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

	if (c->cgroup_procs >= 0 && (r = child_join_cgroup(c)))
		return r;
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
	if (c->reset_handlers)
		child_default_handlers(c);
	/* Shared: its exec moves it in (see exec_moves_time).  A copy enters it below. */
	if ((c->time_in_child || c->time_later) && syscall(SYS_unshare, CLONE_NEWTIME) < 0)
		return (int)child_fail(c, NSCTL_SPAWN_STEP_TIME, errno);
	if (c->sync && (r = child_wait_for_parent(c)))
		return r;
	if (c->time_later && (r = child_enter_time(c)))
		return r;
	if (attr->has_signals && attr->sigchld_ignored && !attr->child_step) {
		static const struct sigaction ign = { .sa_handler = SIG_IGN };

		if (sigaction(SIGCHLD, &ign, NULL) < 0)
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
		sigprocmask(SIG_SETMASK, &c->caller_mask, NULL);
		syscall(SYS_exit_group, attr->child_step(attr->child_data));
	}
	if (!attr->keep_all) {
		r = -fds_keep_only_sorted(attr->keep, attr->n_keep);
		if (r)
			return (int)child_fail(c, NSCTL_SPAWN_STEP_FDS, r);
	}
	if (sigprocmask(SIG_SETMASK, &c->child_mask, NULL) < 0)
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
	close_fdp(&c->cgroup_procs);
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

/*
 * Whether an exec moves a task into its time_for_children: since Linux 6.0
 * (fs/exec: switch timens when a task gets a new mm), which also lets a child
 * that shares our memory start with the two apart.  There the child makes its
 * time namespace itself and its exec moves it in; our own time_for_children
 * never changes.  Before, an exec leaves the task where it was, and the child
 * is a copy that enters its namespace itself (child_enter_time).  Told by the
 * release the kernel gives: a kernel older by its number, even one with the
 * change backported, gets the copy, slower and as right.
 */
static bool exec_moves_time(void)
{
	struct utsname u;
	const char *p = u.release;
	uint64_t major;

	return uname(&u) == 0 && number_scan(&p, UINT32_MAX, &major) == 0 && major >= 6;
}

/* The child's first frame: START's function, on START's stack. */
static int start_child(void *data)
{
	const struct process_start *start = data;

#if NSCTL_ASAN
	/*
	 * A copy, on a stack AddressSanitizer does not know: told, or a noreturn
	 * call would find the main thread's stack far away.  (Not in a child that
	 * shares our memory: that would tell it of the parent's thread too.)
	 * The parent's fake stack is kept, not destroyed: where it is on (the
	 * default since GCC 13 and clang 15), START and what the caller's frames
	 * hand the child live there.
	 */
	if (!(start->flags & CLONE_VM)) {
		void *parent_fake_stack;

		__sanitizer_start_switch_fiber(&parent_fake_stack, start->stack, start->stack_size);
		__sanitizer_finish_switch_fiber(NULL, NULL, NULL);
	}
#endif
	return start->fn(start->arg);
}

pid_t process_start(const struct process_start *start, int *pidfd)
{
	char *top = start->stack + start->stack_size;
	int flags = (int)start->flags | start->exit_signal;
	pid_t pid;

	*pidfd = -1;
	pid = clone(start_child, top, flags | CLONE_PIDFD, (void *)start, pidfd);
	/* CLONE_PIDFD refused (a seccomp filter): the pidfd from pidfd_open() (5.3), or none. */
	if (pid < 0 && errno == EINVAL) {
		pid = clone(start_child, top, flags, (void *)start);
		if (pid > 0) {
			*pidfd = sys_pidfd_open(pid, 0);
			if (*pidfd < 0)
				*pidfd = -1;
		}
	}
	return pid < 0 ? negative_errno() : pid;
}

pid_t process_start_copy(int (*fn)(void *), void *arg, unsigned long flags, int exit_signal,
			 int *pidfd)
{
	size_t size = GUARD_SIZE + COPY_STACK_SIZE;
	char *map = mmap(NULL, size, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
	pid_t pid;

	if (map == MAP_FAILED)
		return negative_errno();
	if (mprotect(map, GUARD_SIZE, PROT_NONE) < 0) {
		pid = negative_errno();
		munmap(map, size);
		return pid;
	}
	pid =
	    process_start(&(struct process_start){ fn, arg, map + GUARD_SIZE, COPY_STACK_SIZE,
						   flags & ~(unsigned long)CLONE_VM, exit_signal },
			  pidfd);
	/* The child has a copy of its own. */
	munmap(map, size);
	return pid;
}

/* The child ended or failed at STEP: it must not run anything more; reap it. */
static void child_abandon(pid_t pid)
{
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
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
 * parent's "go", the parent runs the caller's parent step; then it waits
 * until the child's end of the lifeline closes: at its exec, at its end, or
 * before the caller's child step.  The PID, or -errno with *RET_STEP.
 */
static pid_t start_with_handshake(struct spawn_context *c, unsigned long flags,
				  const sigset_t *caller_mask, int *pidfd, int *ret_step)
{
	const struct nsctl_spawn_attr *attr = c->attr;
	pid_t pid;
	char byte;
	int r = 0;

	pid = process_start(
	    &(struct process_start){ spawn_child, c, c->stack, c->stack_size, flags, SIGCHLD },
	    pidfd);
	if (pid < 0) {
		*ret_step = NSCTL_SPAWN_STEP_CLONE;
		return pid;
	}
	close_fdp(&c->lifeline[0]);
	/* The child is a copy: none of our handlers can run on its memory.  Ours again. */
	sigprocmask(SIG_SETMASK, caller_mask, NULL);
	/* No "ready": the child failed on its way, and its report says where. */
	if (c->sync && read_byte(c->lifeline[1], &byte) == 1) {
		*ret_step = NSCTL_SPAWN_STEP_PARENT;
		r = attr->parent_step(pid, *pidfd, attr->parent_data);
		r = r < 0 ? r : 0;
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

/*
 * The child, started: sharing our memory until its exec where nothing of the
 * caller's runs in between and the kernel takes it, else as a copy.  The PID,
 * or -errno with *STEP.
 */
static pid_t spawn_start(struct spawn_context *c, unsigned long flags, const sigset_t *caller_mask,
			 int *pidfd, int *step)
{
	int r;

	if (c->shared && (flags & CLONE_NEWTIME))
		c->shared = c->time_in_child = exec_moves_time();
	if (c->shared)
		return process_start(
		    &(struct process_start){
			spawn_child, c, c->stack, c->stack_size,
			(flags & ~(unsigned long)CLONE_NEWTIME) | CLONE_VM | CLONE_VFORK, SIGCHLD },
		    pidfd);
	/* A copy: it reports through a shared page, and makes its time namespace itself. */
	r = share_result(c);
	if (r < 0)
		return r;
	c->time_later = flags & CLONE_NEWTIME;
	flags &= ~(unsigned long)CLONE_NEWTIME;
	c->reset_handlers = false;
	if (c->handshake)
		return start_with_handshake(c, flags, caller_mask, pidfd, step);
	return process_start(&(struct process_start){ spawn_child, c, c->stack, c->stack_size,
						      flags | CLONE_VFORK, SIGCHLD },
			     pidfd);
}

/*
 * Everything the child needs that the parent makes: the cgroup's file, the
 * lifeline, the page for the report of a child that is a copy.  0 or -errno.
 */
static int spawn_prepare(struct spawn_context *c, unsigned long *flags)
{
	const struct nsctl_spawn_attr *attr = c->attr;
	int r = 0;

	c->result = &c->own_result;
	c->cgroup_procs = -1;
	/*
	 * A child that shares our memory never moves into a cgroup: the kernel
	 * would move our memory with it (cpuset.mems).  A copy moves alone.
	 */
	c->lifeline[0] = c->lifeline[1] = -1;
	/*
	 * The child moves itself first, through the file opened here (the
	 * kernel checks the opener's rights), and makes a new cgroup namespace
	 * after, rooted where it then is.
	 */
	if (attr->cgroup_fd >= 0) {
		c->cgroup_procs = cgroup_procs_open(attr->cgroup_fd);
		if (c->cgroup_procs < 0)
			return c->cgroup_procs;
		c->cgroup_ns_later = *flags & CLONE_NEWCGROUP;
		*flags &= ~(unsigned long)CLONE_NEWCGROUP;
	}
	/*
	 * The child's report goes into memory it shares with us.  A child that
	 * is a copy (or the fork valgrind makes of CLONE_VM | CLONE_VFORK) gets
	 * a shared page for it; not the others: a shared mapping is a file of
	 * its own to the kernel, and made the start about 20 us slower.
	 */
	c->shared = !attr->parent_step && !attr->child_step && attr->cgroup_fd < 0;
	c->reset_handlers = c->shared;
	if (attr->parent_step || attr->child_step) {
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, c->lifeline) < 0)
			return negative_errno();
		c->handshake = true;
		c->sync = attr->parent_step != NULL;
	} else if (attr->die_with_parent && pipe2(c->lifeline, O_CLOEXEC) < 0)
		return negative_errno();
	if (!c->shared || RUNNING_ON_VALGRIND)
		r = share_result(c);
	return r;
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
	size_t argc = 0, size, stack_size;
	unsigned long clone_flags;
	int pidfd = -1, step = NSCTL_SPAWN_STEP_CLONE, r;
	char *map;
	pid_t pid;

	if (report && sized_out_begin(report, SPAWN_REPORT_FIRST, sizeof(*report)) < 0)
		return -EINVAL;
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
	clone_flags = nsctl_type_to_clone_flags(attr->types);
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
	 * that is a copy gets a copy.  The caller's own code in a child step
	 * gets a stack as large as a main thread's.
	 */
	stack_size = attr->child_step ? COPY_STACK_SIZE : CHILD_STACK_SIZE;
	size =
	    GUARD_SIZE + stack_size + sizeof(*c) + (argc + 2) * sizeof(char *) + (size_t)paths_size;
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
	c = (struct spawn_context *)(map + GUARD_SIZE + stack_size);
	c->attr = attr;
	c->argv = argv;
	c->envp = envp ? envp : environ;
	c->script_argv = (char **)(c + 1);
	c->paths = argv ? paths_make(file, search, c->script_argv + argc + 2) : NULL;
	c->argc = argc;
	c->stack = map + GUARD_SIZE;
	c->stack_size = stack_size;
	r = spawn_prepare(c, &clone_flags);
	if (r < 0) {
		step = attr->cgroup_fd >= 0 && c->cgroup_procs < 0 ? NSCTL_SPAWN_STEP_CGROUP
								   : NSCTL_SPAWN_STEP_PREPARE;
		spawn_context_free(c, map, size);
		report_set(report, step, r);
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
	pid = spawn_start(c, clone_flags, &caller_mask, &pidfd, &step);
	/* The child has exec'd or ended (or gone on to the child step): what it wrote is all. */
	sigprocmask(SIG_SETMASK, &caller_mask, NULL);
	result = *c->result;
#if NSCTL_ASAN
	/* The child's frames, on a stack that is going away, leave their redzones behind. */
	__asan_unpoison_memory_region(map, size);
#endif
	if (pid < 0) {
		report_set(report, step == NSCTL_SPAWN_STEP_NONE ? NSCTL_SPAWN_STEP_CLONE : step,
			   pid);
		spawn_context_free(c, map, size);
		return pid;
	}
	if (result.err) {
		/* Failed on its way: it has ended on its own. */
		step = result.step;
		r = result.err;
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		close_fdp(&pidfd);
		spawn_context_free(c, map, size);
		report_set(report, step, r);
		return r;
	}
	spawn_context_free(c, map, size);
	report_set(report, NSCTL_SPAWN_STEP_NONE, 0);
	if (ret_pidfd)
		*ret_pidfd = pidfd;
	else
		close_fdp(&pidfd);
	return pid;
}
