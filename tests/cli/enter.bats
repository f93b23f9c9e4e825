#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# nsctl enter, checked through /proc against targets made by util-linux unshare and iproute2.

load helpers
load hardening
bats_require_minimum_version 1.5.0

setup() {
    # The first "ip netns add" makes /run/netns a mount and leaves it: have it before comparing.
    if [ "$(id -u)" -eq 0 ] && ! mountpoint -q /run/netns; then
        ip netns add "nsctl-enter-setup-$$" && ip netns del "nsctl-enter-setup-$$"
    fi
    TMP=$(mktemp -d)
    NAME=nsctl-enter-$$-$BATS_TEST_NUMBER
    PINS=()
    NETNS=()
    CGROUP=
    # Other sessions mount meanwhile: only this test's own mounts are judged.
    MARK=$NAME
    MOUNTS_BEFORE=$(own_mount_table)
}

teardown() {
    cleanup_pids
    local p
    for p in "${PINS[@]+"${PINS[@]}"}"; do
        umount "$p" 2>/dev/null
        rm -f "$p"
    done
    for p in "${NETNS[@]+"${NETNS[@]}"}"; do ip netns del "$p" 2>/dev/null; done
    [ -n "$CGROUP" ] && rmdir "$CGROUP" 2>/dev/null
    rm -rf "$TMP"
    [ "$(own_mount_table)" = "$MOUNTS_BEFORE" ]
}

all_types="cgroup ipc mnt net pid time user uts"

# A target made by util-linux unshare with OPTIONS, named HOST in its uts namespace: TARGET.
start_named_target() {
    local host=$1
    shift
    unshare_here "$@"
    "${UNSHARE_HERE[@]}" sh -c "hostname '$host'; exec sleep 600" &
    TARGET=$!
    TEST_PIDS+=("$TARGET")
    wait_for_exec "$TARGET" sleep
}

# The same with a new pid namespace: unshare forks, and TARGET is the sleeper inside.
start_pidns_target() {
    local host=$1 i
    shift
    unshare_here --pid --fork --mount-proc --uts "$@"
    "${UNSHARE_HERE[@]}" sh -c "hostname '$host'; exec sleep 600" &
    TEST_PIDS+=("$!")
    for i in $(seq 2000); do
        TARGET=$(pgrep -P "$!" sleep) && break
        sleep 0.01
    done
    [ -n "$TARGET" ]
    TEST_PIDS+=("$TARGET")
}

# Every /proc/self/ns link as PROGRAM sees it, one "type link" a line.
ns_inside() {
    "$NSCTL" enter "$@" sh -c 'for t in cgroup ipc mnt net pid time user uts; do echo "$t $(readlink /proc/self/ns/$t)"; done'
}

ns_of() {
    local t
    for t in $all_types; do echo "$t $(readlink "/proc/$1/ns/$t")"; done
}

# A pin of TYPE called NAME in /run/nsctl, bind-mounted from PID (the pin engineer's layout).
pin_by_hand() {
    local type=$1 name=$2 pid=$3
    mkdir -p "/run/nsctl/$type"
    touch "/run/nsctl/$type/$name"
    PINS+=("/run/nsctl/$type/$name")
    mount --bind "/proc/$pid/ns/$type" "/run/nsctl/$type/$name"
}

@test "enter: a PID joins every namespace that differs, as /proc shows" {
    require_root
    start_named_target "$NAME" --uts --ipc --net --mount
    run ns_inside "$TARGET"
    echo "$output"
    [ "$status" -eq 0 ]
    [ "$output" = "$(ns_of "$TARGET")" ]
    run "$NSCTL" enter "$TARGET" hostname
    [ "$output" = "$NAME" ]
}

@test "enter: type options join only those types" {
    require_root
    start_named_target "$NAME" --uts --net
    run "$NSCTL" enter -u "$TARGET" sh -c 'hostname; readlink /proc/self/ns/net /proc/self/ns/uts'
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "$NAME" ]
    [ "${lines[1]}" = "$(readlink /proc/$$/ns/net)" ]
    [ "${lines[2]}" = "$(readlink /proc/$TARGET/ns/uts)" ]
    run "$NSCTL" enter --net --uts "$TARGET" readlink /proc/self/ns/net
    [ "$output" = "$(readlink /proc/$TARGET/ns/net)" ]
    # A type the target shares with us is joined all the same: nothing changes.
    run "$NSCTL" enter --ipc "$TARGET" readlink /proc/self/ns/ipc
    [ "$status" -eq 0 ]
    [ "$output" = "$(readlink /proc/$$/ns/ipc)" ]
}

