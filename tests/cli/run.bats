#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# nsctl run: new namespaces seen through /proc and util-linux, exit mirroring, supervision.

load helpers
bats_require_minimum_version 1.5.0

# The host's mounts this file's tests could leave behind: any proc, anything under
# $TMP, anything named after this file.  Other tests on the machine mount
# and unmount elsewhere meanwhile; those are not ours to judge.
own_mounts() {
    mount_table | awk -v tmp="$TMP" '$2 == "proc" || index($1, tmp) == 1 || $0 ~ /nsctl-run-/'
}

setup() {
    HOST_BEFORE=$(hostname)
    DOMAIN_BEFORE=$(domainname)
    TMP=$(mktemp -d)
    chmod 755 "$TMP"
    MOUNTS_BEFORE=$(own_mounts)
}

teardown() {
    cleanup_pids
    [ -n "${CGROUP:-}" ] && rmdir "$CGROUP" 2>/dev/null
    [ -n "${SUBID_LINE:-}" ] && sed -i "/^$SUBID_LINE\$/d" /etc/subuid /etc/subgid
    mounts_after=$(own_mounts)
    rm -rf "$TMP"
    [ "$(hostname)" = "$HOST_BEFORE" ]
    [ "$(domainname)" = "$DOMAIN_BEFORE" ]
    [ "$mounts_after" = "$MOUNTS_BEFORE" ]
}

all_types="cgroup ipc mnt net pid time user uts"

# Inodes of every /proc/self/ns link, as PROGRAM sees them, one "type inode" a line.
inside_inodes() {
    for t in $all_types; do echo "$t $(stat -L -c %i /proc/self/ns/$t)"; done
}

# Each OPTION given makes exactly the namespace of its type new.
run_makes_only_its_namespace() {
    local opt new t inside changed
    for opt in "$@"; do
        run "$NSCTL" run $opt -- sh -c "for t in $all_types; do echo \"\$t \$(stat -L -c %i /proc/self/ns/\$t)\"; done"
        echo "$opt: $status $output"
        [ "$status" -eq 0 ]
        new=0
        for t in $all_types; do
            inside=$(echo "$output" | awk -v t=$t '$1 == t {print $2}')
            [ -n "$inside" ]
            if [ "$inside" != "$(ns_inode $$ $t)" ]; then new=$((new + 1)); changed=$t; fi
        done
        [ "$new" -eq 1 ]
        case $opt in
            -C) [ "$changed" = cgroup ] ;; -i) [ "$changed" = ipc ] ;; -m) [ "$changed" = mnt ] ;;
            -n) [ "$changed" = net ] ;; -p) [ "$changed" = pid ] ;; -T) [ "$changed" = time ] ;;
            -U) [ "$changed" = user ] ;; -u) [ "$changed" = uts ] ;;
        esac
    done
}

@test "run: each type option makes exactly that namespace new" {
    require_root
    run_makes_only_its_namespace -C -i -m -n -p -T -u
}

@test "run: -U makes exactly the user namespace new" {
    require_root
    require_userns
    run_makes_only_its_namespace -U
}

@test "run: long forms, all eight at once, seen from outside by lsns" {
    require_root
    require_userns
    "$NSCTL" run --cgroup --ipc --mount --net --pid --time --user --uts sleep 600 &
    TEST_PIDS+=($!)
    for i in $(seq 100); do child=$(pgrep -P $! sleep) && break; sleep 0.05; done
    [ -n "$child" ]
    wait_for_exec "$child" sleep
    for t in $all_types; do
        [ "$(ns_inode "$child" $t)" != "$(ns_inode $$ $t)" ]
        # lsns reads every process on the machine, and other tests' processes come
        # and go meanwhile, which makes it miss one now and then: a few tries.
        local seen=no try
        for try in 1 2 3 4 5; do
            if lsns -n -o NS -t $t -p "$child" | grep -qx " *$(ns_inode "$child" $t)"; then
                seen=yes
                break
            fi
            sleep 0.2
        done
        echo "$t: lsns saw it: $seen"
        [ "$seen" = yes ]
    done
}

@test "run: --hostname and --domainname inside, the host's names unchanged" {
    require_root
    name="nsctl-run-$$-$BATS_TEST_NUMBER"
    run "$NSCTL" run -u --hostname "$name" --domainname "dom-$$" sh -c 'hostname; domainname'
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "$name" ]
    [ "${lines[1]}" = "dom-$$" ]
    [ "$(hostname)" = "$HOST_BEFORE" ]
}

