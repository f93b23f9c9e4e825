#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Users' habits (issue 15): command lines as util-linux and "ip netns" users type
# them mean what those users expect, or fail saying why.

load helpers
load habits
bats_require_minimum_version 1.5.0

setup() {
    HOST_BEFORE=$(hostname)
    TMP=$(mktemp -d)
    chmod 755 "$TMP"
    MOUNTS_BEFORE=$(mount_table)
    PINS=()
    NETNS=()
    # Stray pin files would land in the working directory: an empty one, watched.
    mkdir "$TMP/cwd"
    cd "$TMP/cwd"
}

teardown() {
    cleanup_pids
    habits_cleanup
    remove_subid_user
    remove_etc_netns
    cd /
    mounts_after=$(mount_table)
    rm -rf "$TMP"
    [ "$(hostname)" = "$HOST_BEFORE" ]
    [ "$mounts_after" = "$MOUNTS_BEFORE" ] || { diff <(echo "$MOUNTS_BEFORE") <(echo "$mounts_after"); false; }
}

@test "habits: run -Uru is user, map-root, uts: no pin file ./ru" {
    require_root
    require_userns
    run timeout 10 "$NSCTL" run -Uru -- sh -c 'id -u; readlink /proc/self/ns/user; readlink /proc/self/ns/uts'
    echo "$output"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = 0 ]
    [ "${lines[1]}" != "$(readlink /proc/$$/ns/user)" ]
    [ "${lines[2]}" != "$(readlink /proc/$$/ns/uts)" ]
    no_stray_files
}

@test "habits: run -nm is net and mount: a mount inside stays off the host, no pin file ./m" {
    require_root
    mkdir "$TMP/mnt"
    run timeout 10 "$NSCTL" run -nm -- sh -c "mount -t tmpfs habits-$$ '$TMP/mnt' && readlink /proc/self/ns/net /proc/self/ns/mnt && grep -c habits-$$ /proc/self/mounts"
    echo "$output"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" != "$(readlink /proc/$$/ns/net)" ]
    [ "${lines[1]}" != "$(readlink /proc/$$/ns/mnt)" ]
    [ "${lines[2]}" = 1 ]
    ! grep -q "habits-$$" /proc/self/mounts || false
    no_stray_files
}

@test "habits: unshare -mu is mount and uts: no pin file ./u" {
    require_root
    run timeout 10 "$NSCTL" unshare -mu -- sh -c 'hostname habits-inside; hostname; readlink /proc/self/ns/mnt /proc/self/ns/uts'
    echo "$output"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = habits-inside ]
    [ "${lines[1]}" != "$(readlink /proc/$$/ns/mnt)" ]
    [ "${lines[2]}" != "$(readlink /proc/$$/ns/uts)" ]
    no_stray_files
}

@test "habits: run -Urpm --mount-proc, the common unshare line, works" {
    require_root
    require_userns
    run timeout 10 "$NSCTL" run -Urpm --mount-proc -- sh -c 'echo $$; id -u; ls /proc | grep -c "^[0-9]"; readlink /proc/self/ns/pid'
    echo "$output"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = 1 ]
    [ "${lines[1]}" = 0 ]
    # Only the shell and ls: the fresh proc is the new PID namespace's.
    [ "${lines[2]}" -le 3 ]
    no_stray_files
}

@test "habits: unshare -Urm: user, map-root, mount" {
    require_root
    require_userns
    run timeout 10 "$NSCTL" unshare -Urm -- sh -c 'id -u; readlink /proc/self/ns/mnt'
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = 0 ]
    [ "${lines[1]}" != "$(readlink /proc/$$/ns/mnt)" ]
    no_stray_files
}

@test "habits: enter -nu PID joins net and uts, as nsenter -nu" {
    require_root
    start_target --net --uts
    run timeout 10 "$NSCTL" enter -nu "$TARGET" readlink /proc/self/ns/net /proc/self/ns/uts /proc/self/ns/ipc
    echo "$output"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "$(readlink /proc/$TARGET/ns/net)" ]
    [ "${lines[1]}" = "$(readlink /proc/$TARGET/ns/uts)" ]
    [ "${lines[2]}" = "$(readlink /proc/$$/ns/ipc)" ]
    no_stray_files
}

@test "habits: a file attached to a short type option is refused, naming the long form" {
    require_root
    for cmd in run unshare; do
        run -125 "$NSCTL" "$cmd" "-n=$TMP/pin" true
        [[ "$output" == *"a short type option takes no argument; the file form is --net=FILE"* ]]
        run -125 "$NSCTL" "$cmd" "-u$TMP/pin" true
        [[ "$output" == *"the file form is --uts=FILE"* ]]
    done
    run -125 "$NSCTL" enter "-n/proc/$$/ns/net" $$ true
    [[ "$output" == *"the file form is --net=FILE"* ]]
    [ ! -e "$TMP/pin" ]
    no_stray_files
}

@test "habits: --help, the man pages and completion say short type options take no file" {
    for cmd in run unshare; do
        "$NSCTL" "$cmd" --help | grep -q -- "-nm is -n -m"
    done
    "$NSCTL" enter --help | grep -q -- "-nm is -n -m"
    for page in run unshare enter; do
        grep -q 'Only the long form takes a file' "$NSCTL_TOP/man/nsctl-$page.1"
    done
    # Completion offers files after --net=, never glued to -n.
    run complete_words nsctl run -n
    [[ "$output" != *"/"* ]]
}

