#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The examples/ programs (the namespaces article's three, and pidfd_enter_all):
# their output lines and their real effects, seen through /proc and util-linux.

load helpers
bats_require_minimum_version 1.5.0

# The host's mounts these tests could leave behind: anything under $TMP.
own_mounts() {
    mount_table | awk -v tmp="$TMP" 'index($1, tmp) == 1'
}

setup() {
    EX=$NSCTL_BUILD/examples
    HOST_BEFORE=$(hostname)
    TMP=$(mktemp -d)
    chmod 755 "$TMP"
    MOUNTS_BEFORE=$(own_mounts)
    NAME=nsctl-examples-$$-$BATS_TEST_NUMBER
}

teardown() {
    cleanup_pids
    # Unmount what a test left under $TMP, innermost first.
    awk -v tmp="$TMP" 'index($5, tmp) == 1 {print $5}' /proc/self/mountinfo | sort -r |
        while read -r m; do umount "$m"; done
    mounts_after=$(own_mounts)
    rm -rf "$TMP"
    [ "$(hostname)" = "$HOST_BEFORE" ]
    [ "$mounts_after" = "$MOUNTS_BEFORE" ]
}

# A process in new namespaces made by util-linux, its hostname NAME: TARGET.
start_named_target() {
    unshare_here "$@"
    "${UNSHARE_HERE[@]}" sh -c "hostname $NAME && exec sleep 600" &
    TARGET=$!
    TEST_PIDS+=("$TARGET")
    wait_for_exec "$TARGET" sleep
}


# Start demo_uts_namespaces NAME in the background (under WRAPPER... when given),
# until it has printed its lines: PARENT is its PID, CHILD its child's.
start_demo() {
    "$@" "$EX/demo_uts_namespaces" "$NAME" >"$TMP/out" &
    parent=$!
    TEST_PIDS+=("$parent")
    for _ in $(seq 1000); do
        grep -q '^uts.nodename in parent' "$TMP/out" && break
        sleep 0.02
    done
    child=$(sed -n 's/^PID of child created by clone() is \([0-9][0-9]*\)$/\1/p' "$TMP/out")
    [ -n "$child" ]
}

