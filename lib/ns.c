// SPDX-License-Identifier: LGPL-2.1-or-later
/* One namespace at a time: is this fd a namespace, which one, who owns it. */
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>

#include "internal.h"
#include "number.h"
#include "syscalls.h"

/*
 * An fd opened through a pin (a bind mount of an nsfs file) reads as the pin's
 * path; its mount's root, in /proc/thread-self/mountinfo, is "net:[4026531840]".
 * The mount is the one fdinfo's mnt_id (Linux 3.15) names.  thread-self, here
 * and for every fd below: a thread may have an fd table (unshare(CLONE_FILES))
 * and a mount namespace of its own, which /proc/self, the main thread's, lacks.
 */
static int type_from_mount(int fd, enum nsctl_type *ret_type)
{
	_cleanup_fclose_ FILE *fdinfo = NULL, *mountinfo = NULL;
	_cleanup_free_ char *line = NULL;
	size_t size = 0;
	char path[64];
	int mnt_id = -1;
	uint64_t value;

	snprintf(path, sizeof(path), "/proc/thread-self/fdinfo/%d", fd);
	fdinfo = fopen(path, "re");
	if (!fdinfo)
		return negative_errno();
	while (getline(&line, &size, fdinfo) > 0) {
		const char *p = line + strlen("mnt_id:");

		if (strncmp(line, "mnt_id:", strlen("mnt_id:")) != 0)
			continue;
		p += strspn(p, " \t");
		if (number_scan(&p, INT_MAX, &value) == 0)
			mnt_id = (int)value;
		break;
	}
	if (mnt_id < 0)
		return -ENOTTY;
	mountinfo = fopen("/proc/thread-self/mountinfo", "re");
	if (!mountinfo)
		return negative_errno();
	while (getline(&line, &size, mountinfo) > 0) {
		struct mountinfo_entry entry;

		line[strcspn(line, "\n")] = '\0';
		if (mountinfo_parse_line(line, &entry) < 0 || entry.mount_id != mnt_id)
			continue;
		return ns_link_parse(entry.root, ret_type, NULL) < 0 ? -ENOTTY : 0;
	}
	return -ENOTTY;
}

/* Kernels before 4.11 have no NS_GET_NSTYPE: the link text "net:[4026531840]" names the type. */
static int type_from_link(int fd, enum nsctl_type *ret_type)
{
	char path[64], target[128];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/thread-self/fd/%d", fd);
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return negative_errno();
	target[n] = '\0';
	if (ns_link_parse(target, ret_type, NULL) == 0)
		return 0;
	return type_from_mount(fd, ret_type);
}

static int require_nsfs(int fd)
{
	struct statfs sfs;

	if (fstatfs(fd, &sfs) < 0)
		return negative_errno();
	if ((unsigned long)sfs.f_type != NSFS_MAGIC)
		return -ENOTTY;
	return 0;
}

NSCTL_EXPORT int nsctl_ns_check(int fd, enum nsctl_type *ret_type)
{
	enum nsctl_type type;
	int flag, r;

	if (fd < 0)
		return -EBADF;
	r = require_nsfs(fd);
	if (r < 0)
		return r;
	flag = ioctl(fd, NS_GET_NSTYPE);
	if (flag >= 0)
		r = nsctl_type_from_clone_flag((unsigned long)flag, &type);
	else if (errno == ENOTTY || errno == EINVAL)
		r = type_from_link(fd, &type);
	else
		r = negative_errno();
	if (r < 0)
		return r == -EINVAL ? -ENOTTY : r;
	if (ret_type)
		*ret_type = type;
	return 0;
}

NSCTL_EXPORT int nsctl_ns_open_own(enum nsctl_type type, bool for_children)
{
	unsigned supported; /* 0: unknown, and the kernel will say */
	char path[64];
	int fd;

	if (!type_row(type))
		return -EINVAL;
	/* The thread's, not the process's: /proc/self is the main thread's. */
	snprintf(path, sizeof(path), "/proc/thread-self/ns/%s", type_proc_name(type, for_children));
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd >= 0)
		return fd;
	if (errno != ENOENT)
		return negative_errno();
	/* Asked only now: the look at every type costs 5% of run -T (paired runs). */
	supported = nsctl_type_supported();
	if (supported && !(supported & NSCTL_TYPE_BIT(type)))
		return -EOPNOTSUPP;
	/* No /proc here, or one of a PID namespace that does not show this thread. */
	fd = own_ns_open_by_pidfd(type, for_children);
	if (fd >= 0 || fd == -EOPNOTSUPP)
		return fd;
	return -ENOENT;
}

NSCTL_EXPORT int nsctl_ns_identify(int fd, struct nsctl_ns_id *ret_id)
{
	enum nsctl_type type;
	uint64_t id = 0;
	struct stat st;
	int r;

	if (!ret_id || sized_out_begin(ret_id, NS_ID_FIRST, sizeof(*ret_id)) < 0)
		return -EINVAL;
	r = nsctl_ns_check(fd, &type);
	if (r < 0)
		return r;
	if (fstat(fd, &st) < 0)
		return negative_errno();
	/* NS_GET_ID (Linux 6.18) names a namespace for the machine's lifetime; inodes can be
	 * reused. */
	if (ioctl(fd, NS_GET_ID, &id) < 0) {
		if (errno != ENOTTY && errno != EINVAL)
			return negative_errno();
		id = 0;
	}
	ret_id->type = type;
	ret_id->dev = st.st_dev;
	ret_id->ino = st.st_ino;
	ret_id->id = id;
	return 0;
}