@test "habits: enter -S/-G take user and group names, as run does" {
    require_root
    start_target --uts
    run timeout 10 "$NSCTL" enter -S nobody -G nogroup -u "$TARGET" sh -c 'id -u; id -g'
    echo "$output"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "$(id -u nobody)" ]
    [ "${lines[1]}" = "$(getent group nogroup | cut -d: -f3)" ]
    run -125 "$NSCTL" enter -S "no-such-user-$$" -u "$TARGET" true
    [[ "$output" == *"--setuid 'no-such-user-$$': no such user"* ]]
    # Completion offers users after enter -S, as after run -S.
    run complete_words nsctl enter -S nob
    [[ "$output" == *nobody* ]]
}

@test "habits: --mount-proc mounts proc with the source \"proc\", as util-linux does" {
    require_root
    run timeout 10 "$NSCTL" run -pm --mount-proc -- awk '$2 == "/proc" { print $1, $3 }' /proc/self/mounts
    echo "$output"
    [ "$status" -eq 0 ]
    [ "${lines[${#lines[@]}-1]}" = "proc proc" ]
}

@test "habits: unshare -f/--fork means what run does: PROGRAM is PID 1 of a new PID namespace" {
    require_root
    for fork in -f --fork; do
        run timeout 10 "$NSCTL" unshare "$fork" -p --mount-proc -- sh -c 'echo $$; readlink /proc/self/ns/pid'
        echo "$fork: $output"
        [ "$status" -eq 0 ]
        [ "${lines[0]}" = 1 ]
        [ "${lines[1]}" != "$(readlink /proc/$$/ns/pid)" ]
    done
    # In a cluster, and with run's own options, in any order.
    run timeout 10 "$NSCTL" unshare --init -fp -- sh -c 'echo $$'
    [ "$status" -eq 0 ]
    [ "$output" = 2 ]
    # The exit status is PROGRAM's, as run's.
    run timeout 10 "$NSCTL" unshare -fu -- sh -c 'exit 7'
    [ "$status" -eq 7 ]
    "$NSCTL" unshare --help | grep -q -- "-f, --fork  *start PROGRAM as a supervised child, as nsctl"
    "$NSCTL" run -f -u true
    no_stray_files
}

@test "habits: run --kill-child=SIGNAL: the child gets SIGNAL when nsctl dies" {
    require_root
    "$NSCTL" run --kill-child=USR1 -u -- sh -c "trap 'echo got-USR1 > $TMP/got; exit 0' USR1; echo \$\$ > $TMP/ready; while :; do sleep 0.1; done" &
    nsctl_pid=$!
    TEST_PIDS+=("$nsctl_pid")
    for i in $(seq 1000); do [ -s "$TMP/ready" ] && break; sleep 0.02; done
    child=$(pgrep -P "$nsctl_pid" sh)
    [ -n "$child" ]
    TEST_PIDS+=("$child")
    kill -KILL "$nsctl_pid"
    for i in $(seq 1000); do [ -s "$TMP/got" ] && break; sleep 0.02; done
    [ "$(cat "$TMP/got")" = got-USR1 ]
    # --kill-child alone is SIGKILL, and unshare --kill-child forks as util-linux's does.
    "$NSCTL" unshare --kill-child -u -- sh -c "trap 'echo trapped > $TMP/got2' TERM; echo \$\$ > $TMP/ready2; exec sleep 600" &
    nsctl_pid=$!
    TEST_PIDS+=("$nsctl_pid")
    for i in $(seq 1000); do [ -s "$TMP/ready2" ] && break; sleep 0.02; done
    child=$(cat "$TMP/ready2")
    TEST_PIDS+=("$child")
    [ "$(grep ^PPid: /proc/$child/status | cut -f2)" = "$nsctl_pid" ]
    kill -KILL "$nsctl_pid"
    for i in $(seq 200); do [ -d "/proc/$child" ] || break; sleep 0.02; done
    [ ! -d "/proc/$child" ]
    run -125 "$NSCTL" run --kill-child=NOSUCH -u true
    [[ "$output" == *"--kill-child 'NOSUCH': not a signal name or number"* ]]
}

@test "habits: run with no type option says what to add and lists the types" {
    run -125 "$NSCTL" run -- true
    [[ "$output" == *"no namespace to create: add at least one type option: -C cgroup, -i ipc, -m mnt, -n net, -p pid, -T time, -U user, -u uts"* ]]
    run -125 "$NSCTL" unshare --fork true
    [[ "$output" == *"add at least one type option"* ]]
}

@test "habits: run/unshare --TYPE=NAME pin at the NAME's place, as pin does: enter NAME finds it" {
    require_root
    name=habits-$$-$BATS_TEST_NUMBER
    PINS=("/run/netns/$name" "/run/nsctl/uts/$name" "/run/nsctl/ipc/$name")
    run timeout 10 "$NSCTL" run --net="$name" --uts="$name" --hostname "$name" -- readlink /proc/self/ns/net /proc/self/ns/uts
    echo "$output"
    [ "$status" -eq 0 ]
    [ "net:[$(stat -c %i "/run/netns/$name")]" = "${lines[0]}" ]
    [ "uts:[$(stat -c %i "/run/nsctl/uts/$name")]" = "${lines[1]}" ]
    # ip netns sees it, and enter NAME joins both.
    ip netns list | grep -q "^$name\b"
    run timeout 10 "$NSCTL" enter "$name" sh -c 'hostname; readlink /proc/self/ns/net'
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "$name" ]
    [ "${lines[1]}" = "net:[$(stat -c %i "/run/netns/$name")]" ]
    # unshare likewise; the helper makes the pin outside.
    run timeout 10 "$NSCTL" unshare --ipc="$name" -- readlink /proc/self/ns/ipc
    [ "$status" -eq 0 ]
    [ "$output" = "ipc:[$(stat -c %i "/run/nsctl/ipc/$name")]" ]
    no_stray_files
    # A file in the working directory is ./NAME.
    run timeout 10 "$NSCTL" run --uts=./here -- true
    [ "$status" -eq 0 ]
    [ "$(stat -f -c %T "$TMP/cwd/here")" = nsfs ]
    umount "$TMP/cwd/here"
    rm "$TMP/cwd/here"
    "$NSCTL" unpin "$name"
    [ ! -e "/run/netns/$name" ]
    [ ! -e "/run/nsctl/uts/$name" ]
}

