#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Another user's filesystem never makes root's nsctl wait.  A FUSE server
# (tests/tools/fuse-stall) stops answering everyone but its own processes:
# a pin bound onto one of its files (under an overlay of it, for an ordinary
# user's server: root may not walk that user's FUSE mount itself), and an fd
# its owner swaps between a socket and one of its files.  list, enter id:ID,
# enter -N, pin id:ID and compare id:ID each end within a bound, with the
# server run by nobody and by root; what nsctl leaves waiting on the server
# (its copier, lib/copier.h) ends when the server does.

load helpers
load socket-holder

# A command that waits on the server for ever fails the test, not the suite.
BATS_TEST_TIMEOUT=${BATS_TEST_TIMEOUT:-240}

setup() {
    require_root
    [ -c /dev/fuse ] || skip "no /dev/fuse here (the fuse module is not loaded)"
    # Under /tmp, which nobody can reach, whatever the checkout's place.
    TMP=$(mktemp -d /tmp/nsctl-fuse.XXXXXX)
    chmod 0755 "$TMP"
    # A node of /dev/fuse's that the server's user may open: a test's own, as
    # libfuse's installer makes /dev/fuse itself (0666).
    local numbers
    numbers=$(stat -c '%t %T' /dev/fuse)
    mknod -m 0666 "$TMP/fuse" c $((16#${numbers% *})) $((16#${numbers#* }))
    SESSIONS=()
}

teardown() {
    cleanup_pids
    # What a stalled server held waits no more once it is gone.
    wait_sessions_empty || true
    rm -rf "$TMP"
}

# The server, a pin-only uts namespace bound onto its file, and a flipper that
# swaps its fd 7 between that file and a socket of a network namespace of its
# own; then the server stalls.  As nobody (in user and mount namespaces of its
# own, the pin under an overlay) when $1 is nobody, else as root (in a mount
# namespace of its own).  FLIPPER and SERVER: PIDs; UTS: the pinned namespace.
start_stalled_server() {
    local who=$1 script
    script='
        set -e
        T=$1 STALL=$2 who=$3
        mkdir -p "$T/m"
        "$STALL" "$T/fuse" "$T/m" >"$T/stall.out" 2>&1 &
        echo $! >"$T/server.pid"
        for i in $(seq 200); do grep -q ready "$T/stall.out" && break; sleep 0.05; done
        grep -q ready "$T/stall.out"
        pin=$T/m/p
        if [ "$who" = nobody ]; then
            mkdir -p "$T/up" "$T/work" "$T/ovl"
            mount -t overlay overlay -o "lowerdir=$T/m,upperdir=$T/up,workdir=$T/work" "$T/ovl" ||
                { echo "no overlay of a FUSE mount here" >"$T/skip"; exit 0; }
            pin=$T/ovl/p
        fi
        unshare -u sh -c '\''readlink /proc/self/ns/uts >"$0/uts"; mount --bind /proc/self/ns/uts "$1"'\'' "$T" "$pin"
        /usr/bin/python3 -c "
import ctypes, os, socket, sys
libc = ctypes.CDLL(None, use_errno=True)
f = os.open(sys.argv[1], os.O_RDONLY)
if libc.unshare(0x40000000) != 0:  # CLONE_NEWNET
    raise SystemExit(\"unshare: errno %d\" % ctypes.get_errno())
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
print(\"flipping\", flush=True)
while True:
    os.dup2(s.fileno(), 7)
    os.dup2(f, 7)
" "$T/m/f" >"$T/flipper.out" 2>&1 &
        echo $! >"$T/flipper.pid"
        for i in $(seq 200); do grep -q flipping "$T/flipper.out" && break; sleep 0.05; done
        kill -USR1 "$(cat "$T/server.pid")"
        echo started >"$T/started"
        wait
    '
    if [ "$who" = nobody ]; then
        chown 65534:65534 "$TMP"
        setpriv --reuid=65534 --regid=65534 --clear-groups unshare -Urm --propagation private \
            bash -c "$script" sh "$TMP" "$(reachable_path "$NSCTL_BUILD/tests/tools/fuse-stall")" \
            nobody >"$TMP/setup.out" 2>&1 &
    else
        unshare -m --propagation private \
            bash -c "$script" sh "$TMP" "$NSCTL_BUILD/tests/tools/fuse-stall" root \
            >"$TMP/setup.out" 2>&1 &
    fi
    TEST_PIDS+=($!)
    for i in $(seq 300); do
        [ -e "$TMP/started" ] || [ -e "$TMP/skip" ] && break
        sleep 0.05
    done
    cat "$TMP/setup.out" "$TMP/stall.out" 2>/dev/null || true
    [ ! -e "$TMP/skip" ] || skip "$(cat "$TMP/skip")"
    [ -e "$TMP/started" ]
    SERVER=$(cat "$TMP/server.pid")
    FLIPPER=$(cat "$TMP/flipper.pid")
    TEST_PIDS+=("$FLIPPER" "$SERVER")
    UTS=$(tr -dc 0-9 <"$TMP/uts")
    for i in $(seq 100); do grep -q stalled "$TMP/stall.out" && break; sleep 0.05; done
    grep -q stalled "$TMP/stall.out"
}

# Run nsctl with ARGS as root, within 30 s, in a session of its own: whatever it
# leaves behind is found by that session's ID (in SESSIONS).
bounded() {
    local sidfile=$TMP/sid.${#SESSIONS[@]}
    run timeout 30 setsid -w bash -c 'echo $$ >"$0"; exec "$@"' "$sidfile" "$NSCTL" "$@"
    SESSIONS+=("$(cat "$sidfile")")
    echo "nsctl $*: status $status"
    [ "$status" -eq 0 ] || echo "$output"
    [ "$status" -ne 124 ]
}

# The PIDs of the processes still in any of SESSIONS, zombies aside: one has
# ended, and whoever it belongs to reaps it (a copier left behind belongs to
# init once nsctl is gone, which here may be slow to reap).
session_left() {
    local f s sid fields
    for f in /proc/[0-9]*/stat; do
        s=$(cat "$f" 2>/dev/null) || continue
        read -ra fields <<<"${s##*) }"
        [ "${fields[0]}" != Z ] || continue
        for sid in "${SESSIONS[@]}"; do
            [ "${fields[3]}" = "$sid" ] && echo "${f//[^0-9]/}"
        done
    done
    return 0
}

wait_sessions_empty() {
    [ ${#SESSIONS[@]} -gt 0 ] || return 0
    for i in $(seq 200); do
        [ -z "$(session_left)" ] && return 0
        sleep 0.05
    done
    echo "left behind: $(session_left)"
    return 1
}

fuse_stall_run() {
    local id
    start_stalled_server "$1"
    # The pin-only namespace is listed, from the mount table, though the walk to it waits.
    bounded list -r --noheadings -o NS,NSFS --uts
    echo "$output"
    [[ "$output" == *"$UTS "*"/p"* ]]
    id=$(ns_id "/proc/$FLIPPER/ns/net")
    [ -n "$id" ]
    if kernel_opens_by_id; then
        bounded enter "id:$id" true
        [ "$status" -eq 0 ]
        bounded pin "id:$id" "$TMP/pinned"
        [ "$status" -eq 0 ]
        [ "$(stat -L -c %i "$TMP/pinned")" = "$(ns_inode "$FLIPPER" net)" ]
        bounded unpin "$TMP/pinned"
        [ "$status" -eq 0 ]
        bounded compare "id:$id" "$FLIPPER"
        [ "$status" -eq 0 ]
    else
        # This kernel opens none by ID here (a container's PID namespace): refused, in bound.
        bounded enter "id:$id" true
        [ "$status" -eq 125 ]
        [[ "$output" == *"id:$id: opening a namespace by ID needs to be in it"* ]]
        bounded compare "id:$id" "$FLIPPER"
        [ "$status" -eq 2 ]
    fi
    # Each run of list may copy fd 7 while it is the file: the copier keeps it.
    for i in $(seq 10); do
        bounded list
        [ "$status" -eq 0 ]
        bounded enter -N 7 "$FLIPPER" true
        echo "$output"
        [ "$status" -eq 0 ] || [[ "$output" == *"fd 7 of PID $FLIPPER is not a socket"* ]]
    done
    # Root's walk to the pin waits in copiers, which nobody waits for: the test can
    # fail.  (Through nobody's overlay this kernel may refuse the walk at once.)
    if [ "$1" = root ]; then
        [ -n "$(session_left)" ]
    fi
    kill -KILL "$SERVER"
    wait_sessions_empty
}

@test "hostile-fuse: nobody's FUSE server that stops answering never makes root's nsctl wait" {
    require_userns_for_nobody
    fuse_stall_run nobody
}

@test "hostile-fuse: root's own FUSE server that stops answering never makes nsctl wait" {
    fuse_stall_run root
}
