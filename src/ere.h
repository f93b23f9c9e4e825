/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * src/ere.c: nsctl's matcher of POSIX extended regular expressions, for list
 * -Q's =~ and !~.  The text matched is anyone's (another user's command line),
 * so the matcher gives guarantees that no text can break: a compiled pattern
 * holds all the memory it will ever need (bounded by the pattern's size,
 * ERE_MAX_STATES), and a match takes time linear in the text (a simulation of
 * the pattern's automaton, every state at once: no backtracking).  A match
 * never fails.
 *
 * The syntax is regcomp(3)'s with REG_EXTENDED: | * + ? {m} {m,} {m,n} ( ) .
 * [...] (ranges by code point, [:class:], [=c=], [.c.]) ^ $ and \c for a
 * literal c, and GNU's \w \W \s \S \b \B \< \> \` \'.  No back-references
 * (POSIX extended expressions have none; they are what makes other matchers
 * slow).  Only whether the text matches is told, as with REG_NOSUB; ^ and $
 * match at the ends of the whole text only (no REG_NEWLINE).
 */
#ifndef NSCTL_ERE_H
#define NSCTL_ERE_H

#include <stdbool.h>
#include <stddef.h>

/* The most states a pattern may compile to, its repetitions written out. */
#define ERE_MAX_STATES 20000

struct ere;

/*
 * Compile PATTERN; with UTF8, characters are UTF-8 sequences (a byte of
 * none is a character of its own), else bytes; character classes are the
 * current locale's (LC_CTYPE).  0 and *RET, or -ENOMEM, or -EINVAL with
 * *RET_ERROR (a static message) and *RET_OFFSET (where in PATTERN).
 */
int ere_compile(const char *pattern, bool utf8, struct ere **ret, const char **ret_error,
		size_t *ret_offset);

/* Whether TEXT (NUL-terminated) has a match of RE anywhere: never fails, allocates nothing. */
bool ere_match(struct ere *re, const char *text);

void ere_free(struct ere *re);

#endif
