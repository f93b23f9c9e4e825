#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The names of libnsctl's API, one per line, sorted, from one of three places:
#   header            the functions nsctl.h declares (preprocessed: macros are not functions)
#   map               the names lib/libnsctl.sym exports
#   library LIB.so    the functions LIB.so exports, without their version
# tests/cli/abi.bats checks that the three agree; scripts/debian-symbols.sh reads "map".
#
# Usage: scripts/symbols.sh header|map|library LIB.so
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)

case ${1:-} in
    header)
        # Every identifier nsctl_* followed by "(" after preprocessing is a
        # declared function: the header has no function-like macro left then,
        # and no function pointer or struct named nsctl_* is followed by "(".
        "${CC:-cc}" -E -P -D_GNU_SOURCE -I"$top/include" -x c - <<<'#include <nsctl.h>' |
            grep -oE '\bnsctl_[a-z0-9_]+[[:space:]]*\(' | tr -d '( \t' | sort -u
        ;;
    map)
        # The names between "global:" and "local:" (or the node's end) of every
        # node, comments (of any number of lines) dropped first.
        perl -0777 -ne 's{/\*.*?\*/}{}gs;
            while (/global:(.*?)(?:local:|\})/gs) {
                print "$_\n" for grep { length } map { s/\s+//gr } split /;/, $1;
            }' "$top/lib/libnsctl.sym" | sort -u
        ;;
    library)
        [ $# -eq 2 ] || { echo "usage: $0 library LIB.so" >&2; exit 2; }
        nm -D --defined-only "$2" | awk '$2 == "T" {print $3}' | sed 's/@.*//' | sort -u
        ;;
    *)
        echo "usage: $0 header|map|library LIB.so" >&2
        exit 2
        ;;
esac