@test "run: PROGRAM is PID 1 of a new PID namespace, --mount-proc shows only it" {
    require_root
    run "$NSCTL" run -p --mount-proc sh -c 'echo $$; ls /proc | grep -c "^[0-9]"'
    echo "$output"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = 1 ]
    [ "${lines[1]}" -le 3 ]
    # The host's /proc still shows the host.
    [ "$(ls /proc | grep -c '^[0-9]')" -gt 10 ]
}

@test "run: --mount-proc=DIR mounts there, in the new mount namespace only" {
    require_root
    mkdir "$TMP/proc"
    run "$NSCTL" run -p --mount-proc="$TMP/proc" sh -c "cat $TMP/proc/1/comm; grep -c ' $TMP/proc ' /proc/self/mountinfo"
    echo "$output"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = sh ]
    [ "${lines[1]}" = 1 ]
    ! grep -q " $TMP/proc " /proc/self/mountinfo || false
}

@test "run: --propagation sets the propagation inside; private by default" {
    require_root
    # A shared mount of the host's, to see what each mode makes of its copy.
    mkdir "$TMP/shared"
    mount -t tmpfs -o size=1m nsctl-run-test "$TMP/shared"
    mount --make-shared "$TMP/shared"
    show="awk -v d=$TMP/shared '\$5 == d {print \$7}' /proc/self/mountinfo"
    run "$NSCTL" run -m sh -c "$show"
    r_private=$output
    run "$NSCTL" run -m --propagation slave sh -c "$show"
    r_slave=$output
    run "$NSCTL" run -m --propagation shared sh -c "$show"
    r_shared=$output
    run "$NSCTL" run -m --propagation unchanged sh -c "$show"
    r_unchanged=$output
    host=$(awk -v d="$TMP/shared" '$5 == d {print $7}' /proc/self/mountinfo)
    # A mount made inside a private namespace does not reach the host.
    run "$NSCTL" run -m sh -c "mount -t tmpfs none $TMP/shared && grep -c ' $TMP/shared ' /proc/self/mountinfo"
    inside_count=$output
    outside_count=$(grep -c " $TMP/shared " /proc/self/mountinfo)
    umount "$TMP/shared"
    echo "host=$host private=$r_private slave=$r_slave shared=$r_shared unchanged=$r_unchanged"
    [[ "$host" == shared:* ]]
    [[ "$r_private" != *shared:* && "$r_private" != *master:* ]]
    [[ "$r_slave" == "master:${host#shared:}" ]]
    [[ "$r_shared" == shared:* ]]
    [ "$r_unchanged" = "$host" ]
    [ "$inside_count" = 2 ]
    [ "$outside_count" = 1 ]
}

@test "run: --loopback brings lo up in the new network namespace" {
    require_root
    run "$NSCTL" run -n ip -o link show lo
    [ "$status" -eq 0 ]
    [[ "$output" != *"<LOOPBACK,UP"* ]]
    run "$NSCTL" run -n --loopback ip -o link show lo
    [ "$status" -eq 0 ]
    [[ "$output" == *"<LOOPBACK,UP"* ]]
    # Connecting to a closed port: refused with lo up, unreachable with it down.
    run "$NSCTL" run -n --loopback bash -c 'exec 3<>/dev/tcp/127.0.0.1/9'
    [[ "$output" == *"Connection refused"* ]]
    run "$NSCTL" run -n bash -c 'exec 3<>/dev/tcp/127.0.0.1/9'
    [[ "$output" == *"unreachable"* ]]
}

@test "run: --monotonic and --boottime shift the clocks inside, before PROGRAM starts" {
    require_root
    run "$NSCTL" run -T --monotonic 86400 --boottime -3 sh -c 'cat /proc/self/timens_offsets; cut -d. -f1 /proc/uptime'
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "${lines[0]}" =~ ^monotonic\ +86400\ +0$ ]]
    [[ "${lines[1]}" =~ ^boottime\ +-3\ +0$ ]]
    host=$(cut -d. -f1 /proc/uptime)
    [ $((host - lines[2])) -ge 2 ]
    [ $((host - lines[2])) -le 4 ]
    # CLOCK_MONOTONIC as PROGRAM reads it (python, else skip that part).
    if command -v python3 >/dev/null; then
        inside=$("$NSCTL" run -T --monotonic 86400 python3 -c 'import time; print(int(time.monotonic()))')
        outside=$(python3 -c 'import time; print(int(time.monotonic()))')
        [ $((inside - outside)) -ge 86399 ]
        [ $((inside - outside)) -le 86401 ]
    fi
}