@test "enter: -U asks whether the user namespace is nsctl's own only when the kernel refuses the join (EINVAL), and then leaves it out" {
    require_root
    require_userns
    start_named_target "$NAME" --user --map-root-user --uts
    # Another user namespace: one setns() of both, and no look at nsctl's own.
    run -0 env "$NO_LSAN" strace -qq -e trace=setns,readlinkat,openat -o "$BATS_TEST_TMPDIR/apart" \
        "$NSCTL" enter -U -u "$TARGET" sh -c 'hostname; readlink /proc/self/ns/user'
    cat "$BATS_TEST_TMPDIR/apart"
    [ "${lines[0]}" = "$NAME" ]
    [ "${lines[1]}" = "$(readlink /proc/$TARGET/ns/user)" ]
    [ "$(grep -c 'setns(' "$BATS_TEST_TMPDIR/apart")" -eq 1 ]
    run -1 grep -E '/proc/(thread-)?self/ns|readlinkat\([0-9]+, "user"' "$BATS_TEST_TMPDIR/apart"
    # Our own user namespace: refused, asked, left out, the rest joined.
    run -0 "$NSCTL" enter -U -u $$ readlink /proc/self/ns/user /proc/self/ns/uts
    [ "${lines[0]}" = "$(readlink /proc/$$/ns/user)" ]
    [ "${lines[1]}" = "$(readlink /proc/$$/ns/uts)" ]
}

@test "enter: a pid namespace applies to a supervised child, which sees the target's processes" {
    require_root
    start_pidns_target "$NAME"
    run ns_inside "$TARGET"
    echo "$output"
    [ "$status" -eq 0 ]
    [ "$output" = "$(ns_of "$TARGET")" ]
    run "$NSCTL" enter "$TARGET" sh -c 'echo $$; ps -e -o comm= | sort | tr "\n" " "'
    echo "$output"
    [ "${lines[0]}" -lt 1000 ]
    [[ "${lines[1]}" == *sleep* ]]
    # -F: no fork, PROGRAM stays in our pid namespace, its children go to the target's.
    run "$NSCTL" enter -F -p "$TARGET" readlink /proc/self/ns/pid /proc/self/ns/pid_for_children
    [ "${lines[0]}" = "$(readlink /proc/$$/ns/pid)" ]
    [ "${lines[1]}" = "$(readlink /proc/$TARGET/ns/pid)" ]
}

@test "enter: a time namespace is joined, through a child" {
    require_root
    unshare --time --fork --boottime 100000 sleep 600 &
    TEST_PIDS+=("$!")
    for i in $(seq 2000); do TARGET=$(pgrep -P "$!" sleep) && break; sleep 0.01; done
    TEST_PIDS+=("$TARGET")
    run "$NSCTL" enter -T "$TARGET" sh -c 'readlink /proc/self/ns/time; cut -d. -f1 /proc/uptime'
    echo "$output"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "$(readlink /proc/$TARGET/ns/time)" ]
    [ "${lines[1]}" -ge 100000 ]
}

@test "enter: exit statuses: PROGRAM's own, 125, 126, 127, death by the same signal" {
    require_root
    start_named_target "$NAME" --uts
    start_pidns_target "$NAME-p"
    pidns=$TARGET
    echo 'exit 0' >"$TMP/not-executable"
    chmod 644 "$TMP/not-executable"
    uts=${TEST_PIDS[0]}
    for t in "$uts" "$pidns"; do
        run "$NSCTL" enter "$t" sh -c 'exit 42'
        [ "$status" -eq 42 ]
        run "$NSCTL" enter "$t" true
        [ "$status" -eq 0 ]
        run "$NSCTL" enter "$t" sh -c 'kill -USR1 $$'
        [ "$status" -eq $((128 + 10)) ]
        run -127 "$NSCTL" enter "$t" /nonexistent/program
        [ "$status" -eq 127 ]
        [[ "$output" == *"nsctl: enter: cannot execute '/nonexistent/program'"* ]]
        # -r: TMP as the target sees it, in its root, which in a chroot is not
        # its mount namespace's (where setns() puts the caller, as nsenter's does).
        run "$NSCTL" enter -r "$t" "$TMP/not-executable"
        [ "$status" -eq 126 ]
    done
    run "$NSCTL" enter "$(dead_pid)" true
    [ "$status" -eq 125 ]
}

