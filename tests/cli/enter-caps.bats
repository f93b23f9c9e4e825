#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# nsctl enter --target-caps and --join-cgroup on cgroup v1 (issue 19): targets
# made by util-linux unshare and setpriv, checked through /proc/PID/status and
# /proc/PID/cgroup, never through nsctl's own answers.

load helpers
load hardening
bats_require_minimum_version 1.5.0

setup() {
    TMP=$(mktemp -d)
    NAME=nsctl-caps-$$-$BATS_TEST_NUMBER
    MARK=$NAME
    V1=
    CGROUPS=()
    MOUNTS_BEFORE=$(own_mount_table)
}

teardown() {
    cleanup_pids
    local c
    local c i left=
    # A killed target leaves its cgroup a moment later: until then rmdir says
    # EBUSY.  A v1 hierarchy unmounted with a cgroup left in it lives on in
    # the kernel (and in every /proc/PID/cgroup), so a cgroup that stays is a
    # failure, not something to shrug off.
    for c in "${CGROUPS[@]+"${CGROUPS[@]}"}"; do
        for i in $(seq 200); do
            rmdir "$c" 2>/dev/null && break
            [ -d "$c" ] || break
            sleep 0.01
        done
        [ -d "$c" ] && left="$left $c"
    done
    [ -n "$V1" ] && umount "$V1" 2>/dev/null
    # The kernel ends an unmounted v1 hierarchy only if it has no cgroup below
    # its root at that moment, and a removed cgroup goes a moment after its
    # rmdir: where the hierarchy outlives its umount, one more mount and
    # umount, once the cgroups are surely gone, ends it.
    if [ -n "$V1" ] && ! v1_gone; then
        mount -t cgroup -o "none,name=$NAME" cgroup "$V1" 2>/dev/null && umount "$V1"
        v1_gone || left="$left hierarchy name=$NAME"
    fi
    rm -rf "$TMP"
    [ -z "$left" ] || { echo "cgroups left behind:$left" >&2; return 1; }
    [ "$(own_mount_table)" = "$MOUNTS_BEFORE" ]
}

# True once the hierarchy name=$NAME is gone from /proc/self/cgroup (up to 2 s).
v1_gone() {
    local i
    for i in $(seq 40); do
        grep -q ":name=$NAME:" /proc/self/cgroup || return 0
        sleep 0.05
    done
    return 1
}

# A named v1 hierarchy of this test's own, mounted at V1, with a cgroup
# "child" in it, and TARGET (in a uts namespace of its own) put there.
start_in_named_v1_hierarchy() {
    local err
    V1=$TMP/v1
    mkdir "$V1"
    if ! err=$(mount -t cgroup -o "none,name=$NAME" cgroup "$V1" 2>&1); then
        V1=
        skip "the kernel refuses to mount a cgroup v1 hierarchy: $err"
    fi
    mkdir "$V1/child"
    CGROUPS+=("$V1/child")
    start_caps_target unshare --uts
    echo "$TARGET" >"$V1/child/cgroup.procs"
}

# The capability sets and no_new_privs of /proc/PID/status (PID "self": the reader's).
caps_of() {
    grep -E '^(Cap(Inh|Prm|Eff|Bnd|Amb)|NoNewPrivs):' "/proc/$1/status"
}

# COMMAND... in the background as TARGET (it execs sleep 600, in namespaces of its own).
start_caps_target() {
    "$@" sleep 600 &
    TARGET=$!
    TEST_PIDS+=("$TARGET")
    wait_for_exec "$TARGET" sleep
}

