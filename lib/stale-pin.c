// SPDX-License-Identifier: LGPL-2.1-or-later
/* Stale pins: the empty files a named pin leaves behind when its mount is gone (a reboot). */
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "internal.h"
#include "syscalls.h"

/*
 * The directory pin NAME of TYPE lives in, opened without following a
 * symlink in its last component, and NAME's place in it.
 */
static int open_pin_directory(enum nsctl_type type, const char *name, char *path, size_t size,
			      const char **ret_base)
{
	char *slash;
	int dirfd;
	int r = nsctl_pin_name_path(type, name, path, size);

	if (r < 0)
		return r;
	slash = strrchr(path, '/');
	*slash = '\0';
	dirfd = open(path, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	*slash = '/';
	if (dirfd < 0)
		return negative_errno();
	*ret_base = slash + 1;
	return dirfd;
}

/*
 * Whether pin NAME of TYPE is stale: 1 (with *RET_DIRFD and *RET_BASE, to
 * remove it through), 0, or -errno.  Stale: an empty regular file on the
 * directory's own filesystem, what "ip netns add" and nsctl pin make before
 * they mount onto it.  A live pin is an nsfs mount; anything else is not
 * ours to judge.  Opened once, then judged by what was opened: a symlink is
 * held, never followed, and no file is opened to read.
 */
static int stale_pin(enum nsctl_type type, const char *name, int *ret_dirfd, const char **ret_base)
{
	_cleanup_close_ int dirfd = -1, fd = -1;
	char path[PATH_MAX];
	const char *base = NULL;
	struct stat st, dir_st;
	struct statfs sfs;

	dirfd = open_pin_directory(type, name, path, sizeof(path), &base);
	if (dirfd == -ENOENT)
		return 0;
	if (dirfd < 0)
		return dirfd;
	fd = openat(dirfd, base, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : negative_errno();
	if (fstat(fd, &st) < 0 || fstat(dirfd, &dir_st) < 0 || fstatfs(fd, &sfs) < 0)
		return negative_errno();
	if (!S_ISREG(st.st_mode) || st.st_size != 0 || st.st_dev != dir_st.st_dev ||
	    (unsigned long)sfs.f_type == NSFS_MAGIC)
		return 0;
	if (ret_dirfd) {
		*ret_dirfd = TAKE_FD(dirfd);
		/* NAME's last component: the base of the path, as NAME has no '/'. */
		*ret_base = name;
	}
	return 1;
}

NSCTL_EXPORT int nsctl_pin_stale_check(enum nsctl_type type, const char *name)
{
	return stale_pin(type, name, NULL, NULL);
}

NSCTL_EXPORT int nsctl_pin_stale_remove(enum nsctl_type type, const char *name)
{
	_cleanup_close_ int dirfd = -1;
	const char *base = NULL;
	int r = stale_pin(type, name, &dirfd, &base);

	if (r <= 0)
		return r;
	/*
	 * Through the directory fd, once.  Should a pin be mounted onto the name
	 * meanwhile (ip netns add), the kernel refuses to unlink a mount point:
	 * EBUSY, and the live pin stays.  Should another empty file take its
	 * place, that one was stale too.
	 */
	if (unlinkat(dirfd, base, 0) < 0)
		return errno == ENOENT ? 0 : negative_errno();
	return 1;
}