@test "examples: built to build/examples/ against include/nsctl.h alone" {
    for program in demo_uts_namespaces ns_exec unshare pidfd_enter_all; do
        [ -x "$EX/$program" ]
        ! grep -q '#include "' "$NSCTL_TOP/examples/$program.c" || false
    done
    ! grep -l 'lib/\|internal.h\|util.h' "$NSCTL_TOP"/examples/*.c || false
    ldd "$EX/ns_exec" | grep -q 'libnsctl.so.1'
}

@test "demo_uts_namespaces: the article's three lines; the child's UTS namespace has NAME" {
    require_root
    "$EX/demo_uts_namespaces" "$NAME" >"$TMP/out" 2>&1 &
    parent=$!
    TEST_PIDS+=("$parent")
    for _ in $(seq 1000); do
        [ "$(grep -c nodename "$TMP/out")" -eq 2 ] && break
        sleep 0.02
    done
    cat "$TMP/out"
    child=$(sed -n 's/^PID of child created by clone() is \([0-9][0-9]*\)$/\1/p' "$TMP/out")
    [ -n "$child" ]
    TEST_PIDS=("$child" "${TEST_PIDS[@]}")
    mapfile -t lines <"$TMP/out"
    [ "${#lines[@]}" -eq 3 ]
    [ "${lines[0]}" = "PID of child created by clone() is $child" ]
    [ "${lines[1]}" = "uts.nodename in child:  $NAME" ]
    [ "${lines[2]}" = "uts.nodename in parent: $HOST_BEFORE" ]
    # The child is the parent's, in a UTS namespace of its own, and nothing else of its own.
    [ "$(awk '/^PPid:/ {print $2}' "/proc/$child/status")" = "$parent" ]
    [ "$(ns_inode "$child" uts)" != "$(ns_inode "$parent" uts)" ]
    [ "$(ns_inode "$parent" uts)" = "$(ns_inode $$ uts)" ]
    for t in cgroup ipc mnt net pid user; do
        [ "$(ns_inode "$child" "$t")" = "$(ns_inode $$ "$t")" ]
    done
    [ "$(nsenter --target "$child" --uts hostname)" = "$NAME" ]
    [ "$(hostname)" = "$HOST_BEFORE" ]
    # It stays until killed, and its parent ends when it does.
    kill -0 "$child"
    kill "$child"
    wait "$parent" || true
    [ ! -e "/proc/$parent" ]
}

@test "demo_uts_namespaces: the parent's death takes the child with it" {
    require_root
    start_demo
    kill -KILL "$parent"
    wait "$parent" || true
    # Gone, or a zombie waiting for an init that reaps slowly: out of its namespace either way.
    for _ in $(seq 250); do
        [ -e "/proc/$child/ns/uts" ] || break
        sleep 0.02
    done
    [ ! -e "/proc/$child/ns/uts" ]
}

@test "demo_uts_namespaces: bad input and no privilege fail, naming the call" {
    run -1 "$EX/demo_uts_namespaces"
    [[ "$output" == "Usage: "*"demo_uts_namespaces NAME" ]]
    run -1 "$EX/demo_uts_namespaces" "$(printf 'x%.0s' $(seq 65))"
    [ "$output" = "demo_uts_namespaces: sethostname: File name too long" ]
    require_root
    run -1 as_nobody "$EX/demo_uts_namespaces" "$NAME"
    [ "$output" = "demo_uts_namespaces: clone(CLONE_NEWUTS): Operation not permitted" ]
}

@test "ns_exec: joins a UTS namespace made by util-linux; hostname shows its name" {
    require_root
    start_named_target --uts
    run -0 "$EX/ns_exec" "/proc/$TARGET/ns/uts" hostname
    [ "$output" = "$NAME" ]
    run -0 "$EX/ns_exec" "/proc/$TARGET/ns/uts" sh -c 'stat -L -c %i /proc/self/ns/uts'
    [ "$output" = "$(ns_inode "$TARGET" uts)" ]
    [ "$(hostname)" = "$HOST_BEFORE" ]
}

@test "ns_exec: joins each type; pid and time through their _for_children files" {
    require_root
    require_userns
    unshare --cgroup --ipc --mount --net --uts --user sleep 600 &
    TARGET=$!
    TEST_PIDS+=("$TARGET")
    wait_for_exec "$TARGET" sleep
    # pid_for_children and time_for_children name a namespace once a child is in it.
    unshare --pid --time --fork --kill-child sleep 600 &
    forker=$!
    TEST_PIDS+=("$forker")
    for _ in $(seq 2000); do
        readlink "/proc/$forker/ns/pid_for_children" >/dev/null 2>&1 && break
        sleep 0.01
    done
    for t in cgroup ipc mnt net uts user; do
        run -0 "$EX/ns_exec" "/proc/$TARGET/ns/$t" readlink "/proc/self/ns/$t"
        [ "$output" = "$(readlink "/proc/$TARGET/ns/$t")" ]
        [ "$output" != "$(readlink "/proc/self/ns/$t")" ]
    done
    for t in pid time; do
        # sh is not moved; the readlink it starts is.
        run -0 "$EX/ns_exec" "/proc/$forker/ns/${t}_for_children" sh -c "readlink /proc/self/ns/$t"
        [ "$output" = "$(readlink "/proc/$forker/ns/${t}_for_children")" ]
        [ "$output" != "$(readlink "/proc/self/ns/$t")" ]
    done
}

@test "ns_exec: through a bind mount (the article's ~/uts), after the last process is gone" {
    require_root
    start_named_target --uts
    inode=$(ns_inode "$TARGET" uts)
    touch "$TMP/uts"
    mount --bind "/proc/$TARGET/ns/uts" "$TMP/uts"
    cleanup_pids
    run -0 "$EX/ns_exec" "$TMP/uts" hostname
    [ "$output" = "$NAME" ]
    run -0 "$EX/ns_exec" "$TMP/uts" sh -c 'stat -L -c %i /proc/self/ns/uts'
    [ "$output" = "$inode" ]
}

@test "ns_exec: bad input fails, naming the failing call and the input" {
    run -1 "$EX/ns_exec" /proc/self/ns/uts
    [[ "$output" == "Usage: "*"ns_exec /proc/PID/ns/FILE cmd [arg...]" ]]
    run -1 "$EX/ns_exec" "$TMP/missing" true
    [ "$output" = "ns_exec: open($TMP/missing): No such file or directory" ]
    touch "$TMP/plain"
    run -1 "$EX/ns_exec" "$TMP/plain" true
    [ "$output" = "ns_exec: open($TMP/plain): not a namespace file" ]
    # A FIFO is refused without blocking on it.
    mkfifo "$TMP/fifo"
    run -1 timeout 10 "$EX/ns_exec" "$TMP/fifo" true
    [ "$output" = "ns_exec: open($TMP/fifo): not a namespace file" ]
    run -1 "$EX/ns_exec" /proc/self/ns/uts "nsctl-no-such-command-$$"
    [ "$output" = "ns_exec: execvp(nsctl-no-such-command-$$): No such file or directory" ]
    require_root
    # nobody may open its own namespaces, but not join them.
    run -1 as_nobody "$EX/ns_exec" /proc/self/ns/uts true
    [ "$output" = "ns_exec: setns(/proc/self/ns/uts): Operation not permitted" ]
}

# util-linux's letters, which the examples' unshare takes too.
declare -gA LETTER=([cgroup]=C [ipc]=i [mnt]=m [net]=n [pid]=p [time]=T [user]=U [uts]=u)

@test "unshare: each option makes a new namespace of its type" {
    require_root
    for t in cgroup ipc mnt net uts; do
        letter=${LETTER[$t]}
        run -0 "$EX/unshare" "-$letter" readlink "/proc/self/ns/$t"
        echo "$t -$letter: $output"
        [[ "$output" == "$t:["* ]]
        [ "$output" != "$(readlink "/proc/self/ns/$t")" ]
    done
    # A new pid namespace takes sh's children (readlink), not sh.
    run -0 "$EX/unshare" -p sh -c 'readlink /proc/self/ns/pid /proc/$$/ns/pid'
    [ "${lines[0]}" != "$(readlink /proc/self/ns/pid)" ]
    [ "${lines[1]}" = "$(readlink /proc/self/ns/pid)" ]
    # A new time namespace takes sh too, at its exec.
    run -0 "$EX/unshare" -T sh -c 'readlink /proc/self/ns/time /proc/$$/ns/time'
    [ "${lines[0]}" != "$(readlink /proc/self/ns/time)" ]
    [ "${lines[1]}" = "${lines[0]}" ]
    # Several at once, in one unshare().
    run -0 "$EX/unshare" -imnu sh -c 'readlink /proc/$$/ns/ipc /proc/$$/ns/mnt /proc/$$/ns/net /proc/$$/ns/uts'
    [ "${#lines[@]}" -eq 4 ]
    for line in "${lines[@]}"; do
        t=${line%%:*}
        [ "$line" != "$(readlink "/proc/self/ns/$t")" ]
    done
}

@test "unshare: -U makes a new user namespace" {
    require_root
    require_userns
    run -0 "$EX/unshare" "-${LETTER[user]}" readlink /proc/self/ns/user
    [[ "$output" == "user:["* ]]
    [ "$output" != "$(readlink /proc/self/ns/user)" ]
}

@test "unshare -u: a hostname set inside is not the host's" {
    require_root
    run -0 "$EX/unshare" -u sh -c "hostname $NAME && hostname"
    [ "$output" = "$NAME" ]
    [ "$(hostname)" = "$HOST_BEFORE" ]
}

@test "unshare -m: an unmount inside is not seen outside, even under a shared mount" {
    require_root
    mkdir "$TMP/shared" "$TMP/fs"
    mount --bind "$TMP/shared" "$TMP/shared"
    mount --make-shared "$TMP/shared"
    mkdir "$TMP/shared/sub"
    mount -t tmpfs nsctl-examples-tmpfs "$TMP/shared/sub"
    mount -t tmpfs nsctl-examples-tmpfs "$TMP/fs"
    run -0 "$EX/unshare" -m sh -c "umount $TMP/fs && umount $TMP/shared/sub && mount -t tmpfs x $TMP/shared/sub && ! grep ' $TMP/fs ' /proc/self/mounts"
    [ "$output" = "" ]
    # Outside: both still there, and the tmpfs mounted inside did not propagate out.
    [ "$(findmnt -n -o SOURCE "$TMP/fs")" = nsctl-examples-tmpfs ]
    [ "$(findmnt -n -o SOURCE "$TMP/shared/sub")" = nsctl-examples-tmpfs ]
}

@test "unshare: unprivileged with -U, refused without; bad options show the usage" {
    require_userns_for_nobody
    # No uid map: hostname(1) refuses the overflow uid, but the namespaces are new.
    run -0 as_nobody "$EX/unshare" -U -u readlink /proc/self/ns/user /proc/self/ns/uts
    [ "${lines[0]}" != "$(readlink /proc/self/ns/user)" ]
    [ "${lines[1]}" != "$(readlink /proc/self/ns/uts)" ]
    run -1 as_nobody "$EX/unshare" -u -m true
    [ "$output" = "unshare: unshare(mnt,uts): Operation not permitted" ]
    run -1 "$EX/unshare" -x true
    [[ "$output" == *"Usage: "*"unshare [options] cmd [arg...]"* ]]
    [[ "$output" == *"-m   new mnt namespace (mount points)"* ]]
    run -1 "$EX/unshare" -u
    [[ "$output" == *"Usage: "* ]]
    run -1 "$EX/unshare" "nsctl-no-such-command-$$"
    [ "$output" = "unshare: execvp(nsctl-no-such-command-$$): No such file or directory" ]
}

@test "pidfd_enter_all: every namespace where the target differs, at once" {
    require_root
    start_named_target --uts --ipc --net --mount --cgroup
    script='hostname; for t in cgroup ipc mnt net uts; do readlink /proc/self/ns/$t; done'
    run -0 "$EX/pidfd_enter_all" "$TARGET" sh -c "$script"
    expected=$(echo "$NAME"; for t in cgroup ipc mnt net uts; do readlink "/proc/$TARGET/ns/$t"; done)
    [ "$output" = "$expected" ]
    for t in pid user time; do
        [ "$(readlink "/proc/$TARGET/ns/$t")" = "$(readlink "/proc/self/ns/$t")" ]
    done
    [ "$(hostname)" = "$HOST_BEFORE" ]
}

@test "pidfd_enter_all: user and pid namespaces; the command is a child in the pid namespace" {
    require_root
    require_userns
    unshare --user --map-root-user --pid --fork --mount-proc sleep 600 &
    forker=$!
    TEST_PIDS+=("$forker")
    for _ in $(seq 2000); do
        TARGET=$(awk '{print $1}' "/proc/$forker/task/$forker/children" 2>/dev/null)
        [ -n "$TARGET" ] && [ "$(cat "/proc/$TARGET/comm" 2>/dev/null)" = sleep ] && break
        sleep 0.01
    done
    TEST_PIDS=("$TARGET" "${TEST_PIDS[@]}")
    run -0 "$EX/pidfd_enter_all" "$TARGET" sh -c 'readlink /proc/self/ns/user /proc/self/ns/pid; echo $$; id -u'
    [ "${lines[0]}" = "$(readlink "/proc/$TARGET/ns/user")" ]
    [ "${lines[1]}" = "$(readlink "/proc/$TARGET/ns/pid")" ]
    # PID 1 is sleep: the command got a later PID of that namespace.
    [ "${lines[2]}" -gt 1 ]
    [ "${lines[3]}" = 0 ]
}

@test "pidfd_enter_all: ends as the command ends" {
    require_root
    start_named_target --uts
    run -7 "$EX/pidfd_enter_all" "$TARGET" sh -c 'exit 7'
    run -143 "$EX/pidfd_enter_all" "$TARGET" sh -c 'kill -TERM $$'
}

@test "pidfd_enter_all: bad input, a dead PID, no privilege: non-zero, naming the call" {
    run -1 "$EX/pidfd_enter_all" 1
    [[ "$output" == "Usage: "*"pidfd_enter_all PID cmd [arg...]" ]]
    run -1 "$EX/pidfd_enter_all" 12x true
    [ "$output" = "pidfd_enter_all: '12x': not a PID (decimal digits, not 0)" ]
    run -1 "$EX/pidfd_enter_all" 99999999999 true
    [ "$output" = "pidfd_enter_all: '99999999999': not a PID (too large)" ]
    pid=$(dead_pid)
    run -1 "$EX/pidfd_enter_all" "$pid" true
    [ "$output" = "pidfd_enter_all: pidfd_open($pid): No such process" ]
    require_root
    start_named_target --uts
    run -1 as_nobody "$EX/pidfd_enter_all" "$TARGET" true
    [[ "$output" =~ ^pidfd_enter_all:\ (open|setns)\(/proc/$TARGET/ns/[a-z]+\):\  ]]
    run -1 "$EX/pidfd_enter_all" "$TARGET" "nsctl-no-such-command-$$"
    [ "$output" = "pidfd_enter_all: execvp(nsctl-no-such-command-$$): No such file or directory" ]
}

@test "examples on older kernels: no clone3, pidfd_open or namespace ioctls, the same effects" {
    require_root
    old=("$NSCTL_BUILD/tests/tools/seccomp-deny" -s clone3 -s pidfd_open -s close_range
        -i NS_GET_NSTYPE -i NS_GET_ID -i PIDFD_GET_UTS_NAMESPACE -i PIDFD_GET_NET_NAMESPACE
        -i PIDFD_GET_IPC_NAMESPACE -i PIDFD_GET_MNT_NAMESPACE -i PIDFD_GET_CGROUP_NAMESPACE
        -i PIDFD_GET_USER_NAMESPACE -i PIDFD_GET_PID_NAMESPACE -i PIDFD_GET_TIME_NAMESPACE --)
    start_named_target --uts --net
    run -0 "${old[@]}" "$EX/pidfd_enter_all" "$TARGET" sh -c 'hostname; readlink /proc/self/ns/net'
    [ "${lines[0]}" = "$NAME" ]
    [ "${lines[1]}" = "$(readlink "/proc/$TARGET/ns/net")" ]
    run -0 "${old[@]}" "$EX/ns_exec" "/proc/$TARGET/ns/uts" hostname
    [ "$output" = "$NAME" ]
    touch "$TMP/plain"
    run -1 "${old[@]}" "$EX/ns_exec" "$TMP/plain" true
    [ "$output" = "ns_exec: open($TMP/plain): not a namespace file" ]
    run -0 "${old[@]}" "$EX/unshare" -u readlink /proc/self/ns/uts
    [ "$output" != "$(readlink /proc/self/ns/uts)" ]
    start_demo "${old[@]}"
    TEST_PIDS=("$child" "${TEST_PIDS[@]}")
    grep -qx "uts.nodename in child:  $NAME" "$TMP/out"
    [ "$(nsenter --target "$child" --uts hostname)" = "$NAME" ]
}
