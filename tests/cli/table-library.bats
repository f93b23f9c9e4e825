#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# libsmartcols is loaded only by the subcommands that print tables (src/scols.h):
# run, unshare and enter start without it, and a missing library is a clean error.

load helpers

setup() {
    fake=$(mktemp -d)
}

teardown() {
    rm -rf "$fake"
}

@test "the nsctl binary does not link libsmartcols" {
    run readelf -d "$NSCTL"
    [ "$status" -eq 0 ]
    [[ "$output" == *"(NEEDED)"*"libc.so"* ]]
    [[ "$output" != *libsmartcols* ]]
}

@test "run, unshare and enter never map libsmartcols; compare does" {
    # LD_DEBUG=libs shows every library the dynamic loader maps, dlopen()ed ones included.
    for cmd in "unshare --uts true" "run --uts true" "enter --uts /proc/self/ns/uts true"; do
        run env LD_DEBUG=libs $NSCTL $cmd
        echo "$cmd: $status"
        [ "$status" -eq 0 ]
        [[ "$output" == *"calling init: "*"libc.so.6"* ]]
        [[ "$output" != *"libsmartcols"* ]]
    done
    run env LD_DEBUG=libs "$NSCTL" compare $$ $$
    [ "$status" -eq 0 ]
    [[ "$output" == *"calling init: "*"libsmartcols.so.1"* ]]
}

@test "a libsmartcols that cannot load makes list and compare fail clearly" {
    # A file by the library's name that is not an ELF object, found first.
    echo "not a library" >"$fake/libsmartcols.so.1"
    run env LD_LIBRARY_PATH="$fake" "$NSCTL" compare $$ $$
    [ "$status" -eq 2 ]
    [[ "$output" == "nsctl: compare: cannot load libsmartcols.so.1: "* ]]
    run env LD_LIBRARY_PATH="$fake" "$NSCTL" list
    [ "$status" -eq 1 ]
    [[ "$output" == "nsctl: list: cannot load libsmartcols.so.1: "* ]]
    # The subcommands that print no table do not care.
    run env LD_LIBRARY_PATH="$fake" "$NSCTL" unshare --uts true
    [ "$status" -eq 0 ]
}
