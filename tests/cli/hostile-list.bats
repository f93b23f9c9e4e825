#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# nsctl list among users it does not trust: a path recorded during the scan
# (/proc/PID/fd/N, a pin) that its owner swaps for a FIFO or a device node
# never makes list hang or open it; pins made in a chroot; command lines that
# carry terminal control bytes.

load helpers
load hostile-list

setup() {
    require_root
    TMP=$(mktemp -d)
    chmod 755 "$TMP"
}

teardown() {
    cleanup_pids
    # The racers' pins are in their own mount namespaces, gone with them; a chroot's are not.
    if [ -n "${CHROOT:-}" ]; then
        umount -l "$CHROOT/pin" 2>/dev/null || true
        umount -l "$CHROOT/proc" 2>/dev/null || true
    fi
    rm -rf "$TMP"
}

@test "hostile-list: an fd flipped between a namespace and a FIFO never hangs list" {
    require_userns_for_nobody
    start_racer fd fifo
    # The racer's namespaces are there, named by the fds it swaps, whenever a run
    # finds a namespace at them.
    found=
    for i in $(seq 20); do
        JSON=$(timeout 10 "$NSCTL" list -J -o NS,PATH --type uts)
        echo "$JSON" | jq -e --arg fd "/proc/$RACER/fd/5" \
            '[.namespaces[] | select(.path | startswith($fd))] | length > 0' &&
            found=1 && break
    done
    [ -n "$found" ]
    list_under_race 40
    list_under_race 20 -J
    list_under_race 20 -P
}

@test "hostile-list: a pin with a FIFO bind-mounted over it and off again never hangs list" {
    require_userns_for_nobody
    start_racer pin fifo
    # The racer's pins are there, as list reaches them (through its root), whenever
    # no FIFO covers them: the racer covers all at once, so some runs see none.
    found=
    for i in $(seq 20); do
        JSON=$(timeout 10 "$NSCTL" list -J -P -o NS,NSFS --type uts)
        echo "$JSON" | jq -e --arg dir "/proc/$RACER/root$RACER_DIR/pin-" \
            '[.namespaces[] | select(any((.nsfs // "") | split("\n")[]; startswith($dir)))] |
             length > 0' && found=1 && break
    done
    [ -n "$found" ]
    list_under_race 40
    list_under_race 20 -J
    list_under_race 20 -P
}

# Every open() nsctl makes of a path another process controls (its fds, its
# root, where its pins are), as strace saw them: those without O_PATH.
opens_without_o_path() {
    grep -E 'open(at)?\(.*"/proc/[0-9]+/(fd|root)/' "$1" | grep -v O_PATH || true
}

@test "hostile-list: list opens no device node an ordinary user swapped in, and never by its path" {
    require_userns_for_nobody
    for mode in fd pin; do
        start_racer "$mode" /dev/null
        looked=0
        for i in $(seq 15); do
            # LeakSanitizer cannot work under ptrace: in the sanitizer build, no leak check.
            # A file per thread (-ff): list scans with two threads, and in one file
            # strace splits a call the other thread interrupts ("<... openat
            # resumed>" then has the fd but not the flags).
            rm -f "$TMP"/trace.*
            ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0 \
                timeout 20 strace -ff -yy -e trace=open,openat -o "$TMP/trace" \
                "$NSCTL" list -o NS,ID,ONS >/dev/null
            cat "$TMP"/trace.* >"$TMP/trace"
            ! grep -q 'resumed>' "$TMP/trace" || false
            # Where another process chose the file, nsctl only looks (O_PATH)...
            [ -z "$(opens_without_o_path "$TMP/trace")" ] || {
                opens_without_o_path "$TMP/trace"
                false
            }
            # ...and no fd it opened to read or write ever led to the device.
            ! grep -v O_PATH "$TMP/trace" | grep -E '= [0-9]+</dev/null' || false
            grep -Eq "\"/proc/$RACER/(fd|root)/.*O_PATH" "$TMP/trace" && looked=$((looked + 1))
        done
        # The racer's fds or pins were among what list looked at.
        [ "$looked" -gt 0 ]
        cleanup_pids
    done
}

