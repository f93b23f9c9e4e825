#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# nsctl compare, checked against readlink /proc/PID/ns/* of processes made by util-linux unshare.

load helpers
load hardening

setup() {
    TMP=$(mktemp -d)
    # Other sessions mount meanwhile: only this test's own mounts are judged.
    MARK=nsctl-compare-$$
    MOUNTS_BEFORE=$(own_mount_table)
}

teardown() {
    cleanup_pids
    [ -n "${PIN:-}" ] && umount "$PIN" 2>/dev/null
    rm -rf "$TMP"
    [ "$(own_mount_table)" = "$MOUNTS_BEFORE" ]
}

all_types="cgroup ipc mnt net pid time user uts"

@test "compare: a process with itself is the same in every type" {
    run "$NSCTL" compare $$ $$
    [ "$status" -eq 0 ]
    for t in $all_types; do
        echo "$output" | grep -E "^$t +[0-9]+ +[0-9]+ .* same$"
    done
    [ "$(echo "$output" | grep -c ' same$')" -eq 8 ]
}

@test "compare: agrees with /proc for a process made by unshare --uts --net" {
    require_root
    start_target --uts --net
    run "$NSCTL" compare -r --noheadings $$ "$TARGET"
    [ "$status" -eq 1 ]
    for t in $all_types; do
        a=$(ns_inode $$ $t) b=$(ns_inode "$TARGET" $t)
        if [ "$a" = "$b" ]; then want=same; else want=different; fi
        echo "$output" | grep -E "^$t $a $b [0-9]* ?[0-9]* ?$want$"
    done
    [ "$(ns_inode $$ uts)" != "$(ns_inode "$TARGET" uts)" ]
    [ "$(ns_inode $$ net)" != "$(ns_inode "$TARGET" net)" ]
    [ "$(echo "$output" | grep -c ' different$')" -eq 2 ]
}

@test "compare: type options restrict what is compared" {
    require_root
    start_target --uts
    run "$NSCTL" compare --ipc --mount $$ "$TARGET"
    [ "$status" -eq 0 ]
    [ "$(echo "$output" | grep -c ' same$')" -eq 2 ]
    run "$NSCTL" compare -u $$ "$TARGET"
    [ "$status" -eq 1 ]
    run "$NSCTL" compare --type ipc,uts $$ "$TARGET"
    [ "$status" -eq 1 ]
    echo "$output" | grep -E '^ipc .* same$'
    echo "$output" | grep -E '^uts .* different$'
}

@test "compare: JSON has one object per type with the inodes of /proc" {
    require_root
    start_target --ipc
    run "$NSCTL" compare -J $$ "$TARGET"
    [ "$status" -eq 1 ]
    [ "$(echo "$output" | jq '.compare | length')" -eq 8 ]
    [ "$(echo "$output" | jq -r '.compare[] | select(.type == "ipc") | .result')" = different ]
    [ "$(echo "$output" | jq -r '.compare[] | select(.type == "ipc") | .b')" = "$(ns_inode "$TARGET" ipc)" ]
    [ "$(echo "$output" | jq -r '.compare[] | select(.type == "net") | .result')" = same ]
}

@test "compare: namespace files compare their one type" {
    require_root
    start_target --uts
    run "$NSCTL" compare "/proc/$$/ns/uts" "/proc/$TARGET/ns/uts"
    [ "$status" -eq 1 ]
    [ "$(echo "$output" | grep -c different)" -eq 1 ]
    run "$NSCTL" compare "/proc/$$/ns/net" "/proc/$TARGET/ns/net"
    [ "$status" -eq 0 ]
    run "$NSCTL" compare "/proc/$TARGET/ns/uts" "$TARGET"
    [ "$status" -eq 0 ]
    echo "$output" | grep -E '^uts .* same$'
}

