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
    run -1 check_writes_to_std_fds "$trace" # 1: a bad write (2 would be: no nsctl seen)
    printf '%s\n' '1 execve("nsctl", ["nsctl"], 0x0 /* 0 vars */) = 0' \
        '1 openat(AT_FDCWD, "/dev/null", O_WRONLY) = 1' \
        '1 write(1, "x", 1) = 1' >"$trace"
    check_writes_to_std_fds "$trace"
    # strace pads PIDs to five columns (a freshly booted machine has 3-digit ones): still read.
    printf '%s\n' '752   execve("/usr/bin/sh", ["sh"], 0x0 /* 0 vars */) = 0' \
        '752   execve("/x/nsctl", ["nsctl"], 0x0 /* 0 vars */) = 0' \
        '752   openat(AT_FDCWD, "/proc/1/ns/net", O_RDONLY|O_CLOEXEC) = 1' \
        '752   write(1, "x", 1) = -1 EINVAL' >"$trace"
    run -1 check_writes_to_std_fds "$trace" # 1: a bad write (2 would be: no nsctl seen)
    printf '%s\n' '8752  execve("/x/nsctl", ["nsctl"], 0x0 /* 0 vars */) = 0' \
        '8752  openat(AT_FDCWD, "/proc/1/ns/net", O_RDONLY|O_CLOEXEC) = 2' \
        '8752  write(2, "x", 1) = -1 EINVAL' >"$trace"
    run -1 check_writes_to_std_fds "$trace" # 1: a bad write (2 would be: no nsctl seen)
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
    run_with_closed_std_fds "$NSCTL" unshare -u -- sh -c 'readlink /proc/$$/fd/1 | cat >"$1"' sh "$out"
    [ "$status" -eq 0 ]
    [ "$(cat "$out")" = /dev/null ]
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
    run_with_closed_std_fds "$NSCTL" list --uts --task "$TARGET"
    [ "$status" -eq 0 ]
    run_with_closed_std_fds "$NSCTL" list -J
    [ "$status" -eq 0 ]
    run_with_closed_std_fds "$NSCTL" unpin "$TMP/uts"
    [ "$status" -eq 0 ]
    [ ! -e "$TMP/uts" ]
    run_with_closed_std_fds "$NSCTL" unpin "$TMP/uts"
    [ "$status" -eq 1 ]
}

@test "hostile: closed 0-2 for run and unshare into a user namespace" {
    require_root
    require_userns
    run_with_closed_std_fds "$NSCTL" run -U -r -p --init -- true
    [ "$status" -eq 0 ]
    run_with_closed_std_fds "$NSCTL" unshare -U -r -- "$TMP"
    [ "$status" -eq 126 ]
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
    require_userns
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
    require_userns
    signal_is_forwarded "$TMP/ready1" run -u --
    signal_is_forwarded "$TMP/ready2" run -U -r -p --init --
    start_pid_ns_target
    run_with_hostile_signals "$NSCTL" enter -p "$TARGET" -- sh -c 'exit 6'
    [ "$status" -eq 6 ]
    signal_is_forwarded "$TMP/ready3" enter -p "$TARGET" --
}

@test "hostile: pin, unpin and list work with SIGCHLD ignored and signals blocked" {
    require_root
    start_target --uts
    run_with_hostile_signals "$NSCTL" pin -u "$TARGET" "$TMP/uts"
    [ "$status" -eq 0 ]
    run_with_hostile_signals "$NSCTL" list -r --noheadings -o NS,PID --uts "$(ns_inode "$TARGET" uts)"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == "$(ns_inode "$TARGET" uts) $TARGET" ]]
    run_with_hostile_signals "$NSCTL" unpin "$TMP/uts"
    [ "$status" -eq 0 ]
    [ ! -e "$TMP/uts" ]
}

@test "hostile: a umask of 077 reaches PROGRAM unchanged, and nsctl never calls umask()" {
    require_root
    require_userns
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
    run_with_umask_077 "$NSCTL" list --uts
    [ "$status" -eq 0 ]
    [ "$UMASK_CALLS" -eq 0 ]
    run_with_umask_077 "$NSCTL" unpin "$TMP/uts"
    [ "$status" -eq 0 ]
    [ "$UMASK_CALLS" -eq 0 ]
}

# Run COMMAND... with fds 3-1199 and four near the limit (4096) open, none close-on-exec,
# as a careless caller leaves them.
run_with_many_fds() {
    run bash -c 'ulimit -n 4096 || exit 99
        for ((fd = 3; fd < 1200; fd++)); do eval "exec $fd</dev/null"; done
        for fd in 4000 4093 4094 4095; do eval "exec $fd</dev/null"; done
        exec "$@"' bash "$@"
}