@test "habits: enter and list --task NAME of digits: a PID first; where none, the error names the pin" {
    require_root
    name=$(dead_pid)
    ip netns add "$name"
    NETNS+=("$name")
    run -125 timeout 10 "$NSCTL" enter "$name" true
    [ "$output" = "nsctl: enter: no process $name; for the pin, use /run/netns/$name" ]
    # The path it names works.
    run timeout 10 "$NSCTL" enter "/run/netns/$name" readlink /proc/self/ns/net
    [ "$status" -eq 0 ]
    [ "$output" = "net:[$(stat -c %i "/run/netns/$name")]" ]
    run -1 timeout 10 "$NSCTL" list --task "$name"
    [ "$output" = "nsctl: list: --task $name: no process $name; /run/netns/$name is a pin: nsctl list -P lists pinned namespaces" ]
    # A live PID is still a PID.
    start_target --uts
    run timeout 10 "$NSCTL" enter "$TARGET" readlink /proc/self/ns/uts
    [ "$output" = "$(readlink /proc/$TARGET/ns/uts)" ]
}

@test "habits: a stale pin (an empty file in /run/netns or /run/nsctl/TYPE): unpin removes it, pin replaces it, both say so" {
    require_root
    name=habits-stale-$$-$BATS_TEST_NUMBER
    PINS=("/run/netns/$name" "/run/nsctl/uts/$name")
    mkdir -p /run/netns /run/nsctl/uts
    # What a reboot leaves of "ip netns add": the file, no mount.
    : > "/run/netns/$name"
    : > "/run/nsctl/uts/$name"
    run timeout 10 "$NSCTL" unpin "$name"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"/run/netns/$name: a stale pin (an empty file, no namespace mounted on it): removed"* ]]
    [[ "$output" == *"/run/nsctl/uts/$name: a stale pin"*"removed"* ]]
    [ ! -e "/run/netns/$name" ]
    [ ! -e "/run/nsctl/uts/$name" ]
    # pin replaces one.
    : > "/run/netns/$name"
    start_target --net
    run timeout 10 "$NSCTL" pin -n "$TARGET" "$name"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"/run/netns/$name: a stale pin (an empty file, no namespace mounted on it): replaced"* ]]
    [ "$(stat -c %i "/run/netns/$name")" = "$(ns_inode "$TARGET" net)" ]
    netns_exec_here "$name" readlink /proc/self/ns/net | grep -q "$(ns_inode "$TARGET" net)"
    # A live pin is no stale one: unpin unmounts it as always.
    run timeout 10 "$NSCTL" unpin "$name"
    [ "$status" -eq 0 ]
    [[ "$output" != *stale* ]]
    [ ! -e "/run/netns/$name" ]
    # run and unshare --net=NAME replace one too.
    : > "/run/netns/$name"
    run timeout 10 "$NSCTL" run --net="$name" -- readlink /proc/self/ns/net
    [ "$status" -eq 0 ]
    [[ "$output" == *"/run/netns/$name: a stale pin (an empty file, no namespace mounted on it): replaced"* ]]
    [ "${lines[1]}" = "net:[$(stat -c %i "/run/netns/$name")]" ]
    "$NSCTL" unpin "$name"
    # A file with content is not a stale pin: left untouched.
    echo data > "/run/netns/$name"
    run -1 timeout 10 "$NSCTL" unpin "$name"
    [[ "$output" == *"not a pin (no namespace is mounted there); left untouched"* ]]
    [ "$(cat "/run/netns/$name")" = data ]
    rm "/run/netns/$name"
}

@test "habits: enter into a user namespace that maps no uid 0 names the cause and what helps" {
    require_root
    require_userns
    # util-linux's "unshare -U" maps nothing but makes its owner root's: join it as root would.
    start_target --user
    run -125 timeout 10 "$NSCTL" enter "$TARGET" true
    echo "$output"
    [ "$output" = "nsctl: enter: setgid(0): Invalid argument: group 0 is not mapped in the joined user namespace; give IDs it maps with -S/-G, or keep yours with --preserve-credentials (see /proc/TARGET/gid_map)" ]
    # What it points to works.
    run timeout 10 "$NSCTL" enter --preserve-credentials "$TARGET" readlink /proc/self/ns/user
    [ "$status" -eq 0 ]
    [ "$output" = "$(readlink /proc/$TARGET/ns/user)" ]
}

@test "habits: --map-auto, --map-users=auto, --map-groups=auto map the caller's /etc/subuid and /etc/subgid ranges" {
    require_userns_for_nobody
    make_subid_user
    [ "$SUBUID" = 3100000:65536 ]
    cd /
    # An ordinary user: through newuidmap/newgidmap, as util-linux's unshare.
    run as_habits_user "$NSCTL" run --map-auto -- sh -c 'cat /proc/self/uid_map /proc/self/gid_map'
    echo "$output"
    [ "$status" -eq 0 ]
    [ "$(echo ${lines[0]})" = "0 3100000 65536" ]
    [ "$(echo ${lines[1]})" = "0 3200000 65536" ]
    run as_habits_user "$NSCTL" unshare --map-users=auto --map-groups=auto -- sh -c 'cat /proc/self/uid_map /proc/self/gid_map'
    echo "$output"
    [ "$status" -eq 0 ]
    [ "$(echo ${lines[0]})" = "0 3100000 65536" ]
    [ "$(echo ${lines[1]})" = "0 3200000 65536" ]
    # Only one of them: the other map is left to the kernel's default (empty).
    run as_habits_user "$NSCTL" run --map-users=auto -- sh -c 'cat /proc/self/uid_map; wc -l < /proc/self/gid_map'
    [ "$status" -eq 0 ]
    [ "$(echo ${lines[0]})" = "0 3100000 65536" ]
    # A user with no range is told which file lacks it.
    run -125 as_nobody "$NSCTL" run --map-auto -- true
    [[ "$output" == *"--map-auto: /etc/subuid has no range for user 65534"* ]]
    "$NSCTL" run --help | grep -q -- "--map-auto"
}

