#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Every newer kernel interface nsctl uses has a fallback.  Each is taken away
# here with a seccomp filter (tests/tools/seccomp-deny: ENOSYS, or ENOTTY for an
# ioctl, as an older kernel answers), and the results must still agree with /proc.

load helpers
load hardening

setup() {
    MOUNTS_BEFORE=$(own_mount_table)
}

teardown() {
    cleanup_pids
    [ "$(own_mount_table)" = "$MOUNTS_BEFORE" ]
}

# Compare $$ with TARGET (raw, no headings) under a filter, and check every row
# against the inodes /proc shows.  $1...: seccomp-deny options.
compare_agrees_with_proc() {
    run old_kernel "$@" -- "$NSCTL" compare -r --noheadings $$ "$TARGET"
    echo "$output"
    [ "$status" -eq 1 ]
    [ "$(echo "$output" | wc -l)" -eq 8 ]
    for t in cgroup ipc mnt net pid time user uts; do
        a=$(ns_inode $$ $t) b=$(ns_inode "$TARGET" $t)
        if [ "$a" = "$b" ]; then want=same; else want=different; fi
        echo "$output" | grep -E "^$t $a $b [0-9]* ?[0-9]* ?$want$"
    done
}

@test "older kernels: the filter really denies, and says so" {
    run old_kernel -s pidfd_open -- perl -e 'syscall(434, $$, 0); print $! + 0'
    [ "$status" -eq 0 ]
    [ "$output" = 38 ] # ENOSYS
    run old_kernel -s no_such_call -- true
    [ "$status" -eq 2 ]
    run "$TOOLS/seccomp-deny" --list
    [[ "$output" == *"-s clone3"* && "$output" == *"-i NS_GET_ID"* ]]
}

@test "older kernels: compare without pidfd_open (before 5.3) agrees with /proc" {
    require_root
    start_target --uts --ipc
    compare_agrees_with_proc -s pidfd_open
    # A container's seccomp profile may answer EPERM instead: the same fallback.
    compare_agrees_with_proc -s pidfd_open:EPERM
}

@test "older kernels: pidfd_open without pidfd_send_signal (a seccomp profile) still works" {
    require_root
    start_target --uts
    compare_agrees_with_proc -s pidfd_send_signal
    dead=$(dead_pid)
    run old_kernel -s pidfd_send_signal -- "$NSCTL" compare $$ "$dead"
    [ "$status" -eq 2 ]
    [[ "$output" == *"PID $dead: no such process"* ]]
    run old_kernel -s pidfd_send_signal -- "$NSCTL_BUILD"/tests/unit/test-supervise
    echo "$output" | grep '^not ok' || true
    [ "$status" -eq 0 ]
}

@test "older kernels: compare without the pidfd namespace ioctls (before 6.11) agrees with /proc" {
    require_root
    start_target --net --mount
    compare_agrees_with_proc -i pidfd-ns
    compare_agrees_with_proc -i pidfd-ns:EINVAL
    compare_agrees_with_proc -i pidfd-ns:EOPNOTSUPP
}

@test "older kernels: compare without NS_GET_ID (before 6.18) leaves the ID columns empty" {
    require_root
    start_target --uts
    compare_agrees_with_proc -i NS_GET_ID:EINVAL
    compare_agrees_with_proc -i NS_GET_ID
    ! echo "$output" | grep -E '^[a-z]+ [0-9]+ [0-9]+ [0-9]'
    run old_kernel -i NS_GET_ID -- "$NSCTL" compare -J $$ "$TARGET"
    [ "$(echo "$output" | jq -r '[.compare[]."a-id"] | unique | .[]')" = null ]
    [ "$(echo "$output" | jq -r '.compare[] | select(.type == "uts") | .result')" = different ]
}

@test "older kernels: without NS_GET_NSTYPE (before 4.11) a file's type comes from its link" {
    require_root
    start_target --uts
    compare_agrees_with_proc -i NS_GET_NSTYPE:EINVAL
    compare_agrees_with_proc -i NS_GET_NSTYPE
    run old_kernel -i NS_GET_NSTYPE -- "$NSCTL" compare "/proc/$$/ns/uts" "/proc/$TARGET/ns/uts"
    [ "$status" -eq 1 ]
    echo "$output" | grep -E "^uts +$(ns_inode $$ uts) +$(ns_inode "$TARGET" uts) .*different$"
    run old_kernel -i NS_GET_NSTYPE -- "$NSCTL" compare "/proc/$$/ns/net" "/proc/$$/ns/uts"
    [ "$status" -eq 2 ]
    [[ "$output" == *"is a net namespace"*"a uts namespace"* ]]
    run old_kernel -i NS_GET_NSTYPE -- "$NSCTL" compare $$ /dev/null
    [ "$status" -eq 2 ]
    [[ "$output" == *"/dev/null: not a namespace file"* ]]
}

@test "older kernels: compare with every fallback at once agrees with /proc" {
    require_root
    start_target --uts --net --ipc --mount --cgroup
    compare_agrees_with_proc "${EVERY_FALLBACK[@]}"
}

@test "older kernels: without close_range (before 5.9), or its CLOEXEC flag (5.9, 5.10), fds are still limited" {
    run old_kernel -s close_range -- "$TOOLS/fds-keep-only" --expect-no-close-range
    echo "$output"
    [ "$status" -eq 0 ]
    [ "$output" = ok ]
    run old_kernel -s close_range:EINVAL -- "$TOOLS/fds-keep-only"
    [ "$status" -eq 0 ]
    [ "$output" = ok ]
    run "$TOOLS/fds-keep-only"
    [ "$status" -eq 0 ]
}

@test "older kernels: every unit test passes with every fallback forced" {
    for t in "$NSCTL_BUILD"/tests/unit/test-types "$NSCTL_BUILD"/tests/unit/test-fds \
        "$NSCTL_BUILD"/tests/unit/test-process "$NSCTL_BUILD"/tests/unit/test-supervise; do
        run old_kernel "${EVERY_FALLBACK[@]}" -- "$t"
        echo "$t: $status"
        echo "$output" | grep '^not ok' || true
        [ "$status" -eq 0 ]
    done
    # test-ns also checks NS_GET_USERNS/PARENT/OWNER_UID, which have no fallback: keep them.
    run old_kernel -s pidfd -s close_range -i pidfd-ns -i NS_GET_ID -i NS_GET_NSTYPE -- \
        "$NSCTL_BUILD"/tests/unit/test-ns
    echo "$output" | grep '^not ok' || true
    [ "$status" -eq 0 ]
}

@test "older kernels: supervision without waitid(P_PIDFD) (5.3) reaps by PID" {
    run old_kernel -s waitid-pidfd -- "$NSCTL_BUILD"/tests/unit/test-supervise
    echo "$output" | grep '^not ok' || true
    [ "$status" -eq 0 ]
}
