// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Which file descriptors a program inherits: 0-2 and the ones asked for,
 * nothing else; and the one reader of a whole file from its fd.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "syscalls.h"
#include "number.h"

static int compare_ints(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* Before Linux 5.11 there is no CLOSE_RANGE_CLOEXEC: /proc/thread-self/fd, read with getdents64. */
static int cloexec_by_listing(const int *sorted, size_t n)
{
	/* Of struct linux_dirent64: where the name starts, after d_ino, d_off, d_reclen, d_type. */
	enum { NAME_OFFSET = 8 + 8 + 2 + 1 };
	char buf[4096] __attribute__((aligned(8)));
	long dir, length;

	dir = syscall(SYS_openat, AT_FDCWD, "/proc/thread-self/fd",
		      O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		return -errno;
	while ((length = syscall(SYS_getdents64, (int)dir, buf, sizeof(buf))) > 0) {
		for (long at = 0; at < length;) {
			const char *name = buf + at + NAME_OFFSET;
			unsigned short record;
			uint64_t fd;
			bool kept = false;

			memcpy(&record, buf + at + 16, sizeof(record));
			at += record;
			/* (number_scan: no libc, for the child of lib/spawn.c.) */
			if (number_scan(&name, INT_MAX, &fd) < 0 || *name)
				continue;
			for (size_t k = 0; k < n && !kept; k++)
				kept = (uint64_t)sorted[k] == fd;
			if (fd < 3 || fd == (uint64_t)dir || kept)
				continue;
			syscall(SYS_fcntl, (int)fd, F_SETFD, FD_CLOEXEC);
		}
	}
	length = length < 0 ? -errno : 0;
	syscall(SYS_close, (int)dir);
	return (int)length;
}

/*
 * System calls only, no libc state: a child that shares its parent's memory
 * until it execs runs it too (lib/spawn.c).  SORTED is in ascending order.
 */
int fds_keep_only_sorted(const int *sorted, size_t n)
{
	unsigned int low = 3;
	int r;

	/* Mark the gaps between kept fds; stop at the first kernel that lacks the flag. */
	for (size_t i = 0; i <= n; i++) {
		unsigned int high = i < n ? (unsigned int)sorted[i] : UINT_MAX;

		if (i < n && sorted[i] < 3)
			continue;
		if (high > low &&
		    syscall(__NR_close_range, low, high - 1, CLOSE_RANGE_CLOEXEC) < 0) {
			if (errno != ENOSYS && errno != EINVAL)
				return -errno;
			r = cloexec_by_listing(sorted, n);
			if (r < 0)
				return r;
			break;
		}
		if (i < n)
			low = (unsigned int)sorted[i] + 1;
	}
	for (size_t i = 0; i < n; i++)
		if (syscall(SYS_fcntl, sorted[i], F_SETFD, 0) < 0)
			return -errno;
	return 0;
}

NSCTL_EXPORT int nsctl_fds_keep_only(const int *keep, size_t n_keep)
{
	_cleanup_free_ int *sorted = NULL;

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
	return fds_keep_only_sorted(sorted, n_keep);
}

int fd_read_all(int fd, size_t max, char **ret_text, size_t *ret_size)
{
	_cleanup_free_ char *text = NULL;
	size_t size = 0, allocated = 0;

	for (;;) {
		ssize_t n;

		if (allocated - size < 4096) {
			char *bigger;

			if (allocated > max)
				return -EFBIG;
			allocated = allocated ? allocated * 2 : 8192;
			bigger = realloc(text, allocated);
			if (!bigger)
				return -ENOMEM;
			text = bigger;
		}
		n = read(fd, text + size, allocated - size - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return negative_errno();
		}
		if (n == 0)
			break;
		size += (size_t)n;
	}
	text[size] = '\0';
	*ret_text = TAKE_PTR(text);
	if (ret_size)
		*ret_size = size;
	return 0;
}
