/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * System calls and ioctls newer than the oldest headers nsctl builds with.
 * Each is used with a run-time fallback, chosen by the error the kernel returns.
 */
#ifndef NSCTL_SYSCALLS_H
#define NSCTL_SYSCALLS_H

#include <signal.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <stdint.h>

/* close_range() (5.9, CLOEXEC 5.11), CLONE_PIDFD (5.2), time namespaces (5.6). */
#ifndef __NR_close_range
#define __NR_close_range 436
#endif
#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif
#ifndef CLONE_PIDFD
#define CLONE_PIDFD 0x00001000
#endif
#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif

#ifndef __NR_pidfd_open
#define __NR_pidfd_open 434
#endif
#ifndef __NR_pidfd_send_signal
#define __NR_pidfd_send_signal 424
#endif

/* linux/pidfd.h (Linux 6.9): a pidfd on one thread, which need not lead its group. */
#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL
#endif

static inline int sys_pidfd_open(pid_t pid, unsigned int flags)
{
	return (int)syscall(__NR_pidfd_open, pid, flags);
}

#ifndef __NR_process_madvise
#define __NR_process_madvise 440
#endif

static inline int sys_process_madvise(int pidfd, const void *iovec, size_t vlen, int advice,
				      unsigned int flags)
{
	return (int)syscall(__NR_process_madvise, pidfd, iovec, vlen, advice, flags);
}

#ifndef __NR_pidfd_getfd
#define __NR_pidfd_getfd 438
#endif

/* A copy of fd TARGETFD of the process of PIDFD, close-on-exec (Linux 5.6; PTRACE_MODE_ATTACH). */
static inline int sys_pidfd_getfd(int pidfd, int targetfd, unsigned int flags)
{
	return (int)syscall(__NR_pidfd_getfd, pidfd, targetfd, flags);
}

/* linux/sockios.h (Linux 4.9): the network namespace of a socket, as an nsfs fd. */
#ifndef SIOCGSKNS
#define SIOCGSKNS 0x894C
#endif

static inline int sys_pidfd_send_signal(int pidfd, int sig, siginfo_t *info, unsigned int flags)
{
	return (int)syscall(__NR_pidfd_send_signal, pidfd, sig, info, flags);
}

/* linux/nsfs.h */
#define NSCTL_NSIO 0xb7
#ifndef NS_GET_USERNS
#define NS_GET_USERNS _IO(NSCTL_NSIO, 0x1)
#endif
#ifndef NS_GET_PARENT
#define NS_GET_PARENT _IO(NSCTL_NSIO, 0x2)
#endif
#ifndef NS_GET_NSTYPE
#define NS_GET_NSTYPE _IO(NSCTL_NSIO, 0x3)
#endif
#ifndef NS_GET_OWNER_UID
#define NS_GET_OWNER_UID _IO(NSCTL_NSIO, 0x4)
#endif
#ifndef NS_GET_ID
#define NS_GET_ID _IOR(NSCTL_NSIO, 0xd, uint64_t)
#endif

/*
 * Namespace file handles (Linux 6.18): open_by_handle_at() with FD_NSFS_ROOT
 * as its anchor opens the namespace a struct nsfs_file_handle names.  Older
 * kernels take FD_NSFS_ROOT for a bad fd (EBADF).
 */
#ifndef FD_NSFS_ROOT
#define FD_NSFS_ROOT (-10003)
#endif
#ifndef FILEID_NSFS
#define FILEID_NSFS 0xf1
#endif
/* linux/nsfs.h's struct nsfs_file_handle, under our own name. */
struct nsctl_nsfs_handle {
	uint64_t ns_id;
	uint32_t ns_type; /* its CLONE_NEW* flag */
	uint32_t ns_inum; /* its inode */
};

#ifndef NSFS_MAGIC
#define NSFS_MAGIC 0x6e736673
#endif

