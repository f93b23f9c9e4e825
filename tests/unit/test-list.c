// SPDX-License-Identifier: LGPL-2.1-or-later
/* Unit tests of lib/list.c: a scan of the host finds this process's namespaces and their ties. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sched.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/netlink.h>
#include <cmocka.h>

#include "nsctl.h"
#include "type-count.h"

static void test_bad_arguments(void **state)
{
	struct nsctl_list *list = (struct nsctl_list *)state;

	assert_int_equal(nsctl_list_scan(0, NULL), -EINVAL);
	assert_int_equal(nsctl_list_scan(1u << 20, &list), -EINVAL);
	assert_ptr_equal(list, (struct nsctl_list *)state);
	assert_int_equal(nsctl_list_count(NULL), 0);
	assert_null(nsctl_list_get(NULL, 0));
	assert_null(nsctl_list_find(NULL, 0, 0));
	assert_null(nsctl_list_find_process(NULL, 1, NSCTL_TYPE_NET));
	assert_null(nsctl_list_process(NULL, NULL, 0));
	nsctl_list_free(NULL);
}

static void check_own(unsigned flags)
{
	struct nsctl_list *list = NULL;
	const struct nsctl_list_ns *prev = NULL;

	assert_int_equal(nsctl_list_scan(flags, &list), 0);
	assert_non_null(list);
	assert_true(nsctl_list_count(list) >= 1);
	assert_null(nsctl_list_get(list, nsctl_list_count(list)));
	for (size_t i = 0; i < nsctl_list_count(list); i++) {
		const struct nsctl_list_ns *ns = nsctl_list_get(list, i);

		/* In inode order, each found again by its identity. */
		assert_true(!prev || prev->id->ino <= ns->id->ino);
		assert_ptr_equal(nsctl_list_find(list, ns->id->dev, ns->id->ino), ns);
		assert_true(ns->pid > 0 || ns->nprocs == 0);
		/*
		 * A process gives its UID; only NS_GET_OWNER_UID can give one to the
		 * others.  A process that ended between the scan and the look at its
		 * details gives none (other tests on the host start and end many).
		 */
		assert_true(ns->has_uid || ns->pid == 0 ||
			    (kill(ns->pid, 0) < 0 && errno == ESRCH));
		if (ns->has_uid && ns->pid == 0)
			assert_true(flags & NSCTL_LIST_RELATIONS);
		/* PATH is the link of the PID shown, where a process is in it. */
		if (ns->pid > 0) {
			char link[64];

			snprintf(link, sizeof(link), "/proc/%d/ns/%s", ns->pid,
				 nsctl_type_get(ns->id->type)->name);
			assert_string_equal(ns->path, link);
		}
		prev = ns;
	}
	type_foreach (t) {
		const struct nsctl_list_ns *ns;
		char path[64];
		struct stat st;

		snprintf(path, sizeof(path), "/proc/self/ns/%s", nsctl_type_get(t)->name);
		if (stat(path, &st) < 0)
			continue;
		ns = nsctl_list_find_process(list, getpid(), t);
		assert_non_null(ns);
		assert_int_equal(ns->id->ino, st.st_ino);
		assert_int_equal(ns->id->type, t);
		assert_true(ns->nprocs >= 1);
		assert_true(ns->pid <= getpid());
		assert_non_null(ns->command);
		if (flags & NSCTL_LIST_RELATIONS) {
			/* Everything but the initial user namespace, seen from inside it, has an
			 * owner.
			 */
			if (t != NSCTL_TYPE_USER)
				assert_non_null(ns->owner);
			if (ns->owner)
				assert_int_equal(ns->owner->id->type, NSCTL_TYPE_USER);
		}
	}
	assert_null(nsctl_list_find_process(list, getpid(), TYPE_COUNT));
	nsctl_list_free(list);
}

static void test_scan_all(void **state)
{
	check_own(NSCTL_LIST_ALL);
}

static void test_scan_one_thread(void **state)
{
	check_own(NSCTL_LIST_ALL | NSCTL_LIST_ONE_THREAD);
}

static void test_scan_bare(void **state)
{
	check_own(0);
}

