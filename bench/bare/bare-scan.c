// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The floor under `nsctl list`: stat every link in /proc/PID/ns and read every
 * /proc/PID/stat, once, and count what was found.  Nothing more: no names, no
 * owners, no output beyond one line "PROCESSES NAMESPACES".
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/stat.h>

#include "bare.h"

struct ns_key {
	dev_t dev;
	ino_t ino;
};

static int compare_keys(const void *a, const void *b)
{
	const struct ns_key *x = a, *y = b;
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return 0;
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
	DIR *dir = fdopendir(proc);
	if (!dir)
		bare_die("bare-scan", "/proc", errno);

	struct ns_key *keys = NULL;
	size_t n_keys = 0, allocated = 0, processes = 0;
	struct dirent *entry;
	char path[sizeof(entry->d_name) + 64], stat_buf[1024];
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
			struct stat st;
			snprintf(path, sizeof(path), "%s/ns/%s", entry->d_name, names[i]);
			if (fstatat(proc, path, &st, 0) < 0)
				continue;
			if (n_keys == allocated) {
				allocated = allocated ? 2 * allocated : 4096;
				struct ns_key *grown = realloc(keys, allocated * sizeof(*keys));
				if (!grown)
					bare_die("bare-scan", "realloc", ENOMEM);
				keys = grown;
			}
			keys[n_keys++] = (struct ns_key){ st.st_dev, st.st_ino };
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
