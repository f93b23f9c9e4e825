# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the bats files: targets made by independent tools, cleaned up by PID.

: "${NSCTL:?run the tests through tests/run}"

# "run -N" and "run !" check the status themselves (bats 1.5 and later).
bats_require_minimum_version 1.5.0

source "${BASH_SOURCE[0]%/*}/place.bash"

# PIDs this test started; teardown kills exactly these, never anything else.
TEST_PIDS=()

# COMMAND... in a mount namespace of its own where /proc is no proc filesystem,
# as in a chroot or a minimal container without it: an empty tmpfs hides it
# (unmounting it could uncover another proc below, as in a container whose
# /proc was mounted over the host's).  In the sanitizer build the tmpfs holds
# just self/environ: before libc starts, AddressSanitizer reads its options
# there and nowhere else, and LeakSanitizer, which cannot work without /proc,
# must be told off.
without_proc() {
    local fake=""
    built_with_asan && fake=1
    private_mount_ns sh -c '
        mount -t tmpfs none /proc &&
            if [ -n "$0" ]; then
                mkdir /proc/self && printf "ASAN_OPTIONS=detect_leaks=0\0" >/proc/self/environ
            fi && exec "$@"' "$fake" "$@"
}

# Whether nsctl is the AddressSanitizer build.
built_with_asan() {
    ldd "$NSCTL" | grep -q libasan
}

# Start "unshare [options] sleep" in the background; its PID is TARGET.
# Without --fork, unshare execs sleep, so the PID is the sleeper in the new namespaces.
start_target() {
    unshare_here "$@"
    "${UNSHARE_HERE[@]}" sleep 600 &
    TARGET=$!
    TEST_PIDS+=("$TARGET")
    wait_for_exec "$TARGET" sleep
}

# Wait until PID runs COMMAND (its exec is done, so its namespaces are final).
wait_for_exec() {
    local pid=$1 comm=$2 i
    for i in $(seq 200); do
        [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$comm" ] && return 0
        sleep 0.01
    done
    echo "process $pid never ran $comm" >&2
    return 1
}

# Wait until PID sleeps (state S). The kernel sets a new comm in execve()
# before it closes the close-on-exec fds, so a matching comm alone can show
# fds that the exec is about to close. Once sleep blocks, the exec is done.
wait_until_asleep() {
    local pid=$1 i stat
    for i in $(seq 200); do
        stat=$(cat "/proc/$pid/stat" 2>/dev/null) || return 1
        stat=${stat##*) }
        [ "${stat%% *}" = S ] && return 0
        sleep 0.01
    done
    echo "process $pid never went to sleep" >&2
    return 1
}

cleanup_pids() {
    local pid
    for pid in "${TEST_PIDS[@]+"${TEST_PIDS[@]}"}"; do
        kill -KILL "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null || true
    done
    TEST_PIDS=()
}

# A PID that names no process: a child of ours, already reaped.
dead_pid() {
    sh -c 'exit 0' &
    local pid=$!
    wait "$pid"
    echo "$pid"
}

require_root() {
    [ "$(id -u)" -eq 0 ] || skip "needs root (running as uid $(id -u))"
}

# Where nobody cannot reach the build (a checkout under /root, mode 0700),
# tests/run made a copy it can (NSCTL_REACHABLE_BUILD, NSCTL_REACHABLE_TOP):
# print PATH, or the copy's name for it where PATH is in the build or checkout.
reachable_path() {
    local a=$1
    if [ -n "${NSCTL_REACHABLE_BUILD:-}" ] && [[ "$a" == "$NSCTL_BUILD" || "$a" == "$NSCTL_BUILD"/* ]]; then
        a=$NSCTL_REACHABLE_BUILD${a#"$NSCTL_BUILD"}
    elif [ -n "${NSCTL_REACHABLE_TOP:-}" ] && [[ "$a" == "$NSCTL_TOP" || "$a" == "$NSCTL_TOP"/* ]]; then
        a=$NSCTL_REACHABLE_TOP${a#"$NSCTL_TOP"}
    fi
    printf '%s\n' "$a"
}

# Run a command as an ordinary user (nobody), with no supplementary groups;
# arguments that name a file of the build or the checkout name one it can reach.
as_nobody() {
    local args=() a
    for a in "$@"; do
        args+=("$(reachable_path "$a")")
    done
    setpriv --reuid=65534 --regid=65534 --clear-groups "${args[@]}"
}

require_userns_for_nobody() {
    require_root
    require_userns
    as_nobody unshare --user true 2>/dev/null ||
        skip "an unprivileged user cannot create user namespaces here"
}

# The inode of a /proc/PID/ns link, as the kernel shows it.
ns_inode() {
    stat -L -c %i "/proc/$1/ns/$2"
}

# The part of the mount table a test can have made, as mount points, types
# and sources, sorted: mounts whose mount point names this test's TMP or MARK
# (pins, proc and tmpfs mounts, binds), pins under /run/netns and /run/nsctl
# named with this test file's $$, and the places nsctl must never mount over
# or change (/, /proc, /sys, /dev, /run, /tmp, /etc and below it, /var).
# The rest of the host's table is others' (services, other sessions' tests,
# a replay's chroot) and is never compared.  /run/netns and /run/nsctl/mnt
# themselves are left out: the first pin there makes them mounts of their own
# (shared, as iproute2 makes /run/netns; private for mount-namespace pins),
# and they stay, by design, as "ip netns" leaves /run/netns.
mount_table() {
    awk -v pid="$$" -v tmp="${TMP:-/nonexistent}" -v mark="${MARK:-/nonexistent}" '
        index($5, tmp) || index($5, mark) { print $5, $9, $10; next }
        $5 ~ /^\/run\/(netns|nsctl)\// && index($5, pid) { print $5, $9, $10; next }
        $5 ~ /^\/(proc|sys|dev|run|tmp|var)?$/ || $5 ~ /^\/etc(\/|$)/ { print $5, $9, $10 }
        ' /proc/self/mountinfo | sort
}

# Complete the words given, as bash would at the end of the line; print the candidates.
complete_words() {
    bash -c '
        source "$1"; shift
        COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
        _nsctl
        printf "%s\n" "${COMPREPLY[@]}"
    ' complete "$NSCTL_TOP/completions/nsctl" "$@"
}
