// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The two other /proc files nsctl parses (lib/target.c), for enter's --env
 * and --join-cgroup.  Input: one byte choosing the file (even: environ, odd:
 * cgroup), then the file's text.
 * environ (proc_environ_split): the strings, joined again with their NULs,
 * are the text exactly; the array ends with NULL.
 * cgroup (proc_cgroup_v2_path): the first line that starts with "0::" is the
 * one; a path is given exactly when its rest is absolute and has no ".."
 * component (-EACCES when it has one, -ENOENT without an absolute rest), and
 * it is that rest up to the newline.
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
	if (data[0] % 2 == 0) {
		check_environ(text, size - 1);
	} else {
		copy = strdup(text);
		fuzz_assert(copy);
		check_cgroup(copy, text);
		free(copy);
	}
	free(text);
	return 0;
}
