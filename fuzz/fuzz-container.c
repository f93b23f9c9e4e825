// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Which container a process is in (lib/container.c): the /proc/PID/cgroup
 * parser and the readers of the runtimes' state files.  Input: one byte
 * choosing the reader (by its value modulo 4: 0 /proc/PID/cgroup, 1 docker's
 * config.v2.json, 2 podman's containers.json, 3 an OCI bundle's config.json
 * with Kubernetes' annotations), then the text.  The state files' ID is
 * ID below (the seeds use it).
 * Properties: every reader ends with a result it documents; a container
 * found has a runtime nsctl names, an ID of 64 lower-case hex digits or none,
 * and formats as RUNTIME:NAME or RUNTIME:ID within its bounds; a name has only
 * the characters a name may have (letters, digits, "_.-+@", and for
 * Kubernetes the two "/" between its parts), so no byte of it reaches a
 * terminal; the v2 path given is a line's rest in the text.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "container.h"
#include "fuzz.h"

#define ID "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

static bool chars_of_name(const char *name, unsigned slashes, size_t max)
{
	size_t n = strlen(name);

	if (n == 0 || n > max)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = name[i];

		if (c == '/' && slashes) {
			slashes--;
			continue;
		}
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      strchr("_.-+@", c)))
			return false;
	}
	return true;
}

static bool name_chars(const char *name, unsigned slashes)
{
	return chars_of_name(name, slashes, CONTAINER_NAME_LENGTH);
}

static void check_cgroup(const char *text)
{
	struct container_ref ref;
	char *v2 = NULL, formatted[CONTAINER_NAME_LENGTH + 32];
	int r = container_from_proc_cgroup(text, &ref, &v2);

	fuzz_assert(r == 0 || r == 1 || r == -EINVAL || r == -ENOMEM);
	if (v2) {
		fuzz_assert(v2[0] == '/' && !strchr(v2, '\n'));
		fuzz_assert(strstr(text, v2));
	}
	free(v2);
	if (r != 1)
		return;
	fuzz_assert(ref.runtime > CONTAINER_NONE && ref.runtime <= CONTAINER_LXC);
	fuzz_assert(ref.id[0] == '\0' ||
		    (strlen(ref.id) == CONTAINER_ID_LENGTH &&
		     strspn(ref.id, "0123456789abcdef") == CONTAINER_ID_LENGTH));
	fuzz_assert(ref.id[0] || name_chars(ref.name, 0));
	fuzz_assert(ref.name[0] == '\0' || name_chars(ref.name, 0));
	r = container_format(&ref, formatted, sizeof(formatted));
	fuzz_assert(r > 0 && (size_t)r == strlen(formatted) && strchr(formatted, ':'));
	/* The runtime's word (and @UID for a rootless one), one colon, a name's characters. */
	fuzz_assert(strspn(formatted, "abcdefghijklmnopqrstuvwxyz0123456789@") ==
		    (size_t)(strchr(formatted, ':') - formatted));
	fuzz_assert(name_chars(strchr(formatted, ':') + 1, 0));
	/* Too small a buffer says so. */
	fuzz_assert(container_format(&ref, formatted, (size_t)r) == -ENOBUFS);
}

static void check_state(int reader, const char *text)
{
	char name[CONTAINER_NAME_LENGTH + 1];
	int r;

	memset(name, 0, sizeof(name));
	if (reader == 1)
		r = container_docker_name(text, ID, name, sizeof(name));
	else if (reader == 2)
		r = container_podman_name(text, ID, name, sizeof(name));
	else
		r = container_k8s_name(text, text[0] % 2, name, sizeof(name));
	/* -ELIBACC: no json-c to load, which a fuzzing machine has (make fuzz installs it). */
	fuzz_assert(r == 0 || r == 1);
	if (r == 1)
		fuzz_assert(name_chars(name, reader == 3 ? 2 : 0));
	/* No name is never a name cut short, nor a part of one. */
	if (r == 0)
		fuzz_assert(name[0] == '\0');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text;

	if (size < 1)
		return 0;
	text = fuzz_string(data + 1, size - 1);
	if (data[0] % 4 == 0)
		check_cgroup(text);
	else
		check_state(data[0] % 4, text);
	free(text);
	return 0;
}
