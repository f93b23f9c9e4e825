// SPDX-License-Identifier: LGPL-2.1-or-later
/* Joining existing namespaces: one file, a set of files, or every namespace of a process. */
#include <fcntl.h>
#include <linux/capability.h>
#include <sched.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"
#include "syscalls.h"

/* -EINVAL for a report too small for libnsctl 1.0's fields. */
static int report_begin(struct nsctl_join_report *report)
{
	if (report) {
		if (sized_out_begin(report, JOIN_REPORT_FIRST, sizeof(*report)) < 0)
			return -EINVAL;
		report->joined = 0;
		report->failed_type = -1;
		report->failed_call = NULL;
	}
	return 0;
}

static void report_failure(struct nsctl_join_report *report, enum nsctl_type type, const char *call)
{
	if (report) {
		report->failed_type = (int)type;
		report->failed_call = call;
	}
}

NSCTL_EXPORT int nsctl_ns_join_fd(int fd, int expected)
{
	enum nsctl_type type;
	int r;

	if (expected >= TYPE_COUNT)
		return -EINVAL;
	r = nsctl_ns_check(fd, &type);
	if (r < 0)
		return r;
	if (expected >= 0 && (int)type != expected)
		return -EMEDIUMTYPE;
	/* Naming the type makes the kernel refuse a file that changed type under us. */
	if (setns(fd, (int)nsctl_type_get(type)->clone_flag) < 0)
		return negative_errno();
	return 0;
}

NSCTL_EXPORT int nsctl_ns_join_path(const char *path, int expected)
{
	_cleanup_close_ int fd = nsctl_ns_open_path(path, expected, NULL);

	if (fd < 0)
		return fd;
	return nsctl_ns_join_fd(fd, expected);
}

/* A set in storage of the caller's (the library's own, nsctl enter's: lib/objects.h). */
void ns_set_init(struct nsctl_ns_set *set)
{
	type_foreach (t)
		set->fds[t] = -1;
}

void ns_set_clear(struct nsctl_ns_set *set)
{
	type_foreach (t) {
		close_fdp(&set->fds[t]);
		set->fds[t] = -1;
	}
}

_Static_assert(sizeof(struct nsctl_ns_set) <= sizeof(struct nsctl_ns_set_room) &&
		   _Alignof(struct nsctl_ns_set) <= _Alignof(struct nsctl_ns_set_room),
	       "struct nsctl_ns_set must fit its room");

NSCTL_EXPORT struct nsctl_ns_set *nsctl_ns_set_init(struct nsctl_ns_set_room *room)
{
	struct nsctl_ns_set *set = (struct nsctl_ns_set *)room;

	if (!room)
		return NULL;
	ns_set_init(set);
	return set;
}

NSCTL_EXPORT void nsctl_ns_set_clear(struct nsctl_ns_set *set)
{
	if (set)
		ns_set_clear(set);
}

NSCTL_EXPORT int nsctl_ns_set_new(struct nsctl_ns_set **ret_set)
{
	struct nsctl_ns_set *set;

	if (!ret_set)
		return -EINVAL;
	set = malloc(sizeof(*set));
	if (!set)
		return -ENOMEM;
	ns_set_init(set);
	*ret_set = set;
	return 0;
}

NSCTL_EXPORT void nsctl_ns_set_free(struct nsctl_ns_set *set)
{
	if (!set)
		return;
	ns_set_clear(set);
	free(set);
}

NSCTL_EXPORT unsigned nsctl_ns_set_types(const struct nsctl_ns_set *set)
{
	unsigned types = 0;

	if (!set)
		return 0;
	type_foreach (t)
		if (set->fds[t] >= 0)
			types |= NSCTL_TYPE_BIT(t);
	return types;
}

