// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What a joining process takes from its target besides namespaces: environment,
 * cgroups (v2 and v1) and capabilities.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <linux/magic.h>

#include "copier.h"
#include "container.h"
#include "internal.h"
#include "number.h"
#include "syscalls.h"

/* The whole of a small file under DIRFD, NUL-terminated (SIZE excludes the NUL). */
static int read_all(int dirfd, const char *name, char **ret_text, size_t *ret_size)
{
	_cleanup_close_ int fd = -1;

	/* DIRFD is nsctl_process_procfd()'s answer: -errno when /proc/PID could not be opened. */
	if (dirfd < 0)
		return dirfd;
	/* O_NOFOLLOW: a link planted there is refused (a cgroup directory's file). */
	fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW);
	if (fd < 0)
		return errno == ENOENT ? -ESRCH : negative_errno();
	/* /proc files of a process are bounded (ARG_MAX for environ). */
	return fd_read_all(fd, 64u * 1024 * 1024, ret_text, ret_size);
}

/*
 * After reading from a process's /proc directory: 0 if it is still the process
 * the handle names (not a zombie, not a later process of that PID), else -ESRCH.
 */
static int still_alive(const struct nsctl_process *process)
{
	int r = nsctl_process_alive(process);

	return r == 0 ? -ESRCH : r < 0 ? r : 0;
}

NSCTL_EXPORT int nsctl_process_read_environ(const struct nsctl_process *process,
					    char ***ret_environ)
{
	_cleanup_free_ char *text = NULL;
	size_t size;
	int r;

	if (!process || !ret_environ)
		return -EINVAL;
	r = read_all(nsctl_process_procfd(process), "environ", &text, &size);
	if (r < 0)
		return r;
	/* A zombie, or a process gone meanwhile, shows an empty file: not its environment. */
	r = still_alive(process);
	if (r < 0)
		return r;
	return proc_environ_split(text, size, ret_environ);
}

int proc_environ_split(const char *text, size_t size, char ***ret_environ)
{
	char **environ_array, *copy;
	size_t count = 0;

	/* TEXT[SIZE] is a NUL; a last string without its own NUL still counts. */
	for (size_t i = 0; i < size; i += strlen(text + i) + 1)
		count++;
	/* One block: the pointers, then the strings; a single free() releases it. */
	environ_array = malloc((count + 1) * sizeof(char *) + size + 1);
	if (!environ_array)
		return -ENOMEM;
	copy = (char *)(environ_array + count + 1);
	memcpy(copy, text, size + 1);
	count = 0;
	for (size_t i = 0; i < size; i += strlen(copy + i) + 1)
		environ_array[count++] = copy + i;
	environ_array[count] = NULL;
	*ret_environ = environ_array;
	return 0;
}

/*
 * Whether the comma-separated CONTROLLERS of a v1 line of /proc/PID/cgroup
 * ("cpu,cpuacct", "name=systemd") are all among the super options of a
 * cgroup mount ("rw,cpu,cpuacct"): a controller, or a name, belongs to one
 * hierarchy only, so that mount is the hierarchy's.
 */
static bool controllers_mounted(const char *controllers, size_t length, const char *super_options)
{
	const char *c = controllers, *end = controllers + length;

	if (length == 0)
		return false;
	while (c < end) {
		const char *comma = memchr(c, ',', (size_t)(end - c));
		size_t n = comma ? (size_t)(comma - c) : (size_t)(end - c);
		bool found = false;

		for (const char *o = super_options; *o && !found; o += strcspn(o, ",")) {
			o += strspn(o, ",");
			found = n > 0 && strncmp(o, c, n) == 0 && (o[n] == ',' || o[n] == '\0');
		}
		if (!found)
			return false;
		c += n + (comma ? 1 : 0);
	}
	return true;
}

/*
 * The mount of the caller's mount namespace whose root holds PATH: the
 * cgroup2 one when CONTROLLERS is NULL, else the cgroup (v1) one of that
 * hierarchy.  *RET_REST is PATH below that root; *RET_DEV the mount's device.
 * A machine may mount them anywhere (/sys/fs/cgroup, or /sys/fs/cgroup/unified
 * beside v1).
 */
