// SPDX-License-Identifier: LGPL-2.1-or-later
/* What a joining process takes from its target besides namespaces: environment and cgroup. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"
#include "syscalls.h"

/* The whole of a small file under DIRFD, NUL-terminated (SIZE excludes the NUL). */
static int read_all(int dirfd, const char *name, char **ret_text, size_t *ret_size)
{
	_cleanup_close_ int fd = -1;
	_cleanup_free_ char *text = NULL;
	size_t size = 0, allocated = 0;

	/* DIRFD is nsctl_process_procfd()'s answer: -errno when /proc/PID could not be opened. */
	if (dirfd < 0)
		return dirfd;
	fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return errno == ENOENT ? -ESRCH : negative_errno();
	for (;;) {
		ssize_t n;

		if (allocated - size < 4096) {
			char *bigger;

			/* /proc files of a process are bounded (ARG_MAX for environ). */
			if (allocated > 64u * 1024 * 1024)
				return -EFBIG;
			allocated = allocated ? allocated * 2 : 8192;
			bigger = realloc(text, allocated);
			if (!bigger)
				return -ENOMEM;
			text = bigger;
		}
		n = read(fd, text + size, allocated - size - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return negative_errno();
		}
		if (n == 0)
			break;
		size += (size_t)n;
	}
	text[size] = '\0';
	*ret_text = TAKE_PTR(text);
	*ret_size = size;
	return 0;
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
	r = nsctl_process_alive(process);
	if (r == 0)
		return -ESRCH;
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
 * The mount point of the cgroup2 file system in the caller's mount namespace
 * whose root holds PATH; *RET_REST is PATH below that root.  A machine may
 * mount it anywhere (/sys/fs/cgroup, or /sys/fs/cgroup/unified beside v1).
 */
static int find_cgroup2_mount(const char *path, char **ret_mount_point, const char **ret_rest)
{
	_cleanup_fclose_ FILE *f = fopen("/proc/thread-self/mountinfo", "re");
	_cleanup_free_ char *line = NULL;
	size_t allocated = 0;

	if (!f)
		return negative_errno();
	while (getline(&line, &allocated, f) > 0) {
		struct mountinfo_entry e;
		size_t root_length;

		if (mountinfo_parse_line(line, &e) < 0 || strcmp(e.fstype, "cgroup2") != 0)
			continue;
		root_length = strcmp(e.root, "/") == 0 ? 0 : strlen(e.root);
		if (strncmp(path, e.root, root_length) != 0 ||
		    (path[root_length] != '/' && path[root_length] != '\0'))
			continue;
		*ret_mount_point = strdup(e.mount_point);
		if (!*ret_mount_point)
			return -ENOMEM;
		*ret_rest = path + root_length;
		return 0;
	}
	return -ENOENT;
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
	/* Outside the caller's cgroup namespace the path climbs with "..": nowhere to go. */
	for (const char *c = path; *c; c += strcspn(c, "/")) {
		c += strspn(c, "/");
		if (strncmp(c, "..", 2) == 0 && (c[2] == '/' || c[2] == '\0'))
			return -EACCES;
	}
	*ret_path = path;
	return 0;
}

NSCTL_EXPORT int nsctl_process_open_cgroup(const struct nsctl_process *process)
{
	_cleanup_free_ char *text = NULL, *mount_point = NULL;
	_cleanup_close_ int mount_fd = -1, fd = -1;
	const char *rest = NULL;
	char *path = NULL;
	size_t size;
	int r;

	if (!process)
		return -EINVAL;
	r = read_all(nsctl_process_procfd(process), "cgroup", &text, &size);
	if (r < 0)
		return r;
	r = proc_cgroup_v2_path(text, &path);
	if (r < 0)
		return r;
	r = find_cgroup2_mount(path, &mount_point, &rest);
	if (r < 0)
		return r;
	mount_fd = open(mount_point, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (mount_fd < 0)
		return negative_errno();
	while (*rest == '/')
		rest++;
	fd = openat(mount_fd, *rest ? rest : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return negative_errno();
	/* Still the process whose cgroup we read: a later process of that PID is not asked for. */
	r = nsctl_process_alive(process);
	if (r == 0)
		return -ESRCH;
	if (r < 0)
		return r;
	return TAKE_FD(fd);
}

NSCTL_EXPORT int nsctl_cgroup_join(int cgroup_fd)
{
	_cleanup_close_ int fd = -1;

	if (cgroup_fd < 0)
		return -EBADF;
	fd = openat(cgroup_fd, "cgroup.procs", O_WRONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return negative_errno();
	/* "0" is the writer itself, whatever PID namespace it is in. */
	if (write(fd, "0", 1) != 1)
		return negative_errno();
	return 0;
}

NSCTL_EXPORT int nsctl_process_open_socket_netns(const struct nsctl_process *process, int fd)
{
	_cleanup_close_ int sock = -1;
	int pidfd, ns, r;

	if (!process || fd < 0)
		return -EINVAL;
	pidfd = nsctl_process_pidfd(process);
	if (pidfd < 0)
		return -EOPNOTSUPP;
	/* A copy of the process's fd (PTRACE_MODE_ATTACH_REALCREDS, Linux 5.6). */
	sock = sys_pidfd_getfd(pidfd, fd, 0);
	if (sock < 0)
		return errno == ENOSYS ? -EOPNOTSUPP : negative_errno();
	/* The kernel answers ENOTTY for a file that is not a socket, as for any unknown ioctl. */
	ns = ioctl(sock, SIOCGSKNS);
	if (ns < 0)
		return errno == ENOTTY || errno == EINVAL ? -ENOTSOCK : negative_errno();
	/* Still the process whose fd was copied: a later process of that PID is not asked for. */
	r = nsctl_process_alive(process);
	if (r <= 0) {
		close(ns);
		return r == 0 ? -ESRCH : r;
	}
	return ns;
}
