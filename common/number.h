/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * common/number.c: nsctl's one parser of decimal numbers, for what a user
 * types (PIDs, uids, fd numbers, signal numbers, namespace IDs) and what the
 * kernel writes (/proc names and fields).  Compiled into the library and into
 * the command; never exported.
 *
 * The rules: decimal digits only, at least one: no sign, no blank (leading or
 * trailing), no "0x", no empty string.  No leading zero but "0" itself, unless
 * NUMBER_LEADING_ZEROS.  Syntax is checked over the whole text before the
 * value: "99999999999x" is -EINVAL, not -ERANGE.  A value above MAX is -ERANGE.
 */
#ifndef NSCTL_NUMBER_H
#define NSCTL_NUMBER_H

#include <stddef.h>
#include <stdint.h>

enum {
	NUMBER_LEADING_ZEROS = 1u << 0, /* "007" is 7 */
	NUMBER_NOT_ZERO = 1u << 1,      /* 0 (however spelt) is bad syntax, -EINVAL */
};

/* TEXT (NUL-terminated) as a number from 0 to MAX: 0 and *RET, or -EINVAL, -ERANGE. */
int number_parse(const char *text, uint64_t max, unsigned flags, uint64_t *ret);

/* The same for the LENGTH bytes at TEXT (not NUL-terminated: a readlink() buffer). */
int number_parse_length(const char *text, size_t length, uint64_t max, unsigned flags,
			uint64_t *ret);

/* The int forms, for the many callers that want one: MAX at most INT_MAX. */
int number_parse_int(const char *text, int max, unsigned flags, int *ret);

/*
 * The digits at *P, as far as they go, in a line the kernel wrote ("Pid:\t42\n",
 * the fields of /proc/PID/stat): leading zeros allowed, at least one digit.
 * *P moves past them; 0, or -EINVAL (no digit), -ERANGE (above MAX).
 */
int number_scan(const char **p, uint64_t max, uint64_t *ret);

/* The same for hexadecimal digits (either case, no "0x"): /proc/PID/status's capability masks. */
int number_scan_hex(const char **p, uint64_t max, uint64_t *ret);

#endif