NSCTL_EXPORT int nsctl_ns_set_add_fd(struct nsctl_ns_set *set, int fd)
{
	enum nsctl_type type;
	int r;

	if (!set)
		return -EINVAL;
	r = nsctl_ns_check(fd, &type);
	if (r < 0)
		return r;
	if (set->fds[type] >= 0)
		return -EEXIST;
	set->fds[type] = fd;
	return (int)type;
}

NSCTL_EXPORT int nsctl_ns_set_add_path(struct nsctl_ns_set *set, const char *path, int expected)
{
	_cleanup_close_ int fd = -1;
	enum nsctl_type type;

	if (!set)
		return -EINVAL;
	fd = nsctl_ns_open_path(path, expected, &type);
	if (fd < 0)
		return fd;
	if (set->fds[type] >= 0)
		return -EEXIST;
	set->fds[type] = TAKE_FD(fd);
	return (int)type;
}

NSCTL_EXPORT int nsctl_ns_set_take(struct nsctl_ns_set *set, enum nsctl_type type)
{
	int fd;

	if (!set || (unsigned)type >= TYPE_COUNT)
		return -EINVAL;
	if (set->fds[type] < 0)
		return -ENOENT;
	fd = set->fds[type];
	set->fds[type] = -1;
	return fd;
}

/*
 * Whether the namespace at FD is the calling thread's own of its type: 1 yes,
 * 0 no.  The thread's, not the process's (/proc/self is the main thread's):
 * setns() moves only the calling thread, which may differ from the others.
 */
static int is_callers(int fd, enum nsctl_type type)
{
	_cleanup_close_ int own = nsctl_ns_open_own(type, false);

	if (own < 0)
		return own;
	return nsctl_ns_same(fd, own);
}

/* The calling thread's /proc ns directory (setns() moves only the thread), on procfs, or -1. */
static int open_own_ns_dir(void)
{
	return proc_dir_open("/proc/thread-self/ns");
}

/*
 * Whether FD, a namespace of TYPE, is the calling thread's own one: 1 yes, 0
 * no.  Through OWN_DIR when it is open: readlink() gives our namespace's inode
 * number ("net:[4026531840]") without opening it, where an open (or stat)
 * makes the kernel build and free an nsfs inode each time.  No other
 * namespace can take our own one's number while we are in it.
 */
static int is_callers_in(int own_dir, int fd, enum nsctl_type type)
{
	enum nsctl_type linked;
	struct stat st;
	char text[64];
	ino_t own;
	ssize_t n;

	if (own_dir < 0)
		return is_callers(fd, type);
	n = readlinkat(own_dir, type_proc_name(type, false), text, sizeof(text) - 1);
	if (n < 0)
		return is_callers(fd, type);
	text[n] = '\0';
	if (ns_link_parse(text, &linked, &own) < 0 || linked != type)
		return is_callers(fd, type);
	if (fstat(fd, &st) < 0)
		return negative_errno();
	return st.st_ino == own;
}

static int differ(const struct nsctl_process *process, unsigned types, unsigned *ret_types,
		  struct nsctl_join_report *report)
{
	_cleanup_close_ int own_dir = open_own_ns_dir();
	unsigned different = 0;

	type_foreach (t) {
		_cleanup_close_ int fd = -1;
		int r;

		if (!(types & NSCTL_TYPE_BIT(t)))
			continue;
		fd = nsctl_process_open_ns(process, t, false);
		if (fd == -EOPNOTSUPP)
			continue; /* a type this kernel lacks cannot differ */
		r = fd < 0 ? fd : is_callers_in(own_dir, fd, t);
		if (r < 0) {
			report_failure(report, t, "open");
			return r;
		}
		if (r == 0)
			different |= NSCTL_TYPE_BIT(t);
	}
	*ret_types = different;
	return 0;
}

NSCTL_EXPORT int nsctl_process_ns_differ(const struct nsctl_process *process, unsigned types,
					 unsigned *ret_types)
{
	if (!process || !ret_types || (types & ~TYPES_ALL))
		return -EINVAL;
	return differ(process, types, ret_types, NULL);
}

