#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The article's shell sessions, replayed step by step; each step says what it
# shows and checks it.  Leaves nothing behind: every process it starts is
# killed by PID on the way out.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
NSCTL=${NSCTL:-$top/build/nsctl}
pids=()
cleanup() {
    local pid
    for pid in "${pids[@]+"${pids[@]}"}"; do kill -KILL "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
}
trap cleanup EXIT INT TERM

step() { printf '\n== %s\n' "$*"; }
show() { printf '$ %s\n' "$*"; "$@"; }
check() {
    if eval "$1"; then echo "   ok: $2"; else echo "   FAILED: $2" >&2; exit 1; fi
}

if [ "$(id -u)" -ne 0 ]; then
    echo "the demo creates UTS and mount namespaces: run it as root" >&2
    exit 1
fi

step "A child in a new UTS namespace, with its own hostname"
unshare --uts sh -c 'hostname bizarro; exec sleep 300' &
child=$!
pids+=("$child")
for _ in $(seq 100); do [ "$(cat /proc/$child/comm 2>/dev/null)" = sleep ] && break; sleep 0.02; done
show nsenter --target "$child" --uts hostname
check '[ "$(nsenter --target "$child" --uts hostname)" = bizarro ]' "the child's hostname is bizarro"
check '[ "$(hostname)" != bizarro ]' "the parent's hostname is unchanged: $(hostname)"

step "The two /proc/PID/ns/uts links differ"
show readlink /proc/$$/ns/uts /proc/$child/ns/uts
show "$NSCTL" compare --uts $$ "$child" || true
check '! "$NSCTL" compare -q --uts $$ "$child"' "nsctl compare says the UTS namespaces differ"
check '"$NSCTL" compare -q --net $$ "$child"' "and that the network namespace is shared"

echo
echo "demo complete"
