#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Pins another user cannot turn against root, and rollbacks that take back only
# what the failed call made: pin, run and unshare raced by an ordinary user
# swapping a directory of the path with a symlink; unpin raced the same way.

load helpers
load hostile-pin

setup() {
    TMP=$(mktemp -d)
    # nobody must reach the racing directories below.
    chmod 755 "$TMP"
    NAME=nsctl-hostile-pin-$$-$BATS_TEST_NUMBER
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
    # Nothing of this test's is left mounted (other sessions' mounts come and go meanwhile).
    [ -z "$(mount_table | grep -F -e "$TMP" -e "$NAME")" ]
}

@test "hostile-pin: a failed pin leaves alone the pin ip netns made of the same namespace" {
    require_root
    ip netns add "$NAME"
    ns=$(stat -c %i "/run/netns/$NAME")
    # A process in that network namespace, with a uts namespace of its own
    # (nsenter rather than ip netns exec, which cannot work in a chroot).
    nsenter --net="/run/netns/$NAME" unshare --uts sleep 600 &
    TARGET=$!
    TEST_PIDS+=("$TARGET")
    wait_for_exec "$TARGET" sleep
    [ "$(ns_inode "$TARGET" net)" = "$ns" ]
    # The uts pin cannot be made: a plain file has its name (not empty: an
    # empty one would be a stale pin, which pin replaces).
    mkdir -p /run/nsctl/uts
    echo not-a-pin >"/run/nsctl/uts/$NAME"
    run "$NSCTL" pin --net --uts "$TARGET" "$NAME"
    echo "$output"
    [ "$status" -eq 1 ]
    [[ "$output" == *"/run/nsctl/uts/$NAME"* ]]
    rm -f "/run/nsctl/uts/$NAME"
    # The net pin was there before: not this call's to take back.
    [ "$(stat -c %i "/run/netns/$NAME")" = "$ns" ]
    [ "$(stat -f -c %T "/run/netns/$NAME")" = nsfs ]
    nsenter --net="/run/netns/$NAME" true
}

@test "hostile-pin: a failed pin of several types leaves no pin and no directory it made" {
    require_root
    start_target --uts --ipc --net --cgroup
    # A /run/nsctl of its own (a private tmpfs), so that what the call made is all there is.
    run "$PRIVATE_MOUNT_NS" sh -c '
        mount -t tmpfs nsctl-hostile-pin /run/nsctl || exit 9
        mkdir /run/nsctl/uts && echo not-a-pin >"/run/nsctl/uts/$2" || exit 9
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
        [ "$(stat -f -c %T "$TMP/uts")" = nsfs ]
        [ "$(stat -f -c %T "$TMP/ipc")" = nsfs ]
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
    # LeakSanitizer cannot work under ptrace: in the sanitizer build, no leak check.
    run env ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" \
        strace -f -qq -e trace=open,openat -o "$TMP/trace" "$NSCTL" pin --uts "$TARGET" "$TMP/tty"
    [ "$status" -eq 1 ]
    [[ "$output" == *"$TMP/tty"* ]]
    grep -E '"(tty|'"$TMP"'/tty)"' "$TMP/trace"
    ! grep -E '"(tty|'"$TMP"'/tty)"' "$TMP/trace" | grep -vE 'O_PATH|O_NOCTTY' || false
}

# The racing ground: a shared tmpfs SH (nobody may write in it) holding
# nobody's directory SH/real and two symlinks of nobody's, SH/d -> real and
# SH/e -> R, which the swapper exchanges; R is root's, and a canary mount.
# A mount-namespace pin at SH/d/FILE is refused (SH is shared), or lands in R
# when SH/d pointed there: nothing else may happen.
setup_race() {
    SH=$TMP/sh R=$TMP/root-owned
    mkdir "$SH" "$R"
    mount -t tmpfs -o mode=1777 nsctl-hostile-pin "$SH"
    mount --make-shared "$SH"
    mount -t tmpfs -o mode=755 nsctl-hostile-canary "$R"
    echo canary >"$R/canary"
    as_nobody mkdir "$SH/real"
    as_nobody ln -s real "$SH/d"
    as_nobody ln -s "$R" "$SH/e"
}

# After the race: the canary mount is the only mount on R, and still holds its
# file; no directory was bound onto itself; every pin left is of namespace $1.
check_race() {
    local want=$1 line
    [ "$(mounts_at "$R")" -eq 1 ]
    [ "$(cat "$R/canary")" = canary ]
    [ "$(mounts_at "$SH")" -eq 1 ]
    [ "$(mounts_at "$SH/real")" -eq 0 ]
    nsfs_below "$TMP" | while read -r line; do
        echo "pin left: $line"
        [ "${line#* }" = "mnt:[$want]" ]
    done
}