@test "enter --target-caps: a root target's bounding and inheritable sets (setpriv), the rest as exec gives them" {
    require_root
    start_caps_target unshare --uts --ipc \
        setpriv --bounding-set -all,+net_raw,+chown --inh-caps -all,+net_raw
    want=$(caps_of "$TARGET")
    echo "target: $want"
    # The witness: setpriv did what was asked (net_raw is 13, chown 0).
    echo "$want" | grep -qx $'CapBnd:\t0000000000002001'
    echo "$want" | grep -qx $'CapInh:\t0000000000002000'
    run timeout 10 "$NSCTL" enter --target-caps "$TARGET" grep -E '^(Cap(Inh|Prm|Eff|Bnd|Amb)|NoNewPrivs):' /proc/self/status
    echo "PROGRAM: $output"
    [ "$status" -eq 0 ]
    [ "$output" = "$want" ]
    # PROGRAM is in the target's namespaces as before.
    [ "$("$NSCTL" enter --target-caps "$TARGET" readlink /proc/self/ns/uts)" = "$(readlink "/proc/$TARGET/ns/uts")" ]
}

@test "enter: without --target-caps PROGRAM keeps nsctl's capabilities, as before" {
    require_root
    start_caps_target unshare --uts setpriv --bounding-set -all,+net_raw
    run timeout 10 "$NSCTL" enter "$TARGET" grep -E '^(Cap(Inh|Prm|Eff|Bnd|Amb)|NoNewPrivs):' /proc/self/status
    [ "$status" -eq 0 ]
    [ "$output" = "$(caps_of self)" ]
    [ "$output" != "$(caps_of "$TARGET")" ]
}

@test "enter --target-caps: no_new_privs, through the forking path (a pid namespace)" {
    require_root
    unshare --uts --pid --fork setpriv --no-new-privs --bounding-set -all,+kill,+setuid \
        sleep 600 &
    TEST_PIDS+=($!)
    for i in $(seq 2000); do TARGET=$(pgrep -P $! sleep) && break; sleep 0.01; done
    [ -n "$TARGET" ]
    TEST_PIDS+=("$TARGET")
    wait_for_exec "$TARGET" sleep
    want=$(caps_of "$TARGET")
    echo "target: $want"
    echo "$want" | grep -qx $'NoNewPrivs:\t1'
    # PROGRAM is nsctl's child in the target's pid namespace (not its PID 1: that is sleep).
    run timeout 10 "$NSCTL" enter --target-caps "$TARGET" sh -c 'echo $$; grep -E "^(Cap(Inh|Prm|Eff|Bnd|Amb)|NoNewPrivs):" /proc/self/status'
    echo "PROGRAM: $output"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" -gt 1 ]
    [ "$(printf '%s\n' "${lines[@]:1}")" = "$want" ]
    # -F: the exec in place, the same sets.
    run timeout 10 "$NSCTL" enter -F --target-caps "$TARGET" grep -E '^(Cap(Inh|Prm|Eff|Bnd|Amb)|NoNewPrivs):' /proc/self/status
    [ "$status" -eq 0 ]
    [ "$output" = "$want" ]
    # Without the option, no no_new_privs.
    run timeout 10 "$NSCTL" enter "$TARGET" grep NoNewPrivs /proc/self/status
    [ "$output" = $'NoNewPrivs:\t0' ]
}

@test "enter --target-caps: a target of uid 1000 with ambient capabilities, with -S/-G and as uid 0" {
    require_root
    start_caps_target unshare --uts \
        setpriv --reuid 1000 --regid 1000 --clear-groups --inh-caps +net_raw,+chown \
        --ambient-caps +net_raw
    want=$(caps_of "$TARGET")
    echo "target: $want"
    echo "$want" | grep -qx $'CapAmb:\t0000000000002000'
    echo "$want" | grep -qx $'CapPrm:\t0000000000002000'
    run timeout 10 "$NSCTL" enter --target-caps -S 1000 -G 1000 "$TARGET" sh -c 'id -u; grep -E "^(Cap(Inh|Prm|Eff|Bnd|Amb)|NoNewPrivs):" /proc/self/status'
    echo "PROGRAM: $output"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = 1000 ]
    [ "$(printf '%s\n' "${lines[@]:1}")" = "$want" ]
    # As uid 0 (SECBIT_NOROOT): the same sets.
    run timeout 10 "$NSCTL" enter --target-caps "$TARGET" sh -c 'id -u; grep -E "^(Cap(Inh|Prm|Eff|Bnd|Amb)|NoNewPrivs):" /proc/self/status'
    echo "PROGRAM: $output"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = 0 ]
    [ "$(printf '%s\n' "${lines[@]:1}")" = "$want" ]
}

