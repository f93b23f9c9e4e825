// SPDX-License-Identifier: LGPL-2.1-or-later
/* Pins: namespaces bind-mounted onto files, and where named pins live. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"

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
