#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# enter's new terminal (--pty, the default when stdin is a terminal): nothing a
# process of the target does reaches the caller's terminal, and PROGRAM works
# through the relay as on a terminal of its own.  The caller's terminal is a
# real one: script(1)'s, or tests/tools/pty-run's (which reports what was left
# in its input queue).

load helpers

PTY_RUN=$NSCTL_BUILD/tests/tools/pty-run

setup() {
    require_root
    command -v script >/dev/null || skip "no script(1) here (util-linux's bsdutils)"
    TMP=$(mktemp -d)
    start_target --uts
    nsenter -t "$TARGET" -u hostname nsctl-pty-target
}

teardown() {
    cleanup_pids
    rm -rf "$TMP"
}

# Run the shell command $1 on a terminal of script(1)'s, stdin from $2 (default
# /dev/null), bounded; its status is the command's.
on_terminal() {
    run timeout 60 script -qec "$1" /dev/null <"${2:-/dev/null}"
    echo "$output"
}

@test "enter-pty: PROGRAM gets a terminal of its own; its status, output and the caller's settings come back" {
    on_terminal "tty >$TMP/outer; stty -g >$TMP/before
        $NSCTL enter -u $TARGET sh -c 'tty >$TMP/inner; hostname; exit 7'; echo \"status \$?\" >$TMP/status
        stty -g >$TMP/after"
    [[ "$output" == *nsctl-pty-target* ]]
    [ "$(cat "$TMP/status")" = "status 7" ]
    [[ "$(cat "$TMP/inner")" == /dev/pts/* ]]
    [ "$(cat "$TMP/inner")" != "$(cat "$TMP/outer")" ]
    # The relay put the caller's terminal in raw mode, and back.
    [ "$(cat "$TMP/before")" = "$(cat "$TMP/after")" ]
    # --no-pty: the caller's own terminal, as before.
    on_terminal "tty >$TMP/outer; $NSCTL enter --no-pty -u $TARGET sh -c 'tty >$TMP/inner'"
    [ "$(cat "$TMP/inner")" = "$(cat "$TMP/outer")" ]
}

@test "enter-pty: TIOCSTI by PROGRAM or through PROGRAM's fd 0 never reaches the caller's terminal" {
    # PROGRAM (root: TIOCSTI is allowed it anywhere) pushes into its own new terminal only.
    run timeout 60 "$PTY_RUN" "$NSCTL" enter -u "$TARGET" "$PTY_RUN" --tiocsti X
    echo "$output"
    [[ "$output" == *"TIOCSTI: ok"* ]]
    [[ "$output" == *"pty-run: input queue: empty"* ]]
    # The witness: with --no-pty the same push lands in the caller's input.
    run timeout 60 "$PTY_RUN" "$NSCTL" enter --no-pty -u "$TARGET" "$PTY_RUN" --tiocsti X
    echo "$output"
    [[ "$output" == *'pty-run: input queue: "X"'* ]]
    # A process that may trace PROGRAM takes its fd 0 (here root, through /proc): the new terminal.
    "$PTY_RUN" "$NSCTL" enter -u "$TARGET" sh -c \
        "echo \$\$ >$TMP/pid; while [ ! -e $TMP/pushed ]; do sleep 0.05; done" >"$TMP/out" 2>&1 3>&- &
    local runner=$!
    TEST_PIDS+=("$runner")
    for i in $(seq 200); do [ -s "$TMP/pid" ] && break; sleep 0.05; done
    run "$PTY_RUN" --tiocsti Y <"/proc/$(cat "$TMP/pid")/fd/0"
    echo "$output"
    [[ "$output" == *"TIOCSTI: ok"* ]]
    touch "$TMP/pushed"
    wait "$runner"
    cat "$TMP/out"
    grep -q "pty-run: input queue: empty" "$TMP/out"
}

@test "enter-pty: an interactive shell works through the relay; EOF ends it" {
    printf 'echo got:$((6*7))\nhostname\nexit 3\n' >"$TMP/input"
    on_terminal "$NSCTL enter -u $TARGET sh -i; echo \"status \$?\"" "$TMP/input"
    [[ "$output" == *got:42* ]]
    [[ "$output" == *nsctl-pty-target* ]]
    [[ "$output" == *"status 3"* ]]
    # ^D, the terminal's end of file, ends cat (the caller's input goes on).
    run timeout 60 script -qec "$NSCTL enter -u $TARGET cat; echo \"status \$?\"" /dev/null < <(printf 'line\n'; sleep 1; printf '\004'; sleep 3)
    echo "$output"
    [[ "$output" == *line* ]]
    [[ "$output" == *"status 0"* ]]
}

@test "enter-pty: ^Z stops a job of an interactive shell on the new terminal, which has job control" {
    command -v bash >/dev/null || skip "no bash here"
    run timeout 60 script -qec "$NSCTL enter -u $TARGET bash --norc --noprofile -i; echo \"outer \$?\"" /dev/null \
        < <(sleep 2; echo "sleep 30"; sleep 2; printf '\032'; sleep 2; echo 'jobs; kill -KILL %1; sleep 1; wait; echo jobs-done'
            sleep 2; echo 'exit 4'; sleep 2)
    echo "$output"
    [[ "$output" == *"Stopped"*"sleep 30"* ]]
    [[ "$output" == *jobs-done* ]]
    [[ "$output" == *"outer 4"* ]]
}

@test "enter-pty: as a background job of a shell it runs on, never stopped for the terminal" {
    command -v bash >/dev/null || skip "no bash here"
    run timeout 60 script -qec "bash --norc --noprofile -i" /dev/null \
        < <(sleep 1; echo "$NSCTL enter -u $TARGET sh -c 'sleep 1; hostname' &"; sleep 3
            echo 'jobs; wait; echo "waited $?"'; sleep 1; echo exit; sleep 1)
    echo "$output"
    [[ "$output" == *nsctl-pty-target* ]]
    [[ "$output" == *Done* ]]
    [[ "$output" != *Stopped* ]]
    [[ "$output" == *"waited 0"* ]]
}

@test "enter-pty: the window size is PROGRAM's, at the start and when it changes" {
    on_terminal "stty rows 45 cols 123; $NSCTL enter -u $TARGET stty size"
    [[ "$output" == *"45 123"* ]]
    # A change while PROGRAM runs: the kernel tells nsctl (SIGWINCH), nsctl tells the pty.
    on_terminal "stty rows 45 cols 123; t=\$(tty); (sleep 1; stty -F \$t rows 30 cols 99) &
        $NSCTL enter -u $TARGET sh -c 'sleep 3; stty size'"
    [[ "$output" == *"30 99"* ]]
}

@test "enter-pty: a PROGRAM killed by a signal: nsctl ends so, the caller's terminal restored" {
    on_terminal "stty -g >$TMP/before; $NSCTL enter -u $TARGET sh -c 'kill -TERM \$\$'; echo \"status \$?\"; stty -g >$TMP/after"
    [[ "$output" == *"status 143"* ]]
    [ "$(cat "$TMP/before")" = "$(cat "$TMP/after")" ]
    # A signal to nsctl goes on to PROGRAM; the terminal is restored all the same.
    on_terminal "stty -g >$TMP/before; timeout --foreground -s TERM 2 $NSCTL enter -u $TARGET sleep 30; echo \"status \$?\"; stty -g >$TMP/after"
    [[ "$output" == *"status 124"* ]]
    [ "$(cat "$TMP/before")" = "$(cat "$TMP/after")" ]
}

@test "enter-pty: stdin not a terminal: nothing changes; --pty forces one" {
    echo data >"$TMP/input"
    on_terminal "tty >$TMP/outer; echo hi | $NSCTL enter -u $TARGET sh -c 'cat; tty >$TMP/inner'"
    [[ "$output" == *hi* ]]
    [ "$(cat "$TMP/inner")" = "not a tty" ]
    run timeout 60 "$NSCTL" enter -u "$TARGET" sh -c 'tty' </dev/null
    [ "$output" = "not a tty" ]
    run timeout 60 "$NSCTL" enter --pty -u "$TARGET" sh -c 'tty' </dev/null
    echo "$output"
    [[ "$output" == /dev/pts/* ]]
}

@test "enter-pty: bad uses are refused before anything is joined" {
    run "$NSCTL" enter --pty --no-pty -u "$TARGET" true
    [ "$status" -eq 125 ]
    [[ "$output" == *"--pty and --no-pty are mutually exclusive"* ]]
    run "$NSCTL" enter --pty -F -u "$TARGET" true
    [ "$status" -eq 125 ]
    [[ "$output" == *"--pty and --no-fork are mutually exclusive"* ]]
    run "$NSCTL" enter --pty=1 -u "$TARGET" true
    [ "$status" -eq 125 ]
}
