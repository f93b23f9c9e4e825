// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The floor under `nsctl list`: the least a scan needs to find the namespaces
 * nsctl list reports, those processes are in and those a process holds only by
 * an open fd or a socket (issue 16), and to count them.  Nothing more: no
 * /proc/PID/stat, no owners, no pins, no command lines, no output beyond one
 * line "PROCESSES NAMESPACES".
 *
 * A link's text ("net:[4026531840]") names its namespace, and costs less than
 * following the link (stat() makes nsfs build and free a dentry and an inode
 * each time).  An fd is looked at once (statx(): an fd opened through a pin
 * shows the pin's path, not "net:[...]", so only the device tells nsfs); a
 * socket's network namespace takes a copy of it (pidfd_getfd) and SIOCGSKNS,
 * and a look at the copy first: an ioctl number is a socket's only on a socket.
 * All namespaces are on the one nsfs, so the inode alone tells them apart.
 */
#include <dirent.h>
#include <fcntl.h>
#include <linux/nsfs.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>

#include "bare.h"

#ifndef SIOCGSKNS
#define SIOCGSKNS 0x894C
#endif

/*
 * A namespace seen, and the way back to it: PID's link NAME, its fd FD (name
 * NULL), or with PID 0, our own fd FD on it (a socket's, from SIOCGSKNS).
 */
struct key {
	unsigned long long ino;
	pid_t pid;
	int fd;
	const char *name;
};

static struct key *keys;
static size_t n_keys, allocated;

static void add_key(unsigned long long ino, pid_t pid, int fd, const char *name)
{
	if (n_keys == allocated) {
		allocated = allocated ? 2 * allocated : 4096;
		struct key *grown = realloc(keys, allocated * sizeof(*keys));
		if (!grown)
			bare_die("bare-scan", "realloc", ENOMEM);
		keys = grown;
	}
	keys[n_keys++] = (struct key){ ino, pid, fd, name };
}

static int compare_keys(const void *a, const void *b)
{
	unsigned long long x = ((const struct key *)a)->ino, y = ((const struct key *)b)->ino;
	return (x > y) - (x < y);
}

static bool known(unsigned long long ino, size_t n_sorted)
{
	struct key wanted = { .ino = ino };
	if (bsearch(&wanted, keys, n_sorted, sizeof(*keys), compare_keys))
		return true;
	for (size_t i = n_sorted; i < n_keys; i++)
		if (keys[i].ino == ino)
			return true;
	return false;
}

/*
 * The owner (NS_GET_USERNS) of the namespace at FD, and the parent
 * (NS_GET_PARENT) of a user or pid namespace (PARENT: it may be one): a
 * namespace no process is in nor holds may be kept alive as one of them, and
 * nsctl list reports it.  One new to the scan is kept open, to be asked in turn.
 */
static void relations(int fd, bool parent, size_t n_sorted, int **open_fds, size_t *n_open)
{
	unsigned long requests[] = { NS_GET_USERNS, NS_GET_PARENT };
	for (size_t r = 0; r < (parent ? 2 : 1); r++) {
		int related = ioctl(fd, requests[r]);
		struct stat st;
		if (related < 0)
			continue;
		if (fstat(related, &st) < 0 || known(st.st_ino, n_sorted)) {
			close(related);
			continue;
		}
		add_key(st.st_ino, 0, related, NULL);
		int *grown = realloc(*open_fds, (*n_open + 1) * sizeof(**open_fds));
		if (!grown)
			bare_die("bare-scan", "realloc", ENOMEM);
		*open_fds = grown;
		(*open_fds)[(*n_open)++] = related;
	}
}

/* The network namespace of socket fd NUMBER of PID, from a copy of it. */
static void socket_key(pid_t pid, int *pidfd, int number, const struct statx *seen)
{
	if (*pidfd == -1)
		*pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (*pidfd < 0)
		return;
	int sock = (int)syscall(SYS_pidfd_getfd, *pidfd, number, 0);
	if (sock < 0)
		return;
	struct stat st;
	if (fstat(sock, &st) == 0 && S_ISSOCK(st.st_mode) && st.st_ino == seen->stx_ino) {
		int ns = ioctl(sock, SIOCGSKNS);
		if (ns >= 0 && fstat(ns, &st) == 0)
			add_key(st.st_ino, 0, ns, NULL); /* no path leads to it: kept open */
		else if (ns >= 0)
			close(ns);
	}
	close(sock);
}

/*
 * The fds of PID: one getdents64() (a listing that left room in the buffer
 * is complete: /proc fills it until the table ends) and one statx() each.
 */
static void scan_fds(int proc, const char *pid_name, pid_t pid, dev_t nsfs)
{
	char path[sizeof(((struct dirent *)0)->d_name) + 8], buf[4096] __attribute__((aligned(8)));
	snprintf(path, sizeof(path), "%s/fd", pid_name);
	int fds = openat(proc, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fds < 0)
		return;
	int pidfd = -1;
	long n;
	do {
		n = syscall(SYS_getdents64, fds, buf, sizeof(buf));
		for (long off = 0; n > 0 && off < n;) {
			const struct {
				unsigned long long ino;
				long long off;
				unsigned short reclen;
				unsigned char type;
				char name[];
			} *entry = (const void *)(buf + off);
			struct statx stx;
			off += entry->reclen;
			if (entry->name[0] == '.' || statx(fds, entry->name, AT_STATX_DONT_SYNC,
							   STATX_TYPE | STATX_INO, &stx) < 0)
				continue;
			if (S_ISSOCK(stx.stx_mode))
				socket_key(pid, &pidfd, atoi(entry->name), &stx);
			else if (makedev(stx.stx_dev_major, stx.stx_dev_minor) == nsfs)
				add_key(stx.stx_ino, pid, atoi(entry->name), NULL);
		}
	} while (n > 0 && (size_t)n + 512 > sizeof(buf));
	if (pidfd >= 0)
		close(pidfd);
	close(fds);
}

/* The links of every thread of PID but the first, where it has more than one. */
static void scan_tasks(int proc, const char *pid, const char *const *names, size_t n_names)
{
	char path[2 * 256 + 64], target[64];
	snprintf(path, sizeof(path), "%s/task", pid);
	int fd = openat(proc, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dir = fd < 0 ? NULL : fdopendir(fd);
	struct dirent *entry;

	if (!dir) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((entry = readdir(dir))) {
		if (entry->d_name[0] < '1' || entry->d_name[0] > '9' ||
		    strcmp(entry->d_name, pid) == 0)
			continue;
		for (size_t i = 0; i < n_names; i++) {
			snprintf(path, sizeof(path), "%s/task/%s/ns/%s", pid, entry->d_name,
				 names[i]);
			ssize_t length = readlinkat(proc, path, target, sizeof(target) - 1);
			if (length <= 0)
				continue;
			target[length] = '\0';
			const char *bracket = strchr(target, '[');
			if (bracket)
				add_key(strtoull(bracket + 1, NULL, 10), atoi(entry->d_name), -1,
					names[i]);
		}
	}
	closedir(dir);
}

int main(void)
{
	/* Every link /proc/PID/ns holds: the eight types and the two _for_children. */
	const char *names[2 * 32]; /* a type set is an unsigned: at most 32 types */
	size_t n_names = 0;
	for (enum nsctl_type t = 0; nsctl_type_get(t) && t < 32; t++) {
		const struct nsctl_type_info *info = nsctl_type_get(t);
		names[n_names++] = info->name;
		if (info->children_name)
			names[n_names++] = info->children_name;
	}

	int proc = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (proc < 0)
		bare_die("bare-scan", "/proc", errno);
	struct stat st;
	if (fstatat(proc, "self/ns/user", &st, 0) < 0)
		bare_die("bare-scan", "/proc/self/ns/user", errno);
	dev_t nsfs = st.st_dev;
	DIR *dir = fdopendir(proc);
	if (!dir)
		bare_die("bare-scan", "/proc", errno);

	size_t processes = 0;
	struct dirent *entry;
	char path[sizeof(entry->d_name) + 64], target[64];
	while ((entry = readdir(dir))) {
		if (entry->d_name[0] < '1' || entry->d_name[0] > '9')
			continue;
		/* A process may exit at any point of the scan: skip it, as a lister must. */
		bool seen = false;
		for (size_t i = 0; i < n_names; i++) {
			snprintf(path, sizeof(path), "%s/ns/%s", entry->d_name, names[i]);
			ssize_t length = readlinkat(proc, path, target, sizeof(target) - 1);
			if (length <= 0)
				continue;
			target[length] = '\0';
			const char *bracket = strchr(target, '[');
			if (!bracket)
				continue;
			add_key(strtoull(bracket + 1, NULL, 10), atoi(entry->d_name), -1, names[i]);
			seen = true;
		}
		/*
		 * Namespaces a thread alone is in (as nsctl list finds them): a
		 * process of one thread has a task directory of 3 links.
		 */
		struct statx stx;
		snprintf(path, sizeof(path), "%s/task", entry->d_name);
		if (statx(proc, path, AT_STATX_DONT_SYNC, STATX_NLINK, &stx) == 0 &&
		    stx.stx_nlink > 3)
			scan_tasks(proc, entry->d_name, names, n_names);
		if (!seen)
			continue;
		processes++;
		scan_fds(proc, entry->d_name, atoi(entry->d_name), nsfs);
	}
	closedir(dir);

	/* One key per namespace, sorted. */
	size_t distinct = 0;
	qsort(keys, n_keys, sizeof(*keys), compare_keys);
	for (size_t i = 0; i < n_keys; i++) {
		if (i == 0 || keys[distinct - 1].ino != keys[i].ino)
			keys[distinct++] = keys[i];
		else if (keys[i].pid == 0)
			close(keys[i].fd);
	}
	n_keys = distinct;

	/*
	 * The relations of each.  Most namespaces are owned by the caller's user
	 * namespace: held open, NS_GET_USERNS reuses its nsfs dentry, as nsctl
	 * list holds it.  A socket's namespace is reached again by its
	 * process's copy of the socket.
	 */
	int own_user = open("/proc/self/ns/user", O_RDONLY | O_CLOEXEC);
	int *open_fds = NULL;
	size_t n_open = 0;
	for (size_t i = 0; i < distinct; i++) {
		if (keys[i].pid == 0) {
			/* A socket's network namespace: no parent. */
			relations(keys[i].fd, false, distinct, &open_fds, &n_open);
			close(keys[i].fd);
			continue;
		}
		if (keys[i].name)
			snprintf(path, sizeof(path), "/proc/%d/ns/%s", keys[i].pid, keys[i].name);
		else
			snprintf(path, sizeof(path), "/proc/%d/fd/%d", keys[i].pid, keys[i].fd);
		int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
		if (fd < 0)
			continue; /* gone since */
		/* An fd's type is not known: asked, any but user and pid says no. */
		bool parent = !keys[i].name || strncmp(keys[i].name, "user", 4) == 0 ||
			      strncmp(keys[i].name, "pid", 3) == 0;
		relations(fd, parent, distinct, &open_fds, &n_open);
		close(fd);
	}
	for (size_t i = 0; i < n_open; i++) {
		relations(open_fds[i], true, distinct, &open_fds, &n_open);
		close(open_fds[i]);
	}
	free(open_fds);
	if (own_user >= 0)
		close(own_user);
	distinct = n_keys;
	free(keys);
	printf("%zu %zu\n", processes, distinct);
	return 0;
}