# Run nsctl enter ARGS... sleep 600 in the background; print the fds of the sleep, from outside.
fds_of_program() {
    local pid child i
    "$NSCTL" enter "$@" sleep 600 &
    pid=$!
    TEST_PIDS+=("$pid")
    for i in $(seq 2000); do
        if [ "$(cat /proc/$pid/comm)" = sleep ]; then child=$pid; break; fi
        child=$(pgrep -P "$pid" sleep) && break
        sleep 0.01
    done
    [ -n "$child" ] || return 1
    wait_until_asleep "$child"
    ls "/proc/$child/fd" | sort -n | tr '\n' ' '
    kill "$child"
}

@test "enter: PROGRAM gets fds 0-2 only, unless --keep-fd or --keep-fds" {
    require_root
    start_named_target "$NAME" --uts
    exec 7</dev/null
    exec 8</dev/null
    run fds_of_program "$TARGET"
    [ "$output" = "0 1 2 " ]
    run fds_of_program --keep-fd 7 "$TARGET"
    [ "$output" = "0 1 2 7 " ]
    run fds_of_program --keep-fds "$TARGET"
    [[ "$output" == *" 7 8 "* ]]
    # Through the supervised child of a pid namespace too.
    start_pidns_target "$NAME-p"
    run fds_of_program --keep-fd 8 "$TARGET"
    [ "$output" = "0 1 2 8 " ]
    exec 7<&- 8<&-
    run "$NSCTL" enter --keep-fd 9 "$TARGET" true
    [ "$status" -eq 125 ]
    [[ "$output" == *"--keep-fd '9'"* ]]
}

@test "enter: a namespace file, and a bind mount of it, is the article's ns_exec" {
    require_root
    start_named_target "$NAME" --uts
    run "$NSCTL" enter "/proc/$TARGET/ns/uts" hostname
    [ "$status" -eq 0 ]
    [ "$output" = "$NAME" ]
    touch "$TMP/uts"
    PINS+=("$TMP/uts")
    mount --bind "/proc/$TARGET/ns/uts" "$TMP/uts"
    inode=$(ns_inode "$TARGET" uts)
    cleanup_pids
    run "$NSCTL" enter "$TMP/uts" sh -c 'hostname; stat -L -c %i /proc/self/ns/uts'
    [ "${lines[0]}" = "$NAME" ]
    [ "${lines[1]}" = "$inode" ]
    # The type option of the file's own type is allowed; another one needs =FILE.
    run "$NSCTL" enter -u "$TMP/uts" hostname
    [ "$output" = "$NAME" ]
    run "$NSCTL" enter -n "$TMP/uts" hostname
    [ "$status" -eq 125 ]
    [[ "$output" == *"$TMP/uts is a uts namespace"* ]]
}

@test "enter: an ip netns name, as ip netns exec sees it" {
    require_root
    require_ip_netns_exec
    ip netns add "$NAME"
    NETNS+=("$NAME")
    ip netns exec "$NAME" ip link set lo up
    want=$(ip netns exec "$NAME" readlink /proc/self/ns/net)
    run "$NSCTL" enter "$NAME" readlink /proc/self/ns/net
    [ "$status" -eq 0 ]
    [ "$output" = "$want" ]
    [ "$output" != "$(readlink /proc/$$/ns/net)" ]
    [ "$(stat -c %i /run/netns/$NAME)" = "$(echo "$want" | tr -dc 0-9)" ]
    run "$NSCTL" enter -n "$NAME" ip -o link show lo
    [[ "$output" == *"UP"* ]]
    # --net=FILE with a PID target: net from the file, uts from the process.
    start_named_target "$NAME" --uts
    run "$NSCTL" enter -u --net=/run/netns/$NAME "$TARGET" sh -c 'hostname; readlink /proc/self/ns/net'
    [ "${lines[0]}" = "$NAME" ]
    [ "${lines[1]}" = "$want" ]
    # A short type option takes no file (-un is -u -n, as nsenter reads it): -n=FILE
    # and -nFILE are refused, pointing to --net=FILE.
    for form in "-n=/run/netns/$NAME" "-n/run/netns/$NAME"; do
        run -125 "$NSCTL" enter -u "$form" "$TARGET" sh -c 'hostname; readlink /proc/self/ns/net'
        echo "$form: $output"
        [[ "$output" == *"the file form is --net=FILE"* ]]
    done
}

