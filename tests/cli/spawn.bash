# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by spawn.bats: programs with many arguments, and targets in their own PID namespaces.

# A script without "#!", which execvp() and nsctl_spawn() hand to /bin/sh: it
# prints its argument count and its last argument, and exits 42.
make_script() {
    SCRIPT=$BATS_TEST_TMPDIR/no-shebang
    printf '%s\n' 'echo "$#"' 'for last; do :; done' 'echo "$last"' 'exit 42' >"$SCRIPT"
    chmod 755 "$SCRIPT"
}

# ARGS: 99,999 short arguments and "last": 100,000 in all.
make_args() {
    mapfile -t ARGS < <(seq 99999)
    ARGS+=(last)
}

# Start "unshare --fork OPTIONS... sleep" in the background; TARGET is the
# sleeper (unshare's child, in the new namespaces), its unshare is in TEST_PIDS.
start_forked_target() {
    local launcher i
    unshare_here --fork --kill-child "$@"
    "${UNSHARE_HERE[@]}" sleep 600 &
    launcher=$!
    TEST_PIDS+=("$launcher")
    TARGET=
    for i in $(seq 200); do
        TARGET=$(cat "/proc/$launcher/task/$launcher/children" 2>/dev/null | tr -d ' ')
        [ -n "$TARGET" ] && [ "$(cat "/proc/$TARGET/comm" 2>/dev/null)" = sleep ] && return 0
        sleep 0.01
    done
    echo "unshare $launcher never started sleep" >&2
    return 1
}

# The fds from 3 to 30 open in the shell PROGRAM starts, as "open N" lines.
FDS_SCRIPT='for fd in $(seq 3 30); do [ -e /proc/self/fd/$fd ] && echo "open $fd"; done; true'