@test "compare: a bind-mounted namespace outlives its process and still compares" {
    require_root
    start_target --uts
    PIN=$TMP/uts
    touch "$PIN"
    mount --bind "/proc/$TARGET/ns/uts" "$PIN"
    inode=$(ns_inode "$TARGET" uts)
    cleanup_pids
    [ "$(stat -c %i "$PIN")" = "$inode" ]
    run "$NSCTL" compare -q "$PIN" $$
    [ "$status" -eq 1 ]
    [ -z "$output" ]
    run "$NSCTL" compare -J "$PIN" "$PIN"
    [ "$status" -eq 0 ]
    [ "$(echo "$output" | jq -r '.compare[0].a')" = "$inode" ]
}

@test "compare: an unprivileged user compares its own user namespace" {
    require_userns_for_nobody
    setpriv --reuid=65534 --regid=65534 --clear-groups sleep 600 &
    PLAIN=$!
    TEST_PIDS+=("$PLAIN")
    setpriv --reuid=65534 --regid=65534 --clear-groups unshare --user --map-root-user sleep 600 &
    TARGET=$!
    TEST_PIDS+=("$TARGET")
    wait_for_exec "$PLAIN" sleep
    wait_for_exec "$TARGET" sleep
    run as_nobody "$NSCTL" compare -r --noheadings "$PLAIN" "$TARGET"
    echo "$output"
    [ "$status" -eq 1 ]
    echo "$output" | grep -E "^user $(ns_inode "$PLAIN" user) $(ns_inode "$TARGET" user) .*different$"
    [ "$(echo "$output" | grep -c ' different$')" -eq 1 ]
    # A root-owned process is not the unprivileged caller's to inspect: trouble, not a guess.
    run as_nobody "$NSCTL" compare "$PLAIN" $$
    [ "$status" -eq 2 ]
    echo "$output"
    [[ "$output" == *"PID $$"*"Permission denied"* ]]
}

@test "compare: bad operands exit 2 and name the input" {
    dead=$(dead_pid)
    mkfifo "$TMP/fifo"
    touch "$TMP/file"
    for bad in 0 010 00 2147483648 99999999999999999999 "$dead" not-a-pid /nonexistent \
        "$TMP" "$TMP/fifo" "$TMP/file" /dev/null ""; do
        run "$NSCTL" compare $$ "$bad"
        echo "input '$bad': status $status: $output"
        [ "$status" -eq 2 ]
        [[ "$output" == "nsctl: compare: "* ]]
        if [ -n "$bad" ]; then [[ "$output" == *"$bad"* ]]; fi
    done
}

@test "compare: files of two different types are trouble" {
    run "$NSCTL" compare /proc/$$/ns/net /proc/$$/ns/uts
    [ "$status" -eq 2 ]
    [[ "$output" == *"/proc/$$/ns/net is a net namespace"*"uts"* ]]
    run "$NSCTL" compare --uts /proc/$$/ns/net $$
    [ "$status" -eq 2 ]
    [[ "$output" == *"/proc/$$/ns/net"* ]]
    [[ "$output" == *"Try 'nsctl compare --help'."* ]]
}

@test "compare: usage errors exit 2 with a hint" {
    for args in "" "$$" "$$ $$ $$" "--type foo $$ $$" "--type net, $$ $$" "--type net,net $$ $$" \
        "--bogus $$ $$" "-J -r $$ $$"; do
        run "$NSCTL" compare $args
        echo "args '$args': status $status: $output"
        [ "$status" -eq 2 ]
        [[ "$output" == *"Try 'nsctl compare --help'."* ]]
    done
    run "$NSCTL" compare --type foo $$ $$
    [[ "$output" == *"unknown namespace type 'foo'"* ]]
    run "$NSCTL" compare --type net,net $$ $$
    [[ "$output" == *"'net' given twice"* ]]
}

@test "compare: --help goes to stdout and exits 0" {
    run "$NSCTL" compare --help
    [ "$status" -eq 0 ]
    [[ "$output" == "Usage: nsctl compare"* ]]
    for t in cgroup ipc mount net pid time user uts; do
        [[ "$output" == *"--$t"* ]]
    done
}
