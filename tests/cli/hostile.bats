#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Hostile process state at start: closed 0-2, argc 0, set-user-ID, ignored and
# blocked signals, a strict umask.  run/enter/unshare join each with one line.

load helpers
load hardening

setup() {
    MOUNTS_BEFORE=$(own_mount_table)
}

teardown() {
    cleanup_pids
    remove_setid_copy
    [ "$(own_mount_table)" = "$MOUNTS_BEFORE" ]
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
