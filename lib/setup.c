// SPDX-License-Identifier: LGPL-2.1-or-later
/* Making new namespaces usable: names, loopback, mount propagation, a fresh proc, clock offsets. */
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "syscalls.h"

/* The kernel's __NEW_UTS_LEN: a hostname or domain name is at most 64 bytes. */
#define UTS_NAME_MAX 64

/* KTIME_SEC_MAX / 2: the kernel keeps a namespace's clocks below it (timens.c). */
#define TIME_OFFSET_MAX INT64_C(4611686018)

NSCTL_EXPORT int nsctl_uts_name_check(const char *name)
{
	size_t length;

	if (!name)
		return -EINVAL;
	length = strlen(name);
	if (length == 0)
		return -EINVAL;
	if (length > UTS_NAME_MAX)
		return -ENAMETOOLONG;
	return 0;
}

NSCTL_EXPORT int nsctl_uts_names_set(const char *hostname, const char *domainname)
{
	int r;

	if (hostname) {
		r = nsctl_uts_name_check(hostname);
		if (r < 0)
			return r;
		if (sethostname(hostname, strlen(hostname)) < 0)
			return negative_errno();
	}
	if (domainname) {
		r = nsctl_uts_name_check(domainname);
		if (r < 0)
			return r;
		if (setdomainname(domainname, strlen(domainname)) < 0)
			return negative_errno();
	}
	return 0;
}

NSCTL_EXPORT int nsctl_net_loopback_up(void)
{
	_cleanup_close_ int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	struct ifreq ifr;

	if (fd < 0)
		return negative_errno();
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "lo");
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
		return negative_errno();
	if (ifr.ifr_flags & IFF_UP)
		return 0;
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(fd, SIOCSIFFLAGS, &ifr) < 0)
		return negative_errno();
	return 0;
}

static const struct {
	const char *name;
	unsigned long flags;
} propagations[] = {
	[NSCTL_PROPAGATION_UNCHANGED] = { "unchanged", 0 },
	[NSCTL_PROPAGATION_PRIVATE] = { "private", MS_REC | MS_PRIVATE },
	[NSCTL_PROPAGATION_SLAVE] = { "slave", MS_REC | MS_SLAVE },
	[NSCTL_PROPAGATION_SHARED] = { "shared", MS_REC | MS_SHARED },
};

/*
 * mount(2) onto the directory at DIRFD, never onto a name: through its
 * /proc/self/fd link PATH, or, where no /proc is mounted, as the working
 * directory ("." is the fd's inode, whatever its name has become).
 */
static int mount_on_fd(int dirfd, const char *path, const char *source, const char *fstype,
		       unsigned long flags)
{
	_cleanup_close_ int cwd = -1;
	int r = 0;

	if (mount(source, path, fstype, flags, NULL) == 0)
		return 0;
	if (errno != ENOENT)
		return negative_errno();
	cwd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (cwd < 0)
		return negative_errno();
	if (fchdir(dirfd) < 0)
		return negative_errno();
	if (mount(source, ".", fstype, flags, NULL) < 0)
		r = negative_errno();
	if (fchdir(cwd) < 0 && r == 0)
		r = negative_errno();
	return r;
}

/* Is the caller's root the root of a mount?  -EOPNOTSUPP: the kernel cannot tell (< 5.8). */
static int root_is_mount_root(void)
{
	struct statx stx;

	if (statx(AT_FDCWD, "/", AT_NO_AUTOMOUNT, STATX_BASIC_STATS, &stx) < 0)
		return negative_errno();
	if (!(stx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT))
		return -EOPNOTSUPP;
	return !!(stx.stx_attributes & STATX_ATTR_MOUNT_ROOT);
}

/*
 * In a chroot, "/" is a directory inside a mount, and the kernel changes the
 * propagation only of a mount's root (EINVAL otherwise; util-linux unshare
 * fails there).  Skipping it is no answer: the mount that holds the chroot is a
 * copy of the host's, still its peer if the host's is shared (systemd makes it
 * so), and a mount made below would appear on the host.  setns() into the
 * caller's own mount namespace puts it at the namespace's root, from where the
 * whole tree can be changed; fds of the root and working directory, opened
 * first, put it back where it was.  The caller must be in a mount namespace of
 * its own, as the kernel requires that no other thread shares its fs_struct.
 */
static int propagation_set_chrooted(unsigned long flags)
{
	_cleanup_close_ int root_fd = -1, cwd_fd = -1, ns_fd = -1;
	int r = 0;

	root_fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root_fd < 0)
		return negative_errno();
	cwd_fd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (cwd_fd < 0)
		return negative_errno();
	/* A pidfd needs no /proc (a chroot may lack it); /proc/self/ns/mnt before Linux 5.8. */
	ns_fd = sys_pidfd_open(getpid(), 0);
	if (ns_fd < 0 || setns(ns_fd, CLONE_NEWNS) < 0) {
		if (ns_fd >= 0)
			close(ns_fd);
		ns_fd = nsctl_ns_open_own(NSCTL_TYPE_MNT, false);
		if (ns_fd < 0)
			return ns_fd;
		if (setns(ns_fd, CLONE_NEWNS) < 0)
			return negative_errno();
	}
	/*
	 * Source and type "none": the kernel ignores both for a change of
	 * propagation, and valgrind reads a NULL type as a bad pointer.
	 */
	if (mount("none", "/", "none", flags, NULL) < 0)
		r = negative_errno();
	/* Back in the chroot whatever happened: the caller must never run outside it. */
	if (fchdir(root_fd) < 0 || chroot(".") < 0 || fchdir(cwd_fd) < 0)
		return negative_errno();
	return r;
}