/* linux/pidfd.h (Linux 6.11): a namespace fd straight from a pidfd. */
#define NSCTL_PIDFS_IOCTL_MAGIC 0xFF
#define NSCTL_PIDFD_GET_NS(nr)  _IO(NSCTL_PIDFS_IOCTL_MAGIC, nr)

/*
 * linux/pidfd.h (Linux 6.13): what a pidfd names, PID included.  Only the
 * first version of the struct (64 bytes); the kernel takes its size from the
 * request number.
 */
struct nsctl_pidfd_info {
	uint64_t mask;
	uint64_t cgroupid;
	uint32_t pid, tgid, ppid;
	uint32_t ruid, rgid, euid, egid, suid, sgid, fsuid, fsgid;
	uint32_t spare0[1];
};
#define NSCTL_PIDFD_INFO_PID 1ULL
#define NSCTL_PIDFD_GET_INFO _IOWR(NSCTL_PIDFS_IOCTL_MAGIC, 11, struct nsctl_pidfd_info)

/* The filesystems a pidfd lives on: pidfs (Linux 6.9), before it an anonymous inode. */
#define NSCTL_PIDFS_MAGIC         0x50494446
#define NSCTL_ANON_INODE_FS_MAGIC 0x09041934

/* The new mount API (Linux 5.2): open_tree, move_mount, fsopen, fsconfig, fsmount. */
#include <fcntl.h>
#ifndef __NR_fsopen
#define __NR_fsopen 430
#endif
#ifndef __NR_fsconfig
#define __NR_fsconfig 431
#endif
#ifndef __NR_fsmount
#define __NR_fsmount 432
#endif
#ifndef __NR_move_mount
#define __NR_move_mount 429
#endif
#ifndef FSCONFIG_CMD_CREATE
#define FSCONFIG_CMD_CREATE 6
#endif
#ifndef FSCONFIG_SET_STRING
#define FSCONFIG_SET_STRING 1
#endif
#ifndef MOVE_MOUNT_F_EMPTY_PATH
#define MOVE_MOUNT_F_EMPTY_PATH 0x00000004
#endif
#ifndef MOVE_MOUNT_T_EMPTY_PATH
#define MOVE_MOUNT_T_EMPTY_PATH 0x00000040
#endif
#ifndef MOUNT_ATTR_NOSUID
#define MOUNT_ATTR_NOSUID 0x00000002
#define MOUNT_ATTR_NODEV  0x00000004
#define MOUNT_ATTR_NOEXEC 0x00000008
#endif
#ifndef FSOPEN_CLOEXEC
#define FSOPEN_CLOEXEC 0x00000001
#endif
#ifndef FSMOUNT_CLOEXEC
#define FSMOUNT_CLOEXEC 0x00000001
#endif
#ifndef __NR_open_tree
#define __NR_open_tree 428
#endif
#ifndef OPEN_TREE_CLONE
#define OPEN_TREE_CLONE 1
#endif
#ifndef OPEN_TREE_CLOEXEC
#define OPEN_TREE_CLOEXEC O_CLOEXEC
#endif

/* mount_setattr (Linux 5.12): propagation changed on an fd, not on a path. */
#ifndef __NR_mount_setattr
#define __NR_mount_setattr 442
#endif
#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif
/* struct mount_attr of linux/mount.h, under our own name: newer glibc declares it too. */
struct nsctl_mount_attr {
	uint64_t attr_set;
	uint64_t attr_clr;
	uint64_t propagation;
	uint64_t userns_fd;
};

static inline int sys_mount_setattr(int dirfd, const char *path, unsigned flags,
				    uint64_t propagation)
{
	struct nsctl_mount_attr attr = { .propagation = propagation };

	return (int)syscall(__NR_mount_setattr, dirfd, path, flags, &attr, sizeof(attr));
}

/* statx's mount ID (Linux 5.8). */
#ifndef STATX_MNT_ID
#define STATX_MNT_ID 0x00001000U
#endif

#endif
