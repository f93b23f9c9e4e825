// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The other /proc files nsctl parses (lib/target.c), for enter's --env,
 * --join-cgroup and --target-caps.  Input: one byte choosing the file and
 * reader (by its value modulo 4: 0 environ, 1 cgroup v2, 2 cgroup v1, 3
 * status), then the file's text.
 * environ (proc_environ_split): the strings, joined again with their NULs,
 * are the text exactly; the array ends with NULL.
 * cgroup (proc_cgroup_v2_path): the first line that starts with "0::" is the
 * one; a path is given exactly when its rest is absolute and has no ".."
 * component (-EACCES when it has one, -ENOENT without an absolute rest), and
 * it is that rest up to the newline.
 * cgroup v1 (proc_cgroup_v1_next): it ends; each entry is a line of the text
 * with controllers (no ':', none empty) and an absolute path without ".."
 * nor a newline, and there are no more entries than lines.
 * status (proc_status_caps): 0, -ENODATA or -EINVAL, and on 0 every set is
 * the value its line gives.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "fuzz.h"

static void check_environ(const char *text, size_t size)
{
	char **env = NULL;
	size_t at = 0, n = 0;

	fuzz_assert(proc_environ_split(text, size, &env) == 0);
	for (; env[n]; n++) {
		size_t length = strlen(env[n]);

		fuzz_assert(at < size);
		fuzz_assert(memcmp(env[n], text + at, length) == 0);
		at += length + 1;
	}
	/* Every byte is in some string or is its NUL; a last string may lack its own. */
	fuzz_assert(at == size || at == size + 1);
	free(env);
}

static bool has_dotdot(const char *path)
{
	for (const char *c = path; *c; c += strcspn(c, "/")) {
		c += strspn(c, "/");
		if (c[0] == '.' && c[1] == '.' && (c[2] == '/' || c[2] == '\0'))
			return true;
	}
	return false;
}

static void check_cgroup(const char *original, char *text)
{
	const char *first = NULL;
	char *path = NULL, *expected;
	int r;

	/* The first line that starts with "0::", in the original text. */
	for (const char *line = original; line && *line;
	     line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
		if (strncmp(line, "0::", 3) == 0) {
			first = line + 3;
			break;
		}
	r = proc_cgroup_v2_path(text, &path);
	if (!first || first[0] != '/') {
		fuzz_assert(r == -ENOENT);
		return;
	}
	expected = strndup(first, strcspn(first, "\n"));
	fuzz_assert(expected);
	if (has_dotdot(expected)) {
		fuzz_assert(r == -EACCES);
	} else {
		fuzz_assert(r == 0);
		fuzz_assert(strcmp(path, expected) == 0);
		fuzz_assert(path[0] == '/' && !strchr(path, '\n'));
	}
	free(expected);
}

static void check_cgroup_v1(const char *original, char *text)
{
	size_t lines = 0, entries = 0, length;
	const char *controllers;
	char *cursor = text, *path;
	int r;

	for (const char *c = original; *c; c++)
		lines += *c == '\n';
	lines++;
	while ((r = proc_cgroup_v1_next(&cursor, &controllers, &length, &path)) > 0) {
		entries++;
		fuzz_assert(entries <= lines);
		fuzz_assert(length > 0 && !memchr(controllers, ':', length));
		fuzz_assert(path[0] == '/' && !strchr(path, '\n') && !has_dotdot(path));
	}
	fuzz_assert(r == 0 || r == -EINVAL || r == -EACCES);
}

/* The value of the first "NAME:" line of TEXT, read as hexadecimal, as the kernel writes it. */
static unsigned long long field(const char *text, const char *name)
{
	size_t length = strlen(name);

	for (const char *line = text; line && *line;
	     line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
		if (strncmp(line, name, length) == 0 && line[length] == ':')
			return strtoull(line + length + 1, NULL, 16);
	fuzz_assert(false);
	return 0;
}

static void check_status(const char *text)
{
	struct nsctl_caps caps;
	int r = proc_status_caps(text, &caps);

	fuzz_assert(r == 0 || r == -ENODATA || r == -EINVAL);
	if (r < 0)
		return;
	fuzz_assert(caps.inheritable == field(text, "CapInh"));
	fuzz_assert(caps.permitted == field(text, "CapPrm"));
	fuzz_assert(caps.effective == field(text, "CapEff"));
	fuzz_assert(caps.bounding == field(text, "CapBnd"));
	fuzz_assert(caps.ambient == field(text, "CapAmb"));
	fuzz_assert(caps.no_new_privs == (field(text, "NoNewPrivs") == 1));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text, *copy;

	if (size < 1)
		return -1;
	/* As read_all() gives it: SIZE bytes and a NUL after them. */
	text = malloc(size);
	fuzz_assert(text);
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	if (data[0] % 4 == 0) {
		check_environ(text, size - 1);
	} else if (data[0] % 4 == 3) {
		check_status(text);
	} else {
		copy = strdup(text);
		fuzz_assert(copy);
		if (data[0] % 4 == 1)
			check_cgroup(copy, text);
		else
			check_cgroup_v1(copy, text);
		free(copy);
	}
	free(text);
	return 0;
}
