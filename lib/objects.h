/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Three of the library's objects laid open, for the library alone: each
 * lives in an allocation (the public constructors) or in a room of the
 * caller's (nsctl.h's struct *_room, and *_init()/_clear()); both go through
 * the *_init() and *_clear() here: one code path.
 *
 * Why rooms: a constructor's calloc() was the first malloc() of `nsctl
 * enter` and `nsctl run`, and a process's first malloc() makes its heap,
 * which the kernel puts apart from everything else mapped (its own page
 * table): 3.2% of the time of `enter -u`, 3.7% of `run -u` (paired, 1,501
 * rounds; the history of docs/PERFORMANCE.md in git).
 */
#ifndef NSCTL_OBJECTS_H
#define NSCTL_OBJECTS_H

#include <signal.h>
#include <stdbool.h>

#include "nsctl.h"
#include "type-count.h"

/* A handle on a process that a recycled PID cannot stand in for (lib/process.c). */
struct nsctl_process {
	pid_t pid;
	int pidfd; /* -1 where the kernel has no pidfd_open */
	/*
	 * /proc/PID, opened while the pidfd showed the process alive.  With a
	 * pidfd it is opened on first use (nsctl_process_procfd): joining
	 * through the pidfd alone never needs /proc, and enter is measured
	 * against a bare pidfd_open+setns.  Without one it is the anchor, and
	 * opened at once.
	 */
	int procfd;
};

/* nsctl_process_open() into PROCESS: 0, or -errno and PROCESS holds nothing (clear is harmless). */
int process_open_into(struct nsctl_process *process, pid_t pid);
/* Closes what PROCESS holds; again is harmless. */
void process_clear(struct nsctl_process *process);

/* What struct nsctl_signals_state holds (lib/supervise.c): the caller's mask and SIGCHLD. */
struct signal_state {
	sigset_t mask;
	struct sigaction sigchld;
};

/* The state in the caller's room. */
static inline struct signal_state *signal_state_of(struct nsctl_signals_state *room)
{
	return (struct signal_state *)room;
}

static inline const struct signal_state *signal_state_const(const struct nsctl_signals_state *room)
{
	return (const struct signal_state *)room;
}

/* A set of namespaces to join: one fd per type, -1 where none (lib/enter.c). */
struct nsctl_ns_set {
	int fds[TYPE_COUNT];
};

void ns_set_init(struct nsctl_ns_set *set);
/* Closes every fd of SET; again is harmless. */
void ns_set_clear(struct nsctl_ns_set *set);

/* The kernel's __NEW_UTS_LEN, 64, and a NUL. */
#define UTS_NAME_SIZE 65

/* Kept fds stored in the attributes themselves; more take an allocation. */
#define KEEP_INLINE 16

/* What a start is to be (lib/spawn.c). */
struct nsctl_spawn_attr {
	unsigned types;
	int cgroup_fd;
	bool die_with_parent;
	bool new_session;
	bool keep_all;
	int *keep; /* sorted, no duplicates */
	size_t n_keep;
	bool has_signals;
	sigset_t mask;
	bool sigchld_ignored;
	enum nsctl_propagation propagation;
	nsctl_spawn_parent_step_fn parent_step;
	void *parent_data;
	nsctl_spawn_child_step_fn child_step;
	void *child_data;
	const char *exec_path; /* the file to execute, argv[0] apart; NULL: argv[0] */
	/* The names, checked: 1 to 64 bytes, no control character; "" when not asked for. */
	char hostname[UTS_NAME_SIZE], domainname[UTS_NAME_SIZE];
	int keep_inline[KEEP_INLINE]; /* keep points here for a few fds: no malloc() */
};

void spawn_attr_init(struct nsctl_spawn_attr *attr);
/* Frees what ATTR took beyond itself (a long list of kept fds); again is harmless. */
void spawn_attr_clear(struct nsctl_spawn_attr *attr);

#endif
