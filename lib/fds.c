// SPDX-License-Identifier: LGPL-2.1-or-later
/* Which file descriptors a program inherits: 0-2 and the ones asked for, nothing else. */
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#ifndef __NR_close_range
#define __NR_close_range 436
#endif
#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

static int compare_ints(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static int set_cloexec(int fd, bool on)
{
	int flags = fcntl(fd, F_GETFD);

	if (flags < 0)
		return negative_errno();
	if (!!(flags & FD_CLOEXEC) == on)
		return 0;
	if (fcntl(fd, F_SETFD, on ? flags | FD_CLOEXEC : flags & ~FD_CLOEXEC) < 0)
		return negative_errno();
	return 0;
}

static bool is_kept(int fd, const int *sorted, size_t n)
{
	/* bsearch() on an empty array still needs a valid pointer: keeping nothing is NULL here. */
	return n > 0 && bsearch(&fd, sorted, n, sizeof(int), compare_ints) != NULL;
}

/* Before Linux 5.11 there is no CLOSE_RANGE_CLOEXEC: walk /proc/thread-self/fd. */
static int cloexec_by_listing(const int *sorted, size_t n)
{
	_cleanup_closedir_ DIR *dir = opendir("/proc/thread-self/fd");
	struct dirent *entry;

	if (!dir)
		return negative_errno();
	while ((entry = readdir(dir))) {
		char *end;
		long fd = strtol(entry->d_name, &end, 10);

		if (*end || end == entry->d_name || fd < 3 || fd == dirfd(dir))
			continue;
		if (is_kept((int)fd, sorted, n))
			continue;
		/* The fd may have been the listing's own, already gone: not an error. */
		if (set_cloexec((int)fd, true) < 0 && errno != EBADF)
			return negative_errno();
	}
	return 0;
}

NSCTL_EXPORT int nsctl_fds_keep_only(const int *keep, size_t n_keep)
{
	_cleanup_free_ int *sorted = NULL;
	unsigned int low = 3;
	int r;

	if (n_keep && !keep)
		return -EINVAL;
	if (n_keep) {
		sorted = malloc(n_keep * sizeof(int));
		if (!sorted)
			return -ENOMEM;
		memcpy(sorted, keep, n_keep * sizeof(int));
		qsort(sorted, n_keep, sizeof(int), compare_ints);
	}
	for (size_t i = 0; i < n_keep; i++) {
		if (sorted[i] < 0)
			return -EBADF;
		if (fcntl(sorted[i], F_GETFD) < 0)
			return -EBADF;
	}
	/* Mark the gaps between kept fds; stop at the first kernel that lacks the flag. */
	for (size_t i = 0; i <= n_keep; i++) {
		unsigned int high = i < n_keep ? (unsigned int)sorted[i] : UINT_MAX;

		if (i < n_keep && sorted[i] < 3)
			continue;
		if (high > low &&
		    syscall(__NR_close_range, low, high - 1, CLOSE_RANGE_CLOEXEC) < 0) {
			if (errno != ENOSYS && errno != EINVAL)
				return negative_errno();
			r = cloexec_by_listing(sorted, n_keep);
			if (r < 0)
				return r;
			break;
		}
		if (i < n_keep)
			low = (unsigned int)sorted[i] + 1;
	}
	for (size_t i = 0; i < n_keep; i++) {
		r = set_cloexec(sorted[i], false);
		if (r < 0)
			return r;
	}
	return 0;
}
