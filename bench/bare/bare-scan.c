// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The floor for listing namespaces: for every /proc/PID, stat() each
 * link in /proc/PID/ns and read /proc/PID/stat, and nothing else; one thread.
 * Prints the number of processes and of distinct links seen (a checksum of
 * the work, so that nothing is optimized away).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const links[] = { "cgroup", "ipc", "mnt", "net", "pid", "time", "user", "uts" };

int main(void)
{
	DIR *d = opendir("/proc");
	unsigned long processes = 0, sum = 0;
	struct dirent *de;
	char path[300], buf[512];

	if (!d)
		return 1;
	while ((de = readdir(d))) {
		struct stat st;
		ssize_t n;
		int fd;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
			snprintf(path, sizeof(path), "/proc/%s/ns/%s", de->d_name, links[i]);
			if (stat(path, &st) == 0)
				sum += st.st_ino;
		}
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf));
		close(fd);
		if (n > 0)
			processes++;
	}
	closedir(d);
	printf("%lu processes, checksum %lu\n", processes, sum);
	return 0;
}
