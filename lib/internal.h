/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the files of lib/ share with each other and with nothing else. */
#ifndef NSCTL_INTERNAL_H
#define NSCTL_INTERNAL_H

#include "nsctl.h"
#include "util.h"

/* The table row of a type, with what only the library needs. */
struct type_row {
	struct nsctl_type_info info;
	unsigned long pidfd_ioctl;          /* PIDFD_GET_<TYPE>_NAMESPACE */
	unsigned long pidfd_children_ioctl; /* ..._FOR_CHILDREN_NAMESPACE, or 0 */
};

const struct type_row *type_row(enum nsctl_type type);

/* The /proc/PID/ns file name of a type, or its _for_children variant where there is one. */
const char *type_proc_name(enum nsctl_type type, bool for_children);

/*
 * One line of /proc/PID/mountinfo, split in place (the line's buffer is
 * modified; the fields point into it).  Octal escapes (\040) in ROOT and
 * MOUNT_POINT are decoded.  -EINVAL for a malformed line.
 */
struct mountinfo_entry {
	int mount_id, parent_id;
	unsigned major, minor;
	char *root; /* for nsfs: "net:[4026531840]" */
	char *mount_point;
	char *options;
	char *optional; /* "shared:1 master:2", or "" */
	char *fstype;
	char *source;
	char *super_options;
};
int mountinfo_parse_line(char *line, struct mountinfo_entry *ret_entry);

/* "net:[4026531840]" as the type and inode of a namespace. -EINVAL otherwise. */
int ns_link_parse(const char *text, enum nsctl_type *ret_type, ino_t *ret_ino);
/* lib/enter.c: the order of joins, apart from the system calls, so it can be tested. */
typedef int (*join_one_fn)(enum nsctl_type type, void *userdata); /* 1 joined, 0 skipped */
size_t join_order(unsigned types, bool user_first, enum nsctl_type *order);
int join_in_order(unsigned types, bool user_first, join_one_fn join, void *userdata,
		  struct nsctl_join_report *report);

#endif