@test "enter: a pin name joins every type pinned under it, or the ones asked for" {
    require_root
    start_named_target "$NAME" --uts --ipc
    pin_by_hand uts "$NAME" "$TARGET"
    pin_by_hand ipc "$NAME" "$TARGET"
    run "$NSCTL" enter "$NAME" sh -c 'hostname; readlink /proc/self/ns/ipc'
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "$NAME" ]
    [ "${lines[1]}" = "$(readlink /proc/$TARGET/ns/ipc)" ]
    run "$NSCTL" enter -u "$NAME" readlink /proc/self/ns/ipc
    [ "$output" = "$(readlink /proc/$$/ns/ipc)" ]
    run "$NSCTL" enter --net "$NAME" true
    [ "$status" -eq 125 ]
    [[ "$output" == *"no net pin named '$NAME'"* ]]
}

@test "enter: an unprivileged user enters its own user namespace and what it owns" {
    require_userns_for_nobody
    setpriv --reuid=65534 --regid=65534 --clear-groups unshare --user --map-root-user --uts sh -c "hostname '$NAME'; exec sleep 600" &
    TARGET=$!
    TEST_PIDS+=("$TARGET")
    wait_for_exec "$TARGET" sleep
    run as_nobody "$NSCTL" enter "$TARGET" sh -c 'id -u; id -g; hostname; readlink /proc/self/ns/user /proc/self/ns/uts'
    echo "$output"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = 0 ]
    [ "${lines[1]}" = 0 ]
    [ "${lines[2]}" = "$NAME" ]
    [ "${lines[3]}" = "$(readlink /proc/$TARGET/ns/user)" ]
    [ "${lines[4]}" = "$(readlink /proc/$TARGET/ns/uts)" ]
    run as_nobody "$NSCTL" enter -U -u "$TARGET" hostname
    [ "$output" = "$NAME" ]
    # The uts namespace alone: its owner's capabilities are needed, and refused.
    run as_nobody "$NSCTL" enter -u "$TARGET" hostname
    [ "$status" -eq 125 ]
    [ "$output" = "nsctl: enter: setns(/proc/$TARGET/ns/uts): Operation not permitted" ]
    # Root's processes are not nobody's to enter.
    run as_nobody "$NSCTL" enter -n $$ true
    [ "$status" -eq 125 ]
    [[ "$output" == *"/proc/$$/ns/net"*"denied"* ]]
    run as_nobody "$NSCTL" enter $$ true
    [ "$status" -eq 125 ]
    [[ "$output" == "nsctl: enter: open(/proc/$$/ns/"*"): Permission denied" ]]
}

@test "enter: the supervising nsctl is not dumpable, so the namespace cannot ptrace it" {
    require_userns_for_nobody
    setpriv --reuid=65534 --regid=65534 --clear-groups unshare --user --map-root-user --pid --fork sleep 600 &
    TEST_PIDS+=("$!")
    for i in $(seq 2000); do TARGET=$(pgrep -P "$!" sleep) && break; sleep 0.01; done
    TEST_PIDS+=("$TARGET")
    # Not through as_nobody, a function: in the background it would be a subshell, not nsctl.
    setpriv --reuid=65534 --regid=65534 --clear-groups "$(reachable_path "$NSCTL")" enter "$TARGET" sleep 600 &
    supervisor=$!
    TEST_PIDS+=("$supervisor")
    for i in $(seq 2000); do child=$(pgrep -P "$supervisor" sleep) && break; sleep 0.01; done
    [ -n "$child" ]
    TEST_PIDS+=("$child")
    # A dumpable process's /proc files belong to its user; an undumpable one's to root.
    [ "$(stat -c %u /proc/$supervisor/environ)" = 0 ]
    [ "$(stat -c %u /proc/$child/environ)" = 65534 ]
    [ "$(readlink /proc/$child/ns/pid)" = "$(readlink /proc/$TARGET/ns/pid)" ]
}

