#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Pins another user cannot turn against root, and rollbacks that take back only
# what the failed call made: pin, run and unshare raced by an ordinary user
# swapping a directory of the path with a symlink; unpin raced the same way.

load helpers
load hardening
load hostile-pin

setup() {
    TMP=$(mktemp -d)
    # nobody must reach the racing directories below.
    chmod 755 "$TMP"
    NAME=nsctl-hostile-pin-$$-$BATS_TEST_NUMBER
    MARK=$NAME
    MOUNTS_BEFORE=$(own_mount_table)
}

teardown() {
    cleanup_pids
    for f in /run/netns/$NAME /run/nsctl/*/$NAME; do
        [ -e "$f" ] || continue
        umount -l "$f" 2>/dev/null
        rm -f "$f"
    done
    ip netns del "$NAME" 2>/dev/null || true
    umount_below "$TMP"
    rm -rf "$TMP"
    [ "$(own_mount_table)" = "$MOUNTS_BEFORE" ]
}

@test "hostile-pin: a failed pin leaves alone the pin ip netns made of the same namespace" {
    require_root
    ip netns add "$NAME"
    ns=$(stat -c %i "/run/netns/$NAME")
    # A process in that network namespace, with a uts namespace of its own.
    ip netns exec "$NAME" unshare --uts sleep 600 &
    TARGET=$!
    TEST_PIDS+=("$TARGET")
    wait_for_exec "$TARGET" sleep
    [ "$(ns_inode "$TARGET" net)" = "$ns" ]
    # The uts pin cannot be made: a plain file has its name.
    mkdir -p /run/nsctl/uts
    touch "/run/nsctl/uts/$NAME"
    run "$NSCTL" pin --net --uts "$TARGET" "$NAME"
    echo "$output"
    [ "$status" -eq 1 ]
    [[ "$output" == *"/run/nsctl/uts/$NAME"* ]]
    rm -f "/run/nsctl/uts/$NAME"
    # The net pin was there before: not this call's to take back.
    [ "$(stat -c %i "/run/netns/$NAME")" = "$ns" ]
    [ "$(stat -f -c %T "/run/netns/$NAME")" = nsfs ]
    ip netns exec "$NAME" true
}

@test "hostile-pin: a failed pin of several types leaves no pin and no directory it made" {
    require_root
    start_target --uts --ipc --net --cgroup
    # A /run/nsctl of its own (a private tmpfs), so that what the call made is all there is.
    run unshare --mount --propagation private sh -c '
        mount -t tmpfs nsctl-hostile-pin /run/nsctl || exit 9
        mkdir /run/nsctl/uts && touch "/run/nsctl/uts/$2" || exit 9
        "$1" pin -t cgroup,ipc,net,uts "$3" "$2"
        echo "status $?"
        rm "/run/nsctl/uts/$2"
        echo "left:" $(cd /run/nsctl && find . -mindepth 1 | sort)
        [ ! -e "/run/netns/$2" ] && echo "no net pin"' sh "$NSCTL" "$NAME" "$TARGET"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"status 1"* ]]
    [[ "$output" == *"left: ./uts"$'\n'* ]]
    [[ "$output" == *"no net pin"* ]]
}

@test "hostile-pin: run and unshare take their pins back when PROGRAM is not reached, and only then" {
    require_root
    pins_left() { for p in "$TMP"/uts "$TMP"/ipc; do [ -e "$p" ] && echo "$p"; done; true; }
    for cmd in run unshare; do
        for failure in "--wd $TMP/nonexistent true" "nonexistent-nsctl-program-$$" \
            "-m --mount-proc=$TMP/nonexistent true" "--root $TMP/nonexistent true"; do
            # (word splitting wanted: the failure is options and PROGRAM)
            status=0
            output=$("$NSCTL" $cmd --uts="$TMP/uts" --ipc="$TMP/ipc" $failure 2>&1) || status=$?
            echo "$cmd $failure: $status $output"
            [ "$status" -ge 125 ]
            [ -z "$(pins_left)" ]
        done
        # PROGRAM ran and exited 127 on its own: the pins are the caller's to keep.
        run -127 "$NSCTL" $cmd --uts="$TMP/uts" --ipc="$TMP/ipc" sh -c 'exit 127'
        [ "$(stat -f -c %T "$TMP/uts")" = nsfs ] && [ "$(stat -f -c %T "$TMP/ipc")" = nsfs ]
        "$NSCTL" unpin "$TMP/uts" "$TMP/ipc"
    done
    # --init: PROGRAM, not found, is the init's child.
    run -127 "$NSCTL" run --init -p --uts="$TMP/uts" "nonexistent-nsctl-program-$$"
    [ -z "$(pins_left)" ]
}

@test "hostile-pin: a path that exists is never opened as a terminal (O_NOCTTY or O_PATH)" {
    require_root
    start_target --uts
    # A character device where the pin would go: pin looks at it and refuses.
    mknod "$TMP/tty" c 5 0
    run strace -f -qq -e trace=open,openat -o "$TMP/trace" "$NSCTL" pin --uts "$TARGET" "$TMP/tty"
    [ "$status" -eq 1 ]
    [[ "$output" == *"$TMP/tty"* ]]
    grep -E '"(tty|'"$TMP"'/tty)"' "$TMP/trace"
    ! grep -E '"(tty|'"$TMP"'/tty)"' "$TMP/trace" | grep -vE 'O_PATH|O_NOCTTY' || false
}
