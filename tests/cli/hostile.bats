#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Hostile process state at start: closed 0-2, argc 0, set-user-ID, ignored and
# blocked signals, a strict umask.  run/enter/unshare join each with one line.

load helpers
load hardening

setup() {
    TMP=$(mktemp -d)
    MOUNTS_BEFORE=$(own_mount_table)
}

teardown() {
    cleanup_pids
    remove_setid_copy
    # Whatever a failed test left pinned in its own directory.
    for f in "$TMP"/*; do
        [ -e "$f" ] || continue
        umount -l "$f" 2>/dev/null
        rm -f "$f"
    done
    rm -rf "$TMP"
    [ "$(own_mount_table)" = "$MOUNTS_BEFORE" ]
}

# The signal state /proc shows for a process: its blocked and ignored sets.
signal_state() {
    grep -E '^Sig(Blk|Ign):' "/proc/$1/status"
}

@test "hostile: closed stdin, stdout and stderr: output never lands in nsctl's own files" {
    run_with_closed_std_fds "$NSCTL" compare $$ $$
    [ "$status" -eq 0 ]
    # The dangerous one: namespace files opened while 0-2 are closed, then an error printed.
    run_with_closed_std_fds "$NSCTL" compare /proc/$$/ns/net /proc/$$/ns/uts
    [ "$status" -eq 2 ]
    run_with_closed_std_fds "$NSCTL" compare $$ /nonexistent
    [ "$status" -eq 2 ]
    run_with_closed_std_fds "$NSCTL" --version
    [ "$status" -eq 0 ]
    for cmd in $(subcommands); do
        run_with_closed_std_fds "$NSCTL" "$cmd" --help
        [ "$status" -eq 0 ]
    done
}

@test "hostile: the closed-fd check catches a write into a file nsctl opened" {
    # The checker itself, on a trace where fd 1 was a namespace file when written.
    trace=$BATS_TEST_TMPDIR/fake.trace
    printf '%s\n' '1 execve("nsctl", ["nsctl"], 0x0 /* 0 vars */) = 0' \
        '1 openat(AT_FDCWD, "/proc/1/ns/net", O_RDONLY|O_CLOEXEC) = 1' \
        '1 write(1, "x", 1) = -1 EINVAL' >"$trace"
    ! check_writes_to_std_fds "$trace"
    printf '%s\n' '1 execve("nsctl", ["nsctl"], 0x0 /* 0 vars */) = 0' \
        '1 openat(AT_FDCWD, "/dev/null", O_WRONLY) = 1' \
        '1 write(1, "x", 1) = 1' >"$trace"
    check_writes_to_std_fds "$trace"
}

@test "hostile: argc == 0 is refused, before argv[1] (the environment) is read" {
    # Since Linux 5.18 the kernel makes an empty argv {""}: argc is 1, with no subcommand.
    # Before, argc is 0 and argv[1] is the first environment string (pkexec, CVE-2021-4034).
    run_with_empty_argv "$NSCTL"
    echo "$output"
    [ "$status" -eq 2 ]
    [[ "$output" == "nsctl: called without a command line (argc is 0)" ||
        "$output" == "nsctl: no subcommand given"$'\n'"Try 'nsctl --help'." ]]
}

@test "hostile: set-user-ID is refused with a clear message, for every subcommand" {
    require_root
    make_setid_copy u
    run as_nobody env "$NO_LSAN" "$SETID_NSCTL" compare $$ $$
    echo "$output"
    [ "$status" -eq 2 ]
    [[ "$output" == *"nsctl: refusing to run set-user-ID or set-group-ID (uid 65534, euid 0,"* ]]
    run as_nobody env "$NO_LSAN" "$SETID_NSCTL" --version
    [ "$status" -eq 2 ]
    [[ "$output" == *"refusing to run set-user-ID"* ]]
    for cmd in $(subcommands); do
        run as_nobody env "$NO_LSAN" "$SETID_NSCTL" "$cmd" --help
        echo "$cmd: $status: $output"
        [ "$status" -eq "$(failure_status "$cmd")" ]
        [[ "$output" == *"refusing to run set-user-ID"* ]]
    done
}

@test "hostile: set-group-ID is refused too" {
    require_root
    make_setid_copy g
    run as_nobody "$SETID_NSCTL" compare $$ $$
    echo "$output"
    # A set-group-ID process cannot read its own /proc/self/environ, so the sanitizer
    # build's LeakSanitizer ignores ASAN_OPTIONS there and fails at exit: it says so.
    if [[ "$output" == *"LeakSanitizer has encountered a fatal error"* ]]; then
        [ "$status" -ne 0 ]
    else
        [ "$status" -eq 2 ]
    fi
    [[ "$output" == "nsctl: refusing to run set-user-ID or set-group-ID"*"egid 0)"* ]]
}

