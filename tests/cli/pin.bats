#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# nsctl pin and unpin, checked with util-linux nsenter, iproute2's ip netns and the mount table.

load helpers
load hardening

setup() {
    TMP=$(mktemp -d)
    NAME=nsctl-pin-test-$$-$BATS_TEST_NUMBER
    # Other sessions mount meanwhile: only this test's own mounts are judged.
    MARK=$NAME
    MOUNTS_BEFORE=$(own_mount_table)
}

teardown() {
    cleanup_pids
    # Whatever a failed test left: our own names only.
    for f in /run/netns/$NAME /run/nsctl/*/$NAME "$TMP"/*; do
        [ -e "$f" ] || continue
        umount -l "$f" 2>/dev/null
        rm -f "$f"
    done
    rm -rf "$TMP"
    [ "$(own_mount_table)" = "$MOUNTS_BEFORE" ]
}

@test "pin: a pinned namespace outlives its process; nsenter and compare reach it" {
    require_root
    start_target --uts sh -c 'hostname pinned-$$; exec sleep 600'
    inode=$(ns_inode "$TARGET" uts)
    run "$NSCTL" pin --uts "$TARGET" "$TMP/uts"
    [ "$status" -eq 0 ]
    [ "$(stat -c %i "$TMP/uts")" = "$inode" ]
    grep -q " $TMP/uts .* - nsfs " /proc/self/mountinfo
    cleanup_pids
    # No process is left in it, yet it is there: util-linux joins it.
    run nsenter --uts="$TMP/uts" hostname
    [ "$status" -eq 0 ]
    [[ "$output" == pinned-* ]]
    run "$NSCTL" compare -q "$TMP/uts" "/proc/$$/ns/uts"
    [ "$status" -eq 1 ]
    run "$NSCTL" unpin "$TMP/uts"
    [ "$status" -eq 0 ]
    [ ! -e "$TMP/uts" ]
    ! grep -q " $TMP/uts " /proc/self/mountinfo || false
}

@test "pin: a NAME for net is an ip netns name; ip netns lists and deletes it" {
    require_root
    start_target --net
    run "$NSCTL" pin --net "$TARGET" "$NAME"
    [ "$status" -eq 0 ]
    [ "$(stat -c %i "/run/netns/$NAME")" = "$(ns_inode "$TARGET" net)" ]
    ip netns list | grep -q "^$NAME\b"
    run ip netns del "$NAME"
    [ "$status" -eq 0 ]
    [ ! -e "/run/netns/$NAME" ]
}

@test "pin: ip netns exec runs in a net namespace pinned by NAME" {
    require_root
    require_ip_netns_exec
    start_target --net
    run "$NSCTL" pin --net "$TARGET" "$NAME"
    [ "$status" -eq 0 ]
    run ip netns exec "$NAME" readlink /proc/self/ns/net
    [ "$output" = "net:[$(ns_inode "$TARGET" net)]" ]
    run ip netns del "$NAME"
    [ "$status" -eq 0 ]
}

@test "unpin: removes a name made by ip netns add" {
    require_root
    ip netns add "$NAME"
    inode=$(stat -c %i "/run/netns/$NAME")
    run "$NSCTL" compare --net "/run/netns/$NAME" $$
    [ "$status" -eq 1 ]
    run "$NSCTL" unpin "$NAME"
    [ "$status" -eq 0 ]
    [ ! -e "/run/netns/$NAME" ]
    ! ip netns list | grep -q "^$NAME\b" || false
}

@test "pin: several types under one NAME pin each; unpin NAME removes them all" {
    require_root
    start_target --uts --ipc --net
    run "$NSCTL" pin -u -i -n "$TARGET" "$NAME"
    [ "$status" -eq 0 ]
    [ "$(stat -c %i "/run/nsctl/uts/$NAME")" = "$(ns_inode "$TARGET" uts)" ]
    [ "$(stat -c %i "/run/nsctl/ipc/$NAME")" = "$(ns_inode "$TARGET" ipc)" ]
    [ "$(stat -c %i "/run/netns/$NAME")" = "$(ns_inode "$TARGET" net)" ]
    run "$NSCTL" unpin --ipc "$NAME"
    [ "$status" -eq 0 ]
    [ ! -e "/run/nsctl/ipc/$NAME" ]
    [ -e "/run/nsctl/uts/$NAME" ]
    run "$NSCTL" unpin "$NAME"
    [ "$status" -eq 0 ]
    [ ! -e "/run/nsctl/uts/$NAME" ]
    [ ! -e "/run/netns/$NAME" ]
}

@test "pin: from a namespace file, and again onto the same pin is a no-op" {
    require_root
    start_target --ipc
    run "$NSCTL" pin "/proc/$TARGET/ns/ipc" "$TMP/ipc"
    [ "$status" -eq 0 ]
    run "$NSCTL" pin "/proc/$TARGET/ns/ipc" "$TMP/ipc"
    [ "$status" -eq 0 ]
    [ "$(grep -c " $TMP/ipc " /proc/self/mountinfo)" -eq 1 ]
    # A pin of a pin is the same namespace.
    run "$NSCTL" pin "$TMP/ipc" "$TMP/ipc2"
    [ "$status" -eq 0 ]
    [ "$(stat -c %i "$TMP/ipc2")" = "$(ns_inode "$TARGET" ipc)" ]
    "$NSCTL" unpin "$TMP/ipc" "$TMP/ipc2"
}

@test "pin: a mount namespace on a shared mount is refused before anything is made; a NAME works" {
    require_root
    # A shared tmpfs, and a mount namespace whose copy of it is a peer:
    # a bind of the namespace there would propagate into itself.
    mount -t tmpfs nsctl-pin-test "$TMP"
    mount --make-shared "$TMP"
    mounts_before=$(grep -c " $TMP " /proc/self/mountinfo)
    start_target --mount --propagation unchanged
    run "$NSCTL" pin --mount "$TARGET" "$TMP/mnt"
    echo "$output"
    # nsctl mounts nothing over a directory it did not make (no self-bind), and says what to do.
    after=$(grep -c " $TMP " /proc/self/mountinfo)
    made=$(ls -A "$TMP")
    umount "$TMP"
    [ "$status" -eq 1 ]
    [[ "$output" == *"$TMP/mnt: the directory is on a shared mount"*"pin it under a NAME"* ]]
    [ "$after" = "$mounts_before" ]
    [ -z "$made" ]
    run "$NSCTL" pin --mount "$TARGET" "$NAME"
    [ "$status" -eq 0 ]
    [ "$(stat -c %i "/run/nsctl/mnt/$NAME")" = "$(ns_inode "$TARGET" mnt)" ]
    run nsenter --mount="/run/nsctl/mnt/$NAME" true
    [ "$status" -eq 0 ]
    run "$NSCTL" unpin --mount "$NAME"
    [ "$status" -eq 0 ]
    [ ! -e "/run/nsctl/mnt/$NAME" ]
}

@test "pin: the caller's own mount namespace is refused, and nothing is left" {
    require_root
    run "$NSCTL" pin --mount $$ "$TMP/mnt"
    [ "$status" -eq 1 ]
    [[ "$output" == *"$TMP/mnt"*"newer than the caller's own"* ]]
    [ ! -e "$TMP/mnt" ]
}

@test "pin: a user namespace pin keeps the user namespace" {
    require_root
    require_userns
    start_target --user
    inode=$(ns_inode "$TARGET" user)
    run "$NSCTL" pin --user "$TARGET" "$TMP/user"
    [ "$status" -eq 0 ]
    cleanup_pids
    [ "$(stat -c %i "$TMP/user")" = "$inode" ]
    run nsenter --user="$TMP/user" --preserve-credentials readlink /proc/self/ns/user
    [ "$status" -eq 0 ]
    [ "$output" = "user:[$inode]" ]
    "$NSCTL" unpin "$TMP/user"
}

@test "pin: refuses a symlink, a directory, an existing file, a missing directory, a non-namespace" {
    require_root
    start_target --uts
    ln -s /etc/passwd "$TMP/link"
    ln -s "$TMP/nowhere" "$TMP/dangling"
    mkdir "$TMP/dir"
    echo keep > "$TMP/file"
    for where in "$TMP/link" "$TMP/dangling" "$TMP/dir" "$TMP/file" "$TMP/missing/pin"; do
        run "$NSCTL" pin --uts "$TARGET" "$where"
        echo "$where: $status: $output"
        [ "$status" -eq 1 ]
        [[ "$output" == "nsctl: pin: $where: "* ]]
    done
    [ "$(readlink "$TMP/link")" = /etc/passwd ]
    [ ! -e "$TMP/nowhere" ]
    [ "$(cat "$TMP/file")" = keep ]
    run "$NSCTL" pin /etc/passwd "$TMP/pin"
    [ "$status" -eq 1 ]
    [[ "$output" == *"/etc/passwd: not a namespace file"* ]]
    [ ! -e "$TMP/pin" ]
}

@test "pin: bad usage exits 2 and names the input, before anything is made" {
    require_root
    start_target --uts
    for args in "$TARGET $TMP/x" "-u -n $TARGET $TMP/x" "-u $TARGET" "-u $TARGET a b" \
        "-u 0 $TMP/x" "-u 010 $TMP/x" "--type foo $TARGET $TMP/x" "-n /proc/$TARGET/ns/uts $TMP/x" \
        "-u $TARGET .." "-u $TARGET ."; do
        run "$NSCTL" pin $args
        echo "args '$args': $status: $output"
        [ "$status" -eq 2 ]
        [[ "$output" == *"Try 'nsctl pin --help'."* ]]
    done
    [ -z "$(ls "$TMP")" ]
    run "$NSCTL" pin -u "$(dead_pid)" "$TMP/x"
    [ "$status" -eq 1 ]
    [[ "$output" == *"no such process"* ]]
}

@test "unpin: refuses what is not a pin and leaves it untouched" {
    require_root
    echo keep > "$TMP/file"
    mkdir "$TMP/dir"
    ln -s "/proc/$$/ns/net" "$TMP/link"
    for what in "$TMP/file" "$TMP/dir" "$TMP/link" "/proc/$$/ns/net"; do
        run "$NSCTL" unpin "$what"
        echo "$what: $status: $output"
        [ "$status" -eq 1 ]
        [[ "$output" == *"$what: not a pin"* ]]
    done
    [ "$(cat "$TMP/file")" = keep ]
    [ -d "$TMP/dir" ]
    [ -L "$TMP/link" ]
    run "$NSCTL" unpin "$NAME"
    [ "$status" -eq 1 ]
    [[ "$output" == *"$NAME: no pin of that name"* ]]
    run "$NSCTL" unpin ..
    [ "$status" -eq 2 ]
    run "$NSCTL" unpin
    [ "$status" -eq 2 ]
}

@test "pin: an unprivileged user cannot pin into the host, and is told why" {
    require_userns_for_nobody
    setpriv --reuid=65534 --regid=65534 --clear-groups sleep 600 &
    TEST_PIDS+=("$!")
    wait_for_exec "$!" sleep
    chmod 1777 "$TMP"
    run as_nobody "$NSCTL" pin --uts "$!" "$TMP/uts"
    [ "$status" -eq 1 ]
    [[ "$output" == *"$TMP/uts"*"Operation not permitted"* ]]
    [ ! -e "$TMP/uts" ]
}
