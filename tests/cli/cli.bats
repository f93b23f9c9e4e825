#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The CLI frame: --help, --version, unknown subcommands, and the library's exported surface.

load helpers

bats_require_minimum_version 1.5.0

teardown() {
    cleanup_pids
}

@test "nsctl --help lists every subcommand and exits 0" {
    run "$NSCTL" --help
    [ "$status" -eq 0 ]
    [[ "$output" == "Usage: nsctl SUBCOMMAND"* ]]
    [[ "$output" == *"compare"* ]]
}

@test "nsctl --version prints the version" {
    run "$NSCTL" --version
    [ "$status" -eq 0 ]
    [[ "$output" =~ ^nsctl\ [0-9]+\.[0-9]+\.[0-9]+$ ]]
}

@test "nsctl with no subcommand or an unknown one is a usage error" {
    run "$NSCTL"
    [ "$status" -eq 2 ]
    [[ "$output" == *"no subcommand"* ]]
    run "$NSCTL" frobnicate
    [ "$status" -eq 2 ]
    [[ "$output" == *"unknown subcommand 'frobnicate'"* ]]
    [[ "$output" == *"Try 'nsctl --help'."* ]]
    run "$NSCTL" --bogus
    [ "$status" -eq 2 ]
}

@test "every subcommand has --help on stdout, exit 0" {
    for cmd in $("$NSCTL" --help | awk '/^Subcommands:/{on=1; next} on && NF==0 {exit} on {print $1}'); do
        run "$NSCTL" "$cmd" --help
        echo "$cmd: $status"
        [ "$status" -eq 0 ]
        [[ "$output" == "Usage: nsctl $cmd"* ]]
    done
}

@test "a prefix that several long options share is refused naming them, by every subcommand" {
    run -125 "$NSCTL" enter --ne 1 true
    [[ "$output" == *"option '--ne' is ambiguous; possibilities: '--net' '--new-session' '--netns-exec' '--net-socket'"* ]]
    run -2 "$NSCTL" compare --n 1 1
    [[ "$output" == *"option '--n' is ambiguous; possibilities: '--net' '--noheadings'"* ]]
    run -2 "$NSCTL" pin --u 1 x
    [[ "$output" == *"option '--u' is ambiguous; possibilities: '--user' '--uts'"* ]]
    # A unique prefix is that option, as getopt takes it.
    run -0 "$NSCTL" compare --ne --q $$ $$
}

@test "every subcommand takes -V and --version, as unshare, nsenter and lsns do: the version, exit 0, nothing run" {
    expected=$("$NSCTL" --version)
    # util-linux's own, the habit: an option of the command, wherever it stands before PROGRAM.
    run -0 unshare -u -V sh -c "echo ran >'$BATS_TEST_TMPDIR/util-linux'"
    [[ "$output" == "unshare from util-linux"* ]]
    [ ! -e "$BATS_TEST_TMPDIR/util-linux" ]
    for cmd in $("$NSCTL" --help | awk '/^Subcommands:/{on=1; next} on && NF==0 {exit} on {print $1}'); do
        for opt in -V --version; do
            run --separate-stderr "$NSCTL" "$cmd" "$opt"
            echo "$cmd $opt: $status '$output' '$stderr'"
            [ "$status" -eq 0 ]
            [ "$output" = "$expected" ]
            [ -z "$stderr" ]
        done
        "$NSCTL" "$cmd" --help | grep -q -- "^ -V, --version  *display the version and exit$"
    done
    # After other options too, and nothing runs: no PROGRAM, no namespace.
    for cmd in run unshare; do
        run -0 "$NSCTL" "$cmd" -u --hostname=x -V sh -c "echo ran >'$BATS_TEST_TMPDIR/$cmd'"
        [ "$output" = "$expected" ]
        [ ! -e "$BATS_TEST_TMPDIR/$cmd" ]
    done
    run -0 "$NSCTL" enter -u -V $$ sh -c "echo ran >'$BATS_TEST_TMPDIR/enter'"
    [ "$output" = "$expected" ]
    [ ! -e "$BATS_TEST_TMPDIR/enter" ]
    # After PROGRAM it is PROGRAM's (enter: our own namespaces, which any caller may "join").
    run -0 "$NSCTL" enter $$ echo -V
    [ "$output" = "-V" ]
    # "--ver" is --verbose or --version: refused, naming both, as getopt would.
    run -125 "$NSCTL" unshare --ver true
    [[ "$output" == *"option '--ver' is ambiguous; possibilities: '--verbose' '--version'"* ]]
    # Only where getopt refused a long option: here "--ver" is --hostname's value, and -X is at fault.
    run -125 "$NSCTL" run -u --hostname --ver -Xu true
    [[ "$output" == *"unrecognized option '-X' in '-Xu'"* ]]
    run -2 "$NSCTL" list -Q --no -Xa
    [[ "$output" == *"unrecognized option '-X' in '-Xa'"* ]]
}

