// SPDX-License-Identifier: GPL-2.0-or-later
/* The command line's syntax for the values nsctl hands the library (see parse.h). */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <string.h>

#include "number.h"
#include "parse.h"
#include "util.h"

int parse_pid(const char *text, pid_t *ret_pid)
{
	int value, r;

	if (!text || !ret_pid)
		return -EINVAL;
	/*
	 * Strictly digits: no sign, no blanks, no "0x", no leading zero that could
	 * read as octal, not 0; syntax first, so "99999999999x" is -EINVAL.
	 */
	r = number_parse_int(text, INT_MAX, NUMBER_NOT_ZERO, &value);
	if (r < 0)
		return r;
	*ret_pid = (pid_t)value;
	return 0;
}

int parse_ns_id(const char *text, uint64_t *ret_id)
{
	uint64_t value;
	int r;

	if (!text || !ret_id)
		return -EINVAL;
	/* Decimal digits only: no sign, no blanks, no leading zero, not 0. */
	r = number_parse(text, UINT64_MAX, NUMBER_NOT_ZERO, &value);
	if (r < 0)
		return r;
	*ret_id = value;
	return 0;
}

/* util-linux's options for the types, which nsctl's subcommands take: by type. */
static const struct {
	char letter;
	const char *option;
} type_spellings[] = {
	[NSCTL_TYPE_CGROUP] = { 'C', "cgroup" }, [NSCTL_TYPE_IPC] = { 'i', "ipc" },
	[NSCTL_TYPE_MNT] = { 'm', "mount" },     [NSCTL_TYPE_NET] = { 'n', "net" },
	[NSCTL_TYPE_PID] = { 'p', "pid" },       [NSCTL_TYPE_TIME] = { 'T', "time" },
	[NSCTL_TYPE_USER] = { 'U', "user" },     [NSCTL_TYPE_UTS] = { 'u', "uts" },
};

const char *cli_type_option(enum nsctl_type type)
{
	return (unsigned)type < ELEMENTSOF(type_spellings) ? type_spellings[type].option : NULL;
}

char cli_type_letter(enum nsctl_type type)
{
	return (unsigned)type < ELEMENTSOF(type_spellings) ? type_spellings[type].letter : 0;
}

int parse_type_name(const char *name, size_t length, enum nsctl_type *ret_type)
{
	char copy[32];

	if (length >= sizeof(copy))
		return -EINVAL;
	memcpy(copy, name, length);
	copy[length] = '\0';
	if (nsctl_type_from_name(copy, ret_type) == 0)
		return 0;
	for (size_t t = 0; t < ELEMENTSOF(type_spellings); t++)
		if (type_spellings[t].option && strcmp(type_spellings[t].option, copy) == 0 &&
		    nsctl_type_get((enum nsctl_type)t)) {
			*ret_type = (enum nsctl_type)t;
			return 0;
		}
	return -EINVAL;
}

int parse_types(const char *list, unsigned *ret_types)
{
	unsigned types = 0;

	if (!list || !ret_types || !*list)
		return -EINVAL;
	if (strcmp(list, "all") == 0) {
		*ret_types = nsctl_type_all();
		return 0;
	}
	for (const char *p = list;;) {
		const char *comma = strchr(p, ',');
		size_t length = comma ? (size_t)(comma - p) : strlen(p);
		enum nsctl_type t;
		int r;

		/* An empty element ("net,,uts", "net,") is a typo, never "nothing". */
		if (length == 0)
			return -EINVAL;
		r = parse_type_name(p, length, &t);
		if (r < 0)
			return r;
		if (types & NSCTL_TYPE_BIT(t))
			return -EEXIST;
		types |= NSCTL_TYPE_BIT(t);
		if (!comma)
			break;
		p = comma + 1;
	}
	*ret_types = types;
	return 0;
}

static int parse_id_field(const char *text, size_t length, uint32_t *ret)
{
	uint64_t value;
	int r;

	/*
	 * Leading zeros allowed, as ever; but more than 10 digits is too large
	 * whatever they say ("00000000001" was never 1 here).
	 */
	r = number_parse_length(text, length, UINT32_MAX, NUMBER_LEADING_ZEROS, &value);
	if (r < 0)
		return r;
	if (length > 10)
		return -ERANGE;
	*ret = (uint32_t)value;
	return 0;
}

int parse_idmap_range(const char *text, struct nsctl_idmap_range *ret_range)
{
	struct nsctl_idmap_range range;
	uint32_t *fields[3] = { &range.inner, &range.outer, &range.count };
	const char *p = text;
	bool too_large = false;
	char separator = ':';

	if (!text || !ret_range)
		return -EINVAL;
	/* util-linux's older form, OUTER,INNER,COUNT (before 2.39, still taken by it). */
	if (text[strcspn(text, ":,")] == ',') {
		separator = ',';
		fields[0] = &range.outer;
		fields[1] = &range.inner;
	}
	/* Bad syntax anywhere is -EINVAL, even after a number too large (-ERANGE). */
	for (size_t i = 0; i < 3; i++) {
		size_t length = strcspn(p, ":,");
		int r;

		if ((i < 2 && p[length] != separator) || (i == 2 && p[length] != '\0'))
			return -EINVAL;
		r = parse_id_field(p, length, fields[i]);
		if (r == -ERANGE)
			too_large = true;
		else if (r < 0)
			return r;
		p += length + 1;
	}
	if (too_large)
		return -ERANGE;
	/* The kernel's rules for one range: a count of 1 or more, below 4294967295 on both sides.
	 */
	if (range.count == 0 || (uint64_t)range.inner + range.count > UINT32_MAX ||
	    (uint64_t)range.outer + range.count > UINT32_MAX)
		return -ERANGE;
	*ret_range = range;
	return 0;
}

