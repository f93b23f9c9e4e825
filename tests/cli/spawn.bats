#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# How run and enter start PROGRAM (lib/spawn.c): any number of arguments, a
# script without "#!", the exit statuses of docs/DESIGN.md, only fds 0-2 handed on,
# and a failing step that says which it was.

load helpers
load hardening
load spawn

setup() {
    require_root
}

teardown() {
    cleanup_pids
}

# FLOOR [ARG...] ::: NSCTL [ARG...]: where nsctl's start shares its memory with
# its child (CLONE_VM), the bench's floor starts its child so too (vfork), and
# forks where nsctl's does not.
assert_floor_shares_where_nsctl_does() {
    local floor=() trace=$BATS_TEST_TMPDIR/start
    while [ "$1" != ::: ]; do
        floor+=("$1")
        shift
    done
    shift
    run -0 env "$NO_LSAN" strace -f -qq -e trace=clone,clone3,vfork,fork -o "$trace.nsctl" "$@"
    run -0 env "$NO_LSAN" strace -f -qq -e trace=clone,clone3,vfork,fork -o "$trace.floor" "${floor[@]}"
    cat "$trace.nsctl" "$trace.floor"
    if grep -q 'CLONE_VM' "$trace.nsctl"; then
        grep -Eq 'vfork\(|CLONE_VM' "$trace.floor"
    else
        grep -Eq 'fork\(|clone' "$trace.floor"
    fi
}

# PROGRAM got all 100,000 arguments, the last one last, and nsctl ended with its status.
assert_all_arguments() {
    [ "$status" -eq 42 ]
    [ "${lines[0]}" = 100000 ]
    [ "${lines[1]}" = last ]
}

@test "spawn: run hands 100,000 arguments to a script without #!" {
    make_script
    make_args
    run -42 timeout 60 "$NSCTL" run -u -- "$SCRIPT" "${ARGS[@]}"
    assert_all_arguments
}

@test "spawn: run hands 100,000 arguments to a binary" {
    make_args
    run -42 timeout 60 "$NSCTL" run -u -- sh -c 'echo "$#"; for l; do :; done; echo "$l"; exit 42' sh "${ARGS[@]}"
    assert_all_arguments
}

@test "spawn: run with new pid, ipc, net and user namespaces hands 100,000 arguments on" {
    require_userns
    make_script
    make_args
    run -42 timeout 60 "$NSCTL" run -p -i -n -U -- "$SCRIPT" "${ARGS[@]}"
    assert_all_arguments
}

@test "spawn: enter (a pid namespace: a child) hands 100,000 arguments to a script without #!" {
    make_script
    make_args
    start_forked_target --pid
    run -42 timeout 60 "$NSCTL" enter -p "$TARGET" -- "$SCRIPT" "${ARGS[@]}"
    assert_all_arguments
}

@test "spawn: enter (a pid namespace) hands 100,000 arguments to a binary" {
    make_args
    start_forked_target --pid
    run -42 timeout 60 "$NSCTL" enter -p "$TARGET" -- sh -c 'echo "$#"; for l; do :; done; echo "$l"; exit 42' sh "${ARGS[@]}"
    assert_all_arguments
}

@test "spawn: enter (a time namespace: a copy, not shared memory) hands 100,000 arguments on" {
    make_script
    make_args
    start_forked_target --time --mount-proc --pid
    run -42 timeout 60 "$NSCTL" enter -T -p "$TARGET" -- "$SCRIPT" "${ARGS[@]}"
    assert_all_arguments
}

@test "spawn: the child of run is in the new namespaces, and nsctl ends with its status" {
    run -3 timeout 10 "$NSCTL" run -u -i -- sh -c 'readlink /proc/self/ns/uts /proc/self/ns/ipc; exit 3'
    [ "${lines[0]}" != "$(readlink /proc/self/ns/uts)" ]
    [ "${lines[1]}" != "$(readlink /proc/self/ns/ipc)" ]
    [[ "${lines[0]}" == uts:* ]]
}

@test "spawn: PROGRAM not found is 127, naming it (run and enter)" {
    run -127 timeout 10 "$NSCTL" run -u -- no-such-program-$$
    [[ "$output" == *"nsctl: run: cannot execute 'no-such-program-$$': No such file or directory"* ]]
    start_forked_target --pid
    run -127 timeout 10 "$NSCTL" enter -p "$TARGET" -- "$BATS_TEST_TMPDIR/no-such-program"
    [[ "$output" == *"nsctl: enter: cannot execute '$BATS_TEST_TMPDIR/no-such-program': No such file or directory"* ]]
}