@test "libnsctl exports only nsctl_* symbols" {
    lib=$(ls "$NSCTL_BUILD"/libnsctl.so.*.*.* | head -n 1)
    exported=$(nm -D --defined-only "$lib" | awk '$2 ~ /[TDBR]/ {print $3}' | sed 's/@.*//' | sort -u)
    [ -n "$exported" ]
    ! echo "$exported" | grep -v '^nsctl_' | grep -v '^NSCTL_' || false
    echo "$exported" | grep -q '^nsctl_process_open$'
}

@test "libnsctl neither prints nor exits" {
    # Every function the library imports is on this list of the ones that can
    # neither print nor end the process: a new import (fwrite, dprintf, exit,
    # syslog...) fails here until it is looked at, so no printing call can slip by
    # under a name nobody thought to forbid.  No sscanf or strto*: numbers go
    # through common/number.c, and glibc 2.38+ renames those (__isoc23_*).  raise() is the SIGSTOP of a
    # stopped child's supervisor; write() is checked below.
    allowed="_ITM_deregisterTMCloneTable _ITM_registerTMCloneTable __cxa_finalize
        __environ environ __errno_location __getdelim __gmon_start__
        __libc_current_sigrtmin snprintf __snprintf_chk __stack_chk_fail __memcpy_chk __memset_chk
        __strcpy_chk __read_chk __readlink_chk __readlinkat_chk __recv_chk __poll_chk
        __fdelt_chk __vsnprintf_chk __open_2 __open64_2 __openat_2 __openat64_2
        calloc malloc realloc reallocarray free strdup strndup qsort
        clock_gettime close close_range closedir dirfd fclose fcntl fcntl64 fdopendir fopen fopen64
        fstat fstat64 fstatat fstatat64 fstatfs fstatfs64 statfs statfs64 lstat lstat64 stat stat64
        getegid geteuid getgid getuid getpgid getpgrp getpid getppid gettid getgroups
        ioctl kill mkdir mkdirat mount umount2 open open64 openat openat64 opendir poll
        prctl pthread_create unshare pthread_join raise read readdir readdir64 readlink
        readlinkat recv recvmsg send sendmsg sendto setdomainname sethostname setns sigaction
        sigaddset sigdelset sigemptyset sigfillset signalfd sigprocmask sigwaitinfo socket socketpair
        bcmp memchr memcmp memcpy memmove memset strchr strcmp strcspn strlen strncmp strnlen
        strcpy strrchr strspn strstr syscall sysconf unlinkat unlink
        waitid waitpid write mmap mmap64 munmap mprotect clone getenv sigismember strchrnul getrandom pipe2 dup dup3 fchdir chroot statx
        name_to_handle_at open_by_handle_at fgets __fgets_chk getsockopt getrlimit getrlimit64
        setrlimit setrlimit64 nanosleep dlopen dlsym pthread_once getpwuid_r lseek lseek64 uname"
    lib=$(ls "$NSCTL_BUILD"/libnsctl.so.*.*.* | head -n 1)
    # A sanitizer build also imports the sanitizers' hooks (they print only on a
    # memory error or UB, which fails the run anyway) and other fortified variants.
    undefined=$(nm -D --undefined-only "$lib" | awk '{print $2}' | sed 's/@.*//' |
        grep -vE '^__(asan|ubsan|sanitizer)_' | sort -u)
    [ -n "$undefined" ]
    unknown=$(comm -23 <(echo "$undefined") <(printf '%s\n' $allowed | sort -u))
    echo "imported by libnsctl, not on the list: $unknown"
    [ -z "$unknown" ]
    # write() only to fds it opened: never to a literal 1 or 2.
    run grep -nE '\bwrite[v]?\((1|2|STDOUT_FILENO|STDERR_FILENO)\b' "$NSCTL_TOP"/lib/*.c
    echo "$output"
    [ "$status" -eq 1 ]
}

@test "libnsctl.pc is generated and names the library" {
    pc="$NSCTL_BUILD/meson-private/libnsctl.pc"
    [ -f "$pc" ]
    grep -q '^Libs: .*-lnsctl' "$pc"
    grep -q '^Version: ' "$pc"
}

@test "every man page renders without warnings, and every subcommand has one" {
    for page in "$NSCTL_TOP"/man/*.[0-9]; do
        out=$(groff -man -ww -z "$page" 2>&1)
        echo "$page: $out"
        [ -z "$out" ]
    done
    for cmd in $("$NSCTL" --help | awk '/^Subcommands:/{on=1; next} on && NF==0 {exit} on {print $1}'); do
        [ -f "$NSCTL_TOP/man/nsctl-$cmd.1" ]
    done
}

@test "bash completion knows every subcommand and its options" {
    run complete_words nsctl ""
    for cmd in $("$NSCTL" --help | awk '/^Subcommands:/{on=1; next} on && NF==0 {exit} on {print $1}'); do
        echo "$output" | grep -qx "$cmd"
    done
    run complete_words nsctl compare --ty
    [ "$output" = "--type" ]
    run complete_words nsctl compare --type net,u
    echo "$output" | grep -qx "net,user"
    echo "$output" | grep -qx "net,uts"
    run complete_words nsctl compare "$$"
    echo "$output" | grep -qx "$$"
}

@test "every long option of a subcommand's --help is completed" {
    for cmd in $("$NSCTL" --help | awk '/^Subcommands:/{on=1; next} on && NF==0 {exit} on {print $1}'); do
        for opt in $("$NSCTL" "$cmd" --help | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
            run complete_words nsctl "$cmd" "$opt"
            echo "$cmd $opt: $output"
            echo "$output" | grep -qx -- "$opt"
        done
    done
}

@test "bash completion offers pin names, ip netns ones included" {
    require_root
    name=nsctl-cli-complete-$$
    ip netns add "$name"
    run complete_words nsctl unpin nsctl-cli-complete-
    ip netns del "$name"
    echo "$output" | grep -qx "$name"
    # A name pinned for two types is offered once.
    unshare --uts --ipc sleep 600 &
    TEST_PIDS+=($!)
    wait_for_exec $! sleep
    "$NSCTL" pin --uts --ipc $! "$name"
    run complete_words nsctl unpin nsctl-cli-complete-
    "$NSCTL" unpin "$name"
    cleanup_pids
    echo "$output"
    [ "$(echo "$output" | grep -cx "$name")" -eq 1 ]
}

@test "compare --help gives -n to --net alone; --noheadings is long only" {
    run -0 "$NSCTL" compare --help
    [ "$(echo "$output" | grep -c '^ *-n, ')" -eq 1 ]
    echo "$output" | grep -q '^ *-n, --net '
    echo "$output" | grep -q '^     --noheadings '
}
