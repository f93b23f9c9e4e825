// SPDX-License-Identifier: LGPL-2.1-or-later
/* User and group ID maps of a new user namespace: parsed, checked, then written. */
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "internal.h"

extern char **environ;

/* 4294967295 is (uid_t)-1, which means "no change" to setresuid() and friends. */
#define ID_LIMIT UINT32_MAX

/*
 * The kernel's limit of lines in a map (UID_GID_MAP_MAX_EXTENTS, Linux 4.15).
 * The library's fact, not the caller's: a map is sized by the caller.
 */
#define IDMAP_LINES_MAX 340

static int range_check(const struct nsctl_idmap_range *range)
{
	if (range->count == 0)
		return -ERANGE;
	/* The last ID of a range must stay below 4294967295 on both sides. */
	if ((uint64_t)range->inner + range->count > ID_LIMIT ||
	    (uint64_t)range->outer + range->count > ID_LIMIT)
		return -ERANGE;
	return 0;
}

static bool overlap(uint32_t a, uint32_t b, uint32_t count_a, uint32_t count_b)
{
	return (uint64_t)a < (uint64_t)b + count_b && (uint64_t)b < (uint64_t)a + count_a;
}

static size_t digits(uint32_t value)
{
	size_t n = 1;

	while (value >= 10) {
		value /= 10;
		n++;
	}
	return n;
}

/* The length of "INNER OUTER COUNT\n". */
static size_t formatted_length_one(const struct nsctl_idmap_range *range)
{
	return digits(range->inner) + digits(range->outer) + digits(range->count) + 3;
}

static size_t formatted_length(const struct nsctl_idmap *map)
{
	size_t length = 0;

	for (size_t i = 0; i < map->n; i++)
		length += formatted_length_one(&map->ranges[i]);
	return length;
}

static size_t page_size(void)
{
	long size = sysconf(_SC_PAGESIZE);

	return size > 0 ? (size_t)size : 4096;
}

/* A map of the caller's: of a size this library knows, its ranges where N says. */
static int map_check(const struct nsctl_idmap *map)
{
	int r;

	if (!map)
		return -EINVAL;
	r = sized_in_check(map, IDMAP_FIRST, sizeof(*map));
	if (r < 0)
		return r;
	return map->n && !map->ranges ? -EINVAL : 0;
}

NSCTL_EXPORT int nsctl_idmap_add(struct nsctl_idmap *map, const struct nsctl_idmap_range *range)
{
	int r;

	r = map_check(map);
	if (r < 0)
		return r;
	if (!range || map->n > map->capacity || (map->capacity && !map->ranges))
		return -EINVAL;
	r = range_check(range);
	if (r < 0)
		return r;
	/* The kernel refuses a map whose ranges overlap on either side. */
	for (size_t i = 0; i < map->n; i++) {
		const struct nsctl_idmap_range *old = &map->ranges[i];

		if (overlap(old->inner, range->inner, old->count, range->count) ||
		    overlap(old->outer, range->outer, old->count, range->count))
			return -EEXIST;
	}
	if (map->n >= IDMAP_LINES_MAX)
		return -E2BIG;
	/* The kernel takes a map in one write() of less than a page. */
	if (formatted_length(map) + formatted_length_one(range) >= page_size())
		return -E2BIG;
	if (map->n == map->capacity)
		return -ENOBUFS;
	map->ranges[map->n++] = *range;
	return 0;
}

NSCTL_EXPORT int nsctl_idmap_format(const struct nsctl_idmap *map, char *buf, size_t size)
{
	size_t length = 0;
	int r = map_check(map);

	if (r < 0)
		return r;
	if (!buf || size == 0)
		return -EINVAL;
	buf[0] = '\0';
	for (size_t i = 0; i < map->n; i++) {
		int n =
		    snprintf(buf + length, size - length, "%" PRIu32 " %" PRIu32 " %" PRIu32 "\n",
			     map->ranges[i].inner, map->ranges[i].outer, map->ranges[i].count);

		if (n < 0)
			return -EINVAL;
		if ((size_t)n >= size - length)
			return -ENOBUFS;
		length += (size_t)n;
	}
	return length > INT_MAX ? -ENOBUFS : (int)length;
}

/* Write TEXT at once into /proc/PID/NAME: the kernel takes a map in a single write(). */
static int proc_write(pid_t pid, const char *name, const char *text, size_t length)
{
	char path[64];
	_cleanup_close_ int fd = -1;
	ssize_t n;

	/* PID is ours; the /proc mounted here may number it otherwise (proc_open_of). */
	if (pid > 0) {
		fd = proc_open_of(pid, name, O_WRONLY | O_NOFOLLOW);
		if (fd < 0)
			return fd;
	} else {
		snprintf(path, sizeof(path), "/proc/self/%s", name);
		fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW);
		if (fd < 0)
			return negative_errno();
	}
	n = write(fd, text, length);
	if (n < 0)
		return negative_errno();
	if ((size_t)n != length)
		return -EIO;
	return 0;
}

