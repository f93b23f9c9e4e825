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
#include "pin-made.h"
#include "syscalls.h"

/* Where pin NAMEs live: the network namespaces' where iproute2's "ip netns" keeps them. */
#define PIN_DIR       "/run/nsctl"
#define PIN_NETNS_DIR "/run/netns"

static bool valid_name(const char *name)
{
	size_t length;

	if (!name)
		return false;
	length = strlen(name);
	return length > 0 && length <= NAME_MAX && !strchr(name, '/') && strcmp(name, ".") != 0 &&
	       strcmp(name, "..") != 0;
}

NSCTL_EXPORT int nsctl_pin_name_dir(enum nsctl_type type, char *buf, size_t size)
{
	int n;

	if (!type_row(type) || !buf)
		return -EINVAL;
	if (type == NSCTL_TYPE_NET)
		n = snprintf(buf, size, "%s", PIN_NETNS_DIR);
	else
		n = snprintf(buf, size, PIN_DIR "/%s", nsctl_type_get(type)->name);
	if (n < 0)
		return -EINVAL;
	if ((size_t)n >= size)
		return -ENOBUFS;
	return n;
}

NSCTL_EXPORT int nsctl_pin_name_path(enum nsctl_type type, const char *name, char *buf, size_t size)
{
	int n;

	if (!type_row(type) || !valid_name(name) || !buf)
		return -EINVAL;
	if (type == NSCTL_TYPE_NET)
		n = snprintf(buf, size, PIN_NETNS_DIR "/%s", name);
	else
		n = snprintf(buf, size, PIN_DIR "/%s/%s", nsctl_type_get(type)->name, name);
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
	type_foreach (t) {
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
	struct nsctl_ns_id a = NSCTL_NS_ID_INIT, b = NSCTL_NS_ID_INIT;

	if (nsctl_ns_identify(fd, &a) < 0)
		return 0;
	if (nsctl_ns_identify(nsfd, &b) < 0)
		return 0;
	return nsctl_ns_id_equal(&a, &b);
}

/*
 * Open the directory of PATH, once: from then on the pin is made, checked,
 * unmounted and unlinked relative to this fd, so that a directory of PATH
 * swapped for a symlink meanwhile cannot send any later step elsewhere.
 * Its last component goes to *RET_BASE, a pointer into PATH.
 */
static int open_parent(const char *path, const char **ret_base)
{
	char dir[PATH_MAX];
	const char *base = path_split(path, dir, sizeof(dir));
	int dirfd;

	if (!base)
		return -ENAMETOOLONG;
	if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
		return -EINVAL;
	dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return negative_errno();
	*ret_base = base;
	return dirfd;
}

/*
 * 1 if the mount DIRFD lies on is shared (it has peers that receive what is
 * mounted on it), 0 if not, -errno if that cannot be told.
 */
static int on_shared_mount(int dirfd)
{
	_cleanup_fclose_ FILE *f = NULL;
	_cleanup_free_ char *line = NULL;
	struct statx stx;
	size_t size = 0;

	if (statx(dirfd, "", AT_EMPTY_PATH, STATX_MNT_ID, &stx) < 0)
		return negative_errno();
	if (!(stx.stx_mask & STATX_MNT_ID))
		return -EOPNOTSUPP;
	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return negative_errno();
	while (getline(&line, &size, f) > 0) {
		struct mountinfo_entry e;

		if (mountinfo_parse_line(line, &e) < 0 || (uint64_t)e.mount_id != stx.stx_mnt_id)
			continue;
		return strncmp(e.optional, "shared:", 7) == 0 || strstr(e.optional, " shared:");
	}
	return -ENOENT;
}

/* The kernel never lets a mount namespace be pinned inside itself: no private mount helps. */
static bool is_own_mount_namespace(int nsfd)
{
	/* The kernel compares with the calling thread's mount namespace. */
	_cleanup_close_ int own = nsctl_ns_open_own(NSCTL_TYPE_MNT, false);

	return own >= 0 && nsctl_ns_same(own, nsfd) == 1;
}

/*
 * BASE in DIRFD exists: 0 if it already pins the namespace at NSFD, -EEXIST
 * if it is anything else (-ELOOP for a symlink).  It is looked at through an
 * O_PATH fd and reopened only once it is known to be nsfs: neither a FIFO nor
 * a terminal (which would become our controlling one) is ever opened.
 */
static int existing_pin(int dirfd, const char *base, int nsfd)
{
	_cleanup_close_ int pathfd = -1, fd = -1;
	struct statfs sfs;
	struct stat st;
	char path[32];

	pathfd = openat(dirfd, base, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (pathfd < 0 || fstat(pathfd, &st) < 0)
		return -EEXIST;
	if (S_ISLNK(st.st_mode))
		return -ELOOP;
	if (fstatfs(pathfd, &sfs) < 0 || (unsigned long)sfs.f_type != NSFS_MAGIC)
		return -EEXIST;
	fd_path(path, pathfd);
	fd = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -EEXIST;
	return pins_same(fd, nsfd) ? 0 : -EEXIST;
}

/* Hold what is being made at BASE in DIRFD (the file FILEFD, the namespace NSFD) in MADE. */
static int pin_made_hold(struct pin_made *made, int dirfd, const char *base, int filefd, int nsfd)
{
	struct stat file, ns;

	*made = PIN_MADE_NONE;
	if (strlen(base) >= sizeof(made->base))
		return -ENAMETOOLONG;
	if (fstat(filefd, &file) < 0 || fstat(nsfd, &ns) < 0)
		return negative_errno();
	made->dirfd = fcntl(dirfd, F_DUPFD_CLOEXEC, 3);
	if (made->dirfd < 0)
		return negative_errno();
	strcpy(made->base, base);
	made->file_dev = file.st_dev;
	made->file_ino = file.st_ino;
	made->ns_dev = ns.st_dev;
	made->ns_ino = ns.st_ino;
	return 0;
}

/*
 * Pin the namespace at NSFD (of TYPE) at BASE in DIRFD: 1 made, 0 already
 * there, -errno.  What it made goes to *MADE, when given.
 */
static int pin_at(int nsfd, enum nsctl_type type, int dirfd, const char *base,
		  struct pin_made *made)
{
	_cleanup_close_ int filefd = -1;
	int r;

	if (type == NSCTL_TYPE_MNT) {
		if (is_own_mount_namespace(nsfd))
			return -EINVAL;
		/*
		 * A bind of a mount namespace onto a shared mount would propagate
		 * into the namespace itself, which the kernel refuses.  The old way
		 * around it (bind the directory onto itself, make it private) mounts
		 * over a directory nsctl did not make, hides what is in it, and is
		 * done by name: refuse instead, before anything is created.
		 */
		if (on_shared_mount(dirfd) > 0)
			return -EXDEV;
	}
	/* O_CREAT|O_EXCL never follows a symlink: an existing one is EEXIST, not a way out. */
	filefd =
	    openat(dirfd, base, O_RDONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, 0);
	if (filefd < 0) {
		if (errno != EEXIST)
			return negative_errno();
		return existing_pin(dirfd, base, nsfd);
	}
	r = made ? pin_made_hold(made, dirfd, base, filefd, nsfd) : 0;
	if (r >= 0)
		r = bind_ns_onto(nsfd, filefd);
	if (r >= 0)
		return 1;
	if (made)
		pin_made_forget(made);
	/* The kernel says a mount-namespace loop with EINVAL (mount) or ELOOP (move_mount). */
	if (r == -ELOOP && type == NSCTL_TYPE_MNT)
		r = -EINVAL;
	/* Leave nothing behind: the file is ours, made a moment ago. */
	unlinkat(dirfd, base, 0);
	return r;
}

static int create_at_path(int nsfd, const char *path, struct pin_made *made)
{
	_cleanup_close_ int dirfd = -1;
	const char *base = NULL;
	enum nsctl_type type;
	int r;

	r = nsctl_ns_check(nsfd, &type);
	if (r < 0)
		return r;
	dirfd = open_parent(path, &base);
	if (dirfd < 0)
		return dirfd;
	return pin_at(nsfd, type, dirfd, base, made);
}

NSCTL_EXPORT int nsctl_pin_create(int nsfd, const char *path, unsigned flags)
{
	if (!path || !*path || flags)
		return -EINVAL;
	return create_at_path(nsfd, path, NULL);
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

/* Set the propagation (MS_SHARED, MS_PRIVATE) of the mount whose root FD is, and below. */
static int set_propagation(int fd, unsigned long propagation)
{
	char path[32];

	if (sys_mount_setattr(fd, "", AT_EMPTY_PATH | AT_RECURSIVE, propagation) == 0)
		return 0;
	if (errno != ENOSYS)
		return negative_errno();
	/* Before Linux 5.12: mount(2) on the fd's magic link, never on a name. */
	fd_path(path, fd);
	if (mount("none", path, "none", propagation | MS_REC, NULL) < 0)
		return negative_errno();
	return 0;
}

/*
 * Bind DIRFD (the directory DIR, one of nsctl's own) onto itself; returns an
 * fd of the new mount's root.
 */
static int bind_onto_itself(int dirfd, const char *dir)
{
	_cleanup_close_ int treefd = -1;
	char path[32];
	int fd;

	treefd = (int)syscall(__NR_open_tree, dirfd, "",
			      OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH);
	if (treefd >= 0) {
		if (syscall(__NR_move_mount, treefd, "", dirfd, "",
			    MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) == 0)
			return TAKE_FD(treefd);
		if (errno != ENOSYS)
			return negative_errno();
	} else if (errno != ENOSYS) {
		return negative_errno();
	}
	/* Before Linux 5.2: the bind through the fd's magic link. */
	fd_path(path, dirfd);
	if (mount(path, path, "none", MS_BIND, NULL) < 0)
		return negative_errno();
	/* The new mount has no fd yet: DIR is under root's /run, which no one else can swap. */
	fd = open(dir, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return fd < 0 ? negative_errno() : fd;
}

/*
 * An fd of DIR, one of nsctl's own pin directories, as a mount of its own
 * with PROPAGATION.  Only a directory nsctl made for this purpose is ever
 * mounted over or has its propagation changed.
 */
static int own_pin_mount(const char *dir, unsigned long propagation)
{
	_cleanup_close_ int dirfd = -1, mountfd = -1;
	int r;

	dirfd = open(dir, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dirfd < 0)
		return negative_errno();
	r = set_propagation(dirfd, propagation);
	if (r >= 0)
		return TAKE_FD(dirfd);
	/* EINVAL: not the root of a mount yet; make it one. */
	if (r != -EINVAL)
		return r;
	mountfd = bind_onto_itself(dirfd, dir);
	if (mountfd < 0)
		return mountfd;
	r = set_propagation(mountfd, propagation);
	if (r < 0)
		return r;
	return TAKE_FD(mountfd);
}

/*
 * The directory of pins of TYPE, opened.  /run/netns is kept a shared mount
 * of its own, as iproute2 keeps it, so that pins made later show up in mount
 * namespaces made earlier (containers).  /run/nsctl/mnt is made a private
 * mount of its own where it would otherwise be on a shared one, where no
 * mount namespace could be pinned.
 */
static int open_pin_dir(enum nsctl_type type)
{
	_cleanup_close_ int dirfd = -1;
	char dir[PATH_MAX];
	int r;

	r = nsctl_pin_name_dir(type, dir, sizeof(dir));
	if (r >= 0)
		r = make_directories(dir);
	if (r < 0)
		return r;
	if (type == NSCTL_TYPE_NET)
		return own_pin_mount(dir, MS_SHARED);
	dirfd = open(dir, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dirfd < 0)
		return negative_errno();
	if (type != NSCTL_TYPE_MNT || on_shared_mount(dirfd) == 0)
		return TAKE_FD(dirfd);
	return own_pin_mount(dir, MS_PRIVATE);
}

static int create_at_name(int nsfd, const char *name, struct pin_made *made)
{
	_cleanup_close_ int dirfd = -1;
	enum nsctl_type type;
	char path[PATH_MAX];
	int r;

	r = nsctl_ns_check(nsfd, &type);
	if (r < 0)
		return r;
	r = nsctl_pin_name_path(type, name, path, sizeof(path));
	if (r < 0)
		return r;
	dirfd = open_pin_dir(type);
	if (dirfd < 0)
		return dirfd;
	return pin_at(nsfd, type, dirfd, name, made);
}

NSCTL_EXPORT int nsctl_pin_create_name(int nsfd, const char *name, unsigned flags)
{
	if (flags)
		return -EINVAL;
	return create_at_name(nsfd, name, NULL);
}

_Static_assert(sizeof(struct pin_made) <= sizeof(struct nsctl_pin_made) &&
		   _Alignof(struct pin_made) <= _Alignof(struct nsctl_pin_made),
	       "struct pin_made must fit the room of struct nsctl_pin_made");

/* The record in the caller's room. */
static struct pin_made *made_in(struct nsctl_pin_made *room)
{
	return (struct pin_made *)room;
}

NSCTL_EXPORT void nsctl_pin_made_init(struct nsctl_pin_made *made)
{
	if (made)
		*made_in(made) = PIN_MADE_NONE;
}

NSCTL_EXPORT int nsctl_pin_create_undoable(int nsfd, const char *where, unsigned flags,
					   struct nsctl_pin_made *room)
{
	struct pin_made *made = made_in(room);

	if (!where || !*where || !room || (flags & ~NSCTL_PIN_BY_NAME))
		return -EINVAL;
	*made = PIN_MADE_NONE;
	return (flags & NSCTL_PIN_BY_NAME) ? create_at_name(nsfd, where, made)
					   : create_at_path(nsfd, where, made);
}

void pin_made_forget(struct pin_made *made)
{
	close_fdp(&made->dirfd);
}

NSCTL_EXPORT void nsctl_pin_made_keep(struct nsctl_pin_made *made)
{
	if (made)
		pin_made_forget(made_in(made));
}

/*
 * In the directory the pin was made in, whatever its path names now: the
 * nsfs mount of the namespace pinned is unmounted, and the file is removed
 * only if it is the one made: what a directory another user may write holds
 * under that name meanwhile is that user's (at worst, swapped in between the
 * check and the unlink, that user's own file goes, from that user's directory).
 */
NSCTL_EXPORT int nsctl_pin_take_back(struct nsctl_pin_made *room)
{
	struct pin_made *made = room ? made_in(room) : NULL;
	_cleanup_close_ int fd = -1;
	struct statfs sfs;
	struct stat st;
	char target[32];
	int r = 0;

	if (!made || made->dirfd < 0)
		return -EINVAL;
	fd = openat(made->dirfd, made->base, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0 && fstatfs(fd, &sfs) == 0 && (unsigned long)sfs.f_type == NSFS_MAGIC &&
	    fstat(fd, &st) == 0 && st.st_dev == made->ns_dev && st.st_ino == made->ns_ino) {
		fd_path(target, fd);
		if (umount2(target, MNT_DETACH) < 0)
			r = negative_errno();
	}
	if (r == 0 && fstatat(made->dirfd, made->base, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    st.st_dev == made->file_dev && st.st_ino == made->file_ino &&
	    unlinkat(made->dirfd, made->base, 0) < 0)
		r = negative_errno();
	pin_made_forget(made);
	return r;
}

NSCTL_EXPORT int nsctl_pin_remove(const char *path)
{
	_cleanup_close_ int fd = -1, dirfd = -1;
	const char *base = NULL;
	struct statfs sfs;
	char target[32];

	if (!path || !*path)
		return -EINVAL;
	dirfd = open_parent(path, &base);
	if (dirfd < 0)
		return dirfd;
	/*
	 * O_PATH|O_NOFOLLOW holds the symlink itself, if it is one: a
	 * /proc/PID/ns link, or a link planted to point at one, is no pin.
	 * Opened in DIRFD, it is the mount at DIRFD/BASE that is checked here,
	 * unmounted and then unlinked, whatever the path names meanwhile.
	 */
	fd = openat(dirfd, base, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return negative_errno();
	if (fstatfs(fd, &sfs) < 0)
		return negative_errno();
	if ((unsigned long)sfs.f_type != NSFS_MAGIC)
		return -ENOTTY;
	/* Unmount the very mount we checked, through its fd, not whatever PATH names now. */
	fd_path(target, fd);
	if (umount2(target, MNT_DETACH) < 0)
		return negative_errno();
	if (unlinkat(dirfd, base, 0) < 0 && errno != ENOENT)
		return negative_errno();
	return 0;
}

/* What nsctl_pin_list_scan() found: rows the library allocates, so that they can grow. */
struct nsctl_pin_list {
	struct nsctl_pin *pins;
	size_t count, allocated;
};

NSCTL_EXPORT void nsctl_pin_list_free(struct nsctl_pin_list *list)
{
	if (!list)
		return;
	for (size_t i = 0; i < list->count; i++)
		free(list->pins[i].path);
	free(list->pins);
	free(list);
}

NSCTL_EXPORT size_t nsctl_pin_list_count(const struct nsctl_pin_list *list)
{
	return list ? list->count : 0;
}

NSCTL_EXPORT const struct nsctl_pin *nsctl_pin_list_get(const struct nsctl_pin_list *list, size_t i)
{
	return list && i < list->count ? &list->pins[i] : NULL;
}

/* One more row, of the nsfs mount NSFS: 0 or -ENOMEM. */
static int pin_list_add(struct nsctl_pin_list *list, const struct mountinfo_nsfs *nsfs)
{
	struct nsctl_pin *pin;

	if (list->count == list->allocated) {
		size_t n = list->allocated ? list->allocated * 2 : 8;
		struct nsctl_pin *grown = reallocarray(list->pins, n, sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		list->pins = grown;
		list->allocated = n;
	}
	pin = &list->pins[list->count];
	pin->path = strdup(nsfs->mount_point);
	if (!pin->path)
		return -ENOMEM;
	pin->size = sizeof(*pin);
	pin->type = nsfs->type;
	pin->ino = nsfs->ino;
	list->count++;
	return 0;
}

NSCTL_EXPORT int nsctl_pin_list_scan(unsigned types, struct nsctl_pin_list **ret_list)
{
	_cleanup_fclose_ FILE *f = NULL;
	_cleanup_free_ char *line = NULL;
	struct nsctl_pin_list *list;
	size_t size = 0;
	int r = 0;

	if (!ret_list || (types & ~TYPES_ALL))
		return -EINVAL;
	f = fopen("/proc/thread-self/mountinfo", "re");
	if (!f)
		return negative_errno();
	list = calloc(1, sizeof(*list));
	if (!list)
		return -ENOMEM;
	while (r >= 0 && getline(&line, &size, f) > 0) {
		struct mountinfo_nsfs nsfs;

		if (mountinfo_parse_nsfs(line, &nsfs) > 0 && (types & NSCTL_TYPE_BIT(nsfs.type)))
			r = pin_list_add(list, &nsfs);
	}
	if (r < 0) {
		nsctl_pin_list_free(list);
		return r;
	}
	*ret_list = list;
	return 0;
}