# The uid map, then the gid map, of a child PROGRAM as HABITS_USER, with OPTIONS: "I O N" lines.
maps_as_habits_user() {
    as_habits_user "$@" -- sh -c 'cat /proc/self/uid_map; echo --; cat /proc/self/gid_map' |
        awk '{ $1 = $1; print }'
}

@test "habits: --map-subids, --map-users=subids: every subordinate range to itself (util-linux's); --map-podman: podman's map" {
    require_userns_for_nobody
    make_subid_user
    # A second range each, as podman maps every range the user has.
    usermod --add-subuids 3300000-3300999 --add-subgids 3400000-3400999 "$HABITS_USER"
    cd /
    run -0 maps_as_habits_user "$NSCTL" run --map-subids
    echo "$output"
    [ "$output" = "$(printf '3100000 3100000 65536\n3300000 3300000 1000\n--\n3200000 3200000 65536\n3400000 3400000 1000')" ]
    run -0 maps_as_habits_user "$NSCTL" unshare --map-users=subids --map-groups=subids
    [ "$output" = "$(printf '3100000 3100000 65536\n3300000 3300000 1000\n--\n3200000 3200000 65536\n3400000 3400000 1000')" ]
    # The caller is not mapped: inside it is the overflow user; files it makes are its own outside.
    run -0 as_habits_user "$NSCTL" run --map-subids -- id -u
    [ "$output" = "$(cat /proc/sys/kernel/overflowuid)" ]
    # podman unshare's map: the caller is root, every range follows from 1.
    run -0 maps_as_habits_user "$NSCTL" run --map-podman
    echo "$output"
    [ "$output" = "$(printf '0 %s 1\n1 3100000 65536\n65537 3300000 1000\n--\n0 %s 1\n1 3200000 65536\n65537 3400000 1000' "$HABITS_UID" "$HABITS_GID")" ]
    run -0 as_habits_user "$NSCTL" run --map-podman -- id -u
    [ "$output" = 0 ]
    "$NSCTL" run --help | grep -q -- "--map-podman"
    grep -q 'map.-podman' "$NSCTL_TOP/man/nsctl-run.1"
}

@test "habits: --map-auto -r, and --map-users=OUTER,INNER,COUNT, map as util-linux's unshare does" {
    require_userns_for_nobody
    make_subid_user
    cd /
    # util-linux: root to the caller, the first range from 1 (one ID shorter).
    run -0 maps_as_habits_user unshare --map-auto -r
    want=$output
    echo "util-linux: $want"
    [ "$want" = "$(printf '0 %s 1\n1 3100000 65535\n--\n0 %s 1\n1 3200000 65535' "$HABITS_UID" "$HABITS_GID")" ]
    run -0 maps_as_habits_user "$NSCTL" run --map-auto -r
    [ "$output" = "$want" ]
    run -0 maps_as_habits_user "$NSCTL" unshare -r --map-auto
    [ "$output" = "$want" ]
    # util-linux 2.38's order, OUTER,INNER,COUNT, which 2.39+ still takes.
    run -0 maps_as_habits_user unshare --map-users=3100000,0,65536 --map-groups=3200000,0,65536
    want=$output
    [ "$want" = "$(printf '0 3100000 65536\n--\n0 3200000 65536')" ]
    run -0 maps_as_habits_user "$NSCTL" run --map-users=3100000,0,65536 --map-groups=3200000,0,65536
    [ "$output" = "$want" ]
    # One separator throughout: a mix is refused, naming both forms.
    run -125 "$NSCTL" run --map-users=3100000,0:65536 true
    [[ "$output" == *"--map-users '3100000,0:65536': not INNER:OUTER:COUNT, OUTER,INNER,COUNT, auto or subids"* ]]
}

@test "habits: --keep-caps: PROGRAM keeps the new user namespace's capabilities as a uid other than 0" {
    require_userns_for_nobody
    cd /
    run as_nobody timeout 10 "$NSCTL" run -U --map-user=1000 --keep-caps -- sh -c 'id -u; grep ^CapEff /proc/self/status'
    echo "$output"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = 1000 ]
    [ "$(echo ${lines[1]} | cut -d' ' -f2)" != 0000000000000000 ]
    # Without it, the exec drops them, as util-linux's unshare without --keep-caps.
    run as_nobody timeout 10 "$NSCTL" run -U --map-user=1000 -- grep ^CapEff /proc/self/status
    [ "$(echo $output | cut -d' ' -f2)" = 0000000000000000 ]
    run -125 "$NSCTL" run -u --keep-caps true
    [[ "$output" == *"--keep-caps needs a new user namespace (-U/--user)"* ]]
}

