// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Pin names: nsctl_pin_name_path accepts exactly a non-empty file name
 * (no '/', not "." or "..", at most NAME_MAX bytes), writes the path under
 * the type's directory within the buffer it is given, and says -ENOBUFS
 * only when the buffer is too small.  Input: one byte of type, one of buffer
 * size, then the name.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nsctl.h"
#include "type-count.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int type, r;
	size_t buffer_size, length;
	char *name, *buf, expected[PATH_MAX + 64];
	bool valid;
	unsigned types = 0;

	if (size < 2)
		return -1;
	type = (int)(signed char)data[0] % (TYPE_COUNT + 2);
	buffer_size = data[1] * 2u;
	name = fuzz_string(data + 2, size - 2);
	length = strlen(name);
	valid = length > 0 && length <= NAME_MAX && !strchr(name, '/') && strcmp(name, ".") != 0 &&
		strcmp(name, "..") != 0;
	/* A heap buffer of exactly that size, so ASan sees a write one past its end. */
	buf = malloc(buffer_size ? buffer_size : 1);
	if (!buf)
		abort();
	r = nsctl_pin_name_path((enum nsctl_type)type, name, buf, buffer_size);
	if (type < 0 || type >= TYPE_COUNT || !valid) {
		fuzz_assert(r == -EINVAL);
	} else {
		if (type == NSCTL_TYPE_NET)
			snprintf(expected, sizeof(expected), "/run/netns/%s", name);
		else
			snprintf(expected, sizeof(expected), "/run/nsctl/%s/%s",
				 nsctl_type_get((enum nsctl_type)type)->name, name);
		if (strlen(expected) < buffer_size) {
			fuzz_assert(r == (int)strlen(expected));
			fuzz_assert(strcmp(buf, expected) == 0);
		} else {
			fuzz_assert(r == -ENOBUFS);
		}
	}
	r = nsctl_pin_name_types(name, &types);
	fuzz_assert(valid ? r == 0 && (types & ~TYPES_ALL) == 0 : r == -EINVAL);
	free(buf);
	free(name);
	return 0;
}