@test "hostile-list: a pin made in a chroot that shares our mount namespace is listed, inside and out" {
    start_target --uts
    ino=$(ns_inode "$TARGET" uts)
    CHROOT=$TMP/root
    # libsmartcols comes with lsns: nsctl loads it when it prints a table.
    make_chroot "$CHROOT" "$NSCTL" "$(command -v lsns)"
    timeout 10 chroot "$CHROOT" /bin/nsctl pin --uts "$TARGET" /pin
    [ "$(stat -c %i "$CHROOT/pin")" = "$ino" ]
    # lsns, the independent witness, inside and out (2.38 lists only namespaces a
    # process is in, so while the target lives).
    timeout 10 chroot "$CHROOT" /bin/lsns -t uts -n -r -o NS,NSFS | grep -qx "$ino /pin"
    lsns -t uts -n -r -o NS,NSFS | grep -qx "$ino $CHROOT/pin"
    for held_by in process pin; do
        JSON=$(timeout 10 chroot "$CHROOT" /bin/nsctl list -J -o NS,NSFS --type uts)
        [ "$(json_field "$JSON" "$ino" 'nsfs')" = /pin ]
        JSON=$(timeout 10 "$NSCTL" list -J -o NS,NSFS --type uts)
        [ "$(json_field "$JSON" "$ino" 'nsfs')" = "$CHROOT/pin" ]
        # Then the namespace is held by the pin alone.
        kill -KILL "$TARGET" 2>/dev/null || true
        wait "$TARGET" 2>/dev/null || true
    done
    JSON=$(timeout 10 chroot "$CHROOT" /bin/nsctl list -J -o NS,NPROCS --type uts)
    [ "$(json_field "$JSON" "$ino" nprocs)" = 0 ]
    timeout 10 chroot "$CHROOT" /bin/nsctl unpin /pin
    [ ! -e "$CHROOT/pin" ]
}

@test "hostile-list: control bytes and bad UTF-8 in a command line reach no output raw" {
    cmd=$'before\e]0;title\a\rmid\nafter\xff\xc2\x9bend'
    unshare --uts bash -c 'exec -a "$0" sleep 600' "$cmd" &
    TARGET=$!
    TEST_PIDS+=("$TARGET")
    wait_for_exec "$TARGET" sleep
    for format in "" -r -J --dot --tree=process; do
        "$NSCTL" list $format -o PID,COMMAND --type uts >"$TMP/out"
        grep -q "$TARGET" "$TMP/out"
        [ -z "$(has_raw_control_bytes "$TMP/out")" ] || {
            echo "list $format wrote raw: $(has_raw_control_bytes "$TMP/out" | tr '\n' ' ')"
            false
        }
    done
    # The newline too: the table's row and the graph's label stay on one line.
    "$NSCTL" list -o PID,COMMAND --type uts | grep -Eq "^ *$TARGET before.*after.*end 600"
    "$NSCTL" list -r -o PID,COMMAND --type uts | grep -Eq "^$TARGET before.*after.*end"
    "$NSCTL" list --dot --type uts | grep -q "^.pid$TARGET .*before.*after.*end 600"
    "$NSCTL" list --dot --type uts | dot -Tsvg >/dev/null
    # JSON escapes what JSON can (C0); the bad byte and the C1 control become U+FFFD.
    "$NSCTL" list -J -o PID,COMMAND --type uts | jq -e --argjson pid "$TARGET" \
        '.namespaces[] | select(.pid == $pid) | .command ==
         "before\u001b]0;title\u0007\rmid\nafter\ufffd\ufffdend 600"'
}

