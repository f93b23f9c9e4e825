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

/* lib/enter.c: the order of joins, apart from the system calls, so it can be tested. */
typedef int (*join_one_fn)(enum nsctl_type type, void *userdata); /* 1 joined, 0 skipped */
size_t join_order(unsigned types, bool user_first, enum nsctl_type *order);
int join_in_order(unsigned types, bool user_first, join_one_fn join, void *userdata,
		  struct nsctl_join_report *report);

#endif