@test "habits: enter --user-parent joins the parent of the target's user namespace, as nsenter's" {
    require_root
    require_userns
    unshare -Ur sh -c "readlink /proc/self/ns/user > '$TMP/middle'; exec unshare -U --map-root-user sleep 600" &
    TARGET=$!
    TEST_PIDS+=("$TARGET")
    wait_for_exec "$TARGET" sleep
    [ "$(readlink /proc/$TARGET/ns/user)" != "$(cat "$TMP/middle")" ]
    run timeout 10 "$NSCTL" enter --user-parent "$TARGET" readlink /proc/self/ns/user
    echo "$output"
    [ "$status" -eq 0 ]
    [ "$output" = "$(cat "$TMP/middle")" ]
    # With other types: those from the target, the user namespace its parent.
    run timeout 10 "$NSCTL" enter --user-parent -U "$TARGET" readlink /proc/self/ns/user
    [ "$output" = "$(cat "$TMP/middle")" ]
    # Where the parent is nsctl's own user namespace, nothing is joined for it.
    start_target --user
    run timeout 10 "$NSCTL" enter --user-parent "$TARGET" readlink /proc/self/ns/user
    [ "$status" -eq 0 ]
    [ "$output" = "$(readlink /proc/$$/ns/user)" ]
}

@test "habits: enter -W/--wdns DIR: the working directory as the joined mounts show it" {
    require_root
    # A directory that exists only in the target's mount namespace.
    "$PRIVATE_MOUNT_NS" sh -c "mount -t tmpfs habits-$$ /mnt && mkdir /mnt/only-inside && exec sleep 600" &
    TARGET=$!
    TEST_PIDS+=("$TARGET")
    wait_for_exec "$TARGET" sleep
    [ ! -d /mnt/only-inside ]
    # -r: DIR in the target's root, which in a chroot is not its mount
    # namespace's (where setns() puts the caller, as nsenter's does).
    for form in -W --wdns; do
        run timeout 10 "$NSCTL" enter -m -r "$form" /mnt/only-inside "$TARGET" pwd
        echo "$form: $output"
        [ "$status" -eq 0 ]
        [ "$output" = /mnt/only-inside ]
    done
    run -125 "$NSCTL" enter -m -W /mnt/only-inside --wd=/ "$TARGET" true
    [[ "$output" == *"--wd and --wdns are mutually exclusive"* ]]
    run -125 "$NSCTL" enter -W /nonexistent-habits "$TARGET" true
    [[ "$output" == *"--wdns /nonexistent-habits: chdir: No such file or directory"* ]]
}

@test "habits: list -W/--nowrap: one line per namespace, the NSFS pins joined by commas, as lsns" {
    require_root
    name=habits-$$-$BATS_TEST_NUMBER
    ip netns add "$name"
    NETNS+=("$name")
    touch "$TMP/pin"
    mount --bind "/run/netns/$name" "$TMP/pin"
    PINS+=("$TMP/pin")
    ino=$(stat -c %i "/run/netns/$name")
    for form in -W --nowrap; do
        run timeout 10 "$NSCTL" list "$form" -t net -o NS,NSFS --net
        echo "$output"
        [ "$status" -eq 0 ]
        line=$(echo "$output" | awk -v i="$ino" '$1 == i')
        [ "$(echo "$line" | awk '{ print $2 }' | tr ',' '\n' | sort | tr '\n' ' ')" = "$(printf '%s\n' "/run/netns/$name" "$TMP/pin" | sort | tr '\n' ' ')" ]
        [ "$(echo "$output" | grep -c "$TMP/pin")" -eq 1 ]
    done
}

@test "habits: enter NAME as ip netns exec NAME: its /sys/class/net and /etc/netns/NAME, side by side" {
    require_root
    require_ip_netns_exec
    name=habits-$$-$BATS_TEST_NUMBER
    ip netns add "$name"
    NETNS+=("$name")
    ip netns exec "$name" ip link add hv$$a type veth peer name hv$$b
    mkdir -p "/etc/netns/$name"
    ETC_NETNS=$name
    echo "nameserver 192.0.2.$((BATS_TEST_NUMBER % 250 + 1))" > "/etc/netns/$name/resolv.conf"
    host_resolv=$(cat /etc/resolv.conf)
    host_mnt=$(readlink /proc/self/ns/mnt)
    script='ls /sys/class/net | tr "\n" " "; echo; cat /etc/resolv.conf'
    want=$(timeout 10 ip netns exec "$name" sh -c "$script")
    [[ "$want" == *"hv$$a hv$$b lo"* ]]
    # A NAME only ip netns add made: the default.
    run timeout 10 "$NSCTL" enter "$name" sh -c "$script; readlink /proc/self/ns/mnt"
    echo "$output"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "$(echo "$want" | sed -n 1p)" ]
    [ "${lines[1]}" = "$(echo "$want" | sed -n 2p)" ]
    # In a mount namespace of its own: the host's stay as they were.
    [ "${lines[2]}" != "$host_mnt" ]
    # --netns-exec asks for it with a path target, and with a PID.
    run timeout 10 "$NSCTL" enter --netns-exec "/run/netns/$name" sh -c "$script"
    [ "$status" -eq 0 ]
    [ "$output" = "$want" ]
    ip netns exec "$name" sleep 600 &
    TARGET=$!
    TEST_PIDS+=("$TARGET")
    wait_for_exec "$TARGET" sleep
    run timeout 10 "$NSCTL" enter -n --netns-exec "$TARGET" sh -c 'ls /sys/class/net | tr "\n" " "'
    [ "$status" -eq 0 ]
    [ "$output" = "$(echo "$want" | sed -n 1p)" ]
    # Without it, a PID target sees the host's /sys, as before.
    run timeout 10 "$NSCTL" enter -n "$TARGET" sh -c 'ls /sys/class/net | tr "\n" " "'
    [ "$output" = "$(ls /sys/class/net | tr '\n' ' ')" ]
    [ "$(cat /etc/resolv.conf)" = "$host_resolv" ]
    "$NSCTL" enter --help | grep -q -- "--netns-exec"
}