@test "run: -U -r as root writes uid_map and gid_map" {
    require_root
    require_userns
    run "$NSCTL" run -r sh -c 'cat /proc/self/uid_map /proc/self/gid_map; id -u'
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "${lines[0]}" =~ ^\ +0\ +0\ +1$ ]]
    [[ "${lines[1]}" =~ ^\ +0\ +0\ +1$ ]]
    [ "${lines[2]}" = 0 ]
}

@test "run: --map-users and --map-groups, several ranges, as root" {
    require_root
    require_userns
    run "$NSCTL" run -U --map-users 0:100000:1000 --map-users 1000:0:1 --map-groups 0:200000:10 \
        --setgroups deny cat /proc/self/uid_map /proc/self/gid_map /proc/self/setgroups
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "${lines[0]}" =~ ^\ +0\ +100000\ +1000$ ]]
    [[ "${lines[1]}" =~ ^\ +1000\ +0\ +1$ ]]
    [[ "${lines[2]}" =~ ^\ +0\ +200000\ +10$ ]]
    [ "${lines[3]}" = deny ]
}

@test "run: -c and --map-user map the caller's own ids" {
    require_root
    require_userns
    run "$NSCTL" run -c cat /proc/self/uid_map
    [[ "$output" =~ ^\ +0\ +0\ +1$ ]]
    run "$NSCTL" run --map-user 1234 --map-group 4321 sh -c 'cat /proc/self/uid_map /proc/self/gid_map; id -u; id -g'
    echo "$output"
    [[ "${lines[0]}" =~ ^\ +1234\ +0\ +1$ ]]
    [[ "${lines[1]}" =~ ^\ +4321\ +0\ +1$ ]]
    [ "${lines[2]}" = 1234 ]
    [ "${lines[3]}" = 4321 ]
}

@test "run: unprivileged -r: uid_map, gid_map, and setgroups deny written first" {
    require_userns_for_nobody
    run as_nobody "$NSCTL" run -r -u --hostname "nsctl-run-$$" sh -c 'cat /proc/self/uid_map /proc/self/gid_map /proc/self/setgroups; id -u; hostname'
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "${lines[0]}" =~ ^\ +0\ +65534\ +1$ ]]
    [[ "${lines[1]}" =~ ^\ +0\ +65534\ +1$ ]]
    [ "${lines[2]}" = deny ]
    [ "${lines[3]}" = 0 ]
    [ "${lines[4]}" = "nsctl-run-$$" ]
}

@test "run: unprivileged, every type at once, with proc, loopback and offsets" {
    require_userns_for_nobody
    run as_nobody "$NSCTL" run -r -C -i -p -T -n -u --mount-proc --loopback --monotonic 100 \
        sh -c 'echo $$; ls /proc | grep -c "^[0-9]"; ip -o link show lo; cat /proc/self/timens_offsets'
    echo "$output"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = 1 ]
    [ "${lines[1]}" -le 3 ]
    [[ "${lines[2]}" == *"<LOOPBACK,UP"* ]]
    [[ "${lines[3]}" =~ ^monotonic\ +100\ +0$ ]]
}

@test "run: unprivileged ranges beyond one's own id go through newuidmap, which may refuse" {
    require_userns_for_nobody
    command -v newuidmap >/dev/null || skip "newuidmap (uidmap package) is not installed"
    if grep -q '^nobody:' /etc/subuid 2>/dev/null; then skip "nobody has subordinate ids here"; fi
    run as_nobody "$NSCTL" run -U --map-users 0:65534:1 --map-users 1:100000:10 true
    echo "$output"
    [ "$status" -eq 125 ]
    [[ "$output" == *"newuidmap"* ]]
    [[ "$output" == *"nsctl: run: cannot write the user namespace maps of PID"* ]]
}

