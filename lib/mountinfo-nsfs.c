// SPDX-License-Identifier: LGPL-2.1-or-later
/* Reading the nsfs entries of /proc/PID/mountinfo: where namespaces are bind-mounted. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

int ns_link_parse_length(const char *text, size_t length, enum nsctl_type *ret_type, ino_t *ret_ino)
{
	const char *colon = memchr(text, ':', length);
	unsigned long long ino = 0;
	size_t i;

	if (!colon)
		return -EINVAL;
	nsctl_type_foreach (t) {
		const char *name = nsctl_type_get(t)->name;

		if ((size_t)(colon - text) != strlen(name) || memcmp(text, name, strlen(name)) != 0)
			continue;
		i = (size_t)(colon - text) + 1;
		if (i >= length || text[i++] != '[' || i >= length || text[i] < '0' ||
		    text[i] > '9')
			return -EINVAL;
		for (; i < length && text[i] >= '0' && text[i] <= '9'; i++) {
			if (ino > (~0ull - 9) / 10)
				return -EINVAL;
			ino = ino * 10 + (unsigned)(text[i] - '0');
		}
		if (i + 1 != length || text[i] != ']')
			return -EINVAL;
		*ret_type = t;
		*ret_ino = (ino_t)ino;
		return 0;
	}
	return -EINVAL;
}

/* The next space-separated field of *P, of LENGTH; NULL at the end of the line. */
static const char *next_field(const char **p, size_t *ret_length)
{
	const char *start = *p;
	size_t length;

	while (*start == ' ')
		start++;
	length = strcspn(start, " \n");
	if (length == 0)
		return NULL;
	*p = start + length;
	*ret_length = length;
	return start;
}

/* Undo the kernel's octal escapes (mangle_path: space, tab, newline, backslash). */
static int unescape(const char *text, size_t length, char *buf, size_t size)
{
	size_t o = 0;

	for (size_t i = 0; i < length; i++) {
		char c = text[i];

		if (c == '\\' && i + 3 < length && text[i + 1] >= '0' && text[i + 1] <= '3' &&
		    text[i + 2] >= '0' && text[i + 2] <= '7' && text[i + 3] >= '0' &&
		    text[i + 3] <= '7') {
			c = (char)((text[i + 1] - '0') * 64 + (text[i + 2] - '0') * 8 +
				   (text[i + 3] - '0'));
			i += 3;
		}
		if (o + 1 >= size)
			return -ENAMETOOLONG;
		buf[o++] = c;
	}
	buf[o] = '\0';
	return 0;
}

int mountinfo_parse_nsfs(const char *line, struct mountinfo_nsfs *ret)
{
	const char *p = line, *field, *root = NULL, *mountpoint = NULL;
	size_t length, root_length = 0, mountpoint_length = 0;
	struct mountinfo_nsfs entry;
	int r;

	if (!line || !ret)
		return -EINVAL;
	/* mount ID, parent ID, major:minor, root, mount point, options, optional fields... */
	for (int n = 0; n < 6; n++) {
		field = next_field(&p, &length);
		if (!field)
			return -EINVAL;
		if (n == 3) {
			root = field;
			root_length = length;
		} else if (n == 4) {
			mountpoint = field;
			mountpoint_length = length;
		}
	}
	/* ... then "-", the filesystem type, the source, the superblock options. */
	do {
		field = next_field(&p, &length);
		if (!field)
			return -EINVAL;
	} while (length != 1 || *field != '-');
	field = next_field(&p, &length);
	if (!field)
		return -EINVAL;
	if (length != 4 || memcmp(field, "nsfs", 4) != 0)
		return 0;
	/* The root of an nsfs mount is the namespace, written as its link: "net:[4026532001]". */
	if (ns_link_parse_length(root, root_length, &entry.type, &entry.ino) < 0)
		return 0;
	r = unescape(mountpoint, mountpoint_length, entry.mountpoint, sizeof(entry.mountpoint));
	if (r < 0)
		return r;
	*ret = entry;
	return 1;
}
