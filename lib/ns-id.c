// SPDX-License-Identifier: LGPL-2.1-or-later
/* A namespace by its 64-bit ID (NS_GET_ID): opened through an nsfs file handle (Linux 6.18). */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"
#include "syscalls.h"

/*
 * open_by_handle_at(FD_NSFS_ROOT) of the handle (ID, TYPE's flag, INUM).  The
 * kernel itself checks the caller may have it: it is in that namespace, or
 * has CAP_SYS_ADMIN in the user namespace that owns it.  -ESTALE when no
 * namespace matches the handle.
 */
static int open_handle(uint64_t id, unsigned long clone_flag, ino_t ino)
{
	struct {
		struct file_handle head;
		struct nsctl_nsfs_handle nsfs;
	} handle;
	int fd;

	memset(&handle, 0, sizeof(handle));
	handle.head.handle_bytes = sizeof(handle.nsfs);
	handle.head.handle_type = FILEID_NSFS;
	handle.nsfs.ns_id = id;
	handle.nsfs.ns_type = (uint32_t)clone_flag;
	handle.nsfs.ns_inum = (uint32_t)ino;
	fd = open_by_handle_at(FD_NSFS_ROOT, &handle.head, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	return fd < 0 ? negative_errno() : fd;
}

/*
 * Whether the kernel has namespace file handles, after a refusal that an older
 * kernel gives as well: name_to_handle_at() on a namespace of our own works
 * only where nsfs can make handles (6.18).
 */
static bool kernel_has_nsfs_handles(void)
{
	struct {
		struct file_handle head;
		unsigned char bytes[64];
	} handle;
	int mount_id;

	memset(&handle, 0, sizeof(handle));
	handle.head.handle_bytes = sizeof(handle.bytes);
	return name_to_handle_at(AT_FDCWD, "/proc/thread-self/ns/user", &handle.head, &mount_id,
				 AT_SYMLINK_FOLLOW) == 0;
}

/* An answer of open_by_handle_at() in the words of nsctl_ns_open_id(). */
static int handle_error(int r)
{
	switch (r) {
	case -EBADF:      /* before 6.18, FD_NSFS_ROOT is no fd */
	case -ENOSYS:     /* no open_by_handle_at (or a filter that denies it) */
	case -EOPNOTSUPP: /* nsfs without file handles */
		return -EOPNOTSUPP;
	case -EPERM:
		/* Before 6.9 open_by_handle_at() wants CAP_DAC_READ_SEARCH first of all. */
		return kernel_has_nsfs_handles() ? -EPERM : -EOPNOTSUPP;
	case -ESTALE:
		return -ENOENT;
	default:
		return r;
	}
}

/*
 * The type and inode of the namespace of ID, where a scan of the host finds
 * it (what the caller may look at: every process, fd, socket and pin for root).
 */
static int find_by_scan(uint64_t id, enum nsctl_type *ret_type, ino_t *ret_ino)
{
	struct nsctl_list *list = NULL;
	int r;

	r = nsctl_list_scan(NSCTL_LIST_ALL | NSCTL_LIST_WITHOUT_NETNSID, &list);
	if (r < 0)
		return r;
	r = -ENOENT;
	for (size_t i = 0; i < nsctl_list_count(list); i++) {
		const struct nsctl_list_ns *ns = nsctl_list_get(list, i);

		if (ns->id->id != id)
			continue;
		*ret_type = ns->id->type;
		*ret_ino = ns->id->ino;
		r = 0;
		break;
	}
	nsctl_list_free(list);
	return r;
}

NSCTL_EXPORT int nsctl_ns_open_id(uint64_t id, int expected, enum nsctl_type *ret_type)
{
	_cleanup_close_ int fd = -1;
	struct nsctl_ns_id got = NSCTL_NS_ID_INIT;
	enum nsctl_type type;
	ino_t ino;
	int r;

	if (id == 0 || expected >= TYPE_COUNT)
		return -EINVAL;
	/* Newer kernels take the ID alone, type and inode left 0. */
	fd = open_handle(id, 0, 0);
	if (fd == -ESTALE || fd == -EINVAL) {
		/* 6.18 wants the type and inode the handle names as well: find them. */
		r = find_by_scan(id, &type, &ino);
		if (r == -ENOENT) {
			/* No scan sees it: the kernel may still know it, or not have handles. */
			r = handle_error(fd);
			return r == -EINVAL ? -ENOENT : r;
		}
		if (r < 0)
			return r;
		fd = open_handle(id, nsctl_type_get(type)->clone_flag, ino);
		/*
		 * The kernel answers ESTALE for a handle it refuses as for one it
		 * cannot find: this one the scan has just seen, so it was refused.
		 */
		if (fd == -ESTALE)
			return -EPERM;
	}
	if (fd < 0)
		return handle_error(fd);
	r = nsctl_ns_identify(fd, &got);
	if (r < 0)
		return r;
	/* What the kernel opened is the namespace of ID, nothing else. */
	if (got.id != id)
		return -ENOENT;
	if (expected >= 0 && (int)got.type != expected)
		return -EMEDIUMTYPE;
	if (ret_type)
		*ret_type = got.type;
	return TAKE_FD(fd);
}
