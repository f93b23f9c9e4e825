#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The benchmark harness (bench/): its bare programs, farm and driver do what
# they claim, and a quick run measures every peer and leaves nothing behind.

load helpers
load hardening

bats_require_minimum_version 1.5.0

setup() {
    TMP=$(mktemp -d)
    BENCH=$NSCTL_BUILD/bench
    # Other sessions mount meanwhile: only this test's own mounts are judged.
    MARK=nsctl-bench-
    MOUNTS_BEFORE=$(own_mount_table)
}

teardown() {
    cleanup_pids
    rm -rf "$TMP"
    [ "$(own_mount_table)" = "$MOUNTS_BEFORE" ]
}

# Every process descending from PID, as "PID:STARTTIME" (so a reused PID never matches).
descendants() {
    local pids=("$1") out=() p child start
    while [ ${#pids[@]} -gt 0 ]; do
        p=${pids[0]}
        pids=("${pids[@]:1}")
        for child in $(cat /proc/"$p"/task/*/children 2>/dev/null); do
            start=$(awk '{ print $22 }' "/proc/$child/stat" 2>/dev/null)
            [ -n "$start" ] || continue # gone already
            pids+=("$child")
            out+=("$child:$start")
        done
    done
    echo "${out[@]+"${out[@]}"}"
}

# Wait until farm wrote "ready" into FILE: up to 60 s (creating network
# namespaces waits behind the kernel's cleanup of those earlier tests dropped).
farm_ready() {
    for _ in $(seq 3000); do grep -q ready "$1" && return 0; sleep 0.02; done
    echo "farm not ready after 60 s: $(cat "$1")"
    return 1
}

# Fail if any of the "PID:STARTTIME" processes still exists.
none_alive() {
    local entry
    for entry in "$@"; do
        [ "$(awk '{ print $22 }' "/proc/${entry%%:*}/stat" 2>/dev/null)" != "${entry#*:}" ] || {
            echo "still alive: $entry ($(tr '\0' ' ' <"/proc/${entry%%:*}/cmdline"))"
            return 1
        }
    done
}

@test "bench: bare-run and bare-unshare make the namespaces they are given" {
    require_root
    run "$BENCH/bare-run" uts,net readlink /proc/self/ns/uts
    [ "$status" -eq 0 ]
    [ "$output" != "$(readlink /proc/$$/ns/uts)" ]
    run "$BENCH/bare-run" pid sh -c 'echo $$'
    [ "$output" = 1 ]
    run "$BENCH/bare-unshare" ipc readlink /proc/self/ns/ipc
    [ "$status" -eq 0 ]
    [ "$output" != "$(readlink /proc/$$/ns/ipc)" ]
    run "$BENCH/bare-unshare" uts readlink /proc/self/ns/net
    [ "$output" = "$(readlink /proc/$$/ns/net)" ]
}

@test "bench: bare programs end as PROGRAM ends, and fail with 125 on bad input" {
    require_root
    run "$BENCH/bare-run" uts sh -c 'exit 7'
    [ "$status" -eq 7 ]
    run "$BENCH/bare-run" nosuchtype true
    [ "$status" -eq 125 ]
    run -127 "$BENCH/bare-unshare" uts /nonexistent
    [ "$status" -eq 127 ]
    run "$BENCH/bare-enter" uts "$(dead_pid)" true
    [ "$status" -eq 125 ]
    [[ "$output" == *pidfd_open* ]]
}

@test "bench: bare-pin pins the new network namespace PROGRAM runs in, or a process's, and removes the pin" {
    require_root
    run -0 "$BENCH/bare-pin" add "$TMP/pin" readlink /proc/self/ns/net
    [ "$output" != "$(readlink /proc/$$/ns/net)" ]
    # The file holds the namespace PROGRAM was in (nsfs mounted on it), with no process left.
    [ "$(stat -f -c %T "$TMP/pin")" = nsfs ]
    [ "$output" = "net:[$(stat -c %i "$TMP/pin")]" ]
    grep -q " ${TMP}/pin " /proc/self/mountinfo
    run -0 "$BENCH/bare-pin" del "$TMP/pin"
    [ ! -e "$TMP/pin" ]
    ! grep " ${TMP}/pin " /proc/self/mountinfo || false
    # attach: the network namespace of a process of ours.
    start_target --net
    run -0 "$BENCH/bare-pin" attach "$TARGET" "$TMP/pin"
    [ "$(readlink /proc/$TARGET/ns/net)" = "net:[$(stat -c %i "$TMP/pin")]" ]
    [ "$(readlink /proc/$TARGET/ns/net)" != "$(readlink /proc/$$/ns/net)" ]
    run -0 "$BENCH/bare-pin" del "$TMP/pin"
    [ ! -e "$TMP/pin" ]
    # A file that is there already: 125, nothing mounted (the teardown compares).
    touch "$TMP/taken"
    run -125 "$BENCH/bare-pin" add "$TMP/taken" true
    [[ "$output" == *"$TMP/taken: File exists"* ]]
    run -125 "$BENCH/bare-pin" del "$TMP/taken"
}

@test "bench: bare-enter joins a target made by util-linux unshare" {
    require_root
    start_target --uts --ipc --net
    run "$BENCH/bare-enter" uts,net "$TARGET" readlink /proc/self/ns/uts /proc/self/ns/net /proc/self/ns/ipc
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "$(readlink /proc/$TARGET/ns/uts)" ]
    [ "${lines[1]}" = "$(readlink /proc/$TARGET/ns/net)" ]
    [ "${lines[2]}" = "$(readlink /proc/$$/ns/ipc)" ]
}

@test "bench: bare-enter differing joins the types where the target is not in ours, and only those" {
    require_root
    # Its floor asks through the pidfd's namespace ioctls (Linux 6.11).
    printf '6.11\n%s\n' "$(uname -r | sed 's/[^0-9.].*//')" | sort -V -C ||
        skip "bare-enter differing needs PIDFD_GET_*_NAMESPACE (Linux 6.11)"
    start_target --uts --net
    run "$BENCH/bare-enter" differing "$TARGET" readlink /proc/self/ns/uts /proc/self/ns/net \
        /proc/self/ns/ipc /proc/self/ns/mnt
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "$(readlink /proc/$TARGET/ns/uts)" ]
    [ "${lines[1]}" = "$(readlink /proc/$TARGET/ns/net)" ]
    [ "${lines[0]}" != "$(readlink /proc/$$/ns/uts)" ]
    [ "${lines[2]}" = "$(readlink /proc/$$/ns/ipc)" ]
    # Our own mount namespace is not joined again: the working directory stays.
    [ "${lines[3]}" = "$(readlink /proc/$$/ns/mnt)" ]
    run -0 sh -c "cd /tmp && '$BENCH/bare-enter' differing $$ pwd"
    [ "$output" = /tmp ]
}

@test "bench: bare-scan counts the processes of /proc and their namespaces" {
    run "$BENCH/bare-scan"
    [ "$status" -eq 0 ]
    [[ "$output" =~ ^([0-9]+)\ ([0-9]+)$ ]]
    [ "${BASH_REMATCH[1]}" -ge 1 ]
    [ "${BASH_REMATCH[2]}" -ge 8 ]
}

@test "bench: bare-scan counts namespaces held only by an fd, a socket or as an owner, as nsctl list does" {
    require_root
    require_userns
    # Alone in a PID namespace with its own /proc: a helper that leaves a new network
    # namespace holding a socket made there, and a new uts namespace holding an fd on it.
    unshare_here --pid --fork --kill-child --mount --mount-proc
    # Bounded: a helper that fails (no user namespace here) ends the wait on it.
    run timeout 60 env NSCTL="$NSCTL" BENCH="$BENCH" "${UNSHARE_HERE[@]}" bash -c '
        /usr/bin/python3 -c "
import ctypes, os, socket, sys
libc = ctypes.CDLL(None)
net, uts = os.open(\"/proc/self/ns/net\", 0), os.open(\"/proc/self/ns/uts\", 0)
assert libc.unshare(0x40000000) == 0
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
assert libc.unshare(0x04000000) == 0
held = os.open(\"/proc/self/ns/uts\", 0)
assert libc.setns(net, 0x40000000) == 0 and libc.setns(uts, 0x04000000) == 0
# And an ipc namespace made in a user namespace by a child gone since: its owner is held by nothing.
ours, theirs = socket.socketpair()
if os.fork() == 0:
    assert libc.unshare(0x10000000 | 0x08000000) == 0
    socket.send_fds(theirs, [b\"x\"], [os.open(\"/proc/self/ns/ipc\", 0)])
    os._exit(0)
# The child'"'"'s end closed here: if it dies before sending, recv_fds sees the end.
theirs.close()
_, owned, _, _ = socket.recv_fds(ours, 1, 1)
assert len(owned) == 1
os.wait()
print(\"ready\", flush=True)
sys.stdin.read()" <&3 3<&- | { read -r ready
            "$BENCH/bare-scan"
            "$NSCTL" list --noheadings -r -o NS,NPROCS,HOLDERS | awk "\$2 == 0 && \$3 != \"\"" | wc -l; }
        ' 3< <(sleep 5)
    [ "$status" -eq 0 ]
    # Four processes (bash, python, the subshell, the scan); the eight namespaces they
    # are in, the three held and the owner of one; nsctl list shows the three held too.
    [ "${lines[0]}" = "4 12" ]
    [ "${lines[1]}" = 3 ]
}

@test "bench: the driver runs commands in turns and stops at a failing one" {
    run "$BENCH/driver" -n 3 -w 1 a sh -c "echo a >>$TMP/order" ::: b sh -c "echo b >>$TMP/order"
    [ "$status" -eq 0 ]
    [ "$(tr -d '\n' <"$TMP/order")" = abababab ]
    [ "${#lines[@]}" -eq 2 ]
    [[ "${lines[0]}" =~ ^a,3,[0-9.]+,[0-9.]+,[0-9.]+,[0-9.]+,[0-9.]+,[0-9]+,1.0000,[0-9.]+,[0-9.]+$ ]]
    [[ "${lines[1]}" =~ ^b,3,[0-9.]+,[0-9.]+,[0-9.]+,[0-9.]+,[0-9.]+,[0-9]+,[0-9.]+,1.0000,[0-9.]+$ ]]
    run "$BENCH/driver" -n 3 ok true ::: bad false
    [ "$status" -eq 1 ]
    [[ "$output" == *"bad: exited with status 1"* ]]
}

@test "bench: the driver's CPU time is the command's, apart from its wall time" {
    # A sleeper spends 300 ms of wall time and next to no CPU; a busy loop about as
    # much CPU as wall time (on a busy machine less, never more: one thread; at a
    # load of 13 on two cores, a quarter of it was seen).
    run "$BENCH/driver" -n 3 -w 0 idle sleep 0.3 ::: busy sh -c 'i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done'
    [ "$status" -eq 0 ]
    IFS=, read -r _ _ idle_wall _ _ _ _ _ _ _ idle_cpu <<<"${lines[0]}"
    IFS=, read -r _ _ busy_wall _ _ _ _ _ _ _ busy_cpu <<<"${lines[1]}"
    awk -v w="$idle_wall" -v c="$idle_cpu" 'BEGIN { exit !(w >= 300000 && c < 0.1 * w) }'
    awk -v w="$busy_wall" -v c="$busy_cpu" 'BEGIN { exit !(c > 0.05 * w && c <= 1.05 * w) }'
}

@test "bench: farm starts N processes, a quarter in own uts, ipc and net namespaces, and reaps them on SIGTERM" {
    require_root
    "$BENCH/farm" 40 >"$TMP/farm.out" &
    local farm=$!
    TEST_PIDS+=("$farm")
    farm_ready "$TMP/farm.out"
    [ "$(cat "$TMP/farm.out")" = "ready 40" ]
    children=$(cat /proc/$farm/task/$farm/children)
    [ "$(echo $children | wc -w)" -eq 40 ]
    own=0
    for c in $children; do
        # Each runs farm-sleeper: exec'd, it shares no pages with farm (see bench/farm.c).
        [ "$(readlink /proc/$c/exe)" = "$(realpath "$BENCH/farm-sleeper")" ]
        if [ "$(readlink /proc/$c/ns/uts)" != "$(readlink /proc/$farm/ns/uts)" ]; then
            [ "$(readlink /proc/$c/ns/ipc)" != "$(readlink /proc/$farm/ns/ipc)" ]
            [ "$(readlink /proc/$c/ns/net)" != "$(readlink /proc/$farm/ns/net)" ]
            own=$((own + 1))
        else
            [ "$(readlink /proc/$c/ns/net)" = "$(readlink /proc/$farm/ns/net)" ]
        fi
    done
    [ "$own" -eq 10 ]
    procs=$(descendants "$farm")
    kill -TERM "$farm"
    wait "$farm"
    none_alive $procs
}

@test "bench: the bare scan, lsns and nsctl list see the same namespaces of a farm, network ones too" {
    require_root
    # As the list benchmark runs: a PID namespace and a /proc of its own, the farm alone in it.
    unshare_here --pid --fork --kill-child --mount --mount-proc
    run --separate-stderr env BENCH="$BENCH" NSCTL="$NSCTL" TMP="$TMP" "${UNSHARE_HERE[@]}" bash -c '
        : >"$TMP/farm.out" # there before the first look for "ready"
        "$BENCH/farm" 40 >"$TMP/farm.out" &
        farm=$!
        for _ in $(seq 3000); do grep -q ready "$TMP/farm.out" && break; sleep 0.02; done
        # Command substitutions, not <(...): each scan has ended (and is reaped) before the next.
        bare=$("$BENCH/bare-scan")
        # The namespaces processes are in (pins of the machine are no part of the farm).
        lsns -n -r -o NS,TYPE,NPROCS >"$TMP/lsns.raw" 2>"$TMP/lsns.err"
        "$NSCTL" list --noheadings -r -o NS,TYPE,NPROCS >"$TMP/nsctl.raw" 2>"$TMP/nsctl.err"
        for t in lsns nsctl; do awk "\$3 > 0 { print \$1, \$2 }" "$TMP/$t.raw" | sort >"$TMP/$t"; done
        echo "$(cat "$TMP/farm.out") ${bare#* } $(wc -l <"$TMP/lsns") $(grep -c " net\$" "$TMP/lsns")"
        kill -TERM "$farm"
        wait "$farm"'
    # On a failure bats shows what the test printed: what each saw.
    echo "output: $output"
    echo "stderr: $stderr"
    head -n 50 "$TMP"/lsns.raw "$TMP"/nsctl.raw "$TMP"/*.err
    [ "$status" -eq 0 ]
    # lsns's warnings (about a process that ended during its scan, say) are shown above, not judged.
    [ -z "$stderr" ]
    [ ! -s "$TMP/nsctl.err" ]
    # The eight every process of it starts in, and a uts, ipc and net namespace for each fourth of 40.
    [ "$output" = "ready 40 38 38 11" ]
    cmp "$TMP/lsns" "$TMP/nsctl"
}

@test "bench: a farm killed with SIGKILL takes its children with it" {
    require_root
    "$BENCH/farm" 20 >"$TMP/farm.out" &
    local farm=$!
    TEST_PIDS+=("$farm")
    farm_ready "$TMP/farm.out"
    procs=$(descendants "$farm")
    [ "$(echo $procs | wc -w)" -eq 20 ]
    kill -KILL "$farm"
    wait "$farm" || true
    for i in $(seq 100); do none_alive $procs >/dev/null && break; sleep 0.02; done
    none_alive $procs
}

@test "bench: a quick run measures every peer, writes ratios, and leaves nothing behind" {
    require_root
    BENCH_QUICK=1 BENCH_RESULTS=$TMP/results "$NSCTL_TOP/bench/run.sh" "$NSCTL_BUILD" >"$TMP/out" 2>&1 3>&- &
    local bench=$!
    TEST_PIDS+=("$bench")
    procs=
    while kill -0 "$bench" 2>/dev/null; do
        procs="$procs $(descendants "$bench")"
        sleep 0.05
    done
    wait "$bench"
    status=$?
    cat "$TMP/out"
    [ "$status" -eq 0 ]
    none_alive $procs
    # Other suites may pin and unpin at the same time: look for this run's names only.
    ! ls /run/netns 2>/dev/null | grep "^nsctl-bench-$bench-" || false
    csv=$TMP/results/results.csv
    for row in run,uts unshare,uts enter,uts run,all enter,all list,100; do
        grep -E "^$row,util-linux,[0-9.]+,[0-9.]+,[0-9.]*,[0-9.]+," "$csv"
    done
    # enter with no type named, where its floor can ask (PIDFD_GET_*_NAMESPACE, Linux 6.11).
    if printf '6.11\n%s\n' "$(uname -r | sed 's/[^0-9.].*//')" | sort -V -C; then
        grep -E "^enter,differing,util-linux,[0-9.]+,[0-9.]+,[0-9.]*,[0-9.]+," "$csv"
    else
        grep -q "enter differing: not measured" "$TMP/results/"*
    fi
    # The CPU times of the bare program, the peer and nsctl close each row.
    grep -E "^list,100,util-linux,([^,]*,){12}[0-9.]+,[0-9.]+,[0-9.]+$" "$csv"
    grep -E "^pin,attach/pin,iproute2,,[0-9.]+," "$csv"
    # Pins and their removal against their floor (bench/bare/bare-pin.c), as targets.
    for row in floor-attach/pin floor-del/unpin floor-add/unshare--net=FILE floor-add-del/unpin; do
        grep -E "^pin,$row,iproute2,[0-9.]+,[0-9.]+,[0-9.]+," "$csv"
        grep -E "^\\| pin $row: nsctl/bare <= 1.10 \\| [0-9.]+ \\| (met|NOT met) \\|$" \
            "$TMP/results/summary.md"
    done
    [ -s "$TMP/results/list-scaling.png" ]
    # Each nsctl subcommand is measured exactly when it is built.
    for sub in run unshare enter list; do
        if "$NSCTL" $sub --help >/dev/null 2>&1; then
            grep -E "^$sub,[^,]+,util-linux,[0-9.]+,[0-9.]+,[0-9.]+,[0-9.]+,[0-9.]+,[0-9.]+," "$csv"
        else
            grep -x "not measured: nsctl $sub is not built" "$TMP/out"
        fi
    done
}

@test "bench: a run interrupted while its targets and its farm live leaves nothing behind" {
    require_root
    for stage in enter list; do
        BENCH_HOLD=$stage BENCH_QUICK=1 BENCH_RESULTS=$TMP/results \
            "$NSCTL_TOP/bench/run.sh" "$NSCTL_BUILD" >"$TMP/out" 2>&1 3>&- &
        local bench=$!
        TEST_PIDS+=("$bench")
        for i in $(seq 600); do grep -q "^holding at $stage" "$TMP/out" && break; sleep 0.05; done
        grep -q "^holding at $stage" "$TMP/out"
        procs=$(descendants "$bench")
        [ "$(echo $procs | wc -w)" -ge 2 ]
        kill -TERM "$bench"
        status=0
        wait "$bench" || status=$?
        [ "$status" -eq 143 ]
        none_alive $procs
        ! ls /run/netns 2>/dev/null | grep "^nsctl-bench-$bench-" || false
    done
}

# The scenario of the pid_max test, in plain bash (it may run in a PID namespace
# of its own): pid_max raised by BENCH_PID_MAX is put back on SIGTERM while held
# at the list, and at the end of a whole quick run, which says that it raised it.
pid_max_restore_scenario() {
    local before raised bench status=0 i
    before=$(cat /proc/sys/kernel/pid_max)
    raised=$((before + 1000))
    BENCH_PID_MAX=$raised BENCH_HOLD=list BENCH_QUICK=1 BENCH_RESULTS=$TMP/results \
        "$NSCTL_TOP/bench/run.sh" "$NSCTL_BUILD" >"$TMP/out" 2>&1 3>&- &
    bench=$!
    for i in $(seq 600); do grep -q "^holding at list" "$TMP/out" && break; sleep 0.05; done
    grep -q "^holding at list" "$TMP/out" || { echo "never held at list"; cat "$TMP/out"; kill -TERM "$bench"; wait "$bench"; return 1; }
    [ "$(cat /proc/sys/kernel/pid_max)" = "$raised" ] || { echo "pid_max not raised to $raised"; kill -TERM "$bench"; wait "$bench"; return 1; }
    kill -TERM "$bench"
    wait "$bench" || status=$?
    [ "$status" -eq 143 ] || { echo "bench ended with $status on SIGTERM"; return 1; }
    [ "$(cat /proc/sys/kernel/pid_max)" = "$before" ] || { echo "pid_max not put back after SIGTERM"; return 1; }
    BENCH_PID_MAX=$raised BENCH_QUICK=1 BENCH_RESULTS=$TMP/results \
        "$NSCTL_TOP/bench/run.sh" "$NSCTL_BUILD" >"$TMP/out" 2>&1 3>&- || { echo "quick run failed"; cat "$TMP/out"; return 1; }
    grep -q "^raised kernel/pid_max from $before to $raised" "$TMP/out" || { echo "the run did not say it raised pid_max"; return 1; }
    [ "$(cat /proc/sys/kernel/pid_max)" = "$before" ] || { echo "pid_max not put back at the end"; return 1; }
    echo "pid_max $before raised to $raised and put back"
}

@test "bench: kernel.pid_max raised for the list is restored at the end and on SIGTERM" {
    require_root
    local before outer
    before=$(cat /proc/sys/kernel/pid_max)
    outer=$before
    if echo $((before + 1000)) 2>/dev/null >/proc/sys/kernel/pid_max; then
        echo "$before" >/proc/sys/kernel/pid_max
        run pid_max_restore_scenario
    else
        # At the kernel's limit, as in a container: a new PID namespace (Linux 6.14+
        # keeps pid_max per PID namespace; it starts at the limit) brought lower
        # first. Before 6.14 pid_max is one value for the whole machine: not lowered.
        printf '6.14\n%s\n' "$(uname -r | sed 's/[^0-9.].*//')" | sort -V -C ||
            skip "kernel.pid_max ($before) is at its limit and, before Linux 6.14, one value for the machine"
        # The function goes in as text: an exported one would not pass through
        # sh (dash drops such variables), which the chroot's wrapper runs.
        export TMP NSCTL_TOP NSCTL_BUILD
        unshare_here --pid --fork --kill-child --mount --mount-proc
        run "${UNSHARE_HERE[@]}" bash -c "$(declare -f pid_max_restore_scenario)
            echo 40000 >/proc/sys/kernel/pid_max && pid_max_restore_scenario"
        before=40000
    fi
    echo "$output"
    [ "$status" -eq 0 ]
    [ "${lines[-1]}" = "pid_max $before raised to $((before + 1000)) and put back" ]
    [ "$(cat /proc/sys/kernel/pid_max)" = "$outer" ]
}
