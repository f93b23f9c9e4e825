// SPDX-License-Identifier: LGPL-2.1-or-later
/* Unit tests of lib/idmap.c: parsing, the kernel's rules checked before anything is made, writing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "nsctl.h"

/* The kernel's limit of lines; a map the tests size to hold more than it. */
#define KERNEL_LINES 340
static struct nsctl_idmap_range storage[2][KERNEL_LINES + 8];

/* An empty map of the ranges of STORAGE[I]. */
static struct nsctl_idmap empty_map(size_t i)
{
	return (struct nsctl_idmap)NSCTL_IDMAP_INIT(storage[i],
						    sizeof(storage[i]) / sizeof(storage[i][0]));
}

static void test_add_overlap(void **state)
{
	struct nsctl_idmap map = empty_map(0);
	struct nsctl_idmap_range a = { 0, 1000, 10 }, inner_overlap = { 9, 5000, 1 },
				 outer_overlap = { 100, 1009, 5 }, next = { 10, 1010, 1 },
				 zero = { 50, 50, 0 };

	assert_int_equal(nsctl_idmap_add(&map, &a), 0);
	assert_int_equal(nsctl_idmap_add(&map, &inner_overlap), -EEXIST);
	assert_int_equal(nsctl_idmap_add(&map, &outer_overlap), -EEXIST);
	assert_int_equal(nsctl_idmap_add(&map, &zero), -ERANGE);
	assert_int_equal(map.n, 1);
	assert_int_equal(nsctl_idmap_add(&map, &next), 0);
	assert_int_equal(map.n, 2);
}

static void test_add_limits(void **state)
{
	struct nsctl_idmap map = empty_map(0);

	for (uint32_t i = 0; i < KERNEL_LINES; i++) {
		struct nsctl_idmap_range r = { i, 1000 + i, 1 };

		assert_int_equal(nsctl_idmap_add(&map, &r), 0);
	}
	struct nsctl_idmap_range more = { 5000, 5000, 1 };
	assert_int_equal(nsctl_idmap_add(&map, &more), -E2BIG);
	assert_int_equal(map.n, KERNEL_LINES);

	/* Long numbers: the kernel reads less than a page, so fewer lines fit. */
	map = empty_map(0);
	int r = 0;
	for (uint32_t i = 0; r == 0; i++) {
		struct nsctl_idmap_range big = { 1000000000 + i, 2000000000 + i, 1 };

		r = nsctl_idmap_add(&map, &big);
	}
	assert_int_equal(r, -E2BIG);
	assert_true(map.n < KERNEL_LINES);
	char text[8192];
	assert_true(nsctl_idmap_format(&map, text, sizeof(text)) < 4096);
}

/* The caller sizes the map: a full one is -ENOBUFS, and a bad size -EINVAL. */
static void test_add_capacity(void **state)
{
	struct nsctl_idmap_range two[2], a = { 0, 1000, 1 }, b = { 1, 1001, 1 }, c = { 2, 1002, 1 };
	struct nsctl_idmap map = NSCTL_IDMAP_INIT(two, 2), none = NSCTL_IDMAP_INIT(NULL, 0),
			   bad = NSCTL_IDMAP_INIT(NULL, 4);

	assert_int_equal(nsctl_idmap_add(&map, &a), 0);
	assert_int_equal(nsctl_idmap_add(&map, &b), 0);
	assert_int_equal(nsctl_idmap_add(&map, &c), -ENOBUFS);
	assert_int_equal(map.n, 2);
	/* Checked as the kernel would before the room is: an overlap is still -EEXIST. */
	assert_int_equal(nsctl_idmap_add(&map, &a), -EEXIST);
	assert_int_equal(nsctl_idmap_add(&none, &a), -ENOBUFS);
	assert_int_equal(nsctl_idmap_add(&bad, &a), -EINVAL);
	map.n = 3;
	assert_int_equal(nsctl_idmap_add(&map, &c), -EINVAL);
}

/*
 * The map's size is its version: short of libnsctl 1.0's is -EINVAL; a
 * larger one (a caller built with a newer header) is taken while what this
 * library does not know is 0, and -E2BIG once it is not, as openat2() does.
 */
static void test_sized(void **state)
{
	struct nsctl_idmap_range one[1], a = { 0, 1000, 1 };
	struct {
		struct nsctl_idmap map;
		uint64_t newer;
	} big = { NSCTL_IDMAP_INIT(one, 1), 0 };
	struct nsctl_idmap small = NSCTL_IDMAP_INIT(one, 1);
	char text[64];

	small.size = offsetof(struct nsctl_idmap, n);
	assert_int_equal(nsctl_idmap_add(&small, &a), -EINVAL);
	assert_int_equal(nsctl_idmap_format(&small, text, sizeof(text)), -EINVAL);
	small.size = 0;
	assert_int_equal(nsctl_user_maps_write(getpid(), &small, NULL, NSCTL_SETGROUPS_DEFAULT),
			 -EINVAL);
	big.map.size = sizeof(big);
	assert_int_equal(nsctl_idmap_add(&big.map, &a), 0);
	assert_int_equal(nsctl_idmap_format(&big.map, text, sizeof(text)), 9);
	assert_string_equal(text, "0 1000 1\n");
	big.newer = 1;
	assert_int_equal(nsctl_idmap_format(&big.map, text, sizeof(text)), -E2BIG);
	assert_int_equal(nsctl_idmap_write_helper(getpid(), NSCTL_IDMAP_UID, &big.map), -E2BIG);
}