NSCTL_EXPORT int nsctl_idmap_write(pid_t pid, enum nsctl_idmap_kind kind,
				   const struct nsctl_idmap *map)
{
	/* 340 lines of three 10-digit numbers fit: the kernel's own limit is a page. */
	char text[IDMAP_LINES_MAX * 34 + 1];
	int length;

	if (pid < 0 || (kind != NSCTL_IDMAP_UID && kind != NSCTL_IDMAP_GID))
		return -EINVAL;
	length = nsctl_idmap_format(map, text, sizeof(text));
	if (length < 0)
		return length;
	if (length == 0)
		return -EINVAL;
	return proc_write(pid, kind == NSCTL_IDMAP_UID ? "uid_map" : "gid_map", text,
			  (size_t)length);
}

NSCTL_EXPORT int nsctl_user_setgroups_write(pid_t pid, bool allow)
{
	return allow ? proc_write(pid, "setgroups", "allow", 5)
		     : proc_write(pid, "setgroups", "deny", 4);
}

/* newuidmap PID INNER OUTER COUNT...: the setuid helper of shadow's uidmap package. */
NSCTL_EXPORT int nsctl_idmap_write_helper(pid_t pid, enum nsctl_idmap_kind kind,
					  const struct nsctl_idmap *map)
{
	const char *program = kind == NSCTL_IDMAP_UID ? "newuidmap" : "newgidmap";
	/* One PID, three numbers a line, each at most 10 digits and a NUL. */
	_cleanup_free_ char(*numbers)[12] = NULL;
	_cleanup_free_ char **argv = NULL;
	char *empty[] = { NULL };
	struct nsctl_spawn_attr *attr;
	size_t n = 0;
	pid_t child;
	int wstatus, r;

	r = map_check(map);
	if (r < 0)
		return r;
	if (pid <= 0 || map->n == 0 || map->n > IDMAP_LINES_MAX ||
	    (kind != NSCTL_IDMAP_UID && kind != NSCTL_IDMAP_GID))
		return -EINVAL;
	numbers = calloc(1 + map->n * 3, sizeof(*numbers));
	argv = calloc(2 + map->n * 3 + 1, sizeof(*argv));
	if (!numbers || !argv)
		return -ENOMEM;
	argv[n++] = (char *)program;
	snprintf(numbers[0], sizeof(numbers[0]), "%d", (int)pid);
	argv[n++] = numbers[0];
	for (size_t i = 0; i < map->n; i++) {
		const uint32_t values[3] = { map->ranges[i].inner, map->ranges[i].outer,
					     map->ranges[i].count };

		for (size_t j = 0; j < 3; j++) {
			char *number = numbers[1 + i * 3 + j];

			snprintf(number, sizeof(numbers[0]), "%" PRIu32, values[j]);
			argv[n++] = number;
		}
	}
	argv[n] = NULL;
	/*
	 * The one start: found in our PATH, with none of our environment and
	 * none of our fds but 0-2, and nothing of ours running in between.
	 */
	r = nsctl_spawn_attr_new(&attr);
	if (r < 0)
		return r;
	child = nsctl_spawn(attr, argv, empty, NULL, NULL);
	nsctl_spawn_attr_free(attr);
	if (child < 0)
		return child;
	while (waitpid(child, &wstatus, 0) < 0) {
		if (errno != EINTR)
			return negative_errno();
	}
	if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0)
		return 0;
	return -EPERM;
}

/* The one map the kernel lets anyone write: their own ID, once. */
static bool is_own_id_only(const struct nsctl_idmap *map, uint32_t own)
{
	return map->n == 1 && map->ranges[0].count == 1 && map->ranges[0].outer == own;
}

static int write_one(pid_t pid, enum nsctl_idmap_kind kind, const struct nsctl_idmap *map,
		     uint32_t own, int cap)
{
	if (capability_effective(cap) || is_own_id_only(map, own))
		return nsctl_idmap_write(pid, kind, map);
	return nsctl_idmap_write_helper(pid, kind, map);
}

NSCTL_EXPORT int nsctl_user_maps_write(pid_t pid, const struct nsctl_idmap *uids,
				       const struct nsctl_idmap *gids,
				       enum nsctl_setgroups setgroups)
{
	bool privileged_gid = capability_effective(CAP_SETGID);
	bool gid_direct;
	int r;

	if (pid <= 0)
		return -EINVAL;
	r = uids ? map_check(uids) : 0;
	if (r >= 0 && gids)
		r = map_check(gids);
	if (r < 0)
		return r;
	gid_direct = gids && gids->n && (privileged_gid || is_own_id_only(gids, getegid()));
	/*
	 * CVE-2014-8989: an unprivileged gid_map must come after "deny" in
	 * setgroups, or the new namespace could drop groups that deny access.
	 */
	if (gid_direct && !privileged_gid) {
		if (setgroups == NSCTL_SETGROUPS_ALLOW)
			return -EPERM;
		setgroups = NSCTL_SETGROUPS_DENY;
	}
	if (setgroups != NSCTL_SETGROUPS_DEFAULT) {
		r = nsctl_user_setgroups_write(pid, setgroups == NSCTL_SETGROUPS_ALLOW);
		if (r < 0)
			return r;
	}
	if (uids && uids->n) {
		r = write_one(pid, NSCTL_IDMAP_UID, uids, geteuid(), CAP_SETUID);
		if (r < 0)
			return r;
	}
	if (gids && gids->n) {
		r = gid_direct ? nsctl_idmap_write(pid, NSCTL_IDMAP_GID, gids)
			       : nsctl_idmap_write_helper(pid, NSCTL_IDMAP_GID, gids);
		if (r < 0)
			return r;
	}
	return 0;
}