@test "run: unprivileged ranges granted in /etc/subuid and /etc/subgid are written by newuidmap/newgidmap" {
    require_userns_for_nobody
    command -v newuidmap >/dev/null || skip "newuidmap (uidmap package) is not installed"
    # A range for nobody (by number, as shadow allows), beyond any other test's ids,
    # removed again by teardown.
    SUBID_LINE="65534:$((400000 + 1000 * ($$ % 500))):1000"
    local base=${SUBID_LINE#65534:}
    base=${base%:1000}
    echo "$SUBID_LINE" >>/etc/subuid
    echo "$SUBID_LINE" >>/etc/subgid
    run as_nobody "$NSCTL" run -U --setgroups deny --map-users 0:65534:1 --map-users "1:$base:1000" \
        --map-groups 0:65534:1 --map-groups "1:$base:1000" \
        sh -c 'cat /proc/self/uid_map /proc/self/gid_map /proc/self/setgroups; id -u; id -g'
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "${lines[0]}" =~ ^\ +0\ +65534\ +1$ ]]
    [[ "${lines[1]}" =~ ^\ +1\ +$base\ +1000$ ]]
    [[ "${lines[2]}" =~ ^\ +0\ +65534\ +1$ ]]
    [[ "${lines[3]}" =~ ^\ +1\ +$base\ +1000$ ]]
    [ "${lines[4]}" = deny ]
    [ "${lines[5]}" = 0 ]
    [ "${lines[6]}" = 0 ]
    # One id beyond the grant: newgidmap refuses, and so does nsctl, with 125.
    run as_nobody "$NSCTL" run -U --map-users 0:65534:1 --map-users "1:$base:1000" \
        --map-groups 0:65534:1 --map-groups "1:$((base + 1)):1000" true
    echo "$output"
    [ "$status" -eq 125 ]
    [[ "$output" == *"nsctl: run: cannot write the user namespace maps of PID"* ]]
}

@test "run: unprivileged without -U is refused by the kernel, with 125" {
    require_root
    run as_nobody "$NSCTL" run -u true
    echo "$output"
    [ "$status" -eq 125 ]
    [[ "$output" == *"clone()"*"Operation not permitted"* ]]
}

@test "run: exit mirroring: code, 126, 127, death by signal" {
    require_root
    run "$NSCTL" run -u sh -c 'exit 42'
    [ "$status" -eq 42 ]
    run "$NSCTL" run -u true
    [ "$status" -eq 0 ]
    run -127 "$NSCTL" run -u /nonexistent/program
    [[ "$output" == *"/nonexistent/program"* ]]
    echo data >"$TMP/not-executable"
    chmod 644 "$TMP/not-executable"
    run -126 "$NSCTL" run -u "$TMP/not-executable"
    [[ "$output" == *"not-executable"*"Permission denied"* ]]
    run bash -c '"$NSCTL" run -u sh -c "kill -USR1 \$\$"; echo "status $?"'
    [[ "$output" == *"status 138"* ]]
    # Death by signal, as the shell sees it: the same signal, not an exit code.
    run bash -c '"$NSCTL" run -u sh -c "kill -TERM \$\$" & wait $!; kill -l $(($? - 128))'
    [ "$output" = TERM ]
}

@test "run: signals sent to nsctl reach PROGRAM" {
    require_root
    "$NSCTL" run -u sh -c 'trap "echo got-usr1 > '"$TMP"'/sig; exit 3" USR1; echo ready > '"$TMP"'/ready; while :; do sleep 0.1; done' &
    nsctl_pid=$!
    TEST_PIDS+=($nsctl_pid)
    for i in $(seq 100); do [ -f "$TMP/ready" ] && break; sleep 0.05; done
    kill -USR1 $nsctl_pid
    wait $nsctl_pid || status=$?
    [ "${status:-0}" -eq 3 ]
    [ "$(cat "$TMP/sig")" = got-usr1 ]
}

@test "run: kill -9 of nsctl kills PROGRAM" {
    require_root
    "$NSCTL" run -u -p sleep 600 &
    nsctl_pid=$!
    TEST_PIDS+=($nsctl_pid)
    for i in $(seq 100); do child=$(pgrep -P $nsctl_pid sleep) && break; sleep 0.05; done
    [ -n "$child" ]
    kill -9 $nsctl_pid
    for i in $(seq 100); do [ -d /proc/$child ] || break; sleep 0.05; done
    [ ! -d /proc/$child ]
}

