#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# nsctl enter from inside a PID namespace (issue 14): a target whose process
# group leader is outside the namespace, so that getpgid() says 0 for it, is
# a process like any other, whether the namespace has its own /proc, the
# host's, or none; a kernel thread is still refused where one is visible.

load helpers
load pidns

setup() {
    NAME=pidns-$$-$BATS_TEST_NUMBER
    READY=$BATS_TEST_TMPDIR/ready
}

teardown() {
    cleanup_pids
}

# Run by sh as PID 1 of the namespace, with $1 NSCTL, $2 NAME, $3 READY.  The
# target is started without job control, so its process group is the one the
# namespace's PID 1 inherited from outside.  Then nsctl enters it, by its uts
# type and by every type that differs, and prints what the program saw.
ENTER_SCRIPT='
nsctl=$1 name=$2 ready=$3
unshare --uts sh -c "hostname \"\$0\" && : >\"\$1\" && exec sleep 600" "$name" "$ready" &
target=$!
i=0
while [ ! -e "$ready" ] && [ $i -lt 500 ]; do sleep 0.01; i=$((i + 1)); done
if [ -r "/proc/$target/stat" ]; then
    stat=$(cat "/proc/$target/stat")
    echo "pgrp:$(echo "${stat##*) }" | cut -d" " -f3)"
    echo "inode:$(stat -L -c %i "/proc/$target/ns/uts")"
fi
echo "uts:$("$nsctl" enter -u "$target" hostname) status $?"
echo "all:$("$nsctl" enter "$target" hostname) status $?"
'

@test "pidns: enter a process whose group leader is outside the PID namespace, with the namespace's /proc" {
    require_root
    run in_pid_namespace own "$ENTER_SCRIPT
echo \"joined-inode:\$(\"\$nsctl\" enter -u \"\$target\" stat -L -c %i /proc/self/ns/uts)\"" \
        "$NSCTL" "$NAME" "$READY"
    echo "$output"
    [ "$status" -eq 0 ]
    # The premise: seen from inside, the target's process group is 0.
    [[ "$output" == *"pgrp:0"* ]]
    [[ "$output" == *"uts:$NAME status 0"* ]]
    [[ "$output" == *"all:$NAME status 0"* ]]
    inode=$(echo "$output" | sed -n 's/^inode://p')
    [ -n "$inode" ]
    [[ "$output" == *"joined-inode:$inode"* ]]
}

@test "pidns: enter a process whose group leader is outside the PID namespace, with another namespace's /proc" {
    require_root
    # /proc is the host's: there the target's number inside names another process.
    run in_pid_namespace host "$ENTER_SCRIPT" "$NSCTL" "$NAME" "$READY"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"uts:$NAME status 0"* ]]
    [[ "$output" == *"all:$NAME status 0"* ]]
    [[ "$output" != *"kernel thread"* ]]
}

@test "pidns: enter a process whose group leader is outside the PID namespace, without /proc" {
    require_root
    run in_pid_namespace none "[ ! -e /proc/self/ns ] || exit 9
$ENTER_SCRIPT" "$NSCTL" "$NAME" "$READY"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"uts:$NAME status 0"* ]]
    [[ "$output" == *"all:$NAME status 0"* ]]
}

@test "pidns: a kernel thread is still refused, with /proc and without" {
    require_root
    find_long_lived_kernel_thread
    before=$(readlink /proc/self/ns/uts)
    run -125 timeout 10 "$NSCTL" enter -u "$KTHREAD" readlink /proc/self/ns/uts
    [[ "$output" == *"PID $KTHREAD is a kernel thread"* ]]
    run -125 without_proc timeout 10 "$NSCTL" enter -u "$KTHREAD" hostname
    [[ "$output" == *"PID $KTHREAD is a kernel thread"* ]]
    run -125 without_proc timeout 10 "$NSCTL" enter "$KTHREAD" hostname
    [[ "$output" == *"PID $KTHREAD is a kernel thread"* ]]
    [ "$(readlink /proc/self/ns/uts)" = "$before" ]
}

@test "pidns: run and unshare write id maps of their child, with another namespace's /proc" {
    require_root
    require_userns
    # A few sleepers first, so that the child's number inside is taken by some
    # other process in the host's /proc, which must not be written to.
    run in_pid_namespace host '
nsctl=$1
sleep 5 & sleep 5 & sleep 5 &
echo "run-map:$("$nsctl" run -U --map-root cat /proc/self/uid_map | tr -s " ")."
echo "unshare-map:$("$nsctl" unshare -U --map-root cat /proc/self/uid_map | tr -s " ")."
' "$NSCTL"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"run-map: 0 0 1."* ]]
    [[ "$output" == *"unshare-map: 0 0 1."* ]]
}

@test "pidns: run writes clock offsets of its child, with another namespace's /proc" {
    require_root
    run in_pid_namespace host '
nsctl=$1
sleep 5 & sleep 5 & sleep 5 &
echo "run-time:$("$nsctl" run -T --monotonic 86400 cat /proc/self/timens_offsets | tr -s " " | head -1)."
' "$NSCTL"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"run-time:monotonic 86400 0."* ]]
}