# Four command lines on which glibc's matcher kept ~100 MB of states each
# (400 MB together, unbounded) and one on which it took gigabytes, then ones
# that match, all after a number of this run, which EXPRESSION (its %s)
# follows.  nsctl's matcher keeps what the pattern set aside: every row is
# evaluated, right, and list stays small and quick.
check_command_lines() {
    local hostile=() matching=() nonce=$RANDOM$RANDOM status=0 seed pid expression
    expression=$(printf "COMMAND =~ \"^$nonce\" && ($1)" 'COMMAND =~ ".*x.{30}y"')
    measure_filter_baseline
    for seed in 1 2 3 4 5; do
        start_command_line "$nonce$(xz_text "$seed")w"
        hostile+=("$TARGET")
    done
    for seed in $(seq 3); do
        start_command_line "$nonce$(printf 'z%.0s' $(seq 100))x$(printf 'q%.0s' $(seq 30))y"
        matching+=("$TARGET")
    done
    run_measured "$NSCTL" list --type uts --noheadings -r -o NS,PID -Q "$expression" || status=$?
    cat "$TMP/out" "$TMP/peak"
    [ "$status" -eq 0 ]
    [ "$(cat "$TMP/out")" = "$(for pid in "${matching[@]}"; do
        echo "$(ns_inode "$pid" uts) $pid"
    done | sort -n)" ]
    # Resident memory: what the pattern set aside, nothing the texts chose (but
    # under AddressSanitizer, whose quarantine keeps what is freed).
    built_with_asan || [ "$(cat "$TMP/peak")" -le $((BASELINE + 16 * 1024)) ]
    # The hostile rows are there to be matched: each is a row of its own.
    "$NSCTL" list --type uts --noheadings -r -o PID -Q "COMMAND =~ \"^$nonce[xz]+w 600\$\"" |
        sort -n >"$TMP/rows"
    [ "$(cat "$TMP/rows")" = "$(printf '%s\n' "${hostile[@]}" | sort -n)" ]
    # The pattern on which glibc took gigabytes: each row's answer, as Python's re gives it
    # (seeds 1 and 2 have an x 1,001 characters before their w, 3 to 5 a z).
    run_measured "$NSCTL" list --type uts --noheadings -r -o PID -Q "COMMAND =~ \"^$nonce\" && COMMAND =~ \".*x.{1000}w\"" ||
        status=$?
    [ "$status" -eq 0 ]
    built_with_asan || [ "$(cat "$TMP/peak")" -le $((BASELINE + 16 * 1024)) ]
    sort -n "$TMP/out" >"$TMP/rows"
    for pid in "${hostile[@]}" "${matching[@]}"; do
        python3 -c 'import re, sys; sys.exit(0 if re.search("x.{1000}w", open(sys.argv[1]).read().replace("\0", " ").strip()) else 1)' \
            "/proc/$pid/cmdline" && echo "$pid"
    done | sort -n >"$TMP/expected"
    cat "$TMP/rows" "$TMP/expected"
    [ -s "$TMP/expected" ]
    [ "$(cat "$TMP/rows")" = "$(cat "$TMP/expected")" ]
}

@test "hostile-list: command lines made for a -Q pattern change no row, and cost list nothing they choose" {
    require_userns_for_nobody
    check_command_lines '%s'
    # A number compared after the pattern changes nothing either.
    check_command_lines '%s || NPROCS > 99999'
}

# A lister's copy of a socket (pidfd_getfd) is the socket's last reference
# once its owner exits: a close() of it would wait the linger time the owner
# chose.  strace holds each copy 3 s, as a busy machine might hold it for a
# moment, and the holder exits meanwhile: the copy must not be close()d by a
# task that waits on it.
linger_trap() {
    command -v strace >/dev/null || skip "strace is not installed"
    TRAP_OUT=$TMP/trap.out
    # Its own PID namespace and /proc: list copies the trap's sockets and no other.
    unshare_here --pid --fork --kill-child --mount --mount-proc
    "${UNSHARE_HERE[@]}" sh -c '
        setpriv --reuid=65534 --regid=65534 --clear-groups /usr/bin/python3 "$0" 1 40 >"$1" &
        for i in $(seq 100); do [ -s "$1" ] && break; sleep 0.1; done
        shift
        start=$(date +%s)
        # (LeakSanitizer cannot work under a tracer: a sanitizer build leaves it out here.)
        ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0 timeout 40 strace -o /dev/null -f -e trace=pidfd_getfd \
            -e inject=pidfd_getfd:delay_exit=3000000 "$@"
        echo "status $? after $(( $(date +%s) - start )) s"' \
        "$(reachable_path "$BATS_TEST_DIRNAME/linger-holder.py")" "$TRAP_OUT" "$@"
}