@test "spawn: PROGRAM that is not executable is 126 (run and enter)" {
    printf 'echo never\n' >"$BATS_TEST_TMPDIR/plain"
    chmod 644 "$BATS_TEST_TMPDIR/plain"
    run -126 timeout 10 "$NSCTL" run -u -- "$BATS_TEST_TMPDIR/plain"
    [[ "$output" == *"cannot execute '$BATS_TEST_TMPDIR/plain': Permission denied"* ]]
    [[ "$output" != *never* ]]
    start_forked_target --pid
    run -126 timeout 10 "$NSCTL" enter -p "$TARGET" -- "$BATS_TEST_TMPDIR/plain"
    [[ "$output" == *"cannot execute '$BATS_TEST_TMPDIR/plain': Permission denied"* ]]
}

@test "spawn: PATH is searched past a directory where PROGRAM is not executable, as execvp does" {
    mkdir "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b"
    printf 'exit 1\n' >"$BATS_TEST_TMPDIR/a/prog-$$"
    chmod 644 "$BATS_TEST_TMPDIR/a/prog-$$"
    printf 'exit 9\n' >"$BATS_TEST_TMPDIR/b/prog-$$"
    chmod 755 "$BATS_TEST_TMPDIR/b/prog-$$"
    PATH=$BATS_TEST_TMPDIR/a:$BATS_TEST_TMPDIR/b:$PATH run -9 timeout 10 "$NSCTL" run -u -- "prog-$$"
    # Found only where it cannot be executed: 126, as a shell says.
    PATH=$BATS_TEST_TMPDIR/a:$PATH run -126 timeout 10 "$NSCTL" run -u -- "prog-$$"
}

@test "spawn: run -m in a chroot, where / is no mount, still makes the new mount namespace private" {
    local root=$BATS_TEST_TMPDIR/root d
    mkdir "$root"
    # The build at its own path (not all of /work: a chroot has none).
    for d in usr etc proc dev tmp "${NSCTL_BUILD#/}"; do mkdir -p "$root/$d"; done
    for d in bin lib lib64 sbin; do ln -s "usr/$d" "$root/$d"; done
    # In a mount namespace of its own: the root is a plain directory, where
    # making "/" private fails (EINVAL: not a mount); the spawned start leaves
    # that to the forked one, which changes it through the whole namespace.
    run -0 timeout 20 "$PRIVATE_MOUNT_NS" sh -c '
        root=$1 build=$2; shift 2
        for d in /usr /etc /proc /dev /tmp "$build"; do mount --rbind "$d" "$root$d" || exit 99; done
        exec chroot "$root" "$@"' sh "$root" "$NSCTL_BUILD" "$NSCTL" run -m -u -- \
        sh -c 'grep -c shared: /proc/self/mountinfo || true'
    echo "$output"
    [ "${lines[-1]}" = 0 ]
}

@test "spawn: no fd beyond 0-2 reaches PROGRAM of run unless --keep-fd" {
    run -0 timeout 10 "$NSCTL" run -u -- sh -c "$FDS_SCRIPT" 5</dev/null 7</dev/null
    [ "$output" = "" ]
    run -0 timeout 10 "$NSCTL" run -u --keep-fd 7 -- sh -c "$FDS_SCRIPT" 5</dev/null 7</dev/null
    [ "$output" = "open 7" ]
    # The test's own fds (bats keeps some) come too: only 5 and 7 are looked for.
    run -0 timeout 10 "$NSCTL" run -u --keep-fds -- sh -c "$FDS_SCRIPT" 5</dev/null 7</dev/null
    [[ "$output" == *"open 5"*"open 7"* ]]
}

@test "spawn: no fd beyond 0-2 reaches PROGRAM of enter's child unless --keep-fd" {
    start_forked_target --pid
    run -0 timeout 10 "$NSCTL" enter -p "$TARGET" -- sh -c "$FDS_SCRIPT" 5</dev/null 7</dev/null
    [ "$output" = "" ]
    run -0 timeout 10 "$NSCTL" enter -p --keep-fd 5 "$TARGET" -- sh -c "$FDS_SCRIPT" 5</dev/null 7</dev/null
    [ "$output" = "open 5" ]
}

@test "spawn: PROGRAM starts with the caller's signal mask, not nsctl's" {
    # SigBlk of PROGRAM: what nsctl's caller has, though nsctl blocks what it forwards.
    local expected
    expected=$(grep SigBlk /proc/self/status)
    run -0 timeout 10 "$NSCTL" run -u -- sh -c 'grep SigBlk /proc/self/status'
    [ "$output" = "$expected" ]
    start_forked_target --pid
    run -0 timeout 10 "$NSCTL" enter -p "$TARGET" -- sh -c 'grep SigBlk /proc/self/status'
    [ "$output" = "$expected" ]
}