@test "hostile-pin: a symlink swapped into PATH cannot turn pin, run or unshare --mount=FILE against root" {
    require_root
    setup_race
    # Its copy of SH is a peer: a pin on SH would propagate into the namespace itself.
    start_target --mount --propagation unchanged
    want=$(ns_inode "$TARGET" mnt)
    start_swapper "$SH/d" "$SH/e" 60
    made=0 refused=0
    for cmd in pin run unshare; do
        end=$((SECONDS + 10))
        for i in $(seq 200); do
            [ "$SECONDS" -lt "$end" ] || break
            case $cmd in
                pin) timeout 10 "$NSCTL" pin --mount "$TARGET" "$SH/d/mnt" 2>/dev/null ;;
                *) timeout 10 "$NSCTL" $cmd --mount="$SH/d/mnt" true 2>/dev/null ;;
            esac && made=$((made + 1)) || refused=$((refused + 1))
            # A pin that landed in R is the one asked for, through the symlink: the right namespace?
            if [ -e "$R/mnt" ]; then
                [ $cmd != pin ] || [ "$(stat -c %i "$R/mnt")" = "$want" ]
                "$NSCTL" unpin "$R/mnt"
            fi
            [ "$(mounts_at "$R")" -eq 1 ]
        done
    done
    stop_swapper
    echo "made $made, refused $refused"
    check_race "$want"
    # No file was made in nobody's directory: the refusal comes before anything is created.
    [ -z "$(ls -A "$SH/real")" ]
}

@test "hostile-pin: a symlink swapped into PATH cannot make unpin remove a file that is not a pin" {
    require_root
    U=$TMP/u R=$TMP/root-owned
    mkdir "$U" "$R"
    chmod 1777 "$U"
    echo canary >"$R/pin"
    as_nobody mkdir "$U/real"
    chmod 777 "$U/real" # (root pins there; only nobody's symlinks race)
    as_nobody ln -s real "$U/d"
    as_nobody ln -s "$R" "$U/e"
    start_target --uts
    start_swapper "$U/d" "$U/e" 60
    end=$((SECONDS + 10)) removed=0
    for i in $(seq 200); do
        [ "$SECONDS" -lt "$end" ] || break
        [ -e "$U/real/pin" ] || "$NSCTL" pin --uts "$TARGET" "$U/real/pin"
        timeout 10 "$NSCTL" unpin "$U/d/pin" 2>/dev/null && removed=$((removed + 1))
        # root's canary, a regular file by the pin's name, survives every round.
        [ "$(cat "$R/pin")" = canary ]
        [ "$(mounts_at "$R/pin")" -eq 0 ]
    done
    stop_swapper
    echo "rounds $i, pins removed $removed"
    [ "$removed" -gt 0 ]
    "$NSCTL" unpin "$U/real/pin" 2>/dev/null || true
}

@test "hostile-pin: a failed run or unshare takes back its own pin, in the directory it made it in, after the path was swapped" {
    require_root
    U=$TMP/u R=$TMP/root-owned
    mkdir "$U" "$R"
    chmod 1777 "$U"
    as_nobody mkdir "$U/real"
    chmod 777 "$U/real" # (root pins there; only nobody's symlinks race)
    as_nobody ln -s real "$U/d"
    as_nobody ln -s "$R" "$U/e"
    # root's own pin, by the name root asks for in nobody's directory.
    start_target --net
    victim=$(ns_inode "$TARGET" net)
    "$NSCTL" pin --net "$TARGET" "$R/pin"
    start_swapper "$U/d" "$U/e" 60
    rounds=0
    for cmd in "run --net=$U/d/pin" "unshare --net=$U/d/pin" "unshare -U -r --net=$U/d/pin"; do
        end=$((SECONDS + 8))
        for i in $(seq 150); do
            [ "$SECONDS" -lt "$end" ] || break
            # PROGRAM is never reached: whatever pin the call made is taken back.
            # shellcheck disable=SC2086
            timeout 10 "$NSCTL" $cmd /nonexistent-hostile-$$ 2>/dev/null && false
            rounds=$((rounds + 1))
            # root's pin survives every round, and nothing is left in nobody's directory.
            [ "$(mounts_at "$R/pin")" -eq 1 ]
            [ "$(stat -c %i "$R/pin")" = "$victim" ]
            [ "$(mounts_at "$U/real/pin")" -eq 0 ]
            [ ! -e "$U/real/pin" ]
        done
    done
    stop_swapper
    echo "rounds $rounds"
    [ "$rounds" -gt 30 ]
    "$NSCTL" unpin "$R/pin"
}

