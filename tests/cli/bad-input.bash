# SPDX-License-Identifier: GPL-2.0-or-later
# The bad-input table's helpers, shared by bad-input*.bats: one "bad" line is one row.
# A file loads this alone: it brings helpers and hardening, and the setup and
# teardown every table uses (a file that needs more defines its own setup,
# calling bad_input_setup).

load helpers
load hardening

setup() {
    bad_input_setup
}

teardown() {
    bad_input_teardown
}

bad_input_setup() {
    TMP=$(mktemp -d)
    # Anything global a row could create carries MARK in its name.
    MARK=hardening-$$-$BATS_TEST_NUMBER
    MOUNTS_BEFORE=$(own_mount_table)
    mkfifo "$TMP/fifo"
    touch "$TMP/file"
    mkdir "$TMP/dir"
    FIXTURES=$(ls -A "$TMP")
    ROW_FAILURES=0
    BAD_WRAP=() # what runs nsctl, if anything: see without_time_namespace
    BAD_NSCTL=  # the nsctl it runs, where not $NSCTL: see as_nobody_rows
}

bad_input_teardown() {
    cleanup_pids
    rm -rf "$TMP"
    [ "$(own_mount_table)" = "$MOUNTS_BEFORE" ]
}

# What a row could leave behind: mounts and files of this test, its own
# files; and what it could change on the host: its names.  (Not the test's
# own fds: nsctl, a child, cannot add to them, and bats opens some of its own
# meanwhile.  The fds PROGRAM gets are checked by the rows that run one.)
leftovers() {
    grep -F -e "$TMP" -e "$MARK" /proc/self/mountinfo || true
    find /run/nsctl /run/netns -name "*$MARK*" 2>/dev/null || true
    ls -A "$TMP"
    uname -n
    domainname
}

# bad SUBCOMMAND STATUS NEEDLE [ARG...]: one row of the table.
# nsctl runs in a session of its own, so that any process it leaves is found,
# and under a timeout, so that a row that blocks (on a FIFO, a tty) fails.
bad() {
    local sub=$1 want=$2 needle=$3 sid before after
    shift 3
    before=$(leftovers)
    # (The status goes through a file: bats warns of a "run" ending with 127.)
    run --separate-stderr setsid --wait sh -c 'echo $$ >"$0"; "$@"; echo $? >"$0.status"' \
        "$TMP/sid" timeout -s KILL 20 "${BAD_WRAP[@]}" "${BAD_NSCTL:-$NSCTL}" "$sub" "$@"
    sid=$(cat "$TMP/sid")
    status=$(cat "$TMP/sid.status")
    rm -f "$TMP/sid" "$TMP/sid.status"
    after=$(leftovers)
    local problem=
    if [ "$status" -ne "$want" ]; then
        problem="status $status, want $want"
    elif [[ "$stderr" != "nsctl: $sub: "* ]]; then
        problem="stderr does not start with 'nsctl: $sub: '"
    elif [[ "$stderr" != *"$needle"* ]]; then
        problem="the message does not name the input ($needle)"
    elif [ -n "$output" ]; then
        problem="something on stdout"
    elif pgrep -s "$sid" >/dev/null; then
        problem="processes left behind: $(pgrep -s "$sid" | tr '\n' ' ')"
    elif [ "$before" != "$after" ]; then
        problem="left behind: $(diff <(echo "$before") <(echo "$after") | tail -n +2)"
    fi
    if [ -n "$problem" ]; then
        printf 'FAILED: nsctl %s' "$sub"
        printf " '%s'" "$@"
        printf ': %s\n  stderr: %s\n' "$problem" "$stderr"
        ROW_FAILURES=$((ROW_FAILURES + 1))
    fi
    return 0
}

