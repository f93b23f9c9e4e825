/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * System calls and ioctls newer than the oldest headers nsctl builds with.
 * Each is used with a run-time fallback, chosen by the error the kernel returns.
 */
#ifndef NSCTL_SYSCALLS_H
#define NSCTL_SYSCALLS_H

#include <signal.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <stdint.h>

#ifndef __NR_pidfd_open
#define __NR_pidfd_open 434
#endif
#ifndef __NR_pidfd_send_signal
#define __NR_pidfd_send_signal 424
#endif

static inline int sys_pidfd_open(pid_t pid, unsigned int flags)
{
	return (int)syscall(__NR_pidfd_open, pid, flags);
}

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

#ifndef NSFS_MAGIC
#define NSFS_MAGIC 0x6e736673
#endif

/* linux/pidfd.h (Linux 6.11): a namespace fd straight from a pidfd. */
#define NSCTL_PIDFS_IOCTL_MAGIC 0xFF
#define NSCTL_PIDFD_GET_NS(nr)  _IO(NSCTL_PIDFS_IOCTL_MAGIC, nr)

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

#endif
