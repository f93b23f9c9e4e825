#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# nsctl unshare: unshare() then exec, checked through /proc, util-linux and iproute2.

load helpers
bats_require_minimum_version 1.5.0

# The host's mounts this file's tests could leave behind: any proc, anything under
# $TMP, anything named after this file.  Other tests on the machine mount
# and unmount elsewhere meanwhile; those are not ours to judge.
own_mounts() {
    mount_table | awk -v tmp="$TMP" '$2 == "proc" || index($1, tmp) == 1 || $0 ~ /nsctl-unshare-/'
}

setup() {
    HOST_BEFORE=$(hostname)
    TMP=$(mktemp -d)
    chmod 755 "$TMP"
    MOUNTS_BEFORE=$(own_mounts)
    PINS=()
}

teardown() {
    cleanup_pids
    for pin in "${PINS[@]+"${PINS[@]}"}"; do
        umount "$pin" 2>/dev/null
        rm -f "$pin"
    done
    mounts_after=$(own_mounts)
    rm -rf "$TMP"
    [ "$(hostname)" = "$HOST_BEFORE" ]
    [ "$mounts_after" = "$MOUNTS_BEFORE" ]
}

all_types="cgroup ipc mnt net pid time user uts"

@test "unshare: PROGRAM is nsctl's own process, in the new namespaces" {
    require_root
    "$NSCTL" unshare -u -n -i sleep 600 &
    pid=$!
    TEST_PIDS+=($pid)
    wait_for_exec $pid sleep
    # No process left behind: the PID nsctl started as is PROGRAM's.
    [ -z "$(pgrep -P $pid)" ]
    for t in uts net ipc; do [ "$(ns_inode $pid $t)" != "$(ns_inode $$ $t)" ]; done
    for t in mnt pid user cgroup time; do [ "$(ns_inode $pid $t)" = "$(ns_inode $$ $t)" ]; done
    [ "$(lsns -n -o NS -t uts -p $pid | tr -d ' ')" = "$(ns_inode $pid uts)" ]
}

# For each TYPE given, its option makes exactly that namespace new (pid: for children).
unshare_makes_only_its_namespace() {
    local t opt files new i u
    for t in "$@"; do
        opt=--$t
        [ $t = mnt ] && opt=--mount
        # PROGRAM is stat itself: a shell would fork, and a new PID namespace allows one init.
        # An empty new PID namespace has no pid_for_children link until its init exists.
        files="/proc/self/ns/time_for_children"
        [ $t = pid ] || files="$files /proc/self/ns/pid_for_children"
        run "$NSCTL" unshare $opt -- stat -L -c '%i' /proc/self/ns/cgroup /proc/self/ns/ipc \
            /proc/self/ns/mnt /proc/self/ns/net /proc/self/ns/pid /proc/self/ns/time \
            /proc/self/ns/user /proc/self/ns/uts $files
        echo "$opt: $status $output"
        [ "$status" -eq 0 ]
        new=0
        i=0
        for u in $all_types; do
            [ "${lines[$i]}" != "$(ns_inode $$ $u)" ] && new=$((new + 1))
            i=$((i + 1))
        done
        if [ $t = pid ]; then
            [ "$new" -eq 0 ]
        elif [ $t = time ]; then
            # exec() moves a process into its time_for_children: PROGRAM is in it too.
            [ "$new" -eq 1 ]
            [ "${lines[5]}" != "$(ns_inode $$ time)" ]
            [ "${lines[8]}" = "${lines[5]}" ]
        else
            [ "$new" -eq 1 ]
        fi
    done
}

@test "unshare: each type option makes exactly that namespace new (pid: for children)" {
    require_root
    unshare_makes_only_its_namespace ${all_types/user/}
}

@test "unshare: --user makes exactly the user namespace new" {
    require_root
    require_userns
    unshare_makes_only_its_namespace user
}

@test "unshare: -p: PROGRAM's first child is PID 1" {
    require_root
    run "$NSCTL" unshare -p sh -c 'sh -c "echo \$\$"; echo $$'
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = 1 ]
    [ "${lines[1]}" != 1 ]
}

@test "unshare: --hostname and --domainname, the host's unchanged" {
    require_root
    name="nsctl-unshare-$$-$BATS_TEST_NUMBER"
    run "$NSCTL" unshare -u --hostname "$name" --domainname "dom-$$" sh -c 'hostname; domainname'
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "$name" ]
    [ "${lines[1]}" = "dom-$$" ]
}

@test "unshare: -r as root and as nobody: maps, setgroups, hostname" {
    require_userns_for_nobody
    run "$NSCTL" unshare -r cat /proc/self/uid_map /proc/self/gid_map /proc/self/setgroups
    [ "$status" -eq 0 ]
    [[ "${lines[0]}" =~ ^\ +0\ +0\ +1$ ]]
    [ "${lines[2]}" = deny ]
    run as_nobody "$NSCTL" unshare -r -u --hostname "nsctl-unshare-$$" sh -c 'cat /proc/self/uid_map /proc/self/gid_map /proc/self/setgroups; id -u; hostname'
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "${lines[0]}" =~ ^\ +0\ +65534\ +1$ ]]
    [[ "${lines[1]}" =~ ^\ +0\ +65534\ +1$ ]]
    [ "${lines[2]}" = deny ]
    [ "${lines[3]}" = 0 ]
    [ "${lines[4]}" = "nsctl-unshare-$$" ]
}