# PROGRAM for the fd tests: the fds of the shell, as ls (its child: not the last
# command, and no pipe) sees them.  Compared as $(echo $output): one line.
LIST_FDS=(sh -c 'ls -v /proc/$$/fd; true')

@test "hostile: 1200 inherited fds, up to the limit, none close-on-exec: none reaches PROGRAM" {
    require_root
    require_userns
    run_with_many_fds sh -c 'ls /proc/$$/fd | wc -l'
    [ "$output" -ge 1200 ]
    run_with_many_fds "$NSCTL" run -u -- "${LIST_FDS[@]}"
    [ "$(echo $output)" = "0 1 2" ]
    run_with_many_fds "$NSCTL" run -U -r -p --mount-proc --init -- "${LIST_FDS[@]}"
    [ "$(echo $output)" = "0 1 2" ]
    run_with_many_fds "$NSCTL" run -u --keep-fd 4095 --keep-fd 7 -- "${LIST_FDS[@]}"
    [ "$(echo $output)" = "0 1 2 7 4095" ]
    run_with_many_fds "$NSCTL" unshare -U -r -- "${LIST_FDS[@]}"
    [ "$(echo $output)" = "0 1 2" ]
    run_with_many_fds "$NSCTL" unshare -u --keep-fd 4094 -- "${LIST_FDS[@]}"
    [ "$(echo $output)" = "0 1 2 4094" ]
    start_target --uts --ipc
    run_with_many_fds "$NSCTL" enter "$TARGET" "${LIST_FDS[@]}"
    [ "$(echo $output)" = "0 1 2" ]
    run_with_many_fds "$NSCTL" enter -F "$TARGET" "${LIST_FDS[@]}"
    [ "$(echo $output)" = "0 1 2" ]
    # Joining a PID namespace, where $$ is not the host's PID: ls lists its own fds,
    # 3 its listing's.
    start_pid_ns_target
    run_with_many_fds "$NSCTL" enter "$TARGET" ls -v /proc/self/fd
    [ "$(echo $output)" = "0 1 2 3" ]
    # Older kernels: without close_range() the fds are found in /proc/self/fd.
    run_with_many_fds "$TOOLS/seccomp-deny" -s close_range -- "$NSCTL" run -u -- "${LIST_FDS[@]}"
    [ "$(echo $output)" = "0 1 2" ]
    run_with_many_fds "$TOOLS/seccomp-deny" -s close_range -- "$NSCTL" unshare -u --keep-fd 4095 -- "${LIST_FDS[@]}"
    [ "$(echo $output)" = "0 1 2 4095" ]
}

@test "hostile: pin, unpin and list work with 1200 inherited fds up to the limit" {
    require_root
    start_target --uts
    run_with_many_fds "$NSCTL" pin -u "$TARGET" "$TMP/uts"
    [ "$status" -eq 0 ]
    [ "$(stat -c %i "$TMP/uts")" = "$(ns_inode "$TARGET" uts)" ]
    run_with_many_fds "$NSCTL" list -r --noheadings -o NS,PID --uts "$(ns_inode "$TARGET" uts)"
    [ "$output" = "$(ns_inode "$TARGET" uts) $TARGET" ]
    run_with_many_fds "$NSCTL" unpin "$TMP/uts"
    [ "$status" -eq 0 ]
    [ ! -e "$TMP/uts" ]
}

# Start nsctl ARGS... PROGRAM, where PROGRAM (a shell) waits for the PID of the nsctl it
# runs under, then tries to open that process's /proc/PID/exe: for reading (an O_PATH or
# read fd kept until nsctl exits is the CVE-2019-5736 way), then for writing.  Sets output.
attack_parent_exe() {
    local pidfile=$TMP/nsctl.pid pid
    rm -f "$pidfile"
    "$NSCTL" "$@" sh -c 'while [ ! -s "$1" ]; do sleep 0.01; done
        p=$(cat "$1")
        exec 3<"/proc/$p/exe" && echo "read: opened $(readlink /proc/$$/fd/3)"
        exec 4>>"/proc/$p/exe" && echo "write: opened"
        exit 0' sh "$pidfile" >"$TMP/attack" 2>&1 &
    pid=$!
    TEST_PIDS+=("$pid")
    echo "$pid" >"$pidfile"
    wait "$pid" || true
    output=$(cat "$TMP/attack")
    echo "$*: $output"
}