@test "hostile: SIGCHLD ignored and signals blocked by the caller change nothing" {
    start_target --uts
    run "$NSCTL" compare -r $$ "$TARGET"
    expected=$output
    run_with_hostile_signals "$NSCTL" compare -r $$ "$TARGET"
    [ "$status" -eq 1 ]
    [ "$output" = "$expected" ]
}

@test "hostile: a umask of 077 is left as it is" {
    run_with_umask_077 "$NSCTL" compare $$ $$
    [ "$status" -eq 0 ]
    [ "$UMASK_CALLS" -eq 0 ]
}

@test "hostile: unknown options are named, on every subcommand" {
    for cmd in $(subcommands); do
        run "$NSCTL" "$cmd" --no-such-option-$$
        echo "$cmd: $status: $output"
        [ "$status" -ne 0 ]
        [[ "$output" == "nsctl: $cmd: unrecognized option '--no-such-option-$$'"* ]]
        [[ "$output" == *"Try 'nsctl $cmd --help'." ]]
        [ "$(echo "$output" | wc -l)" -eq 2 ]
    done
    run "$NSCTL" --no-such-option
    [ "$output" = "nsctl: unrecognized option '--no-such-option'"$'\n'"Try 'nsctl --help'." ]
}

@test "hostile: closed 0-2 for run, unshare, enter, pin, unpin and list; PROGRAM gets /dev/null there" {
    require_root
    start_target --uts --ipc
    out=$TMP/fds
    run_with_closed_std_fds "$NSCTL" run -u -- sh -c 'readlink /proc/$$/fd/0 /proc/$$/fd/1 /proc/$$/fd/2 | cat >"$1"' sh "$out"
    [ "$status" -eq 0 ]
    [ "$(cat "$out")" = $'/dev/null\n/dev/null\n/dev/null' ]
    run_with_closed_std_fds "$NSCTL" run -u -- sh -c 'exit 3'
    [ "$status" -eq 3 ]
    run_with_closed_std_fds "$NSCTL" run -u -- "$TMP"
    [ "$status" -eq 126 ]
    run_with_closed_std_fds "$NSCTL" run -U -r -p --init -- true
    [ "$status" -eq 0 ]
    run_with_closed_std_fds "$NSCTL" unshare -u -- sh -c 'readlink /proc/$$/fd/1 | cat >"$1"' sh "$out"
    [ "$status" -eq 0 ]
    [ "$(cat "$out")" = /dev/null ]
    run_with_closed_std_fds "$NSCTL" unshare -U -r -- "$TMP"
    [ "$status" -eq 126 ]
    run_with_closed_std_fds "$NSCTL" enter "$TARGET" sh -c 'readlink /proc/self/ns/uts >"$1"' sh "$out"
    [ "$status" -eq 0 ]
    [ "$(cat "$out")" = "uts:[$(ns_inode "$TARGET" uts)]" ]
    run_with_closed_std_fds "$NSCTL" enter "$(dead_pid)" true
    [ "$status" -eq 125 ]
    run_with_closed_std_fds "$NSCTL" pin -u "$TARGET" "$TMP/uts"
    [ "$status" -eq 0 ]
    [ "$(stat -c %i "$TMP/uts")" = "$(ns_inode "$TARGET" uts)" ]
    run_with_closed_std_fds "$NSCTL" pin -u "$TARGET" "$TMP/no-such-dir/uts"
    [ "$status" -eq 1 ]
    run_with_closed_std_fds "$NSCTL" list -u --task "$TARGET"
    [ "$status" -eq 0 ]
    run_with_closed_std_fds "$NSCTL" list -J
    [ "$status" -eq 0 ]
    run_with_closed_std_fds "$NSCTL" unpin "$TMP/uts"
    [ "$status" -eq 0 ]
    [ ! -e "$TMP/uts" ]
    run_with_closed_std_fds "$NSCTL" unpin "$TMP/uts"
    [ "$status" -eq 1 ]
}

@test "hostile: argc == 0 never reaches a subcommand, whatever the environment says" {
    # Before Linux 5.18 the environment strings would be argv[1...]: they name a subcommand
    # and a PROGRAM that would leave a file behind if it ran.
    for cmd in $(subcommands); do
        run env -i "$TOOLS/exec-empty-argv" "$NSCTL" "$cmd" -u touch "$TMP/ran-$cmd"
        echo "$cmd: $status: $output"
        [ "$status" -eq 2 ]
        [ ! -e "$TMP/ran-$cmd" ]
    done
}