@test "unshare: several ranges as root, written by a helper that is gone before PROGRAM" {
    require_root
    require_userns
    run "$NSCTL" unshare -U --map-users 0:100000:65536 --map-groups 0:100000:65536 --map-groups 65536:5000:1 \
        cat /proc/self/uid_map /proc/self/gid_map /proc/thread-self/children
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "${lines[0]}" =~ ^\ +0\ +100000\ +65536$ ]]
    [[ "${lines[1]}" =~ ^\ +0\ +100000\ +65536$ ]]
    [[ "${lines[2]}" =~ ^\ +65536\ +5000\ +1$ ]]
    # PROGRAM has no child: the helper was reaped before the exec.
    [ "${#lines[@]}" -eq 3 ]
}

@test "unshare: -T offsets apply to PROGRAM (moved in at exec) and its children" {
    require_root
    run "$NSCTL" unshare -T --boottime 1000 --monotonic -1 bash -c 'read up rest </proc/uptime; echo ${up%.*}; cat /proc/self/timens_offsets'
    echo "$output"
    [ "$status" -eq 0 ]
    host=$(cut -d. -f1 /proc/uptime)
    [ $((lines[0] - host)) -ge 999 ]
    [ $((lines[0] - host)) -le 1001 ]
    [[ "${lines[1]}" =~ ^monotonic\ +-1\ +0$ ]]
    [[ "${lines[2]}" =~ ^boottime\ +1000\ +0$ ]]
}

@test "unshare: --mount-proc, --propagation, --loopback" {
    require_root
    mkdir "$TMP/proc"
    run "$NSCTL" unshare -n --loopback --mount-proc="$TMP/proc" sh -c "grep -c ' $TMP/proc ' /proc/self/mountinfo; ip -o link show lo; awk '\$5 == \"/\" {print \$7}' /proc/self/mountinfo"
    echo "$output"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = 1 ]
    [[ "${lines[1]}" == *"<LOOPBACK,UP"* ]]
    [[ "${lines[2]}" != *shared:* ]]
    ! grep -q " $TMP/proc " /proc/self/mountinfo || false
}

@test "unshare: --TYPE=FILE pins, seen by nsenter and ip netns; user pin kept by the helper" {
    require_root
    require_userns
    PINS=("$TMP/uts" "$TMP/user" "$TMP/time" "$TMP/mnt" "/run/netns/nsctl-unshare-$$")
    mkdir -p /run/netns
    run "$NSCTL" unshare --uts="$TMP/uts" --user="$TMP/user" --time="$TMP/time" --mount="$TMP/mnt" \
        --net=/run/netns/nsctl-unshare-$$ -r --hostname "nsctl-pin-$$" \
        sh -c 'stat -L -c %i /proc/self/ns/uts /proc/self/ns/user /proc/self/ns/time_for_children /proc/self/ns/mnt /proc/self/ns/net'
    echo "$output"
    [ "$status" -eq 0 ]
    [ "$(stat -c %i "$TMP/uts")" = "${lines[0]}" ]
    [ "$(stat -c %i "$TMP/user")" = "${lines[1]}" ]
    [ "$(stat -c %i "$TMP/time")" = "${lines[2]}" ]
    [ "$(stat -c %i "$TMP/mnt")" = "${lines[3]}" ]
    [ "$(nsenter --uts="$TMP/uts" hostname)" = "nsctl-pin-$$" ]
    ip netns list | grep -q "^nsctl-unshare-$$"
    [ "$(ip netns exec nsctl-unshare-$$ stat -L -c %i /proc/self/ns/net)" = "${lines[4]}" ]
}

@test "unshare: a pin that exists, or a --pid pin, is refused before anything is made" {
    require_root
    touch "$TMP/exists"
    run -125 "$NSCTL" unshare --uts="$TMP/exists" true
    [[ "$output" == *"--uts='$TMP/exists': the file exists"* ]]
    run -125 "$NSCTL" unshare --pid="$TMP/pid" true
    [[ "$output" == *"--pid='$TMP/pid'"*"nsctl run"* ]]
    run -125 "$NSCTL" unshare --uts="$TMP/no/such/dir" true
    [[ "$output" == *"no such directory"* ]]
    # A failed pin undoes the others: all or nothing.
    PINS=("$TMP/net" "$TMP/uts")
    run as_nobody "$NSCTL" unshare -r --net="$TMP/net" --uts="$TMP/uts" true
    [ "$status" -eq 125 ]
    [ ! -e "$TMP/net" ]
    [ ! -e "$TMP/uts" ]
}