@test "habits: enter --keep-caps keeps the capabilities across -S and the exec, as nsenter's" {
    require_root
    require_userns
    "$NSCTL" run --map-users=0:3300000:65536 --map-groups=0:3300000:65536 -- sleep 600 &
    supervisor=$!
    TEST_PIDS+=("$supervisor")
    for i in $(seq 2000); do TARGET=$(pgrep -P "$supervisor" sleep) && break; sleep 0.01; done
    [ -n "$TARGET" ]
    TEST_PIDS+=("$TARGET")
    run timeout 10 "$NSCTL" enter -S 1000 -G 1000 --keep-caps "$TARGET" sh -c 'id -u; grep ^CapEff /proc/self/status'
    echo "$output"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = 1000 ]
    [ "$(echo ${lines[1]} | cut -d' ' -f2)" != 0000000000000000 ]
    run timeout 10 "$NSCTL" enter -S 1000 -G 1000 "$TARGET" grep ^CapEff /proc/self/status
    [ "$(echo $output | cut -d' ' -f2)" = 0000000000000000 ]
}

@test "habits: enter -t PID with type options, -a, --all and --target, side by side with nsenter" {
    require_root
    start_target --uts --ipc --net
    local links='readlink /proc/self/ns/uts /proc/self/ns/ipc /proc/self/ns/net /proc/self/ns/mnt'
    want=$(readlink "/proc/$TARGET/ns/uts" "/proc/$TARGET/ns/ipc" "/proc/$TARGET/ns/net" /proc/self/ns/mnt)
    for form in "-t $TARGET -u" "--target $TARGET --uts" "--target=$TARGET -u" "-u -t $TARGET" \
        "-t $TARGET -a" "--all --target $TARGET" "-a -t $TARGET" "-t $TARGET -u -i"; do
        # shellcheck disable=SC2086
        run timeout 10 "$NSCTL" enter $form -- sh -c "$links"
        echo "nsctl enter $form: $output"
        [ "$status" -eq 0 ]
        # shellcheck disable=SC2086
        witness=$(nsenter $form -- sh -c "$links")
        [ "$output" = "$witness" ]
    done
    # nsenter reads -ui as --uts=i (and fails); nsctl as -u -i, which nsenter -u -i means.
    run -0 "$NSCTL" enter -t "$TARGET" -ui -- sh -c "$links"
    [ "$output" = "$(nsenter -t "$TARGET" -u -i -- sh -c "$links")" ]
    # -t -u joined only the uts namespace; -a every one that differs.
    run -0 "$NSCTL" enter -t "$TARGET" -u -- sh -c "$links"
    [ "${lines[0]}" = "$(readlink /proc/$TARGET/ns/uts)" ]
    [ "${lines[1]}" = "$(readlink /proc/self/ns/ipc)" ]
    run -0 "$NSCTL" enter -t "$TARGET" -a -- sh -c "$links"
    [ "$output" = "$want" ]
    # With -a, --TYPE=FILE takes that type's place, as nsenter --all --uts=FILE.
    run -0 "$NSCTL" enter -a --uts=/proc/self/ns/uts -t "$TARGET" -- sh -c "$links"
    [ "${lines[0]}" = "$(readlink /proc/self/ns/uts)" ]
    [ "${lines[1]}" = "$(readlink /proc/$TARGET/ns/ipc)" ]
    [ "$output" = "$(nsenter --all --uts=/proc/self/ns/uts -t "$TARGET" -- sh -c "$links")" ]
    # Every operand after -t is PROGRAM: here "echo" and its argument.
    run -0 "$NSCTL" enter -t "$TARGET" -u echo "$TARGET"
    [ "$output" = "$TARGET" ]
}

@test "habits: enter -t PID alone, -Z and --all of a one-type file fail saying why; before, --target was --target-caps" {
    require_root
    start_target --uts
    # nsenter -t PID joins nothing, nsctl enter PID every type that differs: neither is assumed.
    run -125 "$NSCTL" enter -t "$TARGET" touch "$TMP/ran"
    [[ "$output" == *"--target $TARGET without a type option: nsenter joins nothing then, nsctl enter every namespace that differs"* ]]
    run -125 "$NSCTL" enter -Z -t "$TARGET" -a touch "$TMP/ran"
    [[ "$output" == *"--follow-context: nsctl enter sets no SELinux context"*runcon* ]]
    run -125 "$NSCTL" enter --follow-context -t "$TARGET" -a touch "$TMP/ran"
    [[ "$output" == *"--follow-context: nsctl enter sets no SELinux context"* ]]
    run -125 "$NSCTL" enter -a "/proc/$TARGET/ns/uts" touch "$TMP/ran"
    [[ "$output" == *"--all needs a PID or a pin NAME TARGET"* ]]
    [ ! -e "$TMP/ran" ]
    # "--target PID" was an abbreviation of --target-caps, with PID the TARGET
    # operand: now it is the TARGET itself, and --target-caps still works.
    run -0 "$NSCTL" enter --target "$TARGET" -u hostname
    [ "$output" = "$(nsenter --target "$TARGET" -u hostname)" ]
    run -0 "$NSCTL" enter --target-caps -u "$TARGET" readlink /proc/self/ns/uts
    [ "$output" = "$(readlink "/proc/$TARGET/ns/uts")" ]
}

