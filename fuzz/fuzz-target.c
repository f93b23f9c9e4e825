// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Target specifications, as enter and pin read them (parse only): a TARGET
 * is accepted exactly when it is a PID (parse_pid; all digits is a PID
 * or nothing), a path (it has a '/'), container:SPEC with a SPEC, or a valid pin name; pin's
 * PATH|NAME exactly when it is a path or a valid pin name, and an empty or all-digit TARGET that is
 * no valid PID is refused. Anything else is a usage error, with the subcommand's status for it
 * (enter 125, as run and unshare; pin 2), never another status. Input: TARGET, a NUL byte, then
 * PATH|NAME.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fuzz.h"

static bool valid_pin_name(const char *name)
{
	size_t length = strlen(name);

	return length > 0 && length <= NAME_MAX && !strchr(name, '/') && strcmp(name, ".") != 0 &&
	       strcmp(name, "..") != 0;
}

static bool all_digits(const char *text)
{
	return *text && strspn(text, "0123456789") == strlen(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *target = fuzz_string(data, size), *where;
	size_t length = strlen(target);
	pid_t pid;
	bool is_pid, is_id, is_container, id_ok = false, target_ok, where_ok;
	int status;

	where = length < size ? target + length + 1 : target + length;
	is_pid = parse_pid(target, &pid) == 0;
	/* All digits is a PID, or nothing: never a pin name; "id:" is an ID, or nothing. */
	is_id = strncmp(target, "id:", 3) == 0;
	/* "container:" names a container, or nothing: never a pin name. */
	is_container = strncmp(target, "container:", 10) == 0;
	if (is_id) {
		uint64_t id;

		id_ok = parse_ns_id(target + 3, &id) == 0;
		target_ok = id_ok;
	} else if (is_container) {
		target_ok = target[10] != '\0';
	} else {
		target_ok =
		    all_digits(target) ? is_pid : strchr(target, '/') || valid_pin_name(target);
	}

	{
		char *argv[] = { (char *)"nsctl", (char *)"enter", (char *)"--", target, NULL };

		status = fuzz_cli_call(4, argv);
		if (status != (target_ok ? 0 : EXIT_EXEC_FAILED))
			fuzz_fail("enter '%s': status %d", target, status);
	}
	/* With --net, a PID target is complete; a file target is opened only after parsing. */
	where_ok = *where && (strchr(where, '/') || valid_pin_name(where));
	{
		char *argv[] = {
			(char *)"nsctl", (char *)"pin", (char *)"--net", (char *)"--", target,
			where,           NULL
		};

		status = fuzz_cli_call(6, argv);
		if (status !=
		    (where_ok && (is_id          ? id_ok
				  : is_container ? target[10] != '\0'
						 : *target && (is_pid || !all_digits(target)))
			 ? 0
			 : EXIT_USAGE))
			fuzz_fail("pin '%s' '%s': status %d", target, where, status);
	}
	free(target);
	return 0;
}
