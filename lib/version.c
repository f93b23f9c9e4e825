// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Versions: the library's own, as the build (meson's project version) gave
 * it, and those of the sized structs a caller hands in (nsctl.h).
 */
#include <string.h>

#include "internal.h"

#ifndef NSCTL_LIBRARY_VERSION
#error "NSCTL_LIBRARY_VERSION is defined by meson.build, from the project's version"
#endif

NSCTL_EXPORT const char *nsctl_library_version(void)
{
	return NSCTL_LIBRARY_VERSION;
}

int sized_out_begin(void *p, size_t first, size_t ours)
{
	size_t size;

	memcpy(&size, p, sizeof(size));
	if (size < first)
		return -EINVAL;
	if (size > ours)
		memset((char *)p + ours, 0, size - ours);
	return 0;
}

int sized_in_check(const void *p, size_t first, size_t ours)
{
	size_t size;

	memcpy(&size, p, sizeof(size));
	if (size < first)
		return -EINVAL;
	for (size_t i = ours; i < size; i++)
		if (((const unsigned char *)p)[i])
			return -E2BIG;
	return 0;
}
