#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Stress: 200 concurrent run, enter, pin/unpin and list calls on the same
# targets (made by util-linux unshare), in waves.  Every call must succeed and
# give the right answer, checked against util-linux and /proc; afterwards no
# mount, pin, process or fd of theirs may be left.

load helpers

CALLS=200
WAVE=50 # calls at once: 2 busy cores, and the sanitizer build, must keep up

setup() {
    require_root
    TMP=$(mktemp -d)
    # Names in /run/netns and /run/nsctl are global: this prefix is this test's own.
    PREFIX=stress-$$-$BATS_TEST_NUMBER
    mkdir "$TMP/pins" "$TMP/results" "$TMP/io"
    MOUNTS_BEFORE=$(own_mounts)
    TARGETS=() NAMES=() TARGET_FDS=()
    for j in 0 1 2; do
        # A uts namespace whose hostname names the target, and a net and ipc of its own.
        unshare --uts --net --ipc sh -c 'hostname "$0"; exec sleep 600' "t$j-$PREFIX" &
        TEST_PIDS+=($!)
        TARGETS+=($!)
        NAMES+=("t$j-$PREFIX")
        wait_for_exec $! sleep
        TARGET_FDS+=("$(ls "/proc/$!/fd" | tr '\n' ' ')")
    done
}

teardown() {
    local p
    cleanup_pids
    # Whatever a failed run left: only this test's own names.
    for p in "$TMP"/pins/* /run/netns/"$PREFIX"-* /run/nsctl/*/"$PREFIX"-*; do
        [ -e "$p" ] && umount "$p" 2>/dev/null
        rm -f "$p"
    done
    rm -rf "$TMP"
}

# The mounts this test could make: under its TMP, and its names in /run.
own_mounts() {
    awk -v tmp="$TMP/" -v a="/run/netns/$PREFIX-" -v b="/run/nsctl/" -v p="/$PREFIX-" '
        index($5, tmp) == 1 || index($5, a) == 1 || (index($5, b) == 1 && index($5, p)) {
            print $5, $9 }' /proc/self/mountinfo | sort
}

# One call K on target K % 3; its verdict goes to results/K ("ok" or what was wrong).
# PROGRAM prints its hostname and its open fds, which must be 0, 1 and 2 only.
stress_call() {
    local k=$1 j=$(($1 % 3)) out err want status
    local target=${TARGETS[$j]} name=${NAMES[$j]}
    local show='hostname; ls /proc/$$/fd; :'
    out=$TMP/io/$k.out err=$TMP/io/$k.err
    case $((k % 6)) in
        0) # run: a new uts namespace of its own, with a hostname set
            "$NSCTL" run -u --hostname "r$k-$PREFIX" -- sh -c "$show" >"$out" 2>"$err"
            status=$?
            want=$(printf '%s\n' "r$k-$PREFIX" 0 1 2)
            ;;
        1) # enter a PID: every namespace of it that differs from ours
            "$NSCTL" enter "$target" sh -c "$show" >"$out" 2>"$err"
            status=$?
            want=$(printf '%s\n' "$name" 0 1 2)
            ;;
        2) # enter a PID's uts namespace only, by type
            "$NSCTL" enter --uts "$target" sh -c "$show" >"$out" 2>"$err"
            status=$?
            want=$(printf '%s\n' "$name" 0 1 2)
            ;;
        3) # pin at a path, check it with util-linux nsenter, unpin
            {
                "$NSCTL" pin --uts "$target" "$TMP/pins/$k" &&
                    nsenter --uts="$TMP/pins/$k" hostname &&
                    "$NSCTL" unpin "$TMP/pins/$k" &&
                    [ ! -e "$TMP/pins/$k" ]
            } >"$out" 2>"$err"
            status=$?
            want=$name
            ;;
        4) # pin under a name (net in /run/netns, as ip netns; uts in /run/nsctl), enter it, unpin
            # (through ip netns exec, or in a chroot, where it cannot work, nsenter)
            {
                "$NSCTL" pin --net --uts "$target" "$PREFIX-$k" &&
                    netns_exec_here "$PREFIX-$k" readlink /proc/self/ns/net &&
                    "$NSCTL" enter "$PREFIX-$k" sh -c "$show" &&
                    "$NSCTL" unpin "$PREFIX-$k" &&
                    [ ! -e "/run/netns/$PREFIX-$k" ] && [ ! -e "/run/nsctl/uts/$PREFIX-$k" ]
            } >"$out" 2>"$err"
            status=$?
            want=$(printf '%s\n' "$(readlink "/proc/$target/ns/net")" "$name" 0 1 2)
            ;;
        5) # list: the target's namespaces, as /proc shows them
            "$NSCTL" list --task "$target" -r --noheadings -o TYPE,NS -t uts,net,ipc \
                >"$out" 2>"$err"
            status=$?
            want=$(for t in ipc net uts; do echo "$t $(ns_inode "$target" $t)"; done)
            out_sorted=$(sort "$out")
            echo "$out_sorted" >"$out"
            ;;
    esac
    if [ "$status" -ne 0 ]; then
        echo "call $k: status $status: $(cat "$err")"
    elif [ -s "$err" ]; then
        echo "call $k: stderr: $(cat "$err")"
    elif [ "$(cat "$out")" != "$want" ]; then
        echo "call $k: output '$(cat "$out" | tr '\n' ' ')', want '$(echo "$want" | tr '\n' ' ')'"
    else
        echo ok
    fi >"$TMP/results/$k"
}

# The processes the calls left: each call's environment carries STRESS_MARK,
# which every process it starts inherits, orphans included.
marked_processes() {
    local f
    for f in /proc/[0-9]*/environ; do
        if grep -qzx "STRESS_MARK=$PREFIX" "$f" 2>/dev/null; then
            f=${f%/environ}
            echo "${f#/proc/} $(tr '\0' ' ' <"$f/cmdline" 2>/dev/null)"
        fi
    done
}

@test "stress: $CALLS concurrent run, enter, pin/unpin and list calls on the same targets" {
    local k wave pids failures started=$SECONDS
    for ((wave = 0; wave < CALLS; wave += WAVE)); do
        pids=()
        for ((k = wave; k < wave + WAVE && k < CALLS; k++)); do
            (
                export STRESS_MARK=$PREFIX
                stress_call "$k"
            ) &
            pids+=($!)
        done
        for k in "${pids[@]}"; do wait "$k" || true; done
    done
    echo "$CALLS calls in $((SECONDS - started)) s"
    # Every call did what it should.
    failures=$(cat "$TMP"/results/* | grep -v '^ok$' || true)
    [ "$(cat "$TMP"/results/* | grep -c '^ok$')" -eq "$CALLS" ] || {
        echo "$failures" | head -20
        false
    }
    # Nothing left: no process of theirs, no mount, no pin, no fd of the targets.
    [ -z "$(marked_processes)" ] || { marked_processes; false; }
    [ "$(own_mounts)" = "$MOUNTS_BEFORE" ] || { own_mounts; false; }
    [ -z "$(ls -A "$TMP/pins")" ]
    [ -z "$(ls /run/netns /run/nsctl/* 2>/dev/null | grep -F "$PREFIX-" || true)" ]
    # The targets are still themselves, with the fds they had.
    for k in 0 1 2; do
        [ "$(nsenter --uts --target "${TARGETS[$k]}" hostname)" = "${NAMES[$k]}" ]
        [ "$(ls "/proc/${TARGETS[$k]}/fd" | tr '\n' ' ')" = "${TARGET_FDS[$k]}" ]
    done
}
