// SPDX-License-Identifier: LGPL-2.1-or-later
/* The one reader of the kernel's text about mounts and namespaces: mountinfo lines, "net:[N]". */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "number.h"

/* Decode the kernel's \ooo escapes (mangle_path: space, tab, newline, backslash) in place. */
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

/*
 * A decimal number as the kernel prints it (%d, %u): digits only, no sign, no
 * blank, no leading zero.
 */
static int parse_number(const char *text, unsigned *ret)
{
	uint64_t value;

	if (number_parse(text, 0x7fffffff, 0, &value) < 0)
		return -EINVAL;
	*ret = (unsigned)value;
	return 0;
}

int mountinfo_parse_line(char *line, struct mountinfo_entry *ret_entry)
{
	struct mountinfo_entry e = { 0 };
	char *cursor = line, *field, *device, *colon, *optional_end = NULL;
	unsigned mount_id, parent_id;

	if (!line || !ret_entry)
		return -EINVAL;
	if (parse_number(next_field(&cursor), &mount_id) < 0 ||
	    parse_number(next_field(&cursor), &parent_id) < 0)
		return -EINVAL;
	e.mount_id = (int)mount_id;
	e.parent_id = (int)parent_id;
	device = next_field(&cursor);
	if (!device || !(colon = strchr(device, ':')))
		return -EINVAL;
	*colon = '\0';
	if (parse_number(device, &e.major) < 0 || parse_number(colon + 1, &e.minor) < 0)
		return -EINVAL;
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

int mountinfo_parse_nsfs(char *line, struct mountinfo_nsfs *ret)
{
	struct mountinfo_entry e;
	struct mountinfo_nsfs nsfs;

	if (!line || !ret)
		return -EINVAL;
	if (mountinfo_parse_line(line, &e) < 0)
		return -EINVAL;
	/* The root of an nsfs bind mount is the namespace, written as its link. */
	if (strcmp(e.fstype, "nsfs") != 0 || ns_link_parse(e.root, &nsfs.type, &nsfs.ino) < 0)
		return 0;
	nsfs.mount_id = e.mount_id;
	nsfs.mount_point = e.mount_point;
	*ret = nsfs;
	return 1;
}

int ns_link_parse_length(const char *text, size_t length, enum nsctl_type *ret_type, ino_t *ret_ino)
{
	const char *colon = text ? memchr(text, ':', length) : NULL;

	if (!colon || !ret_type)
		return -EINVAL;
	type_foreach (t) {
		const char *name = nsctl_type_get(t)->name, *digits;
		size_t i = strlen(name);
		uint64_t ino = 0;

		if ((size_t)(colon - text) != i || memcmp(text, name, i) != 0)
			continue;
		/* "[", the inode in canonical decimal (never 0), and "]" to end TEXT. */
		i++;
		if (i + 2 >= length || text[i] != '[' || text[length - 1] != ']')
			return -EINVAL;
		digits = text + i + 1;
		if (number_parse_length(digits, (size_t)(text + length - 1 - digits), UINT64_MAX,
					NUMBER_NOT_ZERO, &ino) < 0 ||
		    (uint64_t)(ino_t)ino != ino)
			return -EINVAL;
		*ret_type = t;
		if (ret_ino)
			*ret_ino = (ino_t)ino;
		return 0;
	}
	return -EINVAL;
}

int ns_link_parse(const char *text, enum nsctl_type *ret_type, ino_t *ret_ino)
{
	if (!text)
		return -EINVAL;
	return ns_link_parse_length(text, strlen(text), ret_type, ret_ino);
}