@test "enter --target-caps: a target in a user namespace of its own, its sets within it" {
    require_root
    require_userns
    start_caps_target unshare --user --map-root-user --uts \
        setpriv --bounding-set -all,+sys_admin,+net_admin --inh-caps -all,+net_admin
    want=$(caps_of "$TARGET")
    echo "target: $want"
    echo "$want" | grep -qx $'CapBnd:\t0000000000201000'
    run timeout 10 "$NSCTL" enter --target-caps "$TARGET" grep -E '^(Cap(Inh|Prm|Eff|Bnd|Amb)|NoNewPrivs):' /proc/self/status
    echo "PROGRAM: $output"
    [ "$status" -eq 0 ]
    [ "$output" = "$want" ]
}

@test "enter --target-caps: another user's target in its own user namespace gives nothing outside it: refused unless -U" {
    require_root
    require_userns_for_nobody
    # nobody's process, with every capability of the user namespace it made.
    start_caps_target setpriv --reuid=65534 --regid=65534 --clear-groups unshare --user --map-root-user --net
    caps_of "$TARGET"
    local why="--target-caps: PID $TARGET is in another user namespace than nsctl's, and its capabilities count only there"
    run -125 timeout 10 "$NSCTL" enter -n --target-caps -t "$TARGET" touch "$TMP/ran"
    [ "$output" = "nsctl: enter: $why: join that one too (-U)" ]
    run -125 timeout 10 "$NSCTL" enter --user-parent -U -n --target-caps -t "$TARGET" touch "$TMP/ran"
    [ "$output" = "nsctl: enter: $why, not in the parent that --user-parent joins" ]
    run -125 timeout 10 "$NSCTL" enter --user=/proc/self/ns/user -n --target-caps -t "$TARGET" touch "$TMP/ran"
    [ "$output" = "nsctl: enter: --target-caps: --user=/proc/self/ns/user is not the user namespace of PID $TARGET, where its capabilities count" ]
    [ ! -e "$TMP/ran" ]
    # Joined, PROGRAM has what the target has, there: from the process, or from a file that is it.
    run -0 timeout 10 "$NSCTL" enter -U -n --target-caps -t "$TARGET" grep -E '^(Cap(Inh|Prm|Eff|Bnd|Amb)|NoNewPrivs):' /proc/self/status
    [ "$output" = "$(caps_of "$TARGET")" ]
    run -0 timeout 10 "$NSCTL" enter --user="/proc/$TARGET/ns/user" -n --target-caps -t "$TARGET" grep -E '^(Cap(Inh|Prm|Eff|Bnd|Amb)|NoNewPrivs):' /proc/self/status
    [ "$output" = "$(caps_of "$TARGET")" ]
    [ "$("$NSCTL" enter -U -n --target-caps -t "$TARGET" readlink /proc/self/ns/user)" = "$(readlink "/proc/$TARGET/ns/user")" ]
}

@test "enter --join-cgroup: the target's cgroup of a v1 hierarchy (a named one this test mounts)" {
    require_root
    start_in_named_v1_hierarchy
    grep -qx "[0-9]*:name=$NAME:/child" "/proc/$TARGET/cgroup"
    run timeout 10 "$NSCTL" enter --join-cgroup "$TARGET" cat /proc/self/cgroup
    echo "$output"
    [ "$status" -eq 0 ]
    echo "$output" | grep -qx "[0-9]*:name=$NAME:/child"
    # The v2 cgroup is the target's too.
    [ "$(echo "$output" | grep '^0::')" = "$(grep '^0::' "/proc/$TARGET/cgroup")" ]
    run timeout 10 "$NSCTL" enter "$TARGET" cat /proc/self/cgroup
    echo "$output" | grep -qx "[0-9]*:name=$NAME:/"
    # The forking path (a pid namespace) joins before it forks: PROGRAM is there too.
    cleanup_pids
    unshare --pid --fork sleep 600 &
    TEST_PIDS+=($!)
    for i in $(seq 2000); do TARGET=$(pgrep -P $! sleep) && break; sleep 0.01; done
    TEST_PIDS+=("$TARGET")
    echo "$TARGET" >"$V1/child/cgroup.procs"
    run timeout 10 "$NSCTL" enter --join-cgroup -p "$TARGET" cat /proc/self/cgroup
    [ "$status" -eq 0 ]
    echo "$output" | grep -qx "[0-9]*:name=$NAME:/child"
    cleanup_pids
}

