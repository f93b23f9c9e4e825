// SPDX-License-Identifier: LGPL-2.1-or-later
/* The version of the library itself, as the build (meson's project version) gave it. */
#include "internal.h"

#ifndef NSCTL_LIBRARY_VERSION
#error "NSCTL_LIBRARY_VERSION is defined by meson.build, from the project's version"
#endif

NSCTL_EXPORT const char *nsctl_library_version(void)
{
	return NSCTL_LIBRARY_VERSION;
}
