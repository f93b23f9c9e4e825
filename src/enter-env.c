// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nsctl enter --env: which of the target's variables PROGRAM gets.  The target
 * is another user's process, PROGRAM runs with nsctl's rights: what passes
 * is chosen by an allowlist of what is known to be safe, never by a list of
 * what is known to be dangerous, since such a list is never complete (bash's
 * MAILPATH, tar's TAR_OPTIONS, make's MAKEFILES and gcc's COMPILER_PATH each
 * ran a target's program as root through one).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "util.h"

extern char **environ;

/*
 * Where PROGRAM runs on nsctl's own files, the target's variables that pass:
 * those that carry data only (a terminal's type and size, a language, a time
 * zone) and name no program, file, directory, option string or code.  Their
 * values are checked too (safe_value()).  Everything else is nsctl's own, or
 * absent where nsctl has none.  nsctl-enter(1) lists these; keep it in step.
 */
static const struct {
	const char *name;
	bool family; /* NAME is a prefix: LC_ALL, LC_CTYPE ... */
} data_variables[] = {
	{ "COLORTERM", false }, { "COLUMNS", false }, { "LANG", false },
	{ "LANGUAGE", false },  { "LC_", true },      { "LINES", false },
	{ "NO_COLOR", false },  { "TERM", false },    { "TZ", false },
};

/*
 * The variables through which an environment chooses code or files for the
 * dynamic loader and libc to load, read or write: every LD_* (LD_PRELOAD,
 * LD_LIBRARY_PATH, LD_AUDIT ...), and those of the others glibc itself
 * removes for a set-user-ID program (its unsecvars.h) that name code or a
 * file.  Left out even where the rest of the target's environment passes,
 * unless --keep-loader-env asks for them.
 */
static const char *const loader_variables[] = {
	"GCONV_PATH",   "GETCONF_DIR", "GLIBC_TUNABLES", "HOSTALIASES",      "LOCPATH",
	"MALLOC_TRACE", "NIS_PATH",    "NLSPATH",        "RESOLV_HOST_CONF", "TZDIR",
};

/* The length of ENTRY's name, before its '='. */
static size_t name_length(const char *entry)
{
	return strcspn(entry, "=");
}

static bool is_loader_variable(const char *entry)
{
	size_t length = name_length(entry);

	if (strncmp(entry, "LD_", 3) == 0)
		return true;
	for (size_t i = 0; i < ELEMENTSOF(loader_variables); i++)
		if (strlen(loader_variables[i]) == length &&
		    strncmp(entry, loader_variables[i], length) == 0)
			return true;
	return false;
}

/* The index of ENTRY's name in data_variables, or -1.  A family's names are letters, digits, '_'.
 */
static int data_variable(const char *entry)
{
	size_t length = name_length(entry);

	if (strspn(entry, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") !=
	    length)
		return -1;

	for (size_t i = 0; i < ELEMENTSOF(data_variables); i++) {
		size_t n = strlen(data_variables[i].name);

		if (strncmp(entry, data_variables[i].name, n) == 0 &&
		    (data_variables[i].family ? length > n : length == n))
			return (int)i;
	}
	return -1;
}

/*
 * Whether VALUE is data: printable ASCII, and no path.  A locale or terminal
 * name with a '/' would be a file of the target's choosing for libc or
 * ncurses to read.  A time zone may name a zone below the caller's zoneinfo
 * directory ("Europe/Paris"), never a file elsewhere ("/x", ":/x", "../x").
 */
static bool safe_value(const char *name, const char *value)
{
	bool tz = strcmp(name, "TZ") == 0;

	for (const char *c = value; *c; c++)
		if (*c < 0x20 || *c > 0x7e || (*c == '/' && !tz))
			return false;
	if (tz) {
		const char *zone = value[0] == ':' ? value + 1 : value;

		if (zone[0] == '/' || strstr(zone, ".."))
			return false;
	}
	return true;
}

/* Whether the target's ENTRY may replace nsctl's where PROGRAM runs on nsctl's files. */
static bool passes_allowlist(const char *entry)
{
	int i = data_variable(entry);

	return i >= 0 && strchr(entry, '=') &&
	       safe_value(data_variables[i].name, strchr(entry, '=') + 1);
}

/* Whether ENVIRONMENT has a variable of ENTRY's name. */
static bool has_name(char **environment, const char *entry)
{
	size_t length = name_length(entry);

	for (char **e = environment; *e; e++)
		if (name_length(*e) == length && strncmp(*e, entry, length) == 0)
			return true;
	return false;
}

char **cli_enter_environment(char **target, bool keep_loader, bool target_files)
{
	size_t n = 0, i = 0;
	char **env;

	for (char **e = target; *e; e++)
		n++;
	for (char **e = environ; !target_files && e && *e; e++)
		n++;
	env = calloc(n + 1, sizeof(*env));
	if (!env)
		cli_fail(-ENOMEM, "--env");
	if (target_files) {
		for (char **e = target; *e; e++)
			if (keep_loader || !is_loader_variable(*e))
				env[i++] = *e;
		return env;
	}
	for (char **e = target; *e; e++)
		if (passes_allowlist(*e) && !has_name(env, *e))
			env[i++] = *e;
	/* nsctl's own for the rest, and where the target's value was refused. */
	for (char **e = environ; e && *e; e++)
		if (!has_name(env, *e))
			env[i++] = *e;
	return env;
}
