// SPDX-License-Identifier: LGPL-2.1-or-later
/* The one table of namespace types, and everything that looks types up in it. */
#include <fcntl.h>
#include <linux/magic.h>
#include <sched.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "internal.h"
#include "syscalls.h"

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif
#ifndef CLONE_NEWCGROUP
#define CLONE_NEWCGROUP 0x02000000
#endif

static const struct type_row type_table[TYPE_COUNT] = {
	[NSCTL_TYPE_CGROUP] = { { sizeof(struct nsctl_type_info), NSCTL_TYPE_CGROUP, "cgroup",
				  CLONE_NEWCGROUP, NULL, "cgroup root directory" },
				NSCTL_PIDFD_GET_NS(1),
				0 },
	[NSCTL_TYPE_IPC] = { { sizeof(struct nsctl_type_info), NSCTL_TYPE_IPC, "ipc", CLONE_NEWIPC,
			       NULL, "System V IPC and POSIX message queues" },
			     NSCTL_PIDFD_GET_NS(2),
			     0 },
	[NSCTL_TYPE_MNT] = { { sizeof(struct nsctl_type_info), NSCTL_TYPE_MNT, "mnt", CLONE_NEWNS,
			       NULL, "mount points" },
			     NSCTL_PIDFD_GET_NS(3),
			     0 },
	[NSCTL_TYPE_NET] = { { sizeof(struct nsctl_type_info), NSCTL_TYPE_NET, "net", CLONE_NEWNET,
			       NULL, "network devices, stacks and ports" },
			     NSCTL_PIDFD_GET_NS(4),
			     0 },
	[NSCTL_TYPE_PID] = { { sizeof(struct nsctl_type_info), NSCTL_TYPE_PID, "pid", CLONE_NEWPID,
			       "pid_for_children", "process IDs" },
			     NSCTL_PIDFD_GET_NS(5),
			     NSCTL_PIDFD_GET_NS(6) },
	[NSCTL_TYPE_TIME] = { { sizeof(struct nsctl_type_info), NSCTL_TYPE_TIME, "time",
				CLONE_NEWTIME, "time_for_children", "boot and monotonic clocks" },
			      NSCTL_PIDFD_GET_NS(7),
			      NSCTL_PIDFD_GET_NS(8) },
	[NSCTL_TYPE_USER] = { { sizeof(struct nsctl_type_info), NSCTL_TYPE_USER, "user",
				CLONE_NEWUSER, NULL, "user and group IDs" },
			      NSCTL_PIDFD_GET_NS(9),
			      0 },
	[NSCTL_TYPE_UTS] = { { sizeof(struct nsctl_type_info), NSCTL_TYPE_UTS, "uts", CLONE_NEWUTS,
			       NULL, "hostname and NIS domain name" },
			     NSCTL_PIDFD_GET_NS(10),
			     0 },
};

const struct type_row *type_row(enum nsctl_type type)
{
	if ((unsigned)type >= TYPE_COUNT)
		return NULL;
	return &type_table[type];
}

const char *type_proc_name(enum nsctl_type type, bool for_children)
{
	const struct nsctl_type_info *info = &type_table[type].info;

	return for_children && info->children_name ? info->children_name : info->name;
}

NSCTL_EXPORT const struct nsctl_type_info *nsctl_type_get(enum nsctl_type type)
{
	const struct type_row *row = type_row(type);

	return row ? &row->info : NULL;
}

static int type_lookup(const char *name, size_t length, enum nsctl_type *ret_type)
{
	type_foreach (t) {
		const struct nsctl_type_info *info = &type_table[t].info;

		if (strlen(info->name) == length && memcmp(info->name, name, length) == 0) {
			*ret_type = t;
			return 0;
		}
	}
	return -EINVAL;
}

NSCTL_EXPORT unsigned nsctl_type_all(void)
{
	return TYPES_ALL;
}