# A zombie of our own: a child that its parent (sleep) never reaps.
start_zombie() {
    sh -c 'true & exec sleep 600' &
    local parent=$!
    TEST_PIDS+=("$parent")
    wait_for_exec "$parent" sleep
    for _ in $(seq 200); do
        ZOMBIE=$(cat "/proc/$parent/task/$parent/children" 2>/dev/null | tr -d ' ')
        [ -n "$ZOMBIE" ] && [ "$(awk '{print $3}' "/proc/$ZOMBIE/stat")" = Z ] && return 0
        sleep 0.01
    done
    return 1
}

# A kernel thread (PF_KTHREAD in the flags of /proc/PID/stat), found by reading
# only: not PID 1 or 2, and one that lives as long as the machine (ksoftirqd,
# migration, kswapd...) rather than a kworker, which comes and goes.  Sets KTHREAD.
# In a PID namespace of its own (a container) no kernel thread is visible and
# none can be made: the test is skipped, saying so.
find_kernel_thread() {
    local stat pid rest flags comm any=
    KTHREAD=
    for stat in /proc/[0-9]*/stat; do
        pid=${stat#/proc/}
        pid=${pid%/stat}
        [ "$pid" -gt 2 ] || continue
        rest=$(cat "$stat" 2>/dev/null) || continue
        comm=${rest#*(}
        comm=${comm%)*}
        rest=${rest##*) }
        flags=$(echo "$rest" | awk '{print $7}')
        [ -n "$flags" ] && [ $((flags & 0x00200000)) -ne 0 ] || continue
        case $comm in
            ksoftirqd/* | migration/* | cpuhp/* | kswapd* | kthreadd) KTHREAD=$pid && return 0 ;;
            kworker*) ;;
            *) any=${any:-$pid} ;;
        esac
    done
    KTHREAD=$any
    [ -n "$KTHREAD" ] ||
        skip "no kernel thread is visible in this PID namespace (a container's), and none can be made"
}

# A prefix for "bad" (BAD_WRAP) that runs nsctl as on a kernel without time
# namespaces (before Linux 5.6, or built without them): in a mount namespace of
# its own, the time files of its /proc/PID/ns are hidden (the other ones
# bind-mounted back), unshare() and setns() fail with EINVAL for CLONE_NEWTIME,
# and the pidfd's time namespace ioctls with EOPNOTSUPP, as such a kernel's do
# (one with the ioctls, Linux 6.11, but no time namespaces; nsctl asks them first).
WITHOUT_TIME_NAMESPACE=("$PRIVATE_MOUNT_NS" sh -c '
    dir=$0/ns-$$
    mkdir "$dir" || exit 125
    for t in cgroup ipc net pid pid_for_children user uts; do
        touch "$dir/$t" && mount --bind "/proc/$$/ns/$t" "$dir/$t" || exit 125
    done
    mount -t tmpfs -o mode=0555 none "/proc/$$/ns" || exit 125
    for t in cgroup ipc net pid pid_for_children user uts; do
        touch "/proc/$$/ns/$t" && mount --move "$dir/$t" "/proc/$$/ns/$t" || exit 125
    done
    rm -rf "$dir"
    exec "$@"')
# A prefix for "bad" that runs nsctl as an ordinary user (nobody): TMP is opened to it.
as_nobody_rows() {
    chmod 755 "$TMP"
    BAD_WRAP=(setpriv --reuid=65534 --regid=65534 --clear-groups)
    BAD_NSCTL=$(reachable_path "$NSCTL")
}

# (seccomp cannot read the flags clone3() takes in memory: no clone3() at all, as before 5.3.)
without_time_namespace() {
    BAD_WRAP=("${WITHOUT_TIME_NAMESPACE[@]}" "$TMP" "$TOOLS/seccomp-deny" -s unshare-newtime -s setns-newtime \
        -s clone3 -i PIDFD_GET_TIME_NAMESPACE:EOPNOTSUPP -i PIDFD_GET_TIME_FOR_CHILDREN_NAMESPACE:EOPNOTSUPP --)
}