@test "hostile: run mirrors the exit and forwards signals with SIGCHLD ignored and signals blocked" {
    require_root
    run_with_hostile_signals "$NSCTL" run -u -- sh -c 'exit 7'
    [ "$status" -eq 7 ]
    run_with_hostile_signals "$NSCTL" run -U -r -p -- sh -c 'exit 8'
    [ "$status" -eq 8 ]
    run_with_hostile_signals "$NSCTL" run -U -r -p --init -- sh -c 'exit 9'
    [ "$status" -eq 9 ]
    # Death by a signal the caller did not block: nsctl dies of it too.
    run_with_hostile_signals "$NSCTL" run -u -- sh -c 'kill -ABRT $$'
    [ "$status" -eq 134 ]
    # PROGRAM gets the caller's signal state, unchanged (grep itself shows it: a shell
    # would change its own).
    run_with_hostile_signals grep -E "^Sig(Blk|Ign):" /proc/self/status
    outside=$output
    [[ "$outside" == *"SigIgn:"*[1-9a-f]* ]]
    for args in "run -u" "run -U -r -p --init" "unshare -u" "unshare -U -r"; do
        run_with_hostile_signals "$NSCTL" $args -- grep -E "^Sig(Blk|Ign):" /proc/self/status
        echo "$args: $output"
        [ "$output" = "$outside" ]
    done
}

# Start nsctl ARGS... under hostile signals, with a PROGRAM that unblocks TERM and exits 42
# on it; send TERM to nsctl, and check it ends with 42.  $1: the file PROGRAM makes when ready.
signal_is_forwarded() {
    local ready=$1 pid
    shift
    env --ignore-signal=CHLD --block-signal=HUP,INT,QUIT,TERM,USR1,USR2,CHLD,PIPE,ALRM \
        "$NSCTL" "$@" perl -MPOSIX -e '
            sigprocmask(SIG_SETMASK, POSIX::SigSet->new);
            $SIG{TERM} = sub { exit 42 };
            open(my $f, ">", $ARGV[0]); close($f);
            sleep 30; exit 1' "$ready" &
    pid=$!
    TEST_PIDS+=("$pid")
    for _ in $(seq 500); do [ -e "$ready" ] && break; sleep 0.01; done
    [ -e "$ready" ]
    kill -TERM "$pid"
    wait "$pid" && status=0 || status=$?
    echo "status $status"
    [ "$status" -eq 42 ]
}

@test "hostile: signals blocked by the caller are still forwarded by run and enter -p" {
    require_root
    signal_is_forwarded "$TMP/ready1" run -u --
    signal_is_forwarded "$TMP/ready2" run -U -r -p --init --
    unshare --pid --fork --kill-child sleep 600 &
    TEST_PIDS+=("$!")
    for _ in $(seq 200); do
        sleeper=$(cat "/proc/$!/task/$!/children" 2>/dev/null) && [ -n "$sleeper" ] && break
        sleep 0.01
    done
    wait_for_exec $sleeper sleep
    run_with_hostile_signals "$NSCTL" enter -p $sleeper -- sh -c 'exit 6'
    [ "$status" -eq 6 ]
    signal_is_forwarded "$TMP/ready3" enter -p $sleeper --
}

@test "hostile: pin, unpin and list work with SIGCHLD ignored and signals blocked" {
    require_root
    start_target --uts
    run_with_hostile_signals "$NSCTL" pin -u "$TARGET" "$TMP/uts"
    [ "$status" -eq 0 ]
    run_with_hostile_signals "$NSCTL" list -r --noheadings -o NS,PID -u "$(ns_inode "$TARGET" uts)"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == "$(ns_inode "$TARGET" uts) $TARGET" ]]
    run_with_hostile_signals "$NSCTL" unpin "$TMP/uts"
    [ "$status" -eq 0 ]
    [ ! -e "$TMP/uts" ]
}

@test "hostile: a umask of 077 reaches PROGRAM unchanged, and nsctl never calls umask()" {
    require_root
    start_target --uts
    # PROGRAM reads its umask from /proc: a shell's "umask" would call umask() itself.
    for args in "run -u --" "run -U -r -p --init --" "unshare -U -r --" "enter $TARGET"; do
        run_with_umask_077 "$NSCTL" $args grep Umask: /proc/self/status
        echo "$args: $output"
        [ "$status" -eq 0 ]
        [ "$output" = "Umask:"$'\t'"0077" ]
        [ "$UMASK_CALLS" -eq 0 ]
    done
    run_with_umask_077 "$NSCTL" pin -u "$TARGET" "$TMP/uts"
    [ "$status" -eq 0 ]
    [ "$UMASK_CALLS" -eq 0 ]
    run_with_umask_077 "$NSCTL" list -u
    [ "$status" -eq 0 ]
    [ "$UMASK_CALLS" -eq 0 ]
    run_with_umask_077 "$NSCTL" unpin "$TMP/uts"
    [ "$status" -eq 0 ]
    [ "$UMASK_CALLS" -eq 0 ]
}