int parse_propagation(const char *text, enum nsctl_propagation *ret)
{
	static const struct {
		const char *name;
		enum nsctl_propagation value;
	} names[] = {
		{ "unchanged", NSCTL_PROPAGATION_UNCHANGED },
		{ "private", NSCTL_PROPAGATION_PRIVATE },
		{ "slave", NSCTL_PROPAGATION_SLAVE },
		{ "shared", NSCTL_PROPAGATION_SHARED },
	};

	if (!text || !ret)
		return -EINVAL;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(text, names[i].name) == 0) {
			*ret = names[i].value;
			return 0;
		}
	}
	return -EINVAL;
}

int parse_time_offset(const char *text, clockid_t clock, int64_t *ret_seconds)
{
	uint64_t magnitude;
	int64_t value;
	bool negative;
	int r;

	if (!text || !ret_seconds || (clock != CLOCK_MONOTONIC && clock != CLOCK_BOOTTIME))
		return -EINVAL;
	/* One sign allowed, then the digits; leading zeros too ("-007"), as ever. */
	negative = text[0] == '-';
	if (text[0] == '-' || text[0] == '+')
		text++;
	/* Past INT64_MAX no clock can take it: too large, whatever the clock reads. */
	r = number_parse(text, INT64_MAX, NUMBER_LEADING_ZEROS, &magnitude);
	if (r < 0)
		return r;
	value = negative ? -(int64_t)magnitude : (int64_t)magnitude;
	r = nsctl_time_offset_check(clock, value);
	if (r < 0)
		return r;
	*ret_seconds = value;
	return 0;
}

/*
 * The code point of the UTF-8 sequence at P, its length in *RET_LENGTH; -1 for
 * bytes that are not UTF-8: a stray continuation byte, a sequence cut short,
 * an overlong form, a surrogate, a value beyond U+10FFFF.
 */
int32_t utf8_decode(const unsigned char *p, size_t *ret_length)
{
	static const int32_t min_of_length[] = { 0, 0, 0x80, 0x800, 0x10000 };
	size_t length;
	int32_t c;

	if (*p < 0x80) {
		*ret_length = 1;
		return *p;
	}
	if ((*p & 0xe0) == 0xc0)
		length = 2, c = *p & 0x1f;
	else if ((*p & 0xf0) == 0xe0)
		length = 3, c = *p & 0x0f;
	else if ((*p & 0xf8) == 0xf0)
		length = 4, c = *p & 0x07;
	else
		return -1;
	for (size_t i = 1; i < length; i++) {
		/* A NUL ends the string here too: it is no continuation byte. */
		if ((p[i] & 0xc0) != 0x80)
			return -1;
		c = (c << 6) | (p[i] & 0x3f);
	}
	if (c < min_of_length[length] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return -1;
	*ret_length = length;
	return c;
}

/*
 * Whether code point C acts on a terminal or on how the text around it
 * reads rather than showing as itself: C0 and C1 controls and DEL (an
 * escape sequence starts with ESC, or with the one character CSI, U+009B,
 * on a terminal that takes 8-bit controls), and the invisible formatting
 * characters, among them the bidirectional controls (U+202E shows what follows
 * reversed: "Trojan Source", CVE-2021-42574).
 */
bool is_control(int32_t c)
{
	return c < 0x20 || (c >= 0x7f && c <= 0x9f);
}

bool is_control_or_format(int32_t c)
{
	return is_control(c) || c == 0x061c || (c >= 0x200b && c <= 0x200f) ||
	       (c >= 0x2028 && c <= 0x202e) || (c >= 0x2060 && c <= 0x206f) || c == 0xfeff ||
	       (c >= 0xfff9 && c <= 0xfffb);
}

int check_printable_uts_name(const char *name)
{
	size_t step;
	int r = nsctl_uts_name_check(name);

	if (r < 0)
		return r;
	/*
	 * The kernel takes any bytes, but a hostname ends up in prompts, logs
	 * and terminal titles: a control character there is a way into the
	 * terminal of whoever reads them, a bidirectional control makes them
	 * read other than they are.  Bytes that are not UTF-8 are refused too:
	 * nobody can tell what a reader's terminal makes of them.
	 */
	for (const unsigned char *p = (const unsigned char *)name; *p; p += step) {
		int32_t c = utf8_decode(p, &step);

		if (c < 0 || is_control_or_format(c))
			return -EILSEQ;
	}
	return 0;
}