@test "run: --init is PID 1, PROGRAM PID 2, orphans reaped, signals passed on" {
    require_root
    run "$NSCTL" run -p --mount-proc --init sh -c 'echo $$; cat /proc/1/comm'
    echo "$output"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = 2 ]
    [ "${lines[1]}" = nsctl ]
    # An orphan whose parent exits is reaped by the init: it leaves /proc
    # altogether (a zombie would stay there), within 5 s.
    run "$NSCTL" run -p --mount-proc --init sh -c '
        orphan=$(sleep 0.1 >/dev/null 2>&1 & echo $!)
        for i in $(seq 100); do
            [ -e /proc/$orphan ] || { echo "orphan $orphan reaped"; exit 0; }
            sleep 0.05
        done
        echo "orphan $orphan still there: $(cat /proc/$orphan/stat)"; exit 1'
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "${lines[-1]}" == "orphan "*" reaped" ]]
    # PROGRAM dies of the signal, and so does nsctl.
    run bash -c '"$NSCTL" run -p --init sh -c "kill -TERM \$\$" & wait $!; kill -l $(($? - 128))'
    [ "$output" = TERM ]
    # A SIGTERM to nsctl reaches PROGRAM: one that catches it says so, and ends as it chose.
    "$NSCTL" run -p --init sh -c 'trap "echo caught TERM >\"\$0\"; exit 3" TERM
        : >"$0.ready"; while :; do sleep 0.05; done' "$TMP/got" &
    nsctl_pid=$!
    TEST_PIDS+=($nsctl_pid)
    for _ in $(seq 200); do [ -e "$TMP/got.ready" ] && break; sleep 0.025; done
    [ -e "$TMP/got.ready" ]
    kill -TERM $nsctl_pid
    status=0
    wait $nsctl_pid || status=$?
    [ "$status" -eq 3 ]
    [ "$(cat "$TMP/got")" = "caught TERM" ]
    # One without a handler dies of it (it is not PID 1), and so does nsctl.
    rm -f "$TMP/got.ready"
    "$NSCTL" run -p --init sh -c ': >"$0.ready"; exec sleep 600' "$TMP/got" &
    nsctl_pid=$!
    TEST_PIDS+=($nsctl_pid)
    for _ in $(seq 200); do [ -e "$TMP/got.ready" ] && break; sleep 0.025; done
    [ -e "$TMP/got.ready" ]
    kill -TERM $nsctl_pid
    status=0
    wait $nsctl_pid || status=$?
    [ "$status" -eq 143 ]
}

@test "run: --into-cgroup starts the child in that cgroup v2 directory" {
    require_root
    base=$(awk '$3 == "cgroup2" {print $2; exit}' /proc/self/mounts)
    [ -n "$base" ] || skip "no cgroup v2 hierarchy mounted"
    CGROUP="$base/nsctl-run-$$-$BATS_TEST_NUMBER"
    mkdir "$CGROUP"
    run "$NSCTL" run -u --into-cgroup "$CGROUP" cat /proc/self/cgroup
    echo "$output"
    [ "$status" -eq 0 ]
    echo "$output" | grep -q "^0::/nsctl-run-$$-$BATS_TEST_NUMBER$"
    # A new cgroup namespace is made once the child is there: rooted in it.
    run -0 "$NSCTL" run -C --into-cgroup "$CGROUP" sh -c 'grep "^0::" /proc/self/cgroup; readlink /proc/self/ns/cgroup'
    echo "$output"
    [ "${lines[0]}" = "0::/" ]
    [ "${lines[1]}" != "$(readlink /proc/self/ns/cgroup)" ]
    # The child is a copy: one that shared nsctl's memory would take nsctl's memory
    # with it into the cgroup (cpuset.mems).
    run -0 env "ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0" strace -f -qq -e trace=clone,clone3 \
        -o "$BATS_TEST_TMPDIR/clone" \
        "$NSCTL" run -u --into-cgroup "$CGROUP" true
    cat "$BATS_TEST_TMPDIR/clone"
    grep -q 'CLONE_NEWUTS' "$BATS_TEST_TMPDIR/clone"
    run grep -c 'CLONE_VM' "$BATS_TEST_TMPDIR/clone"
    [ "$output" = 0 ]
    run "$NSCTL" run -u --into-cgroup /tmp true
    [ "$status" -eq 125 ]
    [[ "$output" == *"--into-cgroup '/tmp': not a cgroup v2 directory"* ]]
}

