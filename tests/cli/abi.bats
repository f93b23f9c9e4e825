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

# Skip, saying why, where libabigail is missing (make check installs it).
require_abigail() {
    command -v abidiff >/dev/null && command -v abidw >/dev/null ||
        skip "abidiff/abidw missing: apt-get install abigail-tools (scripts/install-deps.sh check does)"
    readelf -S "$LIB" | grep -q '\.debug_info' || skip "$LIB has no debug info to compare"
}

# A libnsctl built from this tree's sources with HEADER and MAP, plus C files: $COPY/libnsctl.so.1.
build_variant() {
    local header=$1 map=$2
    shift 2
    mkdir -p "$COPY/include"
    cp "$header" "$COPY/include/nsctl.h"
    "${CC:-cc}" -shared -fPIC -g -O0 -std=gnu11 -D_GNU_SOURCE -fvisibility=hidden \
        -DNSCTL_LIBRARY_VERSION='"variant"' -I"$COPY/include" -I"$NSCTL_TOP/lib" -I"$NSCTL_TOP/common" \
        "$NSCTL_TOP"/lib/*.c "$NSCTL_TOP"/common/*.c "$@" -pthread -Wl,-soname,libnsctl.so.1 -Wl,--version-script="$map" \
        -o "$COPY/libnsctl.so.1"
}

@test "abi: the build has the ABI of the committed baseline abi/libnsctl.abi (abidiff)" {
    require_abigail
    run "$NSCTL_TOP/scripts/abi.sh" check "$NSCTL_BUILD"
    echo "$output"
    [ "$status" -eq 0 ]
    [ "${lines[-1]}" = "abi.sh: $LIB has the ABI of abi/libnsctl.abi" ]
}

@test "abi: a member added to a public struct fails the check; a function added in a new node passes" {
    require_abigail
    COPY=$(mktemp -d)
    # struct nsctl_ns_id grows, and every struct holding it moves: a break
    # that abidiff alone calls only "a change" (status 4, not 8).
    sed 's|^\tuint64_t id; /\* the 64-bit NS_GET_ID|\tint generation;\n&|' \
        "$NSCTL_TOP/include/nsctl.h" >"$COPY/grown.h"
    ! cmp -s "$COPY/grown.h" "$NSCTL_TOP/include/nsctl.h" || false
    build_variant "$COPY/grown.h" "$NSCTL_TOP/lib/libnsctl.sym"
    run "$NSCTL_TOP/scripts/abi.sh" check "$NSCTL_BUILD" "$COPY/libnsctl.so.1"
    echo "$output"
    [ "$status" -eq 1 ]
    echo "$output" | grep -q "is incompatible with abi/libnsctl.abi"
    echo "$output" | grep -q "'int generation'"

    # A new function in a node of its own, NSCTL_1.1: compatible.
    { cat "$NSCTL_TOP/include/nsctl.h"; echo 'const char *nsctl_added(void);'; } >"$COPY/added.h"
    { cat "$NSCTL_TOP/lib/libnsctl.sym"; echo 'NSCTL_1.1 { global: nsctl_added; } NSCTL_1.0;'; } >"$COPY/added.sym"
    printf '#include "nsctl.h"\n%s\n' \
        '__attribute__((visibility("default"))) const char *nsctl_added(void) { return "added"; }' \
        >"$COPY/added.c"
    build_variant "$COPY/added.h" "$COPY/added.sym" "$COPY/added.c"
    run "$NSCTL_TOP/scripts/abi.sh" check "$NSCTL_BUILD" "$COPY/libnsctl.so.1"
    echo "$output"
    [ "$status" -eq 0 ]
    echo "$output" | grep -q "nsctl_added@@NSCTL_1.1"
    echo "$output" | grep -q "compatible changes only"
}
