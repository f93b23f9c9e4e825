// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Lines of /proc/PID/mountinfo and namespace links (lib/mountinfo.c, the one
 * reader pins, list and the cgroup lookup share): a parsed line, written
 * back with the kernel's escapes, parses to the same fields; the nsfs reader
 * agrees with the line reader and the link parser; a parsed link prints back
 * as its text, and the length-bounded form agrees with the C-string one.
 * Input: one line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "fuzz.h"

/* Append TEXT to OUT, escaped as the kernel's mangle_path does (space, tab, newline, '\'). */
static char *put_escaped(char *out, const char *text)
{
	for (; *text; text++) {
		if (*text == ' ' || *text == '\t' || *text == '\n' || *text == '\\')
			out += sprintf(out, "\\%03o", (unsigned char)*text);
		else
			*out++ = *text;
	}
	return out;
}

/* E as the kernel would write it; OUT holds 4 bytes per input byte and more. */
static void format_entry(const struct mountinfo_entry *e, char *out)
{
	out += sprintf(out, "%d %d %u:%u ", e->mount_id, e->parent_id, e->major, e->minor);
	out = put_escaped(out, e->root);
	*out++ = ' ';
	out = put_escaped(out, e->mount_point);
	out += sprintf(out, " %s%s%s - %s ", e->options, *e->optional ? " " : "", e->optional,
		       e->fstype);
	out = put_escaped(out, e->source);
	sprintf(out, " %s\n", e->super_options);
}

static void check_same(const struct mountinfo_entry *a, const struct mountinfo_entry *b)
{
	fuzz_assert(a->mount_id == b->mount_id && a->parent_id == b->parent_id);
	fuzz_assert(a->major == b->major && a->minor == b->minor);
	fuzz_assert(strcmp(a->root, b->root) == 0);
	fuzz_assert(strcmp(a->mount_point, b->mount_point) == 0);
	fuzz_assert(strcmp(a->options, b->options) == 0);
	fuzz_assert(strcmp(a->optional, b->optional) == 0);
	fuzz_assert(strcmp(a->fstype, b->fstype) == 0);
	fuzz_assert(strcmp(a->source, b->source) == 0);
	fuzz_assert(strcmp(a->super_options, b->super_options) == 0);
}

static void check_link(const char *text, size_t length)
{
	enum nsctl_type type = TYPE_COUNT, type2 = TYPE_COUNT;
	ino_t ino = 0, ino2 = 0;
	char printed[64];
	int r = ns_link_parse(text, &type, &ino);

	fuzz_assert(r == 0 || r == -EINVAL);
	if (r == 0) {
		fuzz_assert(type >= 0 && type < TYPE_COUNT && ino > 0);
		snprintf(printed, sizeof(printed), "%s:[%llu]", nsctl_type_get(type)->name,
			 (unsigned long long)ino);
		fuzz_assert(strcmp(printed, text) == 0);
	} else {
		fuzz_assert(type == TYPE_COUNT && ino == 0);
	}
	/* The bounded form reads LENGTH bytes only: the same answer, with no NUL to stop it. */
	if (length == strlen(text)) {
		char *exact = malloc(length ? length : 1);

		if (!exact)
			abort();
		memcpy(exact, text, length);
		fuzz_assert(ns_link_parse_length(exact, length, &type2, &ino2) == r);
		fuzz_assert(r < 0 || (type2 == type && ino2 == ino));
		free(exact);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = fuzz_string(data, size), *copy = strdup(line), *nsfs_copy = strdup(line);
	char *formatted = malloc(size * 4 + 64);
	struct mountinfo_entry e, again;
	struct mountinfo_nsfs nsfs = { .type = TYPE_COUNT };
	enum nsctl_type type;
	ino_t ino;
	int r, r_nsfs;

	if (!copy || !nsfs_copy || !formatted)
		abort();
	check_link(line, size);

	r = mountinfo_parse_line(copy, &e);
	fuzz_assert(r == 0 || r == -EINVAL);
	r_nsfs = mountinfo_parse_nsfs(nsfs_copy, &nsfs);
	if (r < 0) {
		fuzz_assert(r_nsfs == -EINVAL);
	} else {
		fuzz_assert(e.mount_id >= 0 && e.parent_id >= 0);
		format_entry(&e, formatted);
		if (mountinfo_parse_line(formatted, &again) != 0)
			fuzz_fail("'%s' written back as '%s' does not parse", line, formatted);
		check_same(&e, &again);
		/* nsfs: exactly the lines of type nsfs whose root is a namespace link. */
		if (strcmp(e.fstype, "nsfs") == 0 && ns_link_parse(e.root, &type, &ino) == 0) {
			fuzz_assert(r_nsfs == 1);
			fuzz_assert(nsfs.type == type && nsfs.ino == ino);
			fuzz_assert(strcmp(nsfs.mount_point, e.mount_point) == 0);
		} else {
			fuzz_assert(r_nsfs == 0 && nsfs.type == TYPE_COUNT);
		}
	}
	free(formatted);
	free(nsfs_copy);
	free(copy);
	free(line);
	return 0;
}
