// SPDX-License-Identifier: LGPL-2.1-or-later
/* Pins: namespaces bind-mounted onto files, and where named pins live. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>

#include "internal.h"
#include "syscalls.h"

static bool valid_name(const char *name)
{
	size_t length;

	if (!name)
		return false;
	length = strlen(name);
	return length > 0 && length <= NAME_MAX && !strchr(name, '/') && strcmp(name, ".") != 0 &&
	       strcmp(name, "..") != 0;
}

NSCTL_EXPORT int nsctl_pin_name_path(enum nsctl_type type, const char *name, char *buf, size_t size)
{
	int n;

	if (!type_row(type) || !valid_name(name) || !buf)
		return -EINVAL;
	if (type == NSCTL_TYPE_NET)
		n = snprintf(buf, size, NSCTL_PIN_NETNS_DIR "/%s", name);
	else
		n = snprintf(buf, size, NSCTL_PIN_DIR "/%s/%s", nsctl_type_get(type)->name, name);
	if (n < 0)
		return -EINVAL;
	if ((size_t)n >= size)
		return -ENOBUFS;
	return n;
}

NSCTL_EXPORT int nsctl_pin_name_types(const char *name, unsigned *ret_types)
{
	unsigned types = 0;

	if (!valid_name(name) || !ret_types)
		return -EINVAL;
	nsctl_type_foreach (t) {
		char path[PATH_MAX];
		struct stat st;

		if (nsctl_pin_name_path(t, name, path, sizeof(path)) < 0)
			continue;
		if (lstat(path, &st) == 0)
			types |= NSCTL_TYPE_BIT(t);
	}
	*ret_types = types;
	return 0;
}

/* The magic link that reopens, or mounts onto, exactly the inode an fd holds. */
static void fd_path(char buf[static 32], int fd)
{
	snprintf(buf, 32, "/proc/thread-self/fd/%d", fd);
}

/*
 * Bind the namespace onto the file: with the new mount API (Linux 5.2) both
 * ends are fds; before it, the /proc/thread-self/fd magic links stand for them.
 */
static int bind_ns_onto(int nsfd, int filefd)
{
	_cleanup_close_ int treefd = -1;
	char source[32], target[32];

	treefd = (int)syscall(__NR_open_tree, nsfd, "",
			      OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH);
	if (treefd >= 0) {
		if (syscall(__NR_move_mount, treefd, "", filefd, "",
			    MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) == 0)
			return 0;
		if (errno != ENOSYS)
			return negative_errno();
	} else if (errno != ENOSYS) {
		return negative_errno();
	}
	fd_path(source, nsfd);
	fd_path(target, filefd);
	if (mount(source, target, "none", MS_BIND, NULL) < 0)
		return negative_errno();
	return 0;
}

/* Is the file at FD a pin of the namespace at NSFD? */
static int pins_same(int fd, int nsfd)
{
	struct nsctl_ns_id a, b;

	if (nsctl_ns_identify(fd, &a) < 0)
		return 0;
	if (nsctl_ns_identify(nsfd, &b) < 0)
		return 0;
	return nsctl_ns_id_equal(&a, &b);
}

/* PATH split into its directory and its last component, both allocated. */
static int split_path(const char *path, char **ret_dir, char **ret_base)
{
	const char *slash = strrchr(path, '/');
	_cleanup_free_ char *dir = NULL, *base = NULL;

	if (!slash)
		dir = strdup(".");
	else if (slash == path)
		dir = strdup("/");
	else
		dir = strndup(path, (size_t)(slash - path));
	base = strdup(slash ? slash + 1 : path);
	if (!dir || !base)
		return -ENOMEM;
	if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
		return -EINVAL;
	*ret_dir = TAKE_PTR(dir);
	*ret_base = TAKE_PTR(base);
	return 0;
}

/* Open the directory of PATH; its last component goes to *RET_BASE. */
static int open_parent(const char *path, char **ret_dir, char **ret_base)
{
	_cleanup_free_ char *dir = NULL, *base = NULL;
	int r, dirfd;

	r = split_path(path, &dir, &base);
	if (r < 0)
		return r;
	dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return negative_errno();
	if (ret_dir)
		*ret_dir = TAKE_PTR(dir);
	*ret_base = TAKE_PTR(base);
	return dirfd;
}