@test "spawn: run's child dies with nsctl (SIGKILL to nsctl)" {
    local pid child i
    "$NSCTL" run -u -- sleep 600 &
    pid=$!
    TEST_PIDS+=("$pid")
    for i in $(seq 2000); do
        child=$(cat "/proc/$pid/task/$pid/children" 2>/dev/null | tr -d ' ')
        [ -n "$child" ] && [ "$(cat "/proc/$child/comm" 2>/dev/null)" = sleep ] && break
        sleep 0.01
    done
    [ -n "$child" ]
    kill -KILL "$pid"
    wait "$pid" || true
    for i in $(seq 2000); do
        [ -e "/proc/$child" ] || break
        sleep 0.01
    done
    [ ! -e "/proc/$child" ]
}

@test "spawn: enter without a child (exec in place) hands 100,000 arguments to a script without #!" {
    make_script
    make_args
    start_target --uts
    run -42 timeout 60 "$NSCTL" enter -u "$TARGET" -- "$SCRIPT" "${ARGS[@]}"
    assert_all_arguments
}

@test "spawn: run, enter, enter's child and unshare --net=FILE reach PROGRAM without making a heap (no malloc())" {
    # A process's first malloc() makes its heap, apart from every other
    # mapping (a page table of its own): 3-4% of a start (lib/objects.h).
    # Every brk() here must be the loader's look, brk(NULL).
    start_forked_target --pid
    run -0 env "$NO_LSAN" strace -f -qq -e trace=brk -o "$BATS_TEST_TMPDIR/run.trace" "$NSCTL" run -u true
    run -0 env "$NO_LSAN" strace -f -qq -e trace=brk -o "$BATS_TEST_TMPDIR/enter.trace" "$NSCTL" enter -u "$TARGET" true
    run -0 env "$NO_LSAN" strace -f -qq -e trace=brk -o "$BATS_TEST_TMPDIR/child.trace" "$NSCTL" enter -p "$TARGET" true
    # A new network namespace pinned on a file, as ip netns add makes one.
    run -0 env "$NO_LSAN" strace -f -qq -e trace=brk -o "$BATS_TEST_TMPDIR/pin.trace" \
        "$NSCTL" unshare --net="$BATS_TEST_TMPDIR/netpin" true
    run -0 "$NSCTL" unpin "$BATS_TEST_TMPDIR/netpin"
    cat "$BATS_TEST_TMPDIR"/*.trace
    grep -q 'brk(NULL)' "$BATS_TEST_TMPDIR/run.trace"
    run -1 grep -h 'brk(0x' "$BATS_TEST_TMPDIR/run.trace" "$BATS_TEST_TMPDIR/enter.trace" \
        "$BATS_TEST_TMPDIR/child.trace" "$BATS_TEST_TMPDIR/pin.trace"
}

@test "spawn: bench's vfork floor makes the namespaces it is given and ends as its child" {
    local bare=$NSCTL_BUILD/bench/bare-run-vfork
    [ -x "$bare" ]
    run -0 "$bare" uts,ipc readlink /proc/self/ns/uts /proc/self/ns/ipc
    [ "${lines[0]}" != "$(readlink /proc/self/ns/uts)" ]
    [ "${lines[1]}" != "$(readlink /proc/self/ns/ipc)" ]
    run -0 "$bare" time readlink /proc/self/ns/time
    [ "$output" != "$(readlink /proc/self/ns/time)" ]
    run -7 "$bare" uts sh -c 'exit 7'
    run -127 "$bare" uts "$BATS_TEST_TMPDIR/no-such-program"
}

@test "spawn: bench's vfork floor starts a time namespace's child without a copy where nsctl run does" {
    # Linux 6.0 takes CLONE_VM after unshare(CLONE_NEWTIME); a floor that
    # always forks there is no floor for nsctl run -T, which does not.
    assert_floor_shares_where_nsctl_does "$NSCTL_BUILD/bench/bare-run-vfork" time true ::: \
        "$NSCTL" run -T true
}

@test "spawn: run -T: the child makes its time namespace and shares nsctl's memory from Linux 6.0, is a copy before (by the release's number)" {
    local own trace=$BATS_TEST_TMPDIR/time
    own=$(readlink /proc/self/ns/time)
    run -0 env "$NO_LSAN" strace -f -qq -e trace=clone,clone3,vfork,fork,unshare,setns -o "$trace.new" \
        "$NSCTL" run -T readlink /proc/self/ns/time
    [ "$output" != "$own" ]
    # setarch --uname-2.6: uname() says 2.6.x, as a kernel before 6.0 would.
    run -0 env "$NO_LSAN" strace -f -qq -e trace=clone,clone3,vfork,fork,unshare,setns -o "$trace.old" \
        setarch "$(uname -m)" --uname-2.6 "$NSCTL" run -T readlink /proc/self/ns/time
    [ "$output" != "$own" ]
    cat "$trace.new" "$trace.old"
    # nsctl's own time_for_children is never touched: no setns() of nsctl's, and
    # the unshare() is the child's (after the clone), in both.
    run -1 grep -E 'setns\(' "$trace.new"
    grep -q 'CLONE_VM' "$trace.new"
    run -1 grep -q 'CLONE_VM' "$trace.old"
    # The copy makes its namespace, then enters it before its exec.
    grep -q 'setns(.*CLONE_NEWTIME' "$trace.old"
    for t in "$trace.new" "$trace.old"; do
        awk '/clone\(/ { cloned = 1 } /unshare\(CLONE_NEWTIME/ { exit !cloned }' "$t"
    done
}

@test "spawn: bench's enter floor runs PROGRAM in a joined pid and time namespace, without a copy where nsctl enter does" {
    local bare=$NSCTL_BUILD/bench/bare-enter
    start_forked_target --time --mount-proc --pid
    run -5 "$bare" pid,time "$TARGET" sh -c 'readlink /proc/self/ns/pid /proc/self/ns/time; exit 5'
    [ "${lines[0]}" = "$(readlink "/proc/$TARGET/ns/pid")" ]
    [ "${lines[1]}" = "$(readlink "/proc/$TARGET/ns/time")" ]
    [ "${lines[0]}" != "$(readlink /proc/self/ns/pid)" ]
    assert_floor_shares_where_nsctl_does "$bare" pid,time "$TARGET" true ::: \
        "$NSCTL" enter -p -T "$TARGET" true
}

# strace "$@" (a command that ends in nsctl run -u true): print its clone
# lines, then the number of rt_sigaction() calls nsctl's child makes before
# its first execve() (SIGCHLD's aside: where the caller ignores SIGCHLD, the
# child sets that).  Fails where the command fails, or where no child of
# nsctl's (a PID but the first line's) reaches an execve() in the trace.
child_sigactions() {
    local trace=$BATS_TEST_TMPDIR/sigactions
    env "$NO_LSAN" strace -f -qq -e trace=execve,clone,clone3,rt_sigaction -o "$trace" "$@" || return
    grep -E 'clone3?\(' "$trace"
    awk 'NR == 1 { parent = $1; next }
        $1 != parent && /execve\(/ { execd[$1] = 1; seen = 1 }
        $1 != parent && !execd[$1] && /rt_sigaction\(/ && !/rt_sigaction\(SIGCHLD/ { n++ }
        END { if (!seen) exit 1; print n + 0 }' "$trace"
}

@test "spawn: a child that shares nsctl's memory is started by the C library's clone(), never clone3(), and sets its handlers to default itself" {
    # One start (lib/spawn.c): clone() with CLONE_VM | CLONE_VFORK, and the
    # child looks at each signal's handler before its exec.
    run -0 child_sigactions "$NSCTL" run -u true
    echo "$output"
    [[ "$output" == *"clone(child_stack="*CLONE_VM*CLONE_PIDFD*CLONE_VFORK*CLONE_NEWUTS* ]]
    [[ "$output" != *"clone3("* ]]
    [ "${lines[-1]}" -ge 30 ]
    # Without CLONE_PIDFD (before 5.2): the same start, without it.
    run -0 child_sigactions "$TOOLS/seccomp-deny" -s clone-pidfd -- "$NSCTL" run -u true
    echo "clone-pidfd: $output"
    [[ "$output" == *"clone(child_stack="*CLONE_VM*CLONE_VFORK*CLONE_NEWUTS* ]]
    [ "${lines[-1]}" -ge 30 ]
}

@test "spawn: older kernels: without clone3 or close_range (the child lists /proc/self/fd), the start still works" {
    # The unit tests of lib/spawn.c, with each fallback and with all of them.
    local denial
    for denial in "-s clone3" "-s close_range" "-s close_range:EINVAL" "-s pidfd" "-s clone-pidfd"; do
        # (word splitting wanted: "-s clone3" is two arguments)
        run old_kernel $denial -- "$NSCTL_BUILD/tests/unit/test-spawn"
        echo "$denial: $status"
        [ "$status" -eq 0 ]
    done
    run old_kernel "${EVERY_FALLBACK[@]}" -- "$NSCTL_BUILD/tests/unit/test-spawn"
    [ "$status" -eq 0 ]
    # And nsctl run: only the kept fd reaches PROGRAM, the exit status is its own.
    run -0 timeout 10 "$TOOLS/seccomp-deny" "${EVERY_FALLBACK[@]}" -- "$NSCTL" run -u --keep-fd 7 -- \
        sh -c "$FDS_SCRIPT" 5</dev/null 7</dev/null
    [ "$output" = "open 7" ]
    run -127 timeout 10 "$TOOLS/seccomp-deny" "${EVERY_FALLBACK[@]}" -- "$NSCTL" run -u -- no-such-program-$$
    [[ "$output" == *"cannot execute 'no-such-program-$$': No such file or directory"* ]]
}