@test "run: --root, --wd, --setuid, --setgid apply inside" {
    require_root
    run "$NSCTL" run -u -w /tmp -S 65534 -G 65534 sh -c 'pwd; id -u; id -g; id -G'
    echo "$output"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = /tmp ]
    [ "${lines[1]}" = 65534 ]
    [ "${lines[2]}" = 65534 ]
    [ "${lines[3]}" = 65534 ]
    # A root with only a shell and its libraries in it.
    sh_path=$(readlink -f /bin/sh)
    for f in "$sh_path" $(ldd "$sh_path" | grep -oE '/[^ ]+'); do
        mkdir -p "$TMP/root$(dirname "$f")"
        cp "$f" "$TMP/root$f"
    done
    mkdir -p "$TMP/root/bin" "$TMP/root/sub"
    [ -e "$TMP/root/bin/sh" ] || cp "$sh_path" "$TMP/root/bin/sh"
    run "$NSCTL" run -m -R "$TMP/root" /bin/sh -c 'pwd; echo *'
    echo "$output"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = / ]
    [[ "${lines[1]}" == *sub* ]]
    run "$NSCTL" run -m -R "$TMP/root" -w /sub /bin/sh -c pwd
    [ "$output" = /sub ]
}

@test "run: -v reports the child's PID and its new namespaces" {
    require_root
    run "$NSCTL" run -v -u -n sh -c 'echo "inside $(stat -L -c %i /proc/self/ns/uts)"'
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" =~ PID\ of\ child\ created\ by\ clone\(\)\ is\ [0-9]+ ]]
    inode=$(echo "$output" | awk '/^inside/ {print $2}')
    [[ "$output" == *"new uts namespace uts:[$inode]"* ]]
    [[ "$output" == *"new net namespace net:["* ]]
}

@test "run: PROGRAM gets fds 0-2 only, unless --keep-fd" {
    require_root
    run bash -c 'exec 7</dev/null; "$NSCTL" run -u ls /proc/self/fd'
    [ "$status" -eq 0 ]
    [[ "$output" != *7* ]]
    run bash -c 'exec 7</dev/null; "$NSCTL" run -u --keep-fd 7 ls /proc/self/fd'
    [[ "$output" == *7* ]]
    run bash -c 'exec 7</dev/null; "$NSCTL" run -u --keep-fds ls /proc/self/fd'
    [[ "$output" == *7* ]]
}

@test "run: bad input fails with 125, names the input, creates nothing" {
    # (No PROGRAM is no bad input: a login shell, as habits.bats shows.)
    for args in "--bogus true" "-u --hostname '' true" \
        "-u --hostname $(printf 'x%.0s' $(seq 65)) true" "--hostname h true" "--domainname d true" \
        "--map-users 0:0 true" "--map-users 0:0:0 true" "--map-users 0:4294967294:2 true" \
        "--map-users a:b:c true" "--map-users 0:0:1 --map-users 0:1:1 true" \
        "--map-users 0:0:1 --map-users 1:0:1 true" "--map-user 4294967295 true" \
        "--setgroups maybe true" "-T --monotonic abc true" "-T --monotonic 99999999999 true" \
        "-T --boottime -999999999 true" "--monotonic 5 true" "--loopback true" \
        "--propagation weird -m true" "--propagation private true" \
        "--mount-proc --propagation shared true" "--init -u true" "true" \
        "-u --into-cgroup /nonexistent true" "-u --keep-fd 99 true"; do
        eval "set -- $args"
        run "$NSCTL" run "$@"
        echo "args '$args': status $status: $output"
        [ "$status" -eq 125 ]
        [[ "$output" == "nsctl: run: "* ]]
    done
    run "$NSCTL" run -u --hostname "$(printf 'x%.0s' $(seq 65))" true
    [[ "$output" == *"longer than 64 bytes"* ]]
    run "$NSCTL" run --map-users 0:0:1 --map-users 0:1:1 true
    [[ "$output" == *"--map-users '0:1:1': overlaps"* ]]
    run "$NSCTL" run -T --monotonic abc true
    [[ "$output" == *"--monotonic 'abc'"* ]]
    run "$NSCTL" run --bogus true
    [ "${lines[0]}" = "nsctl: run: unrecognized option '--bogus'" ]
    run "$NSCTL" run -u --hostname
    [ "${lines[0]}" = "nsctl: run: option '--hostname' needs an argument" ]
}