NSCTL_EXPORT int nsctl_ns_set_add_process(struct nsctl_ns_set *set,
					  const struct nsctl_process *process, unsigned types,
					  unsigned flags, struct nsctl_join_report *report)
{
	_cleanup_close_ int own_dir = -1;
	struct nsctl_ns_set opened;
	int r;

	if (report_begin(report) < 0 || !set || !process || (types & ~TYPES_ALL) ||
	    (flags & ~NSCTL_JOIN_DIFFERENT))
		return -EINVAL;
	if (types & nsctl_ns_set_types(set))
		return -EEXIST;
	ns_set_init(&opened);
	if (flags & NSCTL_JOIN_DIFFERENT)
		own_dir = open_own_ns_dir();
	type_foreach (t) {
		if (!(types & NSCTL_TYPE_BIT(t)))
			continue;
		r = nsctl_process_open_ns(process, t, false);
		if (r == -EOPNOTSUPP && (flags & NSCTL_JOIN_DIFFERENT))
			continue; /* a type this kernel lacks cannot differ */
		if (r < 0) {
			report_failure(report, t, "open");
			goto fail;
		}
		opened.fds[t] = r;
		if (flags & NSCTL_JOIN_DIFFERENT) {
			r = is_callers_in(own_dir, opened.fds[t], t);
			if (r < 0) {
				report_failure(report, t, "open");
				goto fail;
			}
			if (r == 1) {
				close_fdp(&opened.fds[t]);
				opened.fds[t] = -1;
			}
		}
	}
	/*
	 * Every file is open: if the process is still the one the handle names,
	 * they are its namespaces and no other's, whatever the PID becomes later.
	 */
	r = nsctl_process_alive(process);
	if (r == 0)
		r = -ESRCH;
	if (r < 0)
		goto fail;
	type_foreach (t)
		set->fds[t] = opened.fds[t] >= 0 ? opened.fds[t] : set->fds[t];
	return 0;
fail:
	ns_set_clear(&opened);
	return r;
}

size_t join_order(unsigned types, bool user_first, enum nsctl_type *order)
{
	size_t n = 0;
	bool user = types & NSCTL_TYPE_BIT(NSCTL_TYPE_USER);

	if (user && user_first)
		order[n++] = NSCTL_TYPE_USER;
	type_foreach (t)
		if (t != NSCTL_TYPE_USER && (types & NSCTL_TYPE_BIT(t)))
			order[n++] = t;
	if (user && !user_first)
		order[n++] = NSCTL_TYPE_USER;
	return n;
}

int join_in_order(unsigned types, bool user_first, join_one_fn join, void *userdata,
		  struct nsctl_join_report *report)
{
	enum nsctl_type order[TYPE_COUNT];
	size_t n = join_order(types, user_first, order);
	bool user_pending = types & NSCTL_TYPE_BIT(NSCTL_TYPE_USER);
	unsigned deferred = 0, joined = 0;
	enum nsctl_type t;
	int r;

	for (size_t i = 0; i < n; i++) {
		t = order[i];
		r = join(t, userdata);
		/*
		 * A namespace refused before the user namespace is joined may be one
		 * only the user namespace's capabilities open: try it again after.
		 */
		if (r == -EPERM && user_pending && t != NSCTL_TYPE_USER) {
			deferred |= NSCTL_TYPE_BIT(t);
			continue;
		}
		if (r < 0)
			goto fail;
		if (r > 0)
			joined |= NSCTL_TYPE_BIT(t);
		if (report)
			report->joined = joined;
		if (t != NSCTL_TYPE_USER)
			continue;
		user_pending = false;
		type_foreach (d) {
			if (!(deferred & NSCTL_TYPE_BIT(d)))
				continue;
			t = d;
			r = join(d, userdata);
			if (r < 0)
				goto fail;
			if (r > 0)
				joined |= NSCTL_TYPE_BIT(d);
			if (report)
				report->joined = joined;
		}
		deferred = 0;
	}
	return 0;
fail:
	report_failure(report, t, "setns");
	return r;
}