@test "hostile-list: a socket whose owner exits while list holds a copy, lingering 60 s, never hangs list" {
    require_userns_for_nobody
    run linger_trap "$NSCTL" list -o NS,TYPE,PID
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "${lines[-1]}" == "status 0 after "* ]]
    elapsed=${lines[-1]#status 0 after }
    elapsed=${elapsed% s}
    # Two copies held 3 s each, and nothing more: the linger would have been 60 s.
    [ "$elapsed" -lt 20 ]
}

@test "hostile-list: enter -N of such a socket never hangs either" {
    require_userns_for_nobody
    run linger_trap sh -c 'exec "$0" enter -N 3 "$(head -n 1 "$1")" true' "$NSCTL" "$TMP/trap.out"
    echo "$output"
    [[ "${lines[-1]}" == "status "*" after "* ]]
    elapsed=${lines[-1]##* after }
    elapsed=${elapsed% s}
    [ "$elapsed" -lt 20 ]
}

@test "hostile-list: a newline in another user's mount point never makes a second pin, in any format" {
    require_userns_for_nobody
    # nobody's own user and mount namespaces, still in the host's network
    # namespace: that one is bound at ".../a<newline>/run/netns/prod".
    # (setpriv itself, not as_nobody: "&" then execs it, and $! is the process.)
    setpriv --reuid=65534 --regid=65534 --clear-groups unshare -Urm --propagation private sh -c '
        mount -t tmpfs none /mnt
        d=$(printf "/mnt/a\n/run/netns")
        mkdir -p "$d" && touch "$d/prod" && mount --bind /proc/self/ns/net "$d/prod" &&
            exec sleep 600' >/dev/null 2>&1 &
    TEST_PIDS+=($!)
    host=$(ns_inode $$ net)
    for i in $(seq 100); do
        pins=$("$NSCTL" list --net -o NS,NSFS -J | jq -r --argjson ns "$host" \
            '.namespaces[] | select(.ns == $ns) | .nsfs // "" | split("\n")[]')
        [[ "$pins" == *prod* ]] && break
        sleep 0.1
    done
    echo "$pins"
    # One pin, its newline escaped; no pin is /run/netns/prod.
    [ "$(echo "$pins" | grep -c 'prod')" -eq 1 ]
    [ -z "$(echo "$pins" | grep -x '/run/netns/prod')" ]
    [[ "$pins" == *'/mnt/a\x0a/run/netns/prod' ]]
    run -0 "$NSCTL" list --net -o NS,NSFS
    echo "$output"
    [ -z "$(echo "$output" | grep -E '^ *(/run/netns/prod|[0-9]+ +/run/netns/prod)$')" ]
    # (The table writes the backslash of that \x0a as \x5c, as every backslash.)
    [[ "$output" == *'/mnt/a\x5cx0a/run/netns/prod'* ]]
    # -Q reads the cell as the table shows it: no line of it is /run/netns/prod.
    run -0 "$NSCTL" list --net -r --noheadings -o NS -Q 'NSFS =~ "(^|\n)/run/netns/prod"'
    [ -z "$output" ]
}

@test "hostile-list: a process that made itself undumpable shows its own user, not root" {
    require_userns_for_nobody
    # /proc/PID is root's for a process that is not dumpable: its owner says nothing.
    setpriv --reuid=65534 --regid=65534 --clear-groups /usr/bin/python3 -c '
import ctypes, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
if libc.unshare(0x10000000 | 0x40000000) != 0:  # CLONE_NEWUSER | CLONE_NEWNET
    sys.exit("unshare failed")
libc.prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE, 0
print("ready", flush=True)
time.sleep(600)' >"$TMP/undumpable.out" 2>&1 &
    TEST_PIDS+=($!)
    pid=$!
    for i in $(seq 100); do grep -q ready "$TMP/undumpable.out" && break; sleep 0.1; done
    [ "$(stat -c %u /proc/$pid/stat)" = 0 ]
    run -0 "$NSCTL" list --task "$pid" -r --noheadings -o TYPE,PID,UID,USER --type net,user
    echo "$output"
    [ "${#lines[@]}" -eq 2 ]
    for line in "${lines[@]}"; do
        [[ "$line" == *" $pid 65534 nobody" ]]
    done
}

@test "hostile-list: 20,000 bind mounts of one namespace at long paths cost list in step with their number" {
    require_userns_for_nobody
    # nobody's own user and mount namespaces: one network namespace bound
    # 2,000 times, then 20,000, each mount point a path of about 3,700
    # bytes.  Each pin against all the others took minutes at 20,000 (100
    # times 2,000's time); in step with their number it is 10 times, and
    # seconds or tens of seconds, however fast the machine.
    start_nobody_mounter '
import ctypes, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
libc.mount(b"none", b"/mnt", b"tmpfs", 0, None)
d = "/mnt/" + "/".join(["d" * 200] * 18)
os.makedirs(d)
ns = b"/proc/self/ns/net"
for i in range(20000):
    if i == 2000:
        print("ready 2000", flush=True)
        while not os.path.exists(sys.argv[1]):
            time.sleep(0.05)
    p = ("%s/%d" % (d, i)).encode()
    open(p, "w").close()
    if libc.mount(ns, p, None, 4096, None) != 0:  # MS_BIND
        raise SystemExit("mount %d: errno %d" % (i, ctypes.get_errno()))
print("ready 20000", len(p), flush=True)
time.sleep(600)'
    local n elapsed=()
    for n in 2000 20000; do
        for i in $(seq 1800); do grep -q "ready $n" "$TMP/mounts.out" && break; sleep 0.1; done
        cat "$TMP/mounts.out"
        grep -q "ready $n" "$TMP/mounts.out"
        ns=$(ns_inode "$pid" net)
        start=$(date +%s%N)
        run -0 timeout 300 "$NSCTL" list --net -r --noheadings -o NS,NSFS -W -Q "NS == $ns"
        elapsed+=($(($(date +%s%N) - start)))
        # Every one of them is a pin of it, listed once.
        [ "$(echo "$output" | tr ',' '\n' | grep -c "/proc/$pid/root/mnt/")" -eq "$n" ]
        touch "$TMP/go"
    done
    echo "list took ${elapsed[0]} ns at 2,000 mounts, ${elapsed[1]} ns at 20,000"
    [ "${elapsed[1]}" -lt $((30 * elapsed[0])) ]
}

@test "hostile-list: 10,000 bind mounts stacked on one file cost list in step with their number; the buried one is listed too" {
    require_userns_for_nobody
    # nobody's own user and mount namespaces: its network namespace bound on
    # one file 1,000 times, then 10,000, then a new network namespace on top.
    # The path reaches only the top mount; a walk through all of them for
    # each of their lines took list 4 s at 10,000 and minutes at 40,000.
    start_nobody_mounter '
import ctypes, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
libc.mount(b"none", b"/mnt", b"tmpfs", 0, None)
open("/mnt/f", "w").close()
def bind():
    if libc.mount(b"/proc/self/ns/net", b"/mnt/f", None, 4096, None) != 0:  # MS_BIND
        raise SystemExit("mount: errno %d" % ctypes.get_errno())
for i in range(10000):
    if i == 1000:
        print("ready 1000", flush=True)
        while not os.path.exists(sys.argv[1]):
            time.sleep(0.05)
    bind()
if libc.unshare(0x40000000) != 0:  # CLONE_NEWNET
    raise SystemExit("unshare: errno %d" % ctypes.get_errno())
bind()
print("ready 10000", flush=True)
time.sleep(600)'
    local n ns first elapsed=() table
    for n in 1000 10000; do
        for i in $(seq 1800); do grep -q "ready $n" "$TMP/mounts.out" && break; sleep 0.1; done
        cat "$TMP/mounts.out"
        grep -q "ready $n" "$TMP/mounts.out"
        # The namespace nobody's process is in: the one on top.
        ns=$(ns_inode "$pid" net)
        first=${first:-$ns}
        start=$(date +%s%N)
        run -0 timeout 300 "$NSCTL" list --net -r --noheadings -o NS,NSFS -W -Q "NS == $ns"
        elapsed+=($(($(date +%s%N) - start)))
        echo "$output"
        [ "$output" = "$ns /proc/$pid/root/mnt/f" ]
        touch "$TMP/go"
    done
    # The kernel's own cost of writing that mount table, itself more than linear in a stack.
    start=$(date +%s%N)
    cat "/proc/$pid/mountinfo" >/dev/null
    table=$(($(date +%s%N) - start))
    echo "list took ${elapsed[0]} ns at 1,000 mounts, ${elapsed[1]} ns at 10,000; the table alone ${table} ns"
    # A look per mount at a path through the whole stack took 5 s here, 13 times the table's cost.
    [ "${elapsed[1]}" -lt $((elapsed[0] + 4 * table + 500000000)) ]
    # The namespace buried under the top one is held by its 10,000 mounts, which
    # the mount table shows: listed, with their mount point, though no path
    # reaches it (so no ID: the copier's walk finds the top one there).
    run -0 "$NSCTL" list --net -r --noheadings -o NS,NSFS,ID -Q "NS == $first"
    [ "$output" = "$first /proc/$pid/root/mnt/f " ]
}

# THREAD_NS MODE: tests/tools/thread-ns, as nobody; its PID, and TID NET UTS of the thread.
start_thread_ns() {
    setpriv --reuid=65534 --regid=65534 --clear-groups \
        "$(reachable_path "$NSCTL_BUILD/tests/tools/thread-ns")" "$1" 600 >"$TMP/thread-ns.out" 2>&1 &
    THREAD_NS_PID=$!
    TEST_PIDS+=("$THREAD_NS_PID")
    for i in $(seq 100); do [ -s "$TMP/thread-ns.out" ] && break; sleep 0.1; done
    read -r THREAD_TID THREAD_NET THREAD_UTS <"$TMP/thread-ns.out"
    [ -n "$THREAD_UTS" ]
}

@test "hostile-list: namespaces only a thread is in are listed, with the thread, and counted once" {
    require_userns_for_nobody
    start_thread_ns thread
    # /proc/PID/ns shows the first thread's: the host's network and UTS namespaces.
    [ "$(ns_inode "$THREAD_NS_PID" net)" != "$THREAD_NET" ]
    run -0 "$NSCTL" list -r --noheadings -o NS,TYPE,PID,NPROCS "$THREAD_NET" "$THREAD_UTS"
    echo "$output"
    [ "${lines[0]}" = "$THREAD_UTS uts $THREAD_TID 1" ] || [ "${lines[1]}" = "$THREAD_UTS uts $THREAD_TID 1" ]
    [[ "$output" == *"$THREAD_NET net $THREAD_TID 1"* ]]
    # The process's user namespace, which the thread shares, counts the process once.
    user=$(ns_inode "$THREAD_NS_PID" user)
    run -0 "$NSCTL" list -r --noheadings -o NS,PID,NPROCS "$user"
    [ "$output" = "$user $THREAD_NS_PID 1" ]
}

@test "hostile-list: a process whose first thread ended shows its namespaces through the others" {
    require_userns_for_nobody
    start_thread_ns leader-exit
    for i in $(seq 50); do
        [ "$(awk '/^State:/ {print $2}' "/proc/$THREAD_NS_PID/status")" = Z ] && break
        sleep 0.1
    done
    run -0 "$NSCTL" list -r --noheadings -o NS,TYPE,PID "$THREAD_NET" "$THREAD_UTS"
    echo "$output"
    [[ "$output" == *"$THREAD_NET net $THREAD_TID"* ]]
    [[ "$output" == *"$THREAD_UTS uts $THREAD_TID"* ]]
}