NSCTL_EXPORT int nsctl_type_from_name(const char *name, enum nsctl_type *ret_type)
{
	if (!name || !ret_type)
		return -EINVAL;
	return type_lookup(name, strlen(name), ret_type);
}

NSCTL_EXPORT int nsctl_type_from_clone_flag(unsigned long flag, enum nsctl_type *ret_type)
{
	if (!ret_type)
		return -EINVAL;
	type_foreach (t) {
		if (type_table[t].info.clone_flag == flag) {
			*ret_type = t;
			return 0;
		}
	}
	return -EINVAL;
}

NSCTL_EXPORT unsigned long nsctl_type_to_clone_flags(unsigned types)
{
	unsigned long flags = 0;

	type_foreach (t) {
		if (types & NSCTL_TYPE_BIT(t))
			flags |= type_table[t].info.clone_flag;
	}
	return flags;
}

int own_ns_open_by_pidfd(enum nsctl_type type, bool for_children)
{
	/*
	 * setns() moves the calling thread alone, so "ours" means this thread's: a
	 * pidfd of getpid() would name the main thread.  A thread that does not
	 * lead its group needs PIDFD_THREAD (Linux 6.9, before the ioctls).
	 */
	pid_t tid = (pid_t)syscall(SYS_gettid);
	_cleanup_close_ int pidfd = sys_pidfd_open(tid, tid == getpid() ? 0 : PIDFD_THREAD);
	int fd;

	if (pidfd < 0)
		return negative_errno();
	fd = ioctl(pidfd,
		   for_children && type_table[type].pidfd_children_ioctl
		       ? type_table[type].pidfd_children_ioctl
		       : type_table[type].pidfd_ioctl,
		   0);
	return fd < 0 ? negative_errno() : fd;
}

/*
 * Without /proc (a chroot, a mount namespace that lacks it): ask through a
 * pidfd on ourselves, whose namespace ioctls (Linux 6.11) say EOPNOTSUPP for a
 * type the kernel lacks.  0 where they do not exist either: nobody can tell.
 */
static unsigned types_supported_by_pidfd(void)
{
	unsigned types = 0;

	type_foreach (t) {
		int fd = own_ns_open_by_pidfd(t, false);

		if (fd >= 0) {
			close(fd);
			types |= NSCTL_TYPE_BIT(t);
		} else if (fd != -EOPNOTSUPP) {
			return 0;
		}
	}
	return types;
}

int proc_dir_open(const char *path)
{
	_cleanup_close_ int fd = -1;
	struct statfs sfs;

	fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fstatfs(fd, &sfs) < 0 || (unsigned long)sfs.f_type != PROC_SUPER_MAGIC)
		return -1;
	return TAKE_FD(fd);
}

NSCTL_EXPORT unsigned nsctl_type_supported(void)
{
	static unsigned supported; /* a kernel does not gain types while running */
	unsigned types = 0;
	_cleanup_close_ int dirfd = -1;

	/* (Threads may ask at once: each finds the same answer; 0, unknown, is asked again.) */
	types = __atomic_load_n(&supported, __ATOMIC_RELAXED);
	if (types)
		return types;
	/*
	 * O_PATH: an undumpable caller's /proc/self/ns is root's, mode 0511, so an
	 * ordinary user cannot open it to read; to look its entries up he may.
	 * Only a procfs's: a directory mounted over it could hide a type, and a
	 * caller that believed it would leave that namespace unjoined.
	 */
	dirfd = proc_dir_open("/proc/self/ns");
	if (dirfd < 0) {
		types = types_supported_by_pidfd();
		__atomic_store_n(&supported, types, __ATOMIC_RELAXED);
		return types;
	}
	type_foreach (t) {
		struct stat st;

		if (fstatat(dirfd, type_table[t].info.name, &st, AT_SYMLINK_NOFOLLOW) == 0)
			types |= NSCTL_TYPE_BIT(t);
	}
	__atomic_store_n(&supported, types, __ATOMIC_RELAXED);
	return types;
}
