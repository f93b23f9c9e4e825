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

#endif