NSCTL_EXPORT bool nsctl_ns_id_equal(const struct nsctl_ns_id *a, const struct nsctl_ns_id *b)
{
	if (!a || !b || sized_in_check(a, NS_ID_FIRST, sizeof(*a)) < 0 ||
	    sized_in_check(b, NS_ID_FIRST, sizeof(*b)) < 0)
		return false;
	if (a->id && b->id)
		return a->id == b->id && a->type == b->type;
	return a->type == b->type && a->dev == b->dev && a->ino == b->ino;
}

NSCTL_EXPORT int nsctl_ns_id_format(const struct nsctl_ns_id *id, char *buf, size_t size)
{
	const struct nsctl_type_info *info;
	int n;

	if (!id || !buf)
		return -EINVAL;
	n = sized_in_check(id, NS_ID_FIRST, sizeof(*id));
	if (n < 0)
		return n;
	info = nsctl_type_get(id->type);
	if (!info)
		return -EINVAL;
	n = snprintf(buf, size, "%s:[%ju]", info->name, (uintmax_t)id->ino);
	if (n < 0)
		return -EINVAL;
	if ((size_t)n >= size)
		return -ENOBUFS;
	return n;
}

int ns_open_path_checked(const char *path, int expected, dev_t dev, ino_t ino,
			 enum nsctl_type *ret_type)
{
	_cleanup_close_ int pathfd = -1, fd = -1;
	char proc_path[64];
	enum nsctl_type type;
	struct statx stx;
	int r;

	if (!path || !*path || expected >= TYPE_COUNT)
		return -EINVAL;
	/*
	 * Look first, open after: an O_PATH fd does not open the file itself, so a
	 * FIFO cannot block us, a device's driver is never called, and a tty cannot
	 * become our controlling terminal.
	 */
	pathfd = open(path, O_PATH | O_CLOEXEC);
	if (pathfd < 0)
		return negative_errno();
	/*
	 * AT_STATX_DONT_SYNC: where PATH (a /proc/PID/fd link) now leads to a FUSE
	 * file, its server is not asked; nsfs has nothing to refresh.
	 */
	if (statx(pathfd, "", AT_EMPTY_PATH | AT_STATX_DONT_SYNC, STATX_TYPE | STATX_INO, &stx) < 0)
		return negative_errno();
	if (S_ISDIR(stx.stx_mode))
		return -EISDIR;
	if (!S_ISREG(stx.stx_mode))
		return -ENOTTY;
	/* Whoever controls PATH may have swapped it since the caller saw (DEV, INO) there. */
	if (ino && (makedev(stx.stx_dev_major, stx.stx_dev_minor) != dev || stx.stx_ino != ino))
		return -ESTALE;
	r = require_nsfs(pathfd);
	if (r < 0)
		return r;
	/* Reopen the very inode we checked; the path may have changed since. */
	snprintf(proc_path, sizeof(proc_path), "/proc/thread-self/fd/%d", pathfd);
	fd = open(proc_path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return negative_errno();
	r = nsctl_ns_check(fd, &type);
	if (r < 0)
		return r;
	if (expected >= 0 && (int)type != expected)
		return -EMEDIUMTYPE;
	if (ret_type)
		*ret_type = type;
	return TAKE_FD(fd);
}

NSCTL_EXPORT int nsctl_ns_open_path(const char *path, int expected, enum nsctl_type *ret_type)
{
	return ns_open_path_checked(path, expected, 0, 0, ret_type);
}

static int open_related(int fd, unsigned long request)
{
	int r = nsctl_ns_check(fd, NULL);

	if (r < 0)
		return r;
	/* The kernel opens the related namespace with O_CLOEXEC. */
	r = ioctl(fd, request);
	return r < 0 ? negative_errno() : r;
}

NSCTL_EXPORT int nsctl_ns_open_owner(int fd)
{
	return open_related(fd, NS_GET_USERNS);
}

NSCTL_EXPORT int nsctl_ns_open_parent(int fd)
{
	return open_related(fd, NS_GET_PARENT);
}

NSCTL_EXPORT int nsctl_ns_get_owner_uid(int fd, uid_t *ret_uid)
{
	enum nsctl_type type;
	/* Set, because NS_GET_OWNER_UID is an _IO ioctl that writes: checkers cannot know it does.
	 */
	uid_t uid = (uid_t)-1;
	int r;

	if (!ret_uid)
		return -EINVAL;
	r = nsctl_ns_check(fd, &type);
	if (r < 0)
		return r;
	if (type != NSCTL_TYPE_USER)
		return -EINVAL;
	if (ioctl(fd, NS_GET_OWNER_UID, &uid) < 0)
		return negative_errno();
	*ret_uid = uid;
	return 0;
}

NSCTL_EXPORT int nsctl_ns_same(int fd_a, int fd_b)
{
	struct nsctl_ns_id a = NSCTL_NS_ID_INIT, b = NSCTL_NS_ID_INIT;
	int r;

	r = nsctl_ns_identify(fd_a, &a);
	if (r < 0)
		return r;
	r = nsctl_ns_identify(fd_b, &b);
	if (r < 0)
		return r;
	return nsctl_ns_id_equal(&a, &b) ? 1 : 0;
}
