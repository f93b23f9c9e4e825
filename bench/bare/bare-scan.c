// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The floor under `nsctl list`: read every link in /proc/PID/ns and every
 * /proc/PID/stat, once, and count what was found.  Nothing more: no names, no
 * owners, no fds, no output beyond one line "PROCESSES NAMESPACES".
 *
 * A link's text ("net:[4026531840]") names its namespace, and costs less than
 * following the link (stat() makes nsfs build and free a dentry and an inode
 * each time): the cheapest correct way, as nsctl list reads them.  All
 * namespaces are on the one nsfs, so the inode alone tells them apart.
 */
#include <dirent.h>
#include <fcntl.h>

#include "bare.h"

static int compare_keys(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;
	return (x > y) - (x < y);
}

int main(void)
{
	/* Every link /proc/PID/ns holds: the eight types and the two _for_children. */
	const char *names[2 * NSCTL_TYPE_COUNT];
	size_t n_names = 0;
	nsctl_type_foreach (t) {
		const struct nsctl_type_info *info = nsctl_type_get(t);
		names[n_names++] = info->name;
		if (info->children_name)
			names[n_names++] = info->children_name;
	}

	int proc = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (proc < 0)
		bare_die("bare-scan", "/proc", errno);
	DIR *dir = fdopendir(proc);
	if (!dir)
		bare_die("bare-scan", "/proc", errno);

	unsigned long long *keys = NULL;
	size_t n_keys = 0, allocated = 0, processes = 0;
	struct dirent *entry;
	char path[sizeof(entry->d_name) + 64], stat_buf[1024], target[64];
	while ((entry = readdir(dir))) {
		if (entry->d_name[0] < '1' || entry->d_name[0] > '9')
			continue;
		/* A process may exit at any point of the scan: skip it, as a lister must. */
		snprintf(path, sizeof(path), "%s/stat", entry->d_name);
		int fd = openat(proc, path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		ssize_t got = read(fd, stat_buf, sizeof(stat_buf));
		close(fd);
		if (got <= 0)
			continue;
		processes++;
		for (size_t i = 0; i < n_names; i++) {
			snprintf(path, sizeof(path), "%s/ns/%s", entry->d_name, names[i]);
			ssize_t length = readlinkat(proc, path, target, sizeof(target) - 1);
			if (length <= 0)
				continue;
			target[length] = '\0';
			const char *bracket = strchr(target, '[');
			if (!bracket)
				continue;
			if (n_keys == allocated) {
				allocated = allocated ? 2 * allocated : 4096;
				unsigned long long *grown =
				    realloc(keys, allocated * sizeof(*keys));
				if (!grown)
					bare_die("bare-scan", "realloc", ENOMEM);
				keys = grown;
			}
			keys[n_keys++] = strtoull(bracket + 1, NULL, 10);
		}
	}
	closedir(dir);

	size_t distinct = 0;
	qsort(keys, n_keys, sizeof(*keys), compare_keys);
	for (size_t i = 0; i < n_keys; i++)
		if (i == 0 || compare_keys(&keys[i - 1], &keys[i]) != 0)
			distinct++;
	free(keys);
	printf("%zu %zu\n", processes, distinct);
	return 0;
}