static int find_cgroup_mount(const char *path, const char *controllers, size_t controllers_length,
			     char **ret_mount_point, const char **ret_rest, dev_t *ret_dev)
{
	_cleanup_fclose_ FILE *f = fopen("/proc/thread-self/mountinfo", "re");
	_cleanup_free_ char *line = NULL;
	size_t allocated = 0;

	if (!f)
		return negative_errno();
	while (getline(&line, &allocated, f) > 0) {
		struct mountinfo_entry e;
		size_t root_length;

		if (mountinfo_parse_line(line, &e) < 0)
			continue;
		if (controllers
			? strcmp(e.fstype, "cgroup") != 0 ||
			      !controllers_mounted(controllers, controllers_length, e.super_options)
			: strcmp(e.fstype, "cgroup2") != 0)
			continue;
		root_length = strcmp(e.root, "/") == 0 ? 0 : strlen(e.root);
		if (strncmp(path, e.root, root_length) != 0 ||
		    (path[root_length] != '/' && path[root_length] != '\0'))
			continue;
		*ret_mount_point = strdup(e.mount_point);
		if (!*ret_mount_point)
			return -ENOMEM;
		*ret_rest = path + root_length;
		*ret_dev = makedev(e.major, e.minor);
		return 0;
	}
	return -ENOENT;
}

/*
 * The directory REST below the cgroup file system (of MAGIC, on device DEV)
 * mounted at MOUNT_POINT, opened one name at a time: no symbolic link is
 * followed and no other mount is entered on the way, whoever made the
 * directories.  Returns an fd of the directory.
 */