/*
 * Whether the caller may join namespaces of its own user namespace as it is:
 * CAP_SYS_ADMIN there.  Without it, only the target's user namespace (which an
 * unprivileged caller may own) can give the capabilities the others need, so it
 * must come first; with it, the user namespace comes last, or the caller would
 * lose its rights over namespaces its own user namespace owns.
 */
static bool caller_is_privileged(void)
{
	return capability_effective(CAP_SYS_ADMIN);
}

/* Join one fd of a set; 1 joined, 0 skipped (the caller's own user namespace). */
static int join_set_member(enum nsctl_type type, void *userdata)
{
	const struct nsctl_ns_set *set = userdata;
	int fd = set->fds[type];

	if (type == NSCTL_TYPE_USER) {
		/* The kernel refuses to re-enter the caller's own user namespace (EINVAL). */
		int r = is_callers(fd, type);

		if (r < 0)
			return r;
		if (r == 1)
			return 0;
	}
	if (setns(fd, (int)nsctl_type_get(type)->clone_flag) < 0)
		return negative_errno();
	return 1;
}

NSCTL_EXPORT int nsctl_ns_set_join(const struct nsctl_ns_set *set, struct nsctl_join_report *report)
{
	if (report_begin(report) < 0 || !set)
		return -EINVAL;
	return join_in_order(nsctl_ns_set_types(set), !caller_is_privileged(), join_set_member,
			     (void *)set, report);
}

NSCTL_EXPORT int nsctl_process_join(const struct nsctl_process *process, unsigned types,
				    unsigned flags, struct nsctl_join_report *report)
{
	struct nsctl_ns_set set;
	unsigned user = NSCTL_TYPE_BIT(NSCTL_TYPE_USER);
	int r;

	if (report_begin(report) < 0 || !process || (types & ~TYPES_ALL) ||
	    (flags & ~(NSCTL_JOIN_DIFFERENT | NSCTL_JOIN_ONE_BY_ONE)))
		return -EINVAL;
	if (flags & NSCTL_JOIN_DIFFERENT) {
		r = differ(process, types, &types, report);
		if (r < 0)
			return r;
	}
	if (!types)
		return 0;
	while (nsctl_process_pidfd(process) >= 0 && !(flags & NSCTL_JOIN_ONE_BY_ONE)) {
		/*
		 * Linux 5.8: every namespace at once, from the process the pidfd
		 * names, all or nothing; the kernel joins the user namespace first.
		 */
		if (setns(nsctl_process_pidfd(process), (int)nsctl_type_to_clone_flags(types)) ==
		    0) {
			if (report)
				report->joined = types;
			return 0;
		}
		/*
		 * ESRCH: the process has gone.  Anything else changed nothing.
		 * EINVAL is what the kernel says to the caller's own user namespace
		 * (it refuses to re-enter it), asked only then: left out, and the
		 * rest asked again.  Else the one-by-one way says which namespace
		 * the kernel refuses and why, or succeeds where the order matters (a
		 * user namespace joined last).  EINVAL is also what kernels before
		 * 5.8 say to a pidfd.
		 */
		if (errno == ESRCH)
			return -ESRCH;
		if (errno == ENOMEM)
			return -ENOMEM;
		if (errno != EINVAL || !(types & user))
			break;
		r = differ(process, user, &user, report);
		if (r < 0)
			return r;
		if (user)
			break;
		types &= ~NSCTL_TYPE_BIT(NSCTL_TYPE_USER);
		if (!types)
			return 0;
	}
	ns_set_init(&set);
	r = nsctl_ns_set_add_process(&set, process, types, 0, report);
	if (r >= 0)
		r = nsctl_ns_set_join(&set, report);
	ns_set_clear(&set);
	return r;
}