static void test_format(void **state)
{
	struct nsctl_idmap map = empty_map(0);
	struct nsctl_idmap_range a = { 0, 100000, 65536 }, b = { 65536, 0, 1 };
	char text[64];

	assert_int_equal(nsctl_idmap_format(&map, text, sizeof(text)), 0);
	assert_string_equal(text, "");
	nsctl_idmap_add(&map, &a);
	nsctl_idmap_add(&map, &b);
	assert_int_equal(nsctl_idmap_format(&map, text, sizeof(text)), 25);
	assert_string_equal(text, "0 100000 65536\n65536 0 1\n");
	assert_int_equal(nsctl_idmap_format(&map, text, 10), -ENOBUFS);
	assert_int_equal(nsctl_idmap_format(NULL, text, sizeof(text)), -EINVAL);
}

static void test_write_errors(void **state)
{
	struct nsctl_idmap map = empty_map(0);

	assert_int_equal(nsctl_idmap_write(1, NSCTL_IDMAP_UID, &map), -EINVAL);
	assert_int_equal(nsctl_idmap_write(-1, NSCTL_IDMAP_UID, &map), -EINVAL);
	assert_int_equal(nsctl_idmap_write_helper(0, NSCTL_IDMAP_UID, &map), -EINVAL);
	assert_int_equal(nsctl_user_maps_write(0, &map, &map, NSCTL_SETGROUPS_DEFAULT), -EINVAL);
}

/* A child in a new user namespace gets its maps from us, then reports what it sees. */
static struct nsctl_idmap map_uids, map_gids;

/* The parent step: the maps, written while the child waits in its new user namespace. */
static int write_maps(pid_t pid, int pidfd, void *userdata)
{
	return nsctl_user_maps_write(pid, &map_uids, &map_gids, NSCTL_SETGROUPS_DENY);
}

/* The child step: what the kernel shows of its maps, down the pipe USERDATA. */
static int read_maps(void *userdata)
{
	int out = *(const int *)userdata;
	char buf[256];
	size_t n = 0;
	FILE *f;

	for (const char *p = "/proc/self/uid_map\0/proc/self/gid_map\0/proc/self/setgroups\0"; *p;
	     p += strlen(p) + 1) {
		f = fopen(p, "r");
		if (!f)
			return 2;
		n += fread(buf + n, 1, sizeof(buf) - 1 - n, f);
		fclose(f);
	}
	if (write(out, buf, n) != (ssize_t)n)
		return 3;
	return 0;
}

static void test_write_maps(void **state)
{
	struct nsctl_idmap_range u = { 0, 100000, 1000 }, g = { 0, 200000, 10 };
	struct nsctl_spawn_attr *attr = NULL;
	struct nsctl_spawn_report report = NSCTL_SPAWN_REPORT_INIT;
	int out[2], wstatus;
	char buf[256] = { 0 };
	pid_t pid;

	if (geteuid() != 0) {
		skip();
		return;
	}
	map_uids = empty_map(0);
	map_gids = empty_map(1);
	nsctl_idmap_add(&map_uids, &u);
	nsctl_idmap_add(&map_gids, &g);
	assert_int_equal(pipe(out), 0);
	assert_int_equal(nsctl_spawn_attr_new(&attr), 0);
	assert_int_equal(nsctl_spawn_attr_set_types(attr, NSCTL_TYPE_BIT(NSCTL_TYPE_USER)), 0);
	assert_int_equal(nsctl_spawn_attr_set_parent_step(attr, write_maps, NULL), 0);
	assert_int_equal(nsctl_spawn_attr_set_child_step(attr, read_maps, &out[1]), 0);
	pid = nsctl_spawn(attr, NULL, NULL, NULL, &report);
	nsctl_spawn_attr_free(attr);
	close(out[1]);
	/*
	 * The kernel's answer decides, not a guess at the place: it refuses a
	 * new user namespace to a chrooted caller (even one whose root is a
	 * mount of its own, as arch-chroot makes it), and under some policies.
	 */
	if (pid == -EPERM) {
		print_message("# the kernel refuses a new user namespace here (EPERM: a chroot, or "
			      "a policy)\n");
		close(out[0]);
		skip();
	}
	assert_true(pid > 0);
	assert_true(read(out[0], buf, sizeof(buf) - 1) > 0);
	assert_int_equal(waitpid(pid, &wstatus, 0), pid);
	assert_true(WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0);
	/* The kernel shows the lines with its own padding: compare the numbers. */
	unsigned a, b, c, d, e, f;
	char word[16];
	assert_int_equal(sscanf(buf, "%u %u %u %u %u %u %15s", &a, &b, &c, &d, &e, &f, word), 7);
	assert_int_equal(b, 100000);
	assert_int_equal(c, 1000);
	assert_int_equal(e, 200000);
	assert_int_equal(f, 10);
	assert_string_equal(word, "deny");
	close(out[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_add_overlap),  cmocka_unit_test(test_add_limits),
		cmocka_unit_test(test_add_capacity), cmocka_unit_test(test_sized),
		cmocka_unit_test(test_format),       cmocka_unit_test(test_write_errors),
		cmocka_unit_test(test_write_maps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