static void test_fd_holder(void **state)
{
	struct nsctl_list *list = NULL;
	const struct nsctl_list_ns *ns;
	struct stat st;
	int fd = open("/proc/self/ns/uts", O_RDONLY | O_CLOEXEC);
	bool found = false;

	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(nsctl_list_scan(NSCTL_LIST_FDS, &list), 0);
	ns = nsctl_list_find(list, st.st_dev, st.st_ino);
	assert_non_null(ns);
	for (size_t i = 0; i < ns->n_holders; i++)
		found |= ns->holders[i] == getpid();
	assert_true(found);
	nsctl_list_free(list);
	close(fd);
}

/*
 * The processes of one namespace: a child in a new UTS namespace (in a new
 * user namespace, so that no privilege is needed) and its own child, no more.
 */
static void test_processes(void **state)
{
	struct nsctl_list *list = NULL;
	const struct nsctl_list_ns *ns, *row;
	int ready[2], hold[2];
	pid_t child, grandchild;
	char path[64], byte;
	struct stat st;

	(void)state;
	assert_int_equal(pipe(ready), 0);
	assert_int_equal(pipe(hold), 0);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		close(ready[0]);
		close(hold[1]);
		if (unshare(CLONE_NEWUSER | CLONE_NEWUTS) < 0)
			_exit(77);
		if (fork() == 0) {
			/* Both say ready once the grandchild exists; both wait for the end. */
			(void)!write(ready[1], "g", 1);
			(void)!read(hold[0], &byte, 1);
			_exit(0);
		}
		(void)!read(hold[0], &byte, 1);
		_exit(0);
	}
	close(ready[1]);
	close(hold[0]);
	if (read(ready[0], &byte, 1) != 1) {
		int status;

		waitpid(child, &status, 0);
		/* A place with no user namespaces (a chroot): nothing to see here. */
		if (WIFEXITED(status) && WEXITSTATUS(status) == 77)
			skip();
		fail_msg("the child did not start its own");
	}
	snprintf(path, sizeof(path), "/proc/%d/ns/uts", (int)child);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(nsctl_list_scan(0, &list), 0);
	ns = nsctl_list_find(list, st.st_dev, st.st_ino);
	assert_non_null(ns);
	assert_int_equal(ns->nprocs, 2);
	row = nsctl_list_process(list, ns, 0);
	assert_non_null(row);
	assert_int_equal(row->pid, child);
	assert_int_equal(row->ppid, getpid());
	assert_true(row->id->ino == ns->id->ino && row->id->type == NSCTL_TYPE_UTS);
	assert_non_null(row->command);
	row = nsctl_list_process(list, ns, 1);
	assert_non_null(row);
	grandchild = row->pid;
	assert_true(grandchild > 0 && grandchild != child);
	assert_int_equal(row->ppid, child);
	assert_null(nsctl_list_process(list, ns, 2));
	nsctl_list_free(list);
	close(hold[1]);
	close(ready[0]);
	assert_int_equal(waitpid(child, NULL, 0), child);
}

/* NETNSID is asked of the kernel unless the caller says it does not need it. */
static void test_netnsid(void **state)
{
	struct nsctl_list *list = NULL;
	const struct nsctl_list_ns *own;
	int sock = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);

	assert_int_equal(nsctl_list_scan(NSCTL_LIST_ALL | NSCTL_LIST_WITHOUT_NETNSID, &list), 0);
	for (size_t i = 0; i < nsctl_list_count(list); i++)
		assert_int_equal(nsctl_list_get(list, i)->netnsid, NSCTL_LIST_NO_NETNSID);
	nsctl_list_free(list);
	assert_int_equal(nsctl_list_scan(NSCTL_LIST_ALL, &list), 0);
	own = nsctl_list_find_process(list, getpid(), NSCTL_TYPE_NET);
	assert_non_null(own);
	/* Our own namespace has no ID in itself: "unassigned", where netlink answers at all. */
	if (sock >= 0)
		assert_int_equal(own->netnsid, -1);
	nsctl_list_free(list);
	if (sock >= 0)
		close(sock);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_arguments),   cmocka_unit_test(test_scan_all),
		cmocka_unit_test(test_scan_one_thread), cmocka_unit_test(test_scan_bare),
		cmocka_unit_test(test_fd_holder),       cmocka_unit_test(test_netnsid),
		cmocka_unit_test(test_processes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
