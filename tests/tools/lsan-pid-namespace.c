// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Linked into the examples of sanitizer builds only.  LeakSanitizer checks at
 * exit from a tracer it clones: in a pid namespace other than the process's
 * own (a joined pid_for_children), or under a /proc of another pid namespace,
 * the tracer cannot find the process and waits forever.  There the check is
 * skipped; everywhere else it runs.
 */
#include <sys/stat.h>

/* Seen by the sanitizer runtime despite -fvisibility=hidden. */
__attribute__((visibility("default"))) int __lsan_is_turned_off(void);

int __lsan_is_turned_off(void)
{
	struct stat own, children;

	if (stat("/proc/self/ns/pid", &own) < 0 ||
	    stat("/proc/self/ns/pid_for_children", &children) < 0)
		return 1;
	return own.st_ino != children.st_ino || own.st_dev != children.st_dev;
}