@test "hostile-pin: pins in one directory stay visible: a refused mount pin hides none; two mount pins are both found and removed" {
    require_root
    D=$TMP/d
    mkdir "$D"
    mount -t tmpfs nsctl-hostile-pin "$D"
    mount --make-shared "$D"
    start_target --mount --uts --ipc --propagation unchanged
    "$NSCTL" pin --uts "$TARGET" "$D/uts"
    "$NSCTL" pin --ipc "$TARGET" "$D/ipc"
    run "$NSCTL" pin --mount "$TARGET" "$D/mnt"
    [ "$status" -eq 1 ]
    run "$NSCTL" run --mount="$D/mnt2" true
    [ "$status" -eq 125 ]
    # Nothing mounted over D: both pins are where they were, and hold the namespaces alone.
    [ "$(mounts_at "$D")" -eq 1 ]
    cleanup_pids
    # (list, bounded: another session's FIFO racer may be about)
    run timeout 30 "$NSCTL" list -P -r --noheadings -o NSFS
    echo "$output" | grep -qx "$D/uts"
    echo "$output" | grep -qx "$D/ipc"
    "$NSCTL" unpin "$D/uts" "$D/ipc"
    [ -z "$(ls -A "$D")" ]
    # Two mount-namespace pins in the one directory for them.
    start_target --mount --propagation unchanged
    first=$TARGET a=$(ns_inode "$TARGET" mnt)
    start_target --mount --propagation unchanged
    b=$(ns_inode "$TARGET" mnt)
    "$NSCTL" pin --mount "$first" "$NAME-a"
    "$NSCTL" pin --mount "$TARGET" "$NAME-b"
    cleanup_pids
    run timeout 30 "$NSCTL" list -P -r --noheadings -o NS,NSFS
    echo "$output"
    echo "$output" | grep -qx "$a /run/nsctl/mnt/$NAME-a"
    echo "$output" | grep -qx "$b /run/nsctl/mnt/$NAME-b"
    "$NSCTL" unpin "$NAME-a" "$NAME-b"
    [ ! -e "/run/nsctl/mnt/$NAME-a" ]
    [ ! -e "/run/nsctl/mnt/$NAME-b" ]
}

@test "hostile-pin: where / is shared, a mount NAME pin makes only nsctl's own /run/nsctl/mnt private, with every fallback" {
    require_root
    if running_chrooted; then
        skip "in a chroot / is no mount root: it cannot be made shared (EINVAL)"
    fi
    # A systemd host's shared /, in a mount namespace of this test's own.
    for deny in "" "-s mount_setattr" "-s open_tree" "-s move_mount" "-s open_tree -s mount_setattr"; do
        run "$PRIVATE_MOUNT_NS" sh -c '
            nsctl=$1 name=$2; shift 2
            mount --make-shared / && mount -t tmpfs nsctl-hostile-pin /run/nsctl &&
                mount --make-shared /run/nsctl || exit 9
            # The kernel pins only a mount namespace "newer" than that of the caller, by
            # an ID that is not always in creation order across CPUs: a new target, then.
            pinned=""
            for try in 1 2 3 4 5 6; do
                unshare --mount --propagation unchanged sleep 60 &
                target=$! i=0
                # Until its unshare() is done (its mount namespace is not ours), at most 10 s.
                # (an empty link: not readable while the target execs)
                while ns=$(readlink /proc/$target/ns/mnt); [ -z "$ns" ] || [ "$ns" = "$(readlink /proc/self/ns/mnt)" ]; do
                    i=$((i + 1)) && [ $i -lt 200 ] || exit 10
                    sleep 0.05
                done
                err=$("$@" "$nsctl" pin --mount "$target" "$name" 2>&1) && pinned=1 && break
                kill "$target"
                case $err in *"newer than the caller"*) ;; *) exit 8 ;; esac
                # Refused by the kernel: nothing is left of it.
                [ ! -e "/run/nsctl/mnt/$name" ] || exit 5
            done
            findmnt -n -l -o TARGET,PROPAGATION -R /run/nsctl | awk "{ print \$1, \$2 }"
            [ -n "$pinned" ] || exit 0
            [ "$(stat -c %i "/run/nsctl/mnt/$name")" = "$(stat -L -c %i /proc/$target/ns/mnt)" ] ||
                exit 7
            "$@" "$nsctl" unpin "$name" || exit 6
            kill "$target"' sh "$NSCTL" "$NAME" ${deny:+"$NSCTL_BUILD/tests/tools/seccomp-deny" $deny --}
        echo "$deny: $output"
        [ "$status" -eq 0 ]
        [ "${lines[0]}" = "/run/nsctl shared" ]
        [ "${lines[1]}" = "/run/nsctl/mnt private" ]
    done
}