@test "enter: credentials: uid and gid 0 in a user namespace, -S/-G, --preserve-credentials" {
    require_userns_for_nobody
    setpriv --reuid=65534 --regid=65534 --clear-groups unshare --user --map-root-user sleep 600 &
    TARGET=$!
    TEST_PIDS+=("$TARGET")
    wait_for_exec "$TARGET" sleep
    run "$NSCTL" enter -U "$TARGET" sh -c 'id -u; id -g'
    [ "$status" -eq 0 ]
    [ "$output" = "$(printf '0\n0')" ]
    # Root is not mapped in nobody's namespace: kept as it is, it shows as the overflow uid.
    run "$NSCTL" enter -U --preserve-credentials "$TARGET" id -u
    [ "$output" = 65534 ]
    run "$NSCTL" enter -U -S 1 "$TARGET" id -u
    [ "$status" -eq 125 ]
    [[ "$output" == *"setuid(1): Invalid argument"* ]]
    start_named_target "$NAME" --uts
    run "$NSCTL" enter -u -S 65534 -G 65534 "$TARGET" sh -c 'id -u; id -g; id -G'
    [ "$output" = "$(printf '65534\n65534\n65534')" ]
}

@test "enter: --wd and --root default to the target's, or take a DIR" {
    require_root
    mkdir -p "$TMP/root/bin" "$TMP/root/lib" "$TMP/root/lib64" "$TMP/root/work" "$TMP/cwd"
    for f in /bin/sh /bin/sleep; do cp "$f" "$TMP/root/bin/"; done
    for lib in $(ldd /bin/sh /bin/sleep | grep -oE '/lib[^ ]+' | sort -u); do
        mkdir -p "$TMP/root$(dirname "$lib")"
        cp "$lib" "$TMP/root$lib"
    done
    unshare_here --uts --mount
    (cd "$TMP/cwd" && exec "${UNSHARE_HERE[@]}" chroot "$TMP/root" /bin/sh -c 'cd /work; exec /bin/sleep 600') &
    TARGET=$!
    TEST_PIDS+=("$TARGET")
    wait_for_exec "$TARGET" sleep
    run "$NSCTL" enter -r -w "$TARGET" /bin/sh -c 'pwd; echo /*'
    echo "$output"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = /work ]
    [ "${lines[1]}" = "/bin /lib /lib64 /work" ]
    run "$NSCTL" enter -r "$TARGET" /bin/sh -c pwd
    [ "$output" = / ]
    run "$NSCTL" enter "--root=$TMP/root" "--wd=$TMP/root/work" -u "$TARGET" /bin/sh -c 'pwd; echo /*'
    [ "${lines[0]}" = /work ]
    [ "${lines[1]}" = "/bin /lib /lib64 /work" ]
    run "$NSCTL" enter -w -u "$TARGET" pwd
    [ "$output" = "$TMP/root/work" ]
    run "$NSCTL" enter --root=/nonexistent -u "$TARGET" true
    [ "$status" -eq 125 ]
    [[ "$output" == *"/nonexistent"* ]]
}

