#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# libnsctl's ABI against the committed baseline abi/libnsctl.abi (libabigail):
#   check BUILD_DIR [LIB.so]  abidiff the baseline against BUILD_DIR's library
#                             (or LIB.so): exit 0 when compatible (nothing
#                             changed, or only additions), 1 when not
#   update BUILD_DIR          write the baseline from BUILD_DIR's library
# The library must carry debug info (meson's default buildtype here,
# debugoptimized, has it).  Only the types nsctl.h declares are compared.
#
# Usage: scripts/abi.sh check|update BUILD_DIR [LIB.so]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
baseline=$top/abi/libnsctl.abi

[ $# -ge 2 ] || { echo "usage: $0 check|update BUILD_DIR [LIB.so]" >&2; exit 2; }
action=$1
lib=${3:-$(readlink -f "$2/libnsctl.so")}
[ -f "$lib" ] || { echo "abi.sh: no library at $lib: build first" >&2; exit 2; }
command -v abidiff >/dev/null || { echo "abi.sh: abidiff missing: apt-get install abigail-tools" >&2; exit 2; }
if ! readelf -S "$lib" | grep -q '\.debug_info'; then
    echo "abi.sh: $lib has no debug info: build with -g (buildtype debugoptimized or debug)" >&2
    exit 2
fi

case $action in
    update)
        # No paths of this machine in the file: it is committed.
        abidw --headers-dir "$top/include" --drop-private-types --no-corpus-path \
            --no-comp-dir-path --short-locs --drop-undefined-syms --no-elf-needed \
            --out-file "$baseline" "$lib"
        echo "abi.sh: wrote $baseline from $lib; review it with git diff, and commit it"
        ;;
    check)
        status=0
        report=$(abidiff --drop-private-types --headers-dir2 "$top/include" "$baseline" "$lib") || status=$?
        [ -z "$report" ] || echo "$report"
        # abidiff's status is a bit set: 1 error, 2 usage, 4 a change, 8 a
        # change it knows to be incompatible (a symbol removed).  It calls a
        # struct grown or a member moved only "a change"; for libnsctl any
        # change to what is there is a break, and only additions are not:
        # every summary must read "0 Removed, 0 Changed".
        if [ $((status & 3)) -ne 0 ]; then
            echo "abi.sh: abidiff could not compare (status $status)" >&2
            exit 1
        fi
        if [ $((status & 8)) -ne 0 ] ||
            { [ $((status & 4)) -ne 0 ] && grep -E 'summary:' <<<"$report" | grep -qE '\b[1-9][0-9]* (Removed|Changed)\b'; }; then
            echo "abi.sh: $lib is incompatible with abi/libnsctl.abi (see above)." >&2
            echo "Undo the change; or, with a new soname, update the baseline deliberately: make abi-update" >&2
            exit 1
        fi
        if [ $((status & 4)) -ne 0 ]; then
            echo "abi.sh: compatible changes only (additions); make abi-update records them in the baseline"
        else
            echo "abi.sh: $lib has the ABI of abi/libnsctl.abi"
        fi
        ;;
    *)
        echo "usage: $0 check|update BUILD_DIR [LIB.so]" >&2
        exit 2
        ;;
esac
