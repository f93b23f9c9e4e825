#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --new-session: a PROGRAM in a new user namespace cannot push input into the
# caller's terminal with TIOCSTI.  The caller's terminal is a real one: a pty
# made by tests/tools/pty-run, which runs nsctl as a shell runs a job and then
# reports what was left in the terminal's input queue.

load helpers
load hardening

PTY_RUN=$NSCTL_BUILD/tests/tools/pty-run

setup() {
    MOUNTS_BEFORE=$(own_mount_table)
}

teardown() {
    cleanup_pids
    [ "$(own_mount_table)" = "$MOUNTS_BEFORE" ]
}

# What TIOCSTI does on this kernel for a process without CAP_SYS_ADMIN in the
# initial user namespace, on its own controlling terminal: "ok", or the error.
# Since Linux 6.2 dev.tty.legacy_tiocsti=0 makes it EIO for such a process.
tiocsti_on_own_terminal() {
    case $(cat /proc/sys/dev/tty/legacy_tiocsti 2>/dev/null || echo 1) in
        0) echo "Input/output error" ;;
        *) echo ok ;;
    esac
}

# The pty run's output must say TIOCSTI failed and nothing reached the input.
assert_pushed_nothing() {
    echo "$output"
    [ "$status" -eq 1 ]
    [[ "$output" == *"TIOCSTI: Operation not permitted"* ]]
    [[ "$output" == *"pty-run: input queue: empty"* ]]
}

@test "new-session: the terminal tool sees what TIOCSTI pushes, as root in the caller's session" {
    # The witness works: the caller itself (root, same session) can push a character.
    run "$PTY_RUN" "$PTY_RUN" --tiocsti X
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *'pty-run: input queue: "X"'* ]]
}

@test "new-session: without it, a PROGRAM in a new user namespace keeps the terminal (the real outcome)" {
    require_root
    require_userns
    want=$(tiocsti_on_own_terminal)
    for cmd in run unshare; do
        run "$PTY_RUN" "$NSCTL" "$cmd" -U -r -- "$PTY_RUN" --tiocsti X
        echo "$cmd: $output"
        [[ "$output" == *"TIOCSTI: $want"* ]]
        if [ "$want" = ok ]; then
            # dev.tty.legacy_tiocsti=1 here: documented in nsctl-run(1), the reason for --new-session.
            [ "$status" -eq 0 ]
            [[ "$output" == *'pty-run: input queue: "X"'* ]]
        else
            [ "$status" -eq 1 ]
            [[ "$output" == *"pty-run: input queue: empty"* ]]
        fi
    done
}

@test "new-session: run -U -r --new-session: TIOCSTI fails, nothing reaches the terminal's input" {
    require_root
    require_userns
    run "$PTY_RUN" "$NSCTL" run -U -r --new-session -- "$PTY_RUN" --tiocsti X
    assert_pushed_nothing
    # PROGRAM leads a session of its own, with no terminal; nsctl stays in the caller's.
    run "$PTY_RUN" "$NSCTL" run -U -r --new-session -- sh -c 'ps -o sid=,tty= -p $$; [ $(ps -o sid= -p $$) -eq $$ ]'
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *" ?"* ]]
    # With --init both PID 1 and PROGRAM leave the terminal (PROGRAM could ptrace its init).
    run "$PTY_RUN" "$NSCTL" run -U -r -p --init --new-session -- "$PTY_RUN" --tiocsti X
    assert_pushed_nothing
    # PID 1 of the new PID namespace, read in a /proc of that namespace (the
    # caller's /proc has another PID 1): field 7 of its stat, tty_nr, is 0.
    run "$PTY_RUN" "$NSCTL" run -U -r -m -p --mount-proc --init --new-session -- \
        sh -c 'read -r stat </proc/1/stat; set -- ${stat##*) }; echo "pid 1 tty $5"'
    echo "$output"
    [[ "$output" == *"pid 1 tty 0"* ]]
}

@test "new-session: unshare -U -r --new-session: TIOCSTI fails, as a shell's job and as a session leader" {
    require_root
    require_userns
    # A shell's job leads its process group: setsid() is refused, TIOCNOTTY drops the terminal.
    run "$PTY_RUN" "$NSCTL" unshare -U -r --new-session -- "$PTY_RUN" --tiocsti X
    assert_pushed_nothing
    # Not a group leader (under a shell's subshell): setsid() itself.
    run "$PTY_RUN" sh -c '"$1" unshare -U -r --new-session -- "$2" --tiocsti X; echo "status $?"' sh "$NSCTL" "$PTY_RUN"
    echo "$output"
    [[ "$output" == *"TIOCSTI: Operation not permitted"* ]]
    [[ "$output" == *"pty-run: input queue: empty"* ]]
    # The session leader of the terminal cannot leave it without hanging up its jobs: refused.
    run "$PTY_RUN" --leader "$NSCTL" unshare -U -r --new-session -- "$PTY_RUN" --tiocsti X
    echo "$output"
    [ "$status" -eq 125 ]
    [[ "$output" == *"nsctl: unshare: --new-session: nsctl leads the session of its terminal"* ]]
    [[ "$output" != *TIOCSTI* ]]
    # With no terminal at all there is nothing to leave.
    run setsid "$NSCTL" unshare -U -r --new-session -- true </dev/null
    [ "$status" -eq 0 ]
}

@test "new-session: enter into a user namespace, forking or not: TIOCSTI fails" {
    require_root
    require_userns
    start_target --user --map-root-user --uts
    run "$PTY_RUN" "$NSCTL" enter --new-session "$TARGET" "$PTY_RUN" --tiocsti X
    assert_pushed_nothing
    run "$PTY_RUN" "$NSCTL" enter --new-session -F "$TARGET" "$PTY_RUN" --tiocsti X
    assert_pushed_nothing
    start_pid_ns_target --user --map-root-user
    run "$PTY_RUN" "$NSCTL" enter --new-session "$TARGET" "$PTY_RUN" --tiocsti X
    assert_pushed_nothing
    # Without it (nor the new terminal enter gives by default), the real outcome of this kernel.
    run "$PTY_RUN" "$NSCTL" enter --no-pty "$TARGET" "$PTY_RUN" --tiocsti X
    [[ "$output" == *"TIOCSTI: $(tiocsti_on_own_terminal)"* ]]
}

@test "new-session: a bad use is refused before anything is created" {
    run "$NSCTL" run --new-session=1 -u true
    [ "$status" -eq 125 ]
    [[ "$output" == *"option '--new-session' takes no argument"* ]]
}
