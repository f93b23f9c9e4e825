/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The command line's syntax for the values nsctl hands the library: PIDs,
 * namespace IDs, lists of types, ID map ranges, propagation names, clock
 * offsets and the names a UTS namespace may be given.  The library takes
 * these as numbers and enums and checks them against the kernel's rules;
 * how a user spells them is the command's business (issue 18).  Each
 * function is 0 / -errno and writes its out-parameter only on success, so
 * the fuzzers in fuzz/ can hold it to its rules.
 */
#ifndef NSCTL_PARSE_H
#define NSCTL_PARSE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "nsctl.h"

/*
 * A PID: decimal digits only, no sign, no blanks, no leading zero, at least
 * 1.  -EINVAL for bad syntax, -ERANGE if too large.
 */
int parse_pid(const char *text, pid_t *ret_pid);

/* A namespace ID, as nsctl list shows it: decimal digits, no leading zero, not 0. */
int parse_ns_id(const char *text, uint64_t *ret_id);

/*
 * A comma-separated list of type names (canonical or long option), or
 * "all": the library's every type.  -EINVAL for an empty list, an empty
 * element or an unknown name; -EEXIST for a name given twice.
 */
int parse_types(const char *list, unsigned *ret_types);

/*
 * "INNER:OUTER:COUNT", or util-linux's older "OUTER,INNER,COUNT" (one
 * separator throughout), decimal (leading zeros allowed, at most 10 digits).
 * -EINVAL for bad syntax, anywhere, even after a number too large; -ERANGE
 * for a number past 4294967295, or a range the kernel refuses (a count of 0,
 * a range that reaches 4294967295 on either side).
 */
int parse_idmap_range(const char *text, struct nsctl_idmap_range *ret_range);

/* "private", "slave", "shared" or "unchanged".  -EINVAL otherwise. */
int parse_propagation(const char *text, enum nsctl_propagation *ret);

/*
 * A clock offset in seconds, a sign allowed, leading zeros too ("-007"):
 * -EINVAL for bad syntax or a clock other than CLOCK_MONOTONIC and
 * CLOCK_BOOTTIME; -ERANGE for an offset that takes the clock below zero or
 * past the kernel's limit (nsctl_time_offset_check, which reads the clock).
 */
int parse_time_offset(const char *text, clockid_t clock, int64_t *ret_seconds);

/*
 * A hostname or NIS domain name as a user may give it: what the kernel takes
 * (nsctl_uts_name_check: -EINVAL empty, -ENAMETOOLONG past 64 bytes), and
 * UTF-8 without a control character (C0, DEL, C1 such as CSI U+009B) or an
 * invisible formatting one (bidirectional controls such as U+202E,
 * zero-width characters): -EILSEQ otherwise.
 */
int check_printable_uts_name(const char *name);

/*
 * The code point of the UTF-8 sequence at P (NUL-terminated), its length in
 * *RET_LENGTH; -1, *RET_LENGTH untouched, for a byte that begins no valid
 * sequence (a stray continuation byte, a sequence cut short, an overlong
 * form, a surrogate, beyond U+10FFFF).  nsctl's one UTF-8 decoder: what it
 * refuses or escapes never depends on the locale or the C library.
 */
int32_t utf8_decode(const unsigned char *p, size_t *ret_length);

/* Whether code point C is a C0 or C1 control or DEL. */
bool is_control(int32_t c);

/*
 * Whether C is a control (above) or an invisible formatting character:
 * bidirectional controls such as U+202E, zero-width characters, the line and
 * paragraph separators, the byte order mark.
 */
bool is_control_or_format(int32_t c);

/* The type named by the LENGTH bytes at NAME: its canonical name or its long option. */
int parse_type_name(const char *name, size_t length, enum nsctl_type *ret_type);

/*
 * The command's spelling of a type: util-linux's long option ("mount") and
 * letter ('m'); NULL and 0 for a type this command has no option for.
 */
const char *cli_type_option(enum nsctl_type type);
char cli_type_letter(enum nsctl_type type);

#endif