@test "enter: --env takes the target's environment where PROGRAM runs on the target's files, only its data variables elsewhere" {
    require_root
    # A target in a mount namespace of its own: joined by default, PROGRAM runs on its files.
    unshare_here --mount --uts
    env -i NSCTL_ENTER_VAR=from-target TERM=from-target-term PATH=/usr/bin:/bin \
        "${UNSHARE_HERE[@]}" sleep 600 &
    TARGET=$!
    TEST_PIDS+=("$TARGET")
    wait_for_exec "$TARGET" sleep
    local root=()
    running_chrooted && root=(-r)
    run env NSCTL_CALLER_VAR=from-caller "$NSCTL" enter -e "${root[@]+"${root[@]}"}" "$TARGET" \
        sh -c 'echo "$NSCTL_ENTER_VAR"; echo "${NSCTL_CALLER_VAR:-unset}"'
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = from-target ]
    # Not nsctl's environment.
    [ "${lines[1]}" = unset ]
    # Without the mount namespace PROGRAM runs on nsctl's files: nsctl's
    # environment, and of the target's only the allowlist's (nsctl-enter(1)).
    run env NSCTL_CALLER_VAR=from-caller "$NSCTL" enter -e -u "$TARGET" \
        sh -c 'echo "${NSCTL_ENTER_VAR:-unset}"; echo "$NSCTL_CALLER_VAR"; echo "$TERM"'
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = unset ]
    [ "${lines[1]}" = from-caller ]
    [ "${lines[2]}" = from-target-term ]
    run "$NSCTL" enter "$TARGET" sh -c 'echo "${NSCTL_ENTER_VAR:-unset}"'
    [ "$output" = unset ]
}

@test "enter: --join-cgroup joins the target's cgroup v2" {
    require_root
    v2=$(findmnt -n -o TARGET -t cgroup2 | head -n 1)
    [ -n "$v2" ] || skip "no cgroup2 mount"
    CGROUP=$v2/$NAME
    mkdir "$CGROUP"
    start_named_target "$NAME" --uts
    echo "$TARGET" >"$CGROUP/cgroup.procs"
    # -c is its short form, as in util-linux 2.40's nsenter.
    for form in --join-cgroup -c; do
        run "$NSCTL" enter $form "$TARGET" cat /proc/self/cgroup
        echo "$output"
        [ "$status" -eq 0 ]
        echo "$output" | grep -qx "0::/$NAME"
    done
    run "$NSCTL" enter "$TARGET" cat /proc/self/cgroup
    ! echo "$output" | grep -qx "0::/$NAME" || false
}

@test "enter: -S follow and -G follow take the target's own IDs, in its user namespace or ours" {
    require_root
    require_userns
    # In a user namespace of its own that maps 1234 and 2345 (to root's, here).
    start_named_target "$NAME" --user --map-user=1234 --map-group=2345 --uts
    run -0 "$NSCTL" enter -U -u -S follow -G follow "$TARGET" sh -c 'id -u; id -g'
    [ "${lines[0]}" = 1234 ]
    [ "${lines[1]}" = 2345 ]
    # The witness: what the target itself has, seen from its namespace.
    [ "$(nsenter -t "$TARGET" -U -u -S 1234 -G 2345 sh -c 'id -u; id -g' | tr '\n' ' ')" = "1234 2345 " ]
    # Without its user namespace: the IDs as the host has them (root's here).
    run -0 "$NSCTL" enter -u -S follow -G follow "$TARGET" sh -c 'id -u; id -g'
    [ "${lines[0]}" = 0 ]
    [ "${lines[1]}" = 0 ]
    # A target of another user, in nsctl's user namespace: its IDs.
    setpriv --reuid=65534 --regid=65534 --clear-groups sleep 600 &
    TEST_PIDS+=($!)
    wait_for_exec $! sleep
    run -0 "$NSCTL" enter -u -S follow -G follow $! sh -c 'id -u; id -g'
    [ "${lines[0]}" = 65534 ]
    [ "${lines[1]}" = 65534 ]
    # A file is no process to follow.
    run "$NSCTL" enter -S follow "/proc/$TARGET/ns/uts" true
    [ "$status" -eq 125 ]
    [[ "$output" == *"-S/-G follow need a PID TARGET"* ]]
}

@test "enter: PROGRAM defaults to \$SHELL, else /bin/sh" {
    require_root
    start_named_target "$NAME" --uts
    SHELL=/bin/hostname run "$NSCTL" enter "$TARGET"
    [ "$output" = "$NAME" ]
    run env -u SHELL "$NSCTL" enter "$TARGET" <<<'hostname'
    [ "$output" = "$NAME" ]
    run "$NSCTL" enter "$TARGET" -- hostname
    [ "$output" = "$NAME" ]
}