@test "unshare: without a new user or mount namespace the caller pins itself, and takes the pins back on failure" {
    require_root
    mkdir -p /run/netns
    PINS=("/run/netns/nsctl-unshare-self-$$" "$TMP/uts")
    run "$NSCTL" unshare --net=/run/netns/nsctl-unshare-self-$$ --uts="$TMP/uts" \
        stat -L -c %i /proc/self/ns/net /proc/self/ns/uts
    echo "$output"
    [ "$status" -eq 0 ]
    [ "$(nsenter --net=/run/netns/nsctl-unshare-self-$$ stat -L -c %i /proc/self/ns/net)" = "${lines[0]}" ]
    [ "$(stat -c %i "$TMP/uts")" = "${lines[1]}" ]
    umount /run/netns/nsctl-unshare-self-$$ "$TMP/uts"
    rm -f /run/netns/nsctl-unshare-self-$$ "$TMP/uts"
    # PROGRAM not found after the pins were made: both are taken back, nothing stays mounted.
    run -127 "$NSCTL" unshare --net=/run/netns/nsctl-unshare-self-$$ --uts="$TMP/uts" no-such-program-nsctl
    [ ! -e /run/netns/nsctl-unshare-self-$$ ]
    [ ! -e "$TMP/uts" ]
    ! grep -q -e "nsctl-unshare-self-$$" -e " $TMP/uts " /proc/self/mountinfo || false
    # The second pin fails: the first goes too (all or nothing).
    touch "$TMP/uts"
    run -125 "$NSCTL" unshare --net=/run/netns/nsctl-unshare-self-$$ --uts="$TMP/uts" true
    [ ! -e /run/netns/nsctl-unshare-self-$$ ]
    ! grep -q "nsctl-unshare-self-$$" /proc/self/mountinfo || false
    rm -f "$TMP/uts"
}

@test "unshare: --root, --wd, --setuid, --setgid" {
    require_root
    run "$NSCTL" unshare -u -w /tmp -S nobody -G 65534 sh -c 'pwd; id -u; id -g'
    echo "$output"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = /tmp ]
    [ "${lines[1]}" = 65534 ]
    [ "${lines[2]}" = 65534 ]
}

@test "unshare: exit statuses are PROGRAM's, 126, 127; bad input 125 naming it" {
    require_root
    run "$NSCTL" unshare -u sh -c 'exit 9'
    [ "$status" -eq 9 ]
    run -127 "$NSCTL" unshare -u no-such-program-nsctl
    [[ "$output" == *"no-such-program-nsctl"* ]]
    echo x >"$TMP/plain"
    run -126 "$NSCTL" unshare -u "$TMP/plain"
    # (No PROGRAM is no bad input: a login shell, as habits.bats shows.)
    for args in "--init -p true" "--into-cgroup /sys/fs/cgroup true" "--hostname h true" \
        "-u --hostname $(printf 'y%.0s' $(seq 65)) true" "--map-users 1:1 true" \
        "-T --boottime x true" "-p --mount-proc true" "--setgroups no true" "true" \
        "--setuid no-such-user-nsctl -u true"; do
        eval "set -- $args"
        run "$NSCTL" unshare "$@"
        echo "args '$args': status $status: $output"
        [ "$status" -eq 125 ]
        [[ "$output" == "nsctl: unshare: "* ]]
    done
}

@test "unshare: PROGRAM gets fds 0-2 only, unless --keep-fd" {
    require_userns
    run bash -c 'exec 7</dev/null; "$NSCTL" unshare -U ls /proc/self/fd'
    [ "$status" -eq 0 ]
    [[ "$output" != *7* ]]
    run bash -c 'exec 7</dev/null; "$NSCTL" unshare -U --keep-fd 7 ls /proc/self/fd'
    [[ "$output" == *7* ]]
}

@test "unshare: --help goes to stdout, exits 0, tells about pid and time" {
    run "$NSCTL" unshare --help
    [ "$status" -eq 0 ]
    [[ "$output" == "Usage: nsctl unshare"* ]]
    [[ "$output" == *"children"* ]]
    [[ "$output" == *"--keep-fd"* ]]
}

@test "unshare: unprivileged, user with time, mount, net, uts, ipc, cgroup at once" {
    require_userns_for_nobody
    run as_nobody "$NSCTL" unshare -r -T --boottime 100 -m -n --loopback -u --hostname "nsctl-unshare-$$" -i -C \
        sh -c 'cat /proc/self/timens_offsets; hostname; ip -o link show lo; id -u'
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "${lines[1]}" =~ ^boottime\ +100\ +0$ ]]
    [ "${lines[2]}" = "nsctl-unshare-$$" ]
    [[ "${lines[3]}" == *"<LOOPBACK,UP"* ]]
    [ "${lines[4]}" = 0 ]
    # proc shows a PID namespace: the caller's is not the unprivileged user's to mount.
    run as_nobody "$NSCTL" unshare -r --mount-proc true
    [ "$status" -eq 125 ]
    [[ "$output" == *"--mount-proc '/proc'"*"nsctl run -p"* ]]
}