/*
 * A mount namespace cannot be pinned onto a shared mount: the bind would
 * propagate into the pinned namespace itself, and the kernel refuses the loop
 * with EINVAL.  Make DIR a private mount of its own (bind it onto itself),
 * then find FILE again beneath the new mount and check it is still ours.
 */
static int make_private_and_reopen(const char *dir, const char *base, const struct stat *file_st,
				   int *filefd)
{
	_cleanup_close_ int newdir = -1, newfile = -1;
	struct stat st;

	if (mount(dir, dir, "none", MS_BIND, NULL) < 0)
		return negative_errno();
	if (mount("none", dir, "none", MS_PRIVATE, NULL) < 0) {
		int r = negative_errno();

		umount2(dir, MNT_DETACH);
		return r;
	}
	newdir = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (newdir >= 0)
		newfile = openat(newdir, base, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (newfile < 0 || fstat(newfile, &st) < 0 || st.st_dev != file_st->st_dev ||
	    st.st_ino != file_st->st_ino) {
		umount2(dir, MNT_DETACH);
		return -ESTALE;
	}
	close_fdp(filefd);
	*filefd = TAKE_FD(newfile);
	return 0;
}

/* The kernel never lets a mount namespace be pinned inside itself: no private mount helps. */
static bool is_own_mount_namespace(int nsfd)
{
	/* The kernel compares with the calling thread's mount namespace. */
	_cleanup_close_ int own = open("/proc/thread-self/ns/mnt", O_RDONLY | O_CLOEXEC);

	return own >= 0 && nsctl_ns_same(own, nsfd) == 1;
}

NSCTL_EXPORT int nsctl_pin_create(int nsfd, const char *path, unsigned flags)
{
	_cleanup_close_ int dirfd = -1, filefd = -1;
	_cleanup_free_ char *dir = NULL, *base = NULL;
	enum nsctl_type type;
	struct stat file_st;
	int r;

	if (!path || !*path || flags)
		return -EINVAL;
	r = nsctl_ns_check(nsfd, &type);
	if (r < 0)
		return r;
	dirfd = open_parent(path, &dir, &base);
	if (dirfd < 0)
		return dirfd;
	/* O_CREAT|O_EXCL never follows a symlink: an existing one is EEXIST, not a way out. */
	filefd = openat(dirfd, base, O_RDONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0);
	if (filefd < 0) {
		_cleanup_close_ int existing = -1;

		if (errno != EEXIST)
			return negative_errno();
		existing = openat(dirfd, base, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		if (existing < 0)
			return errno == ELOOP ? -ELOOP : -EEXIST;
		return pins_same(existing, nsfd) ? 0 : -EEXIST;
	}
	if (fstat(filefd, &file_st) < 0) {
		r = negative_errno();
		goto fail;
	}
	r = bind_ns_onto(nsfd, filefd);
	/* The kernel says a mount-namespace loop with EINVAL (mount) or ELOOP (move_mount). */
	if (r == -ELOOP && type == NSCTL_TYPE_MNT)
		r = -EINVAL;
	if (r == -EINVAL && type == NSCTL_TYPE_MNT && !is_own_mount_namespace(nsfd)) {
		r = make_private_and_reopen(dir, base, &file_st, &filefd);
		if (r >= 0) {
			r = bind_ns_onto(nsfd, filefd);
			if (r == -ELOOP)
				r = -EINVAL;
			/* Refused all the same: the private mount was for nothing, take it away. */
			if (r < 0)
				umount2(dir, MNT_DETACH);
		}
	}
	if (r >= 0)
		return 0;
fail:
	/* Leave nothing behind: the file is ours, made a moment ago. */
	unlinkat(dirfd, base, 0);
	return r;
}

/* Make DIR (mode 0755) and its parents up to an existing one. */
static int make_directories(const char *dir)
{
	char buf[PATH_MAX];

	if (strlen(dir) >= sizeof(buf))
		return -ENAMETOOLONG;
	strcpy(buf, dir);
	for (char *p = buf + 1;; p++) {
		if (*p == '/' || !*p) {
			char saved = *p;

			*p = '\0';
			if (mkdir(buf, 0755) < 0 && errno != EEXIST)
				return negative_errno();
			*p = saved;
			if (!saved)
				break;
		}
	}
	return 0;
}

/*
 * /run/netns is kept a shared mount of its own, as iproute2 keeps it, so that
 * pins made later show up in mount namespaces made earlier (containers).
 */
static int prepare_netns_dir(void)
{
	int r = make_directories(NSCTL_PIN_NETNS_DIR);

	if (r < 0)
		return r;
	if (mount("", NSCTL_PIN_NETNS_DIR, "none", MS_SHARED | MS_REC, NULL) == 0)
		return 0;
	if (errno != EINVAL)
		return negative_errno();
	/* Not a mount point yet: make it one, then shared. */
	if (mount(NSCTL_PIN_NETNS_DIR, NSCTL_PIN_NETNS_DIR, "none", MS_BIND | MS_REC, NULL) < 0)
		return negative_errno();
	if (mount("", NSCTL_PIN_NETNS_DIR, "none", MS_SHARED | MS_REC, NULL) < 0)
		return negative_errno();
	return 0;
}

NSCTL_EXPORT int nsctl_pin_create_name(int nsfd, const char *name, unsigned flags)
{
	char path[PATH_MAX], *slash;
	enum nsctl_type type;
	int r;

	r = nsctl_ns_check(nsfd, &type);
	if (r < 0)
		return r;
	r = nsctl_pin_name_path(type, name, path, sizeof(path));
	if (r < 0)
		return r;
	if (type == NSCTL_TYPE_NET) {
		r = prepare_netns_dir();
	} else {
		slash = strrchr(path, '/');
		*slash = '\0';
		r = make_directories(path);
		*slash = '/';
	}
	if (r < 0)
		return r;
	return nsctl_pin_create(nsfd, path, flags);
}

NSCTL_EXPORT int nsctl_pin_remove(const char *path)
{
	_cleanup_close_ int fd = -1, dirfd = -1;
	_cleanup_free_ char *base = NULL;
	struct statfs sfs;
	char target[32];

	if (!path || !*path)
		return -EINVAL;
	/*
	 * O_PATH|O_NOFOLLOW holds the symlink itself, if it is one: a
	 * /proc/PID/ns link, or a link planted to point at one, is no pin.
	 */
	fd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return negative_errno();
	if (fstatfs(fd, &sfs) < 0)
		return negative_errno();
	if ((unsigned long)sfs.f_type != NSFS_MAGIC)
		return -ENOTTY;
	dirfd = open_parent(path, NULL, &base);
	if (dirfd < 0)
		return dirfd;
	/* Unmount the very mount we checked, through its fd, not whatever PATH names now. */
	fd_path(target, fd);
	if (umount2(target, MNT_DETACH) < 0)
		return negative_errno();
	if (unlinkat(dirfd, base, 0) < 0 && errno != ENOENT)
		return negative_errno();
	return 0;
}

NSCTL_EXPORT void nsctl_pins_free(struct nsctl_pin *pins, size_t count)
{
	if (!pins)
		return;
	for (size_t i = 0; i < count; i++)
		free(pins[i].path);
	free(pins);
}

NSCTL_EXPORT int nsctl_pin_list(unsigned types, struct nsctl_pin **ret_pins, size_t *ret_count)
{
	_cleanup_fclose_ FILE *f = NULL;
	_cleanup_free_ char *line = NULL;
	struct nsctl_pin *pins = NULL;
	size_t count = 0, allocated = 0, size = 0;

	if (!ret_pins || !ret_count)
		return -EINVAL;
	f = fopen("/proc/thread-self/mountinfo", "re");
	if (!f)
		return negative_errno();
	while (getline(&line, &size, f) > 0) {
		struct mountinfo_nsfs nsfs;

		if (mountinfo_parse_nsfs(line, &nsfs) <= 0 || !(types & NSCTL_TYPE_BIT(nsfs.type)))
			continue;
		if (count == allocated) {
			size_t n = allocated ? allocated * 2 : 8;
			struct nsctl_pin *grown = realloc(pins, n * sizeof(*pins));

			if (!grown)
				goto oom;
			pins = grown;
			allocated = n;
		}
		pins[count].path = strdup(nsfs.mount_point);
		if (!pins[count].path)
			goto oom;
		pins[count].type = nsfs.type;
		pins[count].ino = nsfs.ino;
		count++;
	}
	*ret_pins = pins;
	*ret_count = count;
	return 0;
oom:
	nsctl_pins_free(pins, count);
	return -ENOMEM;
}