static int open_cgroup_dir(const char *mount_point, dev_t dev, unsigned long magic,
			   const char *rest)
{
	_cleanup_close_ int dir = -1;
	struct statfs fs;
	struct stat st;

	dir = open(mount_point, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dir < 0)
		return negative_errno();
	if (fstatfs(dir, &fs) < 0 || fstat(dir, &st) < 0)
		return negative_errno();
	/* Another mount over the one mountinfo named (mounted since): not that hierarchy. */
	if ((unsigned long)fs.f_type != magic || st.st_dev != dev)
		return -EXDEV;
	for (const char *c = rest; *c;) {
		char name[NAME_MAX + 1];
		size_t n;
		int next;

		c += strspn(c, "/");
		n = strcspn(c, "/");
		if (n == 0)
			break;
		if (n > NAME_MAX)
			return -ENAMETOOLONG;
		memcpy(name, c, n);
		name[n] = '\0';
		c += n;
		if (strcmp(name, ".") == 0)
			continue;
		if (strcmp(name, "..") == 0)
			return -EACCES;
		next = openat(dir, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0)
			return negative_errno();
		close(dir);
		dir = next;
		if (fstat(dir, &st) < 0)
			return negative_errno();
		if (st.st_dev != dev)
			return -EXDEV;
	}
	{
		int fd = openat(dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		return fd < 0 ? negative_errno() : fd;
	}
}

/* ".." in PATH: a cgroup outside the caller's cgroup namespace, nowhere to go. */
static bool climbs_out(const char *path)
{
	for (const char *c = path; *c; c += strcspn(c, "/")) {
		c += strspn(c, "/");
		if (strncmp(c, "..", 2) == 0 && (c[2] == '/' || c[2] == '\0'))
			return true;
	}
	return false;
}

int proc_cgroup_v2_path(char *text, char **ret_path)
{
	char *path = NULL;

	/* The v2 line is "0::/PATH"; PATH is seen from the caller's cgroup namespace. */
	for (char *line = text; line && *line;
	     line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		if (strncmp(line, "0::", 3) == 0) {
			path = line + 3;
			path[strcspn(path, "\n")] = '\0';
			break;
		}
	}
	if (!path || path[0] != '/')
		return -ENOENT;
	if (climbs_out(path))
		return -EACCES;
	*ret_path = path;
	return 0;
}

int proc_cgroup_v1_next(char **cursor, const char **ret_controllers, size_t *ret_length,
			char **ret_path)
{
	while (*cursor && **cursor) {
		char *line = *cursor, *end = strchr(line, '\n'), *controllers, *path;

		*cursor = end ? end + 1 : NULL;
		if (end)
			*end = '\0';
		/* "N:CONTROLLERS:/PATH"; the v2 line "0::/PATH" has none. */
		controllers = strchr(line, ':');
		if (!controllers)
			return -EINVAL;
		controllers++;
		path = strchr(controllers, ':');
		if (!path)
			return -EINVAL;
		if (path == controllers)
			continue;
		path++;
		if (path[0] != '/')
			return -EINVAL;
		if (climbs_out(path))
			return -EACCES;
		*ret_controllers = controllers;
		*ret_length = (size_t)(path - 1 - controllers);
		*ret_path = path;
		return 1;
	}
	return 0;
}

NSCTL_EXPORT int nsctl_process_open_cgroup(const struct nsctl_process *process)
{
	_cleanup_free_ char *text = NULL, *mount_point = NULL;
	_cleanup_close_ int fd = -1;
	const char *rest = NULL;
	char *path = NULL;
	size_t size;
	dev_t dev;
	int r;

	if (!process)
		return -EINVAL;
	r = read_all(nsctl_process_procfd(process), "cgroup", &text, &size);
	if (r < 0)
		return r;
	r = proc_cgroup_v2_path(text, &path);
	if (r < 0)
		return r;
	r = find_cgroup_mount(path, NULL, 0, &mount_point, &rest, &dev);
	if (r < 0)
		return r;
	fd = open_cgroup_dir(mount_point, dev, CGROUP2_SUPER_MAGIC, rest);
	if (fd < 0)
		return fd;
	/* Still the process whose cgroup we read: a later process of that PID is not asked for. */
	r = still_alive(process);
	if (r < 0)
		return r;
	return TAKE_FD(fd);
}

int process_container(const struct nsctl_process *process, struct container_ref *ret)
{
	_cleanup_free_ char *text = NULL;
	size_t length;
	int r, found;

	r = read_all(nsctl_process_procfd(process), "cgroup", &text, &length);
	if (r < 0)
		return r;
	found = container_from_proc_cgroup(text, ret, NULL);
	if (found < 0)
		return found;
	/* Still the process whose cgroup we read: a later process of that PID is not named. */
	r = still_alive(process);
	return r < 0 ? r : found;
}

NSCTL_EXPORT int nsctl_process_read_container(const struct nsctl_process *process, char *buf,
					      size_t size)
{
	struct container_ref ref;
	int r;

	if (!process || !buf || size == 0)
		return -EINVAL;
	r = process_container(process, &ref);
	if (r <= 0) {
		if (r == 0)
			buf[0] = '\0';
		return r;
	}
	container_name_lookup(&ref);
	return container_format(&ref, buf, size);
}

NSCTL_EXPORT int nsctl_process_open_cgroups_v1(const struct nsctl_process *process, int **ret_fds)
{
	_cleanup_free_ char *text = NULL;
	_cleanup_free_ int *fds = NULL;
	const char *controllers;
	char *cursor, *path;
	size_t size, length, n = 0;
	int r;

	if (!process || !ret_fds)
		return -EINVAL;
	r = read_all(nsctl_process_procfd(process), "cgroup", &text, &size);
	if (r < 0)
		return r;
	cursor = text;
	while ((r = proc_cgroup_v1_next(&cursor, &controllers, &length, &path)) > 0) {
		_cleanup_free_ char *mount_point = NULL;
		const char *rest = NULL;
		dev_t dev;
		int *more, fd;

		/* A hierarchy not mounted here: nothing to join it through. */
		r = find_cgroup_mount(path, controllers, length, &mount_point, &rest, &dev);
		if (r == -ENOENT)
			continue;
		if (r >= 0) {
			more = realloc(fds, (n + 1) * sizeof(*fds));
			r = more ? 0 : -ENOMEM;
			if (more)
				fds = more;
		}
		fd = r < 0 ? r : open_cgroup_dir(mount_point, dev, CGROUP_SUPER_MAGIC, rest);
		if (fd < 0) {
			r = fd;
			break;
		}
		fds[n++] = fd;
	}
	if (r >= 0) {
		/* Still the process whose cgroups we read. */
		r = still_alive(process);
	}
	if (r < 0) {
		for (size_t i = 0; i < n; i++)
			close(fds[i]);
		return r;
	}
	*ret_fds = TAKE_PTR(fds);
	return (int)n;
}

/*
 * Whether the calling process is in the cgroup of CGROUP_FD already: its
 * cgroup.procs, which anyone may read, lists it (as our PID namespace numbers it).
 */
static bool cgroup_has_caller(int cgroup_fd)
{
	_cleanup_free_ char *text = NULL;
	size_t size;

	if (read_all(cgroup_fd, "cgroup.procs", &text, &size) < 0)
		return false;
	for (const char *line = text; line && *line;
	     line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		const char *p = line;
		uint64_t pid;

		if (number_scan(&p, INT32_MAX, &pid) == 0 && (*p == '\n' || !*p) &&
		    pid == (uint64_t)getpid())
			return true;
	}
	return false;
}

int cgroup_join_caller(int cgroup_fd)
{
	int r;

	/* "0" is the writer itself, whatever PID namespace it is in (v1 and v2 alike). */
	r = cgroup_procs_write(cgroup_fd, 0);
	/*
	 * A caller that may not write there (a rootless container's user in a
	 * v1 hierarchy's root-owned cgroup) needs no write where it is already.
	 */
	if ((r == -EACCES || r == -EPERM) && cgroup_has_caller(cgroup_fd))
		return 0;
	return r;
}

/* The hexadecimal value of the "NAME:\tVALUE" line of TEXT (/proc/PID/status). */
static int status_field(const char *text, const char *name, uint64_t *ret)
{
	size_t length = strlen(name);

	for (const char *line = text; line && *line;
	     line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		const char *end;

		if (strncmp(line, name, length) != 0 || line[length] != ':')
			continue;
		end = line + length + 1;
		end += strspn(end, " \t");
		if (number_scan_hex(&end, UINT64_MAX, ret) < 0 || (*end != '\n' && *end != '\0'))
			return -EINVAL;
		return 0;
	}
	return -ENODATA;
}

int proc_status_caps(const char *text, struct nsctl_caps *ret)
{
	uint64_t no_new_privs;
	int r;

	r = status_field(text, "CapInh", &ret->inheritable);
	if (r >= 0)
		r = status_field(text, "CapPrm", &ret->permitted);
	if (r >= 0)
		r = status_field(text, "CapEff", &ret->effective);
	if (r >= 0)
		r = status_field(text, "CapBnd", &ret->bounding);
	if (r >= 0)
		r = status_field(text, "CapAmb", &ret->ambient);
	/* A decimal 0 or 1, which reads the same in hexadecimal. */
	if (r >= 0)
		r = status_field(text, "NoNewPrivs", &no_new_privs);
	if (r >= 0 && no_new_privs > 1)
		r = -EINVAL;
	if (r < 0)
		return r;
	ret->no_new_privs = no_new_privs != 0;
	return 0;
}

NSCTL_EXPORT int nsctl_process_read_caps(const struct nsctl_process *process,
					 struct nsctl_caps *ret_caps)
{
	_cleanup_free_ char *text = NULL;
	struct nsctl_caps caps = NSCTL_CAPS_INIT;
	size_t size;
	int r;

	if (!process || !ret_caps || sized_out_begin(ret_caps, CAPS_FIRST, sizeof(*ret_caps)) < 0)
		return -EINVAL;
	r = read_all(nsctl_process_procfd(process), "status", &text, &size);
	if (r < 0)
		return r;
	r = proc_status_caps(text, &caps);
	if (r < 0)
		return r;
	/* Still the process whose status we read, not a later one of that PID, nor a zombie. */
	r = still_alive(process);
	if (r < 0)
		return r;
	ret_caps->inheritable = caps.inheritable;
	ret_caps->permitted = caps.permitted;
	ret_caps->effective = caps.effective;
	ret_caps->bounding = caps.bounding;
	ret_caps->ambient = caps.ambient;
	ret_caps->no_new_privs = caps.no_new_privs;
	return 0;
}

NSCTL_EXPORT int nsctl_process_open_socket_netns(const struct nsctl_process *process, int fd)
{
	struct copier_request request = { .kind = COPIER_SOCKET_NETNS, .fd = fd, .type = -1 };
	struct copier_answer answer;
	char name[32], link[64];
	const char *p;
	ssize_t length;
	uint64_t ino;
	int procfd, r;

	if (!process || fd < 0)
		return -EINVAL;
	if (nsctl_process_pidfd(process) < 0)
		return -EOPNOTSUPP;
	procfd = nsctl_process_procfd(process);
	if (procfd < 0)
		return procfd;
	/*
	 * What the fd is, from its link's text, which the kernel writes
	 * ("socket:[INO]"): not by following it, which for a file on another
	 * user's FUSE mount is refused (or asks that user's server).
	 */
	snprintf(name, sizeof(name), "fd/%d", fd);
	length = readlinkat(procfd, name, link, sizeof(link) - 1);
	if (length < 0)
		return errno == ENOENT ? -EBADF : errno == EACCES ? -EPERM : negative_errno();
	link[length] = '\0';
	p = link + strlen("socket:[");
	if (strncmp(link, "socket:[", strlen("socket:[")) != 0 ||
	    number_scan(&p, UINT64_MAX, &ino) < 0 || strcmp(p, "]") != 0)
		return -ENOTSOCK;
	/* A copy of the process's fd is made by the copier alone (PTRACE_MODE_ATTACH_REALCREDS). */
	request.pid = process->pid;
	request.ino = (ino_t)ino;
	r = copier_run(&request, 1, &answer);
	if (r < 0)
		return r;
	/* The process put another file at that fd meanwhile. */
	if (answer.err == -ESTALE)
		return -ENOTSOCK;
	if (answer.err < 0)
		return answer.err == -ETIMEDOUT ? -EAGAIN : answer.err;
	/* Still the process whose fd was copied: a later process of that PID is not asked for. */
	r = still_alive(process);
	if (r < 0) {
		close(answer.fd);
		return r;
	}
	return answer.fd;
}
