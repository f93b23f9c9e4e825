// SPDX-License-Identifier: LGPL-2.1-or-later
/* Reading the kernel's text about mounts and namespaces: mountinfo lines and "net:[N]" links. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Decode the kernel's \ooo escapes (space, tab, newline, backslash) in place. */
static void unescape_octal(char *s)
{
	char *out = s;

	for (char *in = s; *in;) {
		if (in[0] == '\\' && in[1] >= '0' && in[1] <= '3' && in[2] >= '0' && in[2] <= '7' &&
		    in[3] >= '0' && in[3] <= '7') {
			*out++ = (char)((in[1] - '0') * 64 + (in[2] - '0') * 8 + (in[3] - '0'));
			in += 4;
		} else {
			*out++ = *in++;
		}
	}
	*out = '\0';
}

/* The next space-separated field, NUL-terminated in place; NULL at the end of the line. */
static char *next_field(char **cursor)
{
	char *start = *cursor, *end;

	if (!start || !*start)
		return NULL;
	end = strchr(start, ' ');
	if (end) {
		*end = '\0';
		*cursor = end + 1;
	} else {
		end = start + strlen(start);
		if (end > start && end[-1] == '\n')
			end[-1] = '\0';
		*cursor = NULL;
	}
	return start;
}

static int parse_int(const char *text, int *ret)
{
	char *end;
	long value;

	if (!text || !*text)
		return -EINVAL;
	value = strtol(text, &end, 10);
	if (*end || value < 0 || value > 0x7fffffff)
		return -EINVAL;
	*ret = (int)value;
	return 0;
}

int mountinfo_parse_line(char *line, struct mountinfo_entry *ret_entry)
{
	struct mountinfo_entry e = { 0 };
	char *cursor = line, *field, *device, *colon, *optional_end = NULL;
	int major, minor;

	if (!line || !ret_entry)
		return -EINVAL;
	if (parse_int(next_field(&cursor), &e.mount_id) < 0 ||
	    parse_int(next_field(&cursor), &e.parent_id) < 0)
		return -EINVAL;
	device = next_field(&cursor);
	if (!device || !(colon = strchr(device, ':')))
		return -EINVAL;
	*colon = '\0';
	if (parse_int(device, &major) < 0 || parse_int(colon + 1, &minor) < 0)
		return -EINVAL;
	e.major = (unsigned)major;
	e.minor = (unsigned)minor;
	e.root = next_field(&cursor);
	e.mount_point = next_field(&cursor);
	e.options = next_field(&cursor);
	if (!e.root || !e.mount_point || !e.options)
		return -EINVAL;
	/* Zero or more optional fields, then a lone "-". */
	e.optional = cursor;
	while ((field = next_field(&cursor))) {
		if (strcmp(field, "-") == 0)
			break;
		if (optional_end)
			optional_end[0] = ' '; /* rejoin the optional fields into one string */
		optional_end = field + strlen(field);
	}
	if (!field)
		return -EINVAL;
	if (!optional_end)
		e.optional = (char *)"";
	e.fstype = next_field(&cursor);
	e.source = next_field(&cursor);
	e.super_options = next_field(&cursor);
	if (!e.fstype || !e.source)
		return -EINVAL;
	if (!e.super_options)
		e.super_options = (char *)"";
	unescape_octal(e.root);
	unescape_octal(e.mount_point);
	unescape_octal(e.source);
	*ret_entry = e;
	return 0;
}

int ns_link_parse(const char *text, enum nsctl_type *ret_type, ino_t *ret_ino)
{
	nsctl_type_foreach (t) {
		const char *name = nsctl_type_get(t)->name;
		size_t length = strlen(name);
		unsigned long long ino;
		char *end;

		if (strncmp(text, name, length) != 0 || strncmp(text + length, ":[", 2) != 0)
			continue;
		if (text[length + 2] < '1' || text[length + 2] > '9')
			return -EINVAL;
		errno = 0;
		ino = strtoull(text + length + 2, &end, 10);
		if (errno || strcmp(end, "]") != 0)
			return -EINVAL;
		*ret_type = t;
		if (ret_ino)
			*ret_ino = (ino_t)ino;
		return 0;
	}
	return -EINVAL;
}