@test "run: a map of 341 lines is refused, 340 accepted" {
    require_root
    require_userns
    args=()
    for i in $(seq 0 339); do args+=(--map-users "$i:$((1000 + i)):1"); done
    run "$NSCTL" run -U "${args[@]}" sh -c 'wc -l < /proc/self/uid_map'
    echo "$output"
    [ "$status" -eq 0 ]
    [ "$output" = 340 ]
    args+=(--map-users 340:1340:1)
    run "$NSCTL" run -U "${args[@]}" true
    [ "$status" -eq 125 ]
    [[ "$output" == *"more than 340 ranges"* ]]
}

@test "run: --help goes to stdout, exits 0, lists every option" {
    run "$NSCTL" run --help
    [ "$status" -eq 0 ]
    [[ "$output" == "Usage: nsctl run"* ]]
    for opt in --cgroup --ipc --mount --net --pid --time --user --uts --hostname --domainname \
        --map-root --map-current --map-user --map-group --map-users --map-groups --setgroups \
        --init --mount-proc --propagation --loopback --monotonic --boottime --into-cgroup --root \
        --wd --setuid --setgid --keep-fd --keep-fds --verbose; do
        [[ "$output" == *"$opt"* ]]
    done
}

@test "run: completion knows option arguments, PROGRAM and its arguments" {
    run complete_words nsctl run --propagation s
    [ "$(echo "$output" | sort | tr '\n' ' ')" = "shared slave " ]
    run complete_words nsctl run --setgroups ""
    [ "$(echo "$output" | sort | tr '\n' ' ')" = "allow deny " ]
    run complete_words nsctl run -u --hostname foo hostnam
    echo "$output" | grep -qx hostname
    run complete_words nsctl unshare -r -- ls /et
    echo "$output" | grep -qx /etc
    run complete_words nsctl unshare --in
    [ -z "$output" ]
    run complete_words nsctl run --in
    echo "$output" | grep -qx -- --init
}

@test "run: a failure in the child before exec exits 125, names the input, runs nothing" {
    require_root
    run "$NSCTL" run -u -w /nonexistent-nsctl-dir touch "$TMP/ran"
    echo "$output"
    [ "$status" -eq 125 ]
    [[ "$output" == "nsctl: run: --wd '/nonexistent-nsctl-dir': chdir: No such file or directory" ]]
    run "$NSCTL" run -m -R /nonexistent-nsctl-root touch "$TMP/ran"
    [ "$status" -eq 125 ]
    [[ "$output" == *"--root '/nonexistent-nsctl-root'"* ]]
    run "$NSCTL" run -m --mount-proc=/nonexistent-nsctl-proc touch "$TMP/ran"
    [ "$status" -eq 125 ]
    [[ "$output" == *"--mount-proc '/nonexistent-nsctl-proc'"* ]]
    [ ! -e "$TMP/ran" ]
}

@test "run: --TYPE=FILE pins every new namespace, seen by nsenter; a failure pins nothing" {
    require_root
    require_userns
    pins="$TMP/cgroup $TMP/ipc $TMP/mnt $TMP/net $TMP/pid $TMP/time $TMP/user $TMP/uts"
    run "$NSCTL" run --cgroup="$TMP/cgroup" --ipc="$TMP/ipc" --mount="$TMP/mnt" --net="$TMP/net" \
        --pid="$TMP/pid" --time="$TMP/time" --user="$TMP/user" --uts="$TMP/uts" \
        -r --hostname "nsctl-pin-$$" \
        stat -L -c %i /proc/self/ns/cgroup /proc/self/ns/ipc /proc/self/ns/mnt /proc/self/ns/net \
        /proc/self/ns/pid /proc/self/ns/time /proc/self/ns/user /proc/self/ns/uts
    echo "$output"
    status_run=$status
    inodes=$(for p in $pins; do stat -c %i "$p" 2>/dev/null; done | tr '\n' ' ')
    host=$(nsenter --uts="$TMP/uts" hostname 2>&1)
    for p in $pins; do umount "$p" 2>/dev/null; rm -f "$p"; done
    [ "$status_run" -eq 0 ]
    [ "$inodes" = "$(echo "$output" | tr '\n' ' ')" ]
    [ "$host" = "nsctl-pin-$$" ]
    # Unprivileged: the pin fails (no mount on the host), and none is left.
    run as_nobody "$NSCTL" run -r --net="$TMP/net" --uts="$TMP/uts" true
    echo "$output"
    [ "$status" -eq 125 ]
    [[ "$output" == *"--net='$TMP/net': cannot pin"* ]]
    [ ! -e "$TMP/net" ]
    [ ! -e "$TMP/uts" ]
}