@test "enter: bad PIDs, paths, types and names exit 125 and name the input" {
    dead=$(dead_pid)
    mkfifo "$TMP/fifo"
    touch "$TMP/file"
    long=$(printf 'n%.0s' $(seq 300))
    for bad in 0 010 00 2147483648 99999999999999999999 "$dead" /nonexistent "$TMP" \
        "$TMP/fifo" "$TMP/file" /dev/null no-such-pin-$$ . .. "$long" ""; do
        run "$NSCTL" enter "$bad" true
        echo "input '$bad': status $status: $output"
        [ "$status" -eq 125 ]
        [[ "$output" == "nsctl: enter: "* ]]
        if [ -n "$bad" ]; then [[ "$output" == *"$bad"* ]]; fi
    done
    for args in "--net=/proc/self/ns/uts $$" "--net=$TMP/file $$" "--net= $$" "--uts=/nonexistent $$" \
        "-n -n $$" "--bogus $$" "-S x $$" "-G -1 $$" "--preserve-credentials -S 0 $$" "" \
        "--keep-fd x $$" "--keep-fds --keep-fd 1 $$" "-e /proc/self/ns/net" "--join-cgroup /proc/self/ns/net"; do
        run "$NSCTL" enter $args true
        echo "args '$args': status $status: $output"
        [ "$status" -eq 125 ]
        [[ "$output" == "nsctl: enter: "* ]]
    done
    run "$NSCTL" enter --net=/proc/self/ns/uts $$ true
    [[ "$output" == *"--net=/proc/self/ns/uts: a namespace of another type"* ]]
    run "$NSCTL" enter --bogus $$ true
    [[ "$output" == *"Try 'nsctl enter --help'."* ]]
}

@test "enter: --help goes to stdout, exits 0, and tells about --keep-fd" {
    run "$NSCTL" enter --help
    [ "$status" -eq 0 ]
    [[ "$output" == "Usage: nsctl enter"* ]]
    for t in cgroup ipc mount net pid time user uts; do
        [[ "$output" == *"--$t[=FILE]"* ]]
    done
    [[ "$output" == *"--keep-fd N"* ]]
}

@test "enter: bash completion offers PIDs and pin names" {
    require_root
    ip netns add "$NAME"
    NETNS+=("$NAME")
    start_named_target "$NAME-u" --uts
    pin_by_hand uts "$NAME-u" "$TARGET"
    out=$(bash -c 'source "$1"; COMP_WORDS=(nsctl enter "$2"); COMP_CWORD=2; _nsctl; printf "%s\n" "${COMPREPLY[@]}"' \
        x "$NSCTL_TOP/completions/nsctl" nsctl-enter-$$)
    echo "$out"
    echo "$out" | grep -qx "$NAME"
    echo "$out" | grep -qx "$NAME-u"
    out=$(bash -c 'source "$1"; COMP_WORDS=(nsctl enter -u "$2"); COMP_CWORD=3; _nsctl; printf "%s\n" "${COMPREPLY[@]}"' \
        x "$NSCTL_TOP/completions/nsctl" "$TARGET")
    echo "$out" | grep -qx "$TARGET"
}

@test "enter: a stale /run/netns/NAME (an empty file a reboot leaves) says so, and how to remove it" {
    require_root
    # As ip netns leaves one: the file without its mount.
    ip netns add "$NAME"
    NETNS+=("$NAME")
    umount "/run/netns/$NAME"
    [ -f "/run/netns/$NAME" ]
    [ ! -s "/run/netns/$NAME" ]
    for form in "$NAME" "-n $NAME"; do
        # shellcheck disable=SC2086 # the form is words
        run "$NSCTL" enter $form true
        echo "$output"
        [ "$status" -eq 125 ]
        [ "$output" = "nsctl: enter: pin '$NAME': /run/netns/$NAME is a stale pin (an empty file, no namespace mounted on it): nsctl unpin $NAME removes it" ]
    done
    # Nothing was removed by enter; unpin does, as it says.
    [ -f "/run/netns/$NAME" ]
    run "$NSCTL" unpin "$NAME"
    [ "$status" -eq 0 ]
    [ ! -e "/run/netns/$NAME" ]
}
