# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by hostile-list.bats: an ordinary user who keeps changing what a path
# that root's list recorded during its scan leads to, and a chroot to list from.

# The racer, in Python (ctypes for unshare and mount): it makes COUNT uts
# namespaces that no process is in, each held only by an fd (MODE fd) or only
# by a bind mount onto DIR/pin-I (MODE pin), prints "ready", then, until
# SECONDS have passed, swaps each for SWAP (a FIFO or a device node): dup2 onto
# the fd, or a bind mount over the pin and its unmount.
RACER_PY='
import ctypes, os, sys, time
mode, workdir, swap, count, seconds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5])
libc = ctypes.CDLL(None, use_errno=True)
CLONE_NEWUTS, MS_BIND, MNT_DETACH = 0x04000000, 4096, 2

def check(r, what):
    if r != 0:
        e = ctypes.get_errno()
        sys.exit("racer: %s: %s" % (what, os.strerror(e)))

def new_uts():
    """A uts namespace no process is in: a child makes it and dies once we hold it."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        if libc.unshare(CLONE_NEWUTS) != 0:
            os._exit(1)
        os.write(w, b"x")
        time.sleep(600)
        os._exit(0)
    os.close(w)
    if os.read(r, 1) != b"x":
        sys.exit("racer: the child could not unshare its uts namespace")
    return pid

if swap.endswith("fifo"):
    os.mkfifo(swap)
swap_fd = os.open(swap, os.O_RDONLY | os.O_NONBLOCK)
held, pins = [], []
for i in range(count):
    pid = new_uts()
    path = "/proc/%d/ns/uts" % pid
    if mode == "fd":
        # Kept at 200 + I, swapped in and out at 50 + I: list names a namespace by the
        # first fd it sees it at, and must see it at the one that changes.
        fd = os.open(path, os.O_RDONLY)
        os.dup2(fd, 200 + i)
        os.close(fd)
        held.append((200 + i, 50 + i))
    else:
        pin = os.path.join(workdir, "pin-%d" % i)
        open(pin, "w").close()
        check(libc.mount(path.encode(), pin.encode(), None, MS_BIND, None), "mount " + pin)
        pins.append(pin.encode())
    os.kill(pid, 9)
    os.waitpid(pid, 0)
print("ready", flush=True)
end = time.monotonic() + seconds
while time.monotonic() < end:
    for fd, slot in held:
        os.dup2(fd, slot)
    for fd, slot in held:
        os.dup2(swap_fd, slot)
    for pin in pins:
        libc.mount(swap.encode(), pin, None, MS_BIND, None)
    for pin in pins:
        libc.umount2(pin, MNT_DETACH)
'

# Start the racer as nobody, in a user and mount namespace of its own:
# start_racer MODE SWAP [COUNT [SECONDS]], SWAP "fifo" for one it makes.  Its PID is RACER (killed by PID in
# teardown); RACER_DIR is where its pins are.
start_racer() {
    local mode=$1 swap=$2 count=${3:-4} seconds=${4:-120} i
    # In the test's TMP (mode 755): nobody must reach it, and mktemp makes 700 directories.
    RACER_DIR=$(mktemp -d "$TMP/racer.XXXXXX")
    chown 65534:65534 "$RACER_DIR"
    [ "$swap" = fifo ] && swap=$RACER_DIR/fifo
    # setpriv (as_nobody's), not the function: started by "&", a simple command is
    # exec'ed in the child, so $! is the racer itself (setpriv execs unshare, then python3).
    setpriv --reuid=65534 --regid=65534 --clear-groups unshare --user --map-root-user --mount \
        python3 -c "$RACER_PY" "$mode" "$RACER_DIR" "$swap" "$count" "$seconds" \
        >"$RACER_DIR.out" 2>&1 &
    RACER=$!
    TEST_PIDS+=("$RACER")
    for i in $(seq 500); do
        grep -qx ready "$RACER_DIR.out" && return 0
        kill -0 "$RACER" 2>/dev/null || break
        sleep 0.02
    done
    echo "racer not ready:" >&2
    cat "$RACER_DIR.out" >&2
    return 1
}

# Run list with ARGS... RUNS times, each under a 10 s timeout, while a racer
# runs; fail at the first run that does not end (124) or fails.
list_under_race() {
    local runs=$1 i status
    shift
    for i in $(seq "$runs"); do
        status=0
        timeout -k 2 10 "$NSCTL" list "$@" >/dev/null 2>"$BATS_TEST_TMPDIR/err" || status=$?
        if [ "$status" -ne 0 ]; then
            echo "run $i of 'list $*': status $status (124: hung, stopped by the timeout)" >&2
            cat "$BATS_TEST_TMPDIR/err" >&2
            return 1
        fi
    done
}

# A minimal root at DIR for PROGRAMS...: each in DIR/bin, with the shared
# libraries ldd names at their own paths, and proc mounted on DIR/proc (in our
# mount namespace, as a chroot shares it): teardown unmounts it by that path.
make_chroot() {
    local dir=$1 program lib
    shift
    mkdir -p "$dir/bin" "$dir/proc"
    for program in "$@"; do
        cp "$program" "$dir/bin/"
        for lib in $(ldd "$program" | grep -o '/[^ ]*'); do
            cp --parents -L "$lib" "$dir"
        done
    done
    mount -t proc proc "$dir/proc"
}

# The value of KEY in the JSON object of namespace INODE in list -J's output JSON.
json_field() {
    echo "$1" | jq -r --argjson ns "$2" \
        "[.namespaces[] | .. | objects | select(.ns == \$ns)] | .[0].$3"
}

# Whether FILE holds any byte a terminal obeys or that is no UTF-8: ESC, BEL,
# CR, DEL, 0xff, or the two bytes of the 8-bit CSI (U+009B); prints the bytes found.
has_raw_control_bytes() {
    od -An -v -tx1 -w1000000 "$1" | tr -s ' ' '\n' | grep -E -x '1b|07|0d|7f|ff' | sort -u
    od -An -v -tx1 -w1000000 "$1" | grep -o 'c2 9b' | sort -u
}

# An ordinary user's process whose command line is TEXT (as argv[0]), alone in
# a uts namespace of its own user namespace; its PID is TARGET.
start_command_line() {
    setpriv --reuid=65534 --regid=65534 --clear-groups unshare --user --uts \
        bash -c 'exec -a "$0" sleep 600' "$1" &
    TARGET=$!
    TEST_PIDS+=("$TARGET")
    wait_for_exec "$TARGET" sleep
}

# SEED's 4,000 random x and z: a text that made glibc's matcher of '.*x.{N}y'
# keep a new state for almost every position it read.
xz_text() {
    python3 -c 'import random, sys; random.seed(int(sys.argv[1]))
print("".join(random.choice("xz") for _ in range(4000)))' "$1"
}

# Run COMMAND..., its output and errors into $TMP/out, for at most 120 s and
# 2 GiB of address space (what a matcher that keeps states for the text would
# take stops there); the most memory it was resident in (KiB) into $TMP/peak.
# Its exit status.
run_measured() {
    # (Not under AddressSanitizer, whose shadow memory alone is terabytes of address space.)
    local limit=(prlimit --as=$((2 << 30)))
    built_with_asan && limit=()
    python3 -c 'import resource, subprocess, sys
with open(sys.argv[1], "w") as out:
    r = subprocess.run(sys.argv[3:], stdout=out, stderr=subprocess.STDOUT, timeout=120)
with open(sys.argv[2], "w") as peak:
    peak.write("%d\n" % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.exit(r.returncode)' "$TMP/out" "$TMP/peak" "${limit[@]}" "$@"
}

# What a list filtered by a pattern that costs nothing leaves resident (KiB), into BASELINE.
measure_filter_baseline() {
    run_measured "$NSCTL" list --type uts -o NS,PID -Q 'COMMAND =~ "^no such command$"'
    BASELINE=$(cat "$TMP/peak")
}

# SCRIPT, in Python, as nobody in user, network and mount namespaces of its own,
# in the background: its output in $TMP/mounts.out, its PID in pid.  Its
# sys.argv[1] is a path whose creation tells it to go on.
start_nobody_mounter() {
    setpriv --reuid=65534 --regid=65534 --clear-groups unshare -Urnm --propagation private \
        /usr/bin/python3 -c "$1" "$(reachable_path "$TMP")/go" >"$TMP/mounts.out" 2>&1 &
    TEST_PIDS+=($!)
    pid=$!
    chmod 0777 "$TMP"
}
