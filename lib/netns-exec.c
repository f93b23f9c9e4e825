// SPDX-License-Identifier: LGPL-2.1-or-later
/* What "ip netns exec" adds to joining a network namespace: its own /sys and /etc/netns/NAME. */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/syscall.h>

#include "internal.h"
#include "syscalls.h"

/*
 * A fresh sysfs on /sys: sysfs shows the network devices of the network
 * namespace of the process that mounts it, so /sys/class/net lists the
 * joined namespace's devices.  The old /sys is detached through an fd of the
 * mount checked, and the new one moved onto an fd: no path is mounted on twice.
 */
static int sysfs_remount(void)
{
	_cleanup_close_ int old = -1, dir = -1, fsfd = -1, mntfd = -1;
	char path[32];

	old = open("/sys", O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (old < 0)
		return negative_errno();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", old);
	/* EINVAL: /sys is no mount point here; the new sysfs goes onto the directory. */
	if (umount2(path, MNT_DETACH) < 0 && errno != EINVAL)
		return negative_errno();
	dir = open("/sys", O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dir < 0)
		return negative_errno();
	fsfd = (int)syscall(__NR_fsopen, "sysfs", FSOPEN_CLOEXEC);
	if (fsfd < 0)
		return negative_errno();
	if (syscall(__NR_fsconfig, fsfd, FSCONFIG_SET_STRING, "source", "sysfs", 0) < 0 ||
	    syscall(__NR_fsconfig, fsfd, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		return negative_errno();
	mntfd = (int)syscall(__NR_fsmount, fsfd, FSMOUNT_CLOEXEC, 0);
	if (mntfd < 0)
		return negative_errno();
	if (syscall(__NR_move_mount, mntfd, "", dir, "",
		    MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
		return negative_errno();
	return 0;
}

/* Each entry of /etc/netns/NAME bind-mounted over the same name in /etc, as ip netns exec does. */
static int etc_netns_bind(const char *name)
{
	_cleanup_close_ int etc = -1, source = -1;
	_cleanup_closedir_ DIR *dir = NULL;
	struct dirent *entry;
	char path[PATH_MAX];
	int n = snprintf(path, sizeof(path), "/etc/netns/%s", name);

	if (n < 0 || (size_t)n >= sizeof(path))
		return -ENAMETOOLONG;
	source = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (source < 0)
		return errno == ENOENT ? 0 : negative_errno();
	etc = open("/etc", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (etc < 0)
		return negative_errno();
	dir = fdopendir(source);
	if (!dir)
		return negative_errno();
	source = -1; /* the DIR owns it now */
	while ((entry = readdir(dir))) {
		_cleanup_close_ int tree = -1, target = -1;

		if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0)
			continue;
		tree = (int)syscall(__NR_open_tree, dirfd(dir), entry->d_name,
				    OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_SYMLINK_NOFOLLOW);
		if (tree < 0)
			return negative_errno();
		/*
		 * Followed, as ip netns exec follows it: /etc is root's, and its
		 * resolv.conf is often a link to the resolver's file.  A name /etc
		 * lacks is skipped, as ip skips it (with a warning).
		 */
		target = openat(etc, entry->d_name, O_PATH | O_CLOEXEC);
		if (target < 0 && errno == ENOENT)
			continue;
		if (target < 0)
			return negative_errno();
		if (syscall(__NR_move_mount, tree, "", target, "",
			    MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
			return negative_errno();
	}
	return 0;
}

NSCTL_EXPORT int nsctl_net_exec_setup(const char *name)
{
	int r;

	if (name &&
	    (!*name || strchr(name, '/') || strcmp(name, ".") == 0 || strcmp(name, "..") == 0))
		return -EINVAL;
	/* A mount namespace of the caller's own: nothing below reaches the host's. */
	if (unshare(CLONE_NEWNS) < 0)
		return negative_errno();
	r = nsctl_mnt_propagation_set(NSCTL_PROPAGATION_SLAVE);
	if (r < 0)
		return r;
	r = sysfs_remount();
	if (r < 0)
		return r;
	return name ? etc_netns_bind(name) : 0;
}
