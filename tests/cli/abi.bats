#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# libnsctl's ABI: nsctl.h, the version script and the built library export
# the same functions, and the build is compatible with the committed
# baseline abi/libnsctl.abi (abidiff).

load helpers

setup() {
    LIB=$(readlink -f "$NSCTL_BUILD/libnsctl.so")
    COPY=
}

teardown() {
    [ -z "$COPY" ] || rm -rf "$COPY"
}

# The lines only in the first list, then those only in the second, named.
differences() {
    comm -23 <(echo "$2") <(echo "$4") | sed "s/^/only in $1: /"
    comm -13 <(echo "$2") <(echo "$4") | sed "s/^/only in $3: /"
}

@test "abi: every function nsctl.h declares is in lib/libnsctl.sym, and nothing else is" {
    header=$("$NSCTL_TOP/scripts/symbols.sh" header)
    map=$("$NSCTL_TOP/scripts/symbols.sh" map)
    [ "$(echo "$header" | wc -l)" -gt 50 ]
    diff=$(differences nsctl.h "$header" libnsctl.sym "$map")
    echo "$diff"
    [ -z "$diff" ]
}

@test "abi: the library exports exactly the functions of lib/libnsctl.sym, each in a versioned node" {
    map=$("$NSCTL_TOP/scripts/symbols.sh" map)
    exported=$("$NSCTL_TOP/scripts/symbols.sh" library "$LIB")
    diff=$(differences libnsctl.sym "$map" "$(basename "$LIB")" "$exported")
    echo "$diff"
    [ -z "$diff" ]
    # No exported function is left unversioned, nor in a node the script lacks.
    nodes=$(grep -oE '^NSCTL_[0-9]+\.[0-9]+' "$NSCTL_TOP/lib/libnsctl.sym" | paste -sd'|')
    unversioned=$(nm -D --defined-only "$LIB" | awk '$2 == "T" {print $3}' | grep -vE "@@($nodes)\$" || true)
    echo "unversioned or in an unknown node: $unversioned"
    [ -z "$unversioned" ]
}

@test "abi: the check sees a function missing from the version script, and one it has too many" {
    # The check itself: a copy of the tree with one name taken out of the
    # script, and one with a name the header lacks, must both differ.
    COPY=$(mktemp -d)
    copy=$COPY
    mkdir "$copy/scripts" "$copy/lib" "$copy/include"
    cp "$NSCTL_TOP/scripts/symbols.sh" "$copy/scripts/"
    cp "$NSCTL_TOP/include/nsctl.h" "$copy/include/"
    header=$("$NSCTL_TOP/scripts/symbols.sh" header)
    grep -v '^[[:space:]]*nsctl_ns_same;' "$NSCTL_TOP/lib/libnsctl.sym" >"$copy/lib/libnsctl.sym"
    map=$("$copy/scripts/symbols.sh" map)
    differences nsctl.h "$header" libnsctl.sym "$map" | grep -qx 'only in nsctl.h: nsctl_ns_same'
    sed 's/^\([[:space:]]*\)nsctl_ns_same;/&\n\1nsctl_not_declared;/' "$NSCTL_TOP/lib/libnsctl.sym" >"$copy/lib/libnsctl.sym"
    map=$("$copy/scripts/symbols.sh" map)
    differences nsctl.h "$header" libnsctl.sym "$map" | grep -qx 'only in libnsctl.sym: nsctl_not_declared'
}