@test "habits: a pin NAME with -a joins every type pinned under it" {
    require_root
    name=habits-$$-$BATS_TEST_NUMBER
    start_target --uts --ipc
    run -0 "$NSCTL" pin --uts --ipc "$TARGET" "$name"
    PINS+=("/run/nsctl/uts/$name" "/run/nsctl/ipc/$name")
    run -0 "$NSCTL" enter -a -t "$name" readlink /proc/self/ns/uts /proc/self/ns/ipc
    [ "$output" = "$(readlink "/proc/$TARGET/ns/uts" "/proc/$TARGET/ns/ipc")" ]
    run -0 "$NSCTL" enter -a -u "$name" readlink /proc/self/ns/uts /proc/self/ns/ipc
    [ "$output" = "$(readlink "/proc/$TARGET/ns/uts" "/proc/$TARGET/ns/ipc")" ]
}

@test "habits: unshare and run --map-root-user and --map-current-user, as util-linux unshare, as root and as nobody" {
    require_userns_for_nobody
    local show='id -u; id -g; cat /proc/self/uid_map /proc/self/gid_map'
    for sub in unshare run; do
        for form in --map-root-user --map-current-user; do
            run -0 timeout 10 "$NSCTL" "$sub" --user "$form" sh -c "$show"
            [ "$output" = "$(unshare --user "$form" sh -c "$show")" ]
            run -0 as_nobody timeout 10 "$NSCTL" "$sub" --user "$form" sh -c "$show"
            echo "nobody, $sub $form: $output"
            [ "$output" = "$(as_nobody unshare --user "$form" sh -c "$show")" ]
        done
    done
    run -0 as_nobody "$NSCTL" unshare --map-root-user id -u
    [ "$output" = 0 ]
    run -0 as_nobody "$NSCTL" unshare --map-current-user id -u
    [ "$output" = 65534 ]
    # Two names of one option: a prefix of both is no ambiguity.
    run -0 as_nobody "$NSCTL" unshare --map-ro id -u
    [ "$output" = 0 ]
    no_stray_files
}

@test "habits: -r, -c, --map-user and --map-group leave setgroups as util-linux unshare does, root too" {
    require_userns_for_nobody
    local show='cat /proc/self/setgroups /proc/self/uid_map /proc/self/gid_map'
    local forms=(-r -c --map-root-user --map-current-user --map-user=5 --map-group=5
        "--map-user=5 --map-group=6")
    for sub in unshare run; do
        for form in "${forms[@]}"; do
            # shellcheck disable=SC2086 # FORM is one or two options
            run -0 timeout 10 "$NSCTL" "$sub" --user $form sh -c "$show"
            echo "root, $sub $form: $output"
            # shellcheck disable=SC2086
            [ "$output" = "$(unshare --user $form sh -c "$show")" ]
            # shellcheck disable=SC2086
            run -0 as_nobody timeout 10 "$NSCTL" "$sub" --user $form sh -c "$show"
            echo "nobody, $sub $form: $output"
            # shellcheck disable=SC2086
            [ "$output" = "$(as_nobody unshare --user $form sh -c "$show")" ]
        done
    done
    # The witness's answers, not only the same ones: deny where a group is mapped.
    run -0 "$NSCTL" unshare -r cat /proc/self/setgroups
    [ "$output" = deny ]
    run -0 "$NSCTL" unshare --map-user=5 cat /proc/self/setgroups
    [ "$output" = allow ]
    # What util-linux refuses, root may still ask for; and deny stays deny.
    run -0 "$NSCTL" run -r --setgroups allow cat /proc/self/setgroups
    [ "$output" = allow ]
    run -0 "$NSCTL" run --map-user=5 --setgroups deny cat /proc/self/setgroups
    [ "$output" = deny ]
    run -125 as_nobody "$NSCTL" run -r --setgroups allow true
    # With ranges beside the caller's gid setgroups stays, as util-linux leaves it (its
    # --map-groups goes through newgidmap, which needs /etc/subgid lines root has not here).
    run -0 "$NSCTL" run -r --map-users 1:200000:10 --map-groups 1:200000:10 cat /proc/self/setgroups
    [ "$output" = allow ]
    no_stray_files
}

@test "habits: list's table writes a command line as lsns does in the same locale: UTF-8 characters as they are, controls escaped" {
    require_root
    local name=$'caf\xc3\xa9-\xe2\x82\xac \x1b[2J \xc2\x9b \xff end' l ours theirs
    unshare --uts bash -c 'exec -a "$1" sleep 600' bash "$name" &
    TARGET=$!
    TEST_PIDS+=("$TARGET")
    wait_for_exec "$TARGET" sleep
    ns=$(ns_inode "$TARGET" uts)
    for l in C.UTF-8 C; do
        ours=$(LANG=$l LC_ALL= "$NSCTL" list -t uts --noheadings -o NS,COMMAND | grep "^ *$ns " | sed 's/ *$//')
        theirs=$(LANG=$l LC_ALL= lsns -t uts --noheadings -o NS,COMMAND | grep "^ *$ns " | sed 's/ *$//')
        echo "LANG=$l: nsctl: $ours" | cat -v
        echo "LANG=$l: lsns:  $theirs" | cat -v
        [ -n "$ours" ]
        [ "$ours" = "$theirs" ]
        # No control byte of the target's reaches the terminal, in any locale.
        [[ "$ours" != *$'\x1b'* ]]
        [[ "$ours" != *$'\xc2\x9b'* ]]
    done
    # Nor a character that reorders what follows it (right-to-left override), which lsns writes.
    unshare --uts bash -c 'exec -a "$1" sleep 600' bash $'evil\xe2\x80\xaetxt.exe' &
    TEST_PIDS+=($!)
    wait_for_exec $! sleep
    ns=$(ns_inode $! uts)
    ours=$(LANG=C.UTF-8 LC_ALL= "$NSCTL" list -t uts --noheadings -o COMMAND "$ns")
    echo "$ours" | cat -v
    [[ "$ours" != *$'\xe2\x80\xae'* ]]
    [[ "$ours" == "evil"*"txt.exe 600" ]]
    run -0 "$NSCTL" list -r -t uts --noheadings -o COMMAND "$ns"
    [[ "$output" == "evil\x"*"txt.exe\x20600" ]]
    # Nor in JSON or a graph: U+FFFD there too (jq reads the JSON back).
    run -0 "$NSCTL" list -J -t uts -o NS,COMMAND
    [[ "$output" != *$'\xe2\x80\xae'* ]]
    [ "$(echo "$output" | jq -r ".namespaces[] | select(.ns == $ns) | .command")" = $'evil\xef\xbf\xbdtxt.exe 600' ]
    run -0 "$NSCTL" list --dot -t uts
    [[ "$output" != *$'\xe2\x80\xae'* ]]
    [[ "$output" == *$'evil\xef\xbf\xbdtxt.exe 600'* ]]
}

