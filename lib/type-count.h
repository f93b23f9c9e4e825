/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * How many namespace types this build knows, for lib/ and the nsctl command,
 * which are built together and may size arrays by it.  A program using the
 * library does not see it: it asks nsctl_type_all() and nsctl_type_get() at
 * run time, so a library that knows a ninth type breaks no compiled caller.
 */
#ifndef TYPE_COUNT_H
#define TYPE_COUNT_H

#include "nsctl.h"

#define TYPE_COUNT 8
#define TYPES_ALL  ((1u << TYPE_COUNT) - 1)

/* Every type, in table order. */
#define type_foreach(t) for (enum nsctl_type t = 0; t < TYPE_COUNT; t++)

#endif