NSCTL_EXPORT int nsctl_mnt_propagation_set(enum nsctl_propagation propagation)
{
	_cleanup_close_ int rootfd = -1;
	char path[64];
	int r;

	if ((unsigned)propagation >= ELEMENTSOF(propagations))
		return -EINVAL;
	if (propagation == NSCTL_PROPAGATION_UNCHANGED)
		return 0;
	/* A new mount namespace copies the host's shared mounts: this cuts them off. */
	rootfd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return negative_errno();
	if (sys_mount_setattr(rootfd, "", AT_EMPTY_PATH | AT_RECURSIVE,
			      propagations[propagation].flags & ~(unsigned long)MS_REC) == 0)
		return 0;
	r = negative_errno();
	if (r == -ENOSYS) {
		/* Before Linux 5.12: mount(2) through the fd's magic link, or the fd as working
		 * directory. */
		snprintf(path, sizeof(path), "/proc/thread-self/fd/%d", rootfd);
		r = mount_on_fd(rootfd, path, "none", "none", propagations[propagation].flags);
		if (r == 0)
			return 0;
	}
	if (r != -EINVAL || root_is_mount_root() > 0)
		return r;
	return propagation_set_chrooted(propagations[propagation].flags);
}

/* The new mount API: a proc instance made here, moved onto an fd, no path walked twice. */
static int proc_mount_at(int dirfd)
{
	_cleanup_close_ int fsfd = -1, mntfd = -1;

	fsfd = (int)syscall(__NR_fsopen, "proc", FSOPEN_CLOEXEC);
	if (fsfd < 0)
		return negative_errno();
	/*
	 * The source util-linux and every distribution give proc: tools that read
	 * the mount table (findmnt -S proc, scripts matching "^proc ") find this
	 * one too, rather than a "none" they do not know.
	 */
	if (syscall(__NR_fsconfig, fsfd, FSCONFIG_SET_STRING, "source", "proc", 0) < 0)
		return negative_errno();
	if (syscall(__NR_fsconfig, fsfd, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		return negative_errno();
	mntfd = (int)syscall(__NR_fsmount, fsfd, FSMOUNT_CLOEXEC,
			     MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC);
	if (mntfd < 0)
		return negative_errno();
	if (syscall(__NR_move_mount, mntfd, "", dirfd, "",
		    MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
		return negative_errno();
	return 0;
}

NSCTL_EXPORT int nsctl_mnt_proc_mount(const char *dir)
{
	_cleanup_close_ int dirfd = -1;
	char path[64];
	int r;

	if (!dir || !*dir)
		return -EINVAL;
	/*
	 * Open the directory once and mount onto that fd: a symlink swapped in
	 * between a check and the mount cannot redirect it (CVE-2021-30465).
	 */
	dirfd = open(dir, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dirfd < 0)
		return negative_errno();
	r = proc_mount_at(dirfd);
	if (r != -ENOSYS)
		return r;
	/* Before Linux 5.2: mount(2) through the fd, never through DIR's name again. */
	snprintf(path, sizeof(path), "/proc/thread-self/fd/%d", dirfd);
	return mount_on_fd(dirfd, path, "proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC);
}

NSCTL_EXPORT int nsctl_time_offset_check(clockid_t clock, int64_t seconds)
{
	struct timespec now;

	if (clock != CLOCK_MONOTONIC && clock != CLOCK_BOOTTIME)
		return -EINVAL;
	/* First alone, so that adding the clock's reading cannot overflow. */
	if (seconds > TIME_OFFSET_MAX || seconds < -TIME_OFFSET_MAX)
		return -ERANGE;
	/* The kernel refuses an offset that would take the clock below zero or past its range. */
	if (clock_gettime(clock, &now) < 0)
		return negative_errno();
	if ((int64_t)now.tv_sec + seconds < 0 || (int64_t)now.tv_sec + seconds > TIME_OFFSET_MAX)
		return -ERANGE;
	return 0;
}

NSCTL_EXPORT int nsctl_time_offsets_write(pid_t pid, int64_t monotonic, int64_t boottime)
{
	char path[64], text[96];
	_cleanup_close_ int fd = -1;
	int length;

	if (pid < 0)
		return -EINVAL;
	/* Offsets apply to time_for_children, and only until a process enters it. */
	length = snprintf(text, sizeof(text), "monotonic %" PRId64 " 0\nboottime %" PRId64 " 0\n",
			  monotonic, boottime);
	/* PID is ours; the /proc mounted here may number it otherwise (proc_open_of). */
	if (pid > 0) {
		fd = proc_open_of(pid, "timens_offsets", O_WRONLY);
		if (fd < 0)
			return fd;
	} else {
		snprintf(path, sizeof(path), "/proc/self/timens_offsets");
		fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
		if (fd < 0)
			return negative_errno();
	}
	if (write(fd, text, (size_t)length) != length)
		return negative_errno();
	return 0;
}