@test "habits: list -t net's default columns are lsns's (NETNSID and NSFS before COMMAND), +LIST after them" {
    require_root
    local form ours theirs
    for form in "-t net" "-t net -t uts" "-t net -o +PATH" "-t net -l" "-t uts" "-t net -o NS,PID" "-o +NSFS"; do
        # shellcheck disable=SC2086 # FORM is options
        ours=$("$NSCTL" list $form | head -1 | tr -s ' ' | sed 's/^ //; s/ $//')
        # shellcheck disable=SC2086
        theirs=$(lsns $form | head -1 | tr -s ' ' | sed 's/^ //; s/ $//')
        echo "$form: nsctl '$ours', lsns '$theirs'"
        [ "$ours" = "$theirs" ]
    done
    # nsctl's own spellings of the type mean the same; its "all" (lsns has none) is no type named.
    [ "$("$NSCTL" list --net | head -1 | tr -s ' ')" = "$("$NSCTL" list -t net | head -1 | tr -s ' ')" ]
    [ "$("$NSCTL" list -t all | head -1 | tr -s ' ')" = "$("$NSCTL" list | head -1 | tr -s ' ')" ]
}

@test "habits: list's -n, -p, -T and -u fail naming lsns's meaning and nsctl's; -l/--list is the list" {
    require_root
    for letter in n p T u; do
        run -2 "$NSCTL" list -$letter
        echo "$output"
        [[ "${lines[0]}" == "nsctl: list: -$letter: lsns reads it as "* ]]
    done
    run -2 "$NSCTL" list -n
    [[ "$output" == *"-n: lsns reads it as --noheadings, the other nsctl subcommands as --net"* ]]
    run -2 "$NSCTL" list -p $$
    [[ "$output" == *"-p: lsns reads it as --task PID, the other nsctl subcommands as --pid"* ]]
    run -2 "$NSCTL" list -T
    [[ "$output" == *"-T: lsns reads it as --tree, the other nsctl subcommands as --time"* ]]
    run -2 "$NSCTL" list -ru
    [[ "$output" == *"-u: lsns reads it as --notruncate, the other nsctl subcommands as --uts"* ]]
    # The long forms are what they say, and nothing else changed.
    run -0 "$NSCTL" list --net -r --noheadings -o TYPE
    [ "$(echo "$output" | sort -u)" = net ]
    run -0 "$NSCTL" list --task $$ -r --noheadings -o NS
    [ "$(echo "$output" | sort -n)" = "$(lsns --task $$ -r --noheadings -o NS | sort -n)" ]
    # -l/--list: lsns's list format, which is what list prints without --tree.
    plain=$("$NSCTL" list --task $$ -r --noheadings -o NS,TYPE | sort)
    [ -n "$plain" ]
    for form in -l --list; do
        run -0 "$NSCTL" list "$form" --task $$ -r --noheadings -o NS,TYPE
        [ "$(echo "$output" | sort)" = "$plain" ]
    done
    run -2 "$NSCTL" list -l --tree
    [[ "$output" == *"--list, --tree and --dot are mutually exclusive"* ]]
    # Before, "--list" was taken as an abbreviation of --list-columns.
    run -0 "$NSCTL" list --list -o NS
    [[ "$output" != *"namespace identifier"* ]]
}

@test "habits: no PROGRAM runs a login shell (argv[0] -bash), as nsenter and unshare do, \$SHELL else the passwd entry's" {
    require_root
    start_target --uts
    # With SHELL set, side by side with util-linux.
    for tool in "nsenter -t $TARGET -u" "$NSCTL enter -u $TARGET" "unshare -u" "$NSCTL unshare -u" "$NSCTL run -u"; do
        run sh -c "echo 'echo \"argv0=\$0\"; exit 3' | SHELL=/bin/bash $tool"
        echo "$tool: $status $output"
        [ "$status" -eq 3 ]
        [ "$output" = "argv0=-bash" ]
    done
    # SHELL unset: the shell of the caller's passwd entry (util-linux 2.40's rule too).
    shell=$(getent passwd "$(id -u)" | cut -d: -f7)
    [ -n "$shell" ] && [ -x "$shell" ] || skip "the caller's passwd entry names no shell here"
    for tool in "$NSCTL enter -u $TARGET" "$NSCTL unshare -u" "$NSCTL run -u"; do
        run sh -c "echo 'echo \"argv0=\$0\"' | env -u SHELL $tool"
        echo "$tool: $status $output"
        [ "$output" = "argv0=-${shell##*/}" ]
    done
    # As an ordinary user in its user namespace, its SHELL.
    require_userns_for_nobody
    run sh -c "echo 'echo \"argv0=\$0 uid=\$(id -u)\"' | SHELL=/bin/sh setpriv --reuid=65534 --regid=65534 --clear-groups $(reachable_path "$NSCTL") unshare -U -r"
    echo "$output"
    [ "$output" = "argv0=-sh uid=0" ]
}