@test "hostile: PROGRAM cannot reach the nsctl binary to overwrite it (CVE-2019-5736)" {
    require_root
    require_userns
    sum=$(sha256sum <"$NSCTL")
    # A #!/proc/self/exe script: its interpreter is nsctl itself, which refuses the script.
    printf '#!/proc/self/exe\n' >"$TMP/script"
    chmod +x "$TMP/script"
    run "$NSCTL" run -U -r -- "$TMP/script"
    [ "$status" -eq 2 ]
    [[ "$output" == "nsctl: unknown subcommand '$TMP/script'"* ]]
    run "$NSCTL" unshare -U -r -- "$TMP/script"
    [ "$status" -eq 2 ]
    # /proc/self/exe as PROGRAM: nsctl again, and nothing more.
    run "$NSCTL" run -U -r -- /proc/self/exe --version
    [ "$status" -eq 0 ]
    [[ "$output" == "nsctl "* ]]
    # run -U: the supervising nsctl is in another user namespace, and undumpable.
    attack_parent_exe run -U -r --
    [[ "$output" == *"/proc/"*"/exe: Permission denied"* ]]
    [[ "$output" != *opened* ]]
    # run --init: PID 1 is nsctl, in PROGRAM's own user namespace with its own IDs:
    # only being undumpable keeps PROGRAM out.
    run "$NSCTL" run -U -r -p --mount-proc --init -- sh -c '
        exec 3</proc/1/exe && echo "read: opened"
        exec 4>>/proc/1/exe && echo "write: opened"; exit 0'
    echo "$output"
    [[ "$output" == *"/proc/1/exe: Permission denied"* ]]
    [[ "$output" != *opened* ]]
    # enter -p into a user namespace: the supervisor joined it, with PROGRAM's IDs: undumpable.
    start_pid_ns_target --user --map-root-user
    attack_parent_exe enter "$TARGET"
    [[ "$output" == *"/proc/"*"/exe: Permission denied"* ]]
    [[ "$output" != *opened* ]]
    # Without a user namespace PROGRAM is root here (it could write the file by its
    # path): while nsctl runs, the kernel refuses to write a running binary.
    attack_parent_exe run -u --
    [[ "$output" == *"read: opened $NSCTL"* ]]
    [[ "$output" == *"/proc/"*"/exe: Text file busy"* ]]
    [[ "$output" != *"write: opened"* ]]
    [ "$(sha256sum <"$NSCTL")" = "$sum" ]
}

@test "hostile: a multithreaded caller joining a user or time namespace: the library's errno, the CLI's message" {
    require_root
    require_userns
    start_target --user --map-root-user --time --uts
    # The library, from a process with a second thread: EINVAL and EUSERS, nothing joined.
    run "$TOOLS/threaded-join" "$TARGET"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"nsctl_process_join(user): -22 (Invalid argument)"* ]]
    [[ "$output" == *"nsctl_process_join(time): -87 (Too many users)"* ]]
    run "$TOOLS/threaded-join" --single-threaded "$TARGET"
    [ "$status" -eq 0 ]
    # The CLI, made multithreaded by a preloaded library (ASan's link-order check would
    # refuse the preload in the sanitizer build).
    local preload=(env "ASAN_OPTIONS=${ASAN_OPTIONS:-}:verify_asan_link_order=0"
        LD_PRELOAD="$TOOLS/thread-preload.so")
    run "${preload[@]}" "$NSCTL" enter -U "$TARGET" true
    echo "$output"
    [ "$status" -eq 125 ]
    [[ "$output" == "nsctl: enter: setns(/proc/$TARGET/ns/user) (nsctl has 2 threads, and only a single-threaded process may join a user, mount or time namespace, or create a user namespace): Invalid argument" ]]
    run "${preload[@]}" "$NSCTL" enter -T "$TARGET" true
    echo "$output"
    [ "$status" -eq 125 ]
    [[ "$output" == "nsctl: enter: setns(/proc/$TARGET/ns/time) (nsctl has 2 threads,"*"): Too many users" ]]
    run "${preload[@]}" "$NSCTL" enter --time="/proc/$TARGET/ns/time" "$TARGET" true
    [[ "$output" == "nsctl: enter: setns(/proc/$TARGET/ns/time) (nsctl has 2 threads,"* ]]
    # Joining a UTS namespace is allowed to any thread.
    run "${preload[@]}" "$NSCTL" enter -u "$TARGET" true
    [ "$status" -eq 0 ]
    run "${preload[@]}" "$NSCTL" unshare -U -- true
    echo "$output"
    [ "$status" -eq 125 ]
    [[ "$output" == "nsctl: unshare: unshare() (nsctl has 2 threads,"*"): Invalid argument" ]]
    # run clones a child, single-threaded: it works.
    run "${preload[@]}" "$NSCTL" run -U -r -T -- true
    [ "$status" -eq 0 ]
}
