/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal helpers shared by lib/ and src/: cleanup attributes and small wrappers. */
#ifndef NSCTL_UTIL_H
#define NSCTL_UTIL_H

/* 1 in an AddressSanitizer build (gcc says so one way, older clang another). */
#if defined(__SANITIZE_ADDRESS__)
#define NSCTL_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NSCTL_ASAN 1
#endif
#endif
#ifndef NSCTL_ASAN
#define NSCTL_ASAN 0
#endif

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NSCTL_EXPORT __attribute__((visibility("default")))

#define ELEMENTSOF(a) (sizeof(a) / sizeof((a)[0]))

static inline void close_fdp(int *fd)
{
	if (*fd >= 0) {
		int saved = errno;
		close(*fd);
		errno = saved;
	}
}

static inline void freep(void *p)
{
	free(*(void **)p);
}

static inline void fclosep(FILE **f)
{
	if (*f)
		fclose(*f);
}

static inline void closedirp(DIR **d)
{
	if (*d)
		closedir(*d);
}

#define _cleanup_(f)       __attribute__((cleanup(f)))
#define _cleanup_close_    _cleanup_(close_fdp)
#define _cleanup_free_     _cleanup_(freep)
#define _cleanup_fclose_   _cleanup_(fclosep)
#define _cleanup_closedir_ _cleanup_(closedirp)

/* Hand an fd on: the variable becomes -1 so its cleanup does nothing. */
static inline int take_fd(int *fd)
{
	int r = *fd;
	*fd = -1;
	return r;
}
#define TAKE_FD(fd) take_fd(&(fd))

static inline void *take_ptr(void *pp)
{
	void **p = pp;
	void *r = *p;
	*p = NULL;
	return r;
}
#define TAKE_PTR(p) take_ptr(&(p))

/* -errno of the last failed call, never 0 (a defensive -EIO if errno was not set). */
static inline int negative_errno(void)
{
	return errno > 0 ? -errno : -EIO;
}

/*
 * The directory of PATH into DIR (SIZE bytes): "." where PATH has no slash,
 * "/" for "/NAME".  Its last component, a pointer into PATH; NULL where the
 * directory's name does not fit (no directory has a longer one).
 */
static inline const char *path_split(const char *path, char *dir, size_t size)
{
	const char *slash = strrchr(path, '/');
	size_t length = !slash ? 0 : slash == path ? 1 : (size_t)(slash - path);

	if (length + 1 >= size)
		return NULL;
	if (length)
		memcpy(dir, path, length);
	else
		dir[length++] = '.';
	dir[length] = '\0';
	return slash ? slash + 1 : path;
}

#endif