@test "enter --join-cgroup: a v1 controller hierarchy the host mounts (pids)" {
    require_root
    pids=$(findmnt -n -o TARGET -t cgroup -O pids | head -n 1)
    [ -n "$pids" ] || skip "no cgroup v1 pids hierarchy mounted"
    CGROUPS+=("$pids/$NAME")
    mkdir "$pids/$NAME"
    start_caps_target unshare --uts
    echo "$TARGET" >"$pids/$NAME/cgroup.procs"
    run timeout 10 "$NSCTL" enter --join-cgroup "$TARGET" cat /proc/self/cgroup
    echo "$output"
    [ "$status" -eq 0 ]
    echo "$output" | grep -qx "[0-9]*:pids:$(grep -oP '^[0-9]+:pids:\K.*' "/proc/$TARGET/cgroup")"
    echo "$output" | grep -q ":pids:.*/$NAME\$"
    cleanup_pids
}

@test "enter --join-cgroup as an ordinary user: no write where it is already (root-owned v1 cgroups), the hierarchy named where one is needed" {
    require_userns_for_nobody
    pids=$(findmnt -n -o TARGET -t cgroup -O pids | head -n 1)
    [ -n "$pids" ] || skip "no cgroup v1 pids hierarchy mounted"
    # nobody's rootless container: its process, in nobody's user namespace, in
    # the cgroups nobody's caller is in too (each hierarchy's root-owned one).
    start_caps_target setpriv --reuid=65534 --regid=65534 --clear-groups unshare --user --map-root-user --uts
    local own
    own=$(as_nobody sh -c 'grep ":pids:" /proc/self/cgroup')
    [ "$(grep ':pids:' "/proc/$TARGET/cgroup")" = "$own" ]
    [ "$(stat -c %u "$pids${own##*:}/cgroup.procs")" = 0 ]
    run as_nobody timeout 10 "$NSCTL" enter --join-cgroup -U -u "$TARGET" cat /proc/self/cgroup
    echo "$output"
    [ "$status" -eq 0 ]
    echo "$output" | grep -qx "$own"
    # Moved by root into a cgroup of its own: nobody may not follow, and is told where.
    CGROUPS+=("$pids/$NAME")
    mkdir "$pids/$NAME"
    echo "$TARGET" >"$pids/$NAME/cgroup.procs"
    run as_nobody timeout 10 "$NSCTL" enter --join-cgroup -U -u "$TARGET" true
    echo "$output"
    [ "$status" -eq 125 ]
    [[ "$output" == *"--join-cgroup: $pids/$NAME/cgroup.procs (cgroup v1 of PID $TARGET): Permission denied"* ]]
    cleanup_pids
}

@test "enter --help, completion: --target-caps and --join-cgroup" {
    "$NSCTL" enter --help | grep -q -- "--target-caps"
    "$NSCTL" enter --help | grep -q -- "v1"
    run complete_words nsctl enter --target-c
    [ "$output" = "--target-caps" ]
}

@test "enter --join-cgroup: a mount over the target's v1 cgroup directory is refused, not written into" {
    require_root
    start_in_named_v1_hierarchy
    # Another file system where the cgroup directory was, holding a cgroup.procs of its own.
    mount -t tmpfs "$NAME" "$V1/child"
    touch "$V1/child/cgroup.procs"
    run timeout 10 "$NSCTL" enter --join-cgroup "$TARGET" true
    umount "$V1/child"
    echo "$output"
    [ "$status" -eq 125 ]
    [[ "$output" == *"--join-cgroup: the cgroup v1 hierarchies of PID $TARGET"* ]]
}
