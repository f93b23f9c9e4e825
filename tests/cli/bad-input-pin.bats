#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The bad-input table of nsctl pin, unpin and list (bad-input.bash): 2 for bad
# usage, 1 for a failure, a message naming the input, and nothing created or
# removed: no pin, no mount, no file gone, no process.

bats_require_minimum_version 1.5.0

load bad-input

@test "bad input: pin: PIDs" {
    require_root
    dead=$(dead_pid)
    start_zombie
    bad pin 2 "'': an empty TARGET" --net "" "$TMP/pin"
    bad pin 2 "'0': not a valid PID" --net 0 "$TMP/pin"
    bad pin 2 "unrecognized option '-1'" --net -1 "$TMP/pin"
    bad pin 2 "'010': not a valid PID" --net 010 "$TMP/pin"
    bad pin 2 "'2147483648': not a valid PID" --net 2147483648 "$TMP/pin"
    bad pin 2 "'99999999999999999999': not a valid PID" --net 99999999999999999999 "$TMP/pin"
    # Not digits only: a (relative) namespace file, and there is none.
    for pid in +1 " 1" "1 " 1x 0x10; do
        bad pin 1 "$pid: No such file or directory" --net "$pid" "$TMP/pin"
    done
    bad pin 2 "which namespaces of PID $$?" $$ "$TMP/pin"
    bad pin 1 "PID $dead: no such process" --net "$dead" "$TMP/pin"
    bad pin 1 "PID $ZOMBIE: net namespace: no such process" --net "$ZOMBIE" "$TMP/pin"
    bad pin 1 "PID $ZOMBIE: net namespace: no such process" --net "$ZOMBIE" "$MARK"
    [ "$ROW_FAILURES" -eq 0 ]
}

@test "bad input: pin: a kernel thread is refused" {
    require_root
    find_kernel_thread
    bad pin 1 "PID $KTHREAD is a kernel thread" --net "$KTHREAD" "$TMP/pin"
    bad pin 1 "PID $KTHREAD is a kernel thread" --uts --ipc "$KTHREAD" "$MARK"
    [ "$ROW_FAILURES" -eq 0 ]
}

@test "bad input: pin: paths (the target and the pin)" {
    require_root
    bad pin 1 "$TMP/missing: No such file or directory" "$TMP/missing" "$TMP/pin"
    bad pin 1 "$TMP/dir: Is a directory" "$TMP/dir" "$TMP/pin"
    bad pin 1 "$TMP/file: not a namespace file" "$TMP/file" "$TMP/pin"
    bad pin 1 "$TMP/fifo: not a namespace file" "$TMP/fifo" "$TMP/pin" # no open() blocks
    bad pin 1 "/dev/tty: not a namespace file" /dev/tty "$TMP/pin"
    bad pin 1 "/dev/ptmx: not a namespace file" /dev/ptmx "$TMP/pin"
    bad pin 1 "/dev/null: not a namespace file" /dev/null "$TMP/pin"
    # The wrong namespace type.
    bad pin 2 "/proc/$$/ns/uts is a uts namespace; the type options ask for others" \
        --net "/proc/$$/ns/uts" "$TMP/pin"
    # Where the pin would go: a new file, in a directory that exists.
    for f in "$TMP/file" "$TMP/dir" "$TMP/fifo"; do
        bad pin 1 "$f: File exists" --net $$ "$f"
    done
    bad pin 1 "/dev/tty: File exists" --net $$ /dev/tty
    bad pin 1 "/proc/$$/ns/net: " --net $$ "/proc/$$/ns/net"
    bad pin 1 "$TMP/missing/pin: No such file or directory" --net $$ "$TMP/missing/pin"
    bad pin 1 "$TMP/file/pin: Not a directory" --net $$ "$TMP/file/pin"
    bad pin 2 "'': an empty PATH or NAME" --net $$ ""
    bad pin 2 "'.': not a valid pin name" --net $$ .
    bad pin 2 "'..': not a valid pin name" --net $$ ..
    long=$(printf 'n%.0s' $(seq 256))
    bad pin 2 "'$long': not a valid pin name" --net $$ "$long"
    bad pin 2 "one PATH takes one namespace" --net --uts $$ "$TMP/pin"
    bad pin 2 "TARGET and PATH|NAME needed" --net $$
    bad pin 2 "too many operands" --net $$ "$TMP/pin" "$TMP/pin2"
    [ "$ROW_FAILURES" -eq 0 ]
}

@test "bad input: pin: namespace types" {
    require_root
    bad pin 2 "--type 'foo': unknown namespace type 'foo'" --type foo $$ "$TMP/pin"
    bad pin 2 "--type '': empty namespace type" --type "" $$ "$TMP/pin"
    bad pin 2 "--type 'net,': empty namespace type" --type net, $$ "$TMP/pin"
    bad pin 2 "--type ',net': empty namespace type" --type ,net $$ "$TMP/pin"
    bad pin 2 "--type 'net,net': namespace type 'net' given twice" --type net,net $$ "$MARK"
    bad pin 2 "--type 'mnt,mount': namespace type 'mount' given twice" --type mnt,mount $$ \
        "$MARK"
    bad pin 2 "--net given twice" -n -n $$ "$TMP/pin"
    bad pin 2 "--net given twice" --type net,uts --net $$ "$MARK"
    bad pin 2 "--type 'uts': namespace type 'uts' given twice" --uts --type uts $$ "$MARK"
    bad pin 2 "--type 'ipc,net': namespace type 'net' given twice" --type net,uts \
        --type ipc,net $$ "$MARK"
    bad pin 2 "unrecognized option '--bogus'" --bogus $$ "$TMP/pin"
    bad pin 2 "option '--type' needs an argument" --type
    bad pin 2 "too many operands" $$ "$TMP/pin" --type # after the operands: one more
    # A type the kernel lacks, as before Linux 5.6.
    without_time_namespace
    bad pin 1 "PID $$: time namespace: Operation not supported" --time $$ "$TMP/pin"
    bad pin 1 "PID $$: time namespace: Operation not supported" --uts --time $$ "$MARK"
    [ "$ROW_FAILURES" -eq 0 ]
}

@test "bad input: pin: a target that exits meanwhile is pinned or cleanly refused, never another" {
    require_root
    local round pid pinned=0 refused=0
    # (not "i": bats's own functions set it)
    for round in $(seq 40); do
        rm -f "$TMP/ready"
        mkfifo "$TMP/ready"
        unshare --uts sh -c 'hostname "$0"; echo >"$1"; exec sleep "0.00$2"' \
            "m$round-$MARK" "$TMP/ready" $((round % 10)) &
        pid=$!
        read -r _ <"$TMP/ready"
        run --separate-stderr "$NSCTL" pin --uts "$pid" "$TMP/pin"
        wait "$pid" || true
        case $status in
            0)
                # util-linux nsenter, the witness: the pin is that target's namespace.
                [ "$(nsenter --uts="$TMP/pin" hostname)" = "m$round-$MARK" ]
                "$NSCTL" unpin "$TMP/pin"
                pinned=$((pinned + 1))
                ;;
            1)
                [[ "$stderr" == "nsctl: pin: PID $pid"*"no such process" ]] ||
                    { echo "unclean refusal: $stderr"; false; }
                refused=$((refused + 1))
                ;;
            *) echo "status $status: $stderr"; false ;;
        esac
        [ ! -e "$TMP/pin" ]
        ! grep -F "$TMP/pin" /proc/self/mountinfo || false
    done
    echo "pinned $pinned, refused $refused"
}

@test "bad input: pin, unpin, list: an unprivileged caller is refused cleanly" {
    require_userns_for_nobody
    start_target --uts
    "$NSCTL" pin --uts "$TARGET" "$TMP/root-pin"
    as_nobody_rows
    bad pin 1 "PID $TARGET: uts namespace: Permission denied" --uts "$TARGET" "$TMP/pin"
    bad pin 1 "PID $TARGET: uts namespace: Permission denied" --uts "$TARGET" "$MARK"
    # Root's pin stays root's.
    bad unpin 1 "$TMP/root-pin: Operation not permitted" "$TMP/root-pin"
    bad list 1 "--task $TARGET: Permission denied" --task "$TARGET"
    [ "$ROW_FAILURES" -eq 0 ]
    [ "$(nsenter --uts="$TMP/root-pin" readlink /proc/self/ns/uts)" = "$(readlink "/proc/$TARGET/ns/uts")" ]
    "$NSCTL" unpin "$TMP/root-pin"
}

@test "bad input: unpin" {
    require_root
    bad unpin 2 "'': an empty PATH or NAME" ""
    bad unpin 2 "'.': not a valid pin name" .
    bad unpin 2 "'..': not a valid pin name" ..
    long=$(printf 'n%.0s' $(seq 256))
    bad unpin 2 "'$long': not a valid pin name" "$long"
    # A bad operand among good ones: checked before anything is removed.
    bad unpin 2 "'': an empty PATH or NAME" "$TMP/file" ""
    bad unpin 2 "no PATH or NAME given"
    bad unpin 2 "no PATH or NAME given" --net
    bad unpin 2 "unrecognized option '--bogus'" --bogus "$MARK"
    bad unpin 2 "unrecognized option '--type'" --type net "$MARK"
    bad unpin 1 "nonexistent-$MARK: no pin of that name" "nonexistent-$MARK"
    bad unpin 1 "nonexistent-$MARK: no pin of that name" --net --uts "nonexistent-$MARK"
    bad unpin 1 "$TMP/missing: No such file or directory" "$TMP/missing"
    # Not a pin: refused, and left where it is (the table compares the files).
    for f in "$TMP/file" "$TMP/dir" "$TMP/fifo" /dev/tty /dev/null "/proc/$$/ns/net"; do
        bad unpin 1 "$f: not a pin (no namespace is mounted there); left untouched" "$f"
    done
    [ "$ROW_FAILURES" -eq 0 ]
}

@test "bad input: list" {
    require_root
    dead=$(dead_pid)
    for pid in "" 0 -1 +1 " 1" "1 " 1x 0x10 010 2147483648 4294967297 99999999999999999999; do
        bad list 2 "--task '$pid': not a valid PID" --task "$pid"
    done
    bad list 1 "--task $dead: no such process" --task "$dead"
    bad list 2 "option '--task' needs an argument" --task
    for ns in "" 123456789012345678901 ".."; do
        bad list 2 "'$ns': not a namespace inode, ID, pin NAME or namespace file" "$ns"
    done
    # Not a number: a pin NAME (ip netns pids NAME), which none of these is.
    for ns in x 1x 0x10 " 1"; do
        bad list 1 "not found namespace: $ns (no pin of that name: ip netns add NAME, or nsctl pin, makes one)" "$ns"
    done
    bad list 2 "unrecognized option '-1'" -1
    bad list 2 "--type 'foo': unknown namespace type 'foo'" --type foo
    bad list 2 "--type '': empty namespace type" --type ""
    bad list 2 "--type 'net,': empty namespace type" --type net,
    bad list 2 "--type 'net,net': namespace type 'net' given twice" --type net,net
    bad list 2 "--output 'FOO': unknown column 'FOO'" -o FOO
    bad list 2 "--output 'NS,': unknown column ''" -o NS,
    bad list 2 "--tree 'x': not owner, parent or process" --tree=x
    bad list 2 "--json, --raw and --dot are mutually exclusive" -J -r
    bad list 2 "--dot and --tree are mutually exclusive" --dot --tree
    bad list 2 "unrecognized option '--bogus'" --bogus
    [ "$ROW_FAILURES" -eq 0 ]
}

# The namespaces list --task shows for PID, as "TYPE INODE" lines, against /proc.
list_agrees_with_proc() {
    local pid=$1 t
    run "$NSCTL" list --task "$pid" -r --noheadings -o TYPE,NS
    [ "$status" -eq 0 ]
    [ -n "$output" ]
    while read -r t ino; do
        [ "$(ns_inode "$pid" "$t")" = "$ino" ]
    done <<<"$output"
}

@test "bad input: list --task of a zombie reads and agrees with /proc" {
    require_root
    start_zombie
    # A zombie keeps only some links (pid, user): exactly those are listed.
    list_agrees_with_proc "$ZOMBIE"
    local readable
    readable=$(for t in cgroup ipc mnt net pid time user uts; do
        if ns_inode "$ZOMBIE" $t >/dev/null 2>&1; then echo $t; fi
    done)
    [ "$(echo "$output" | awk '{print $1}' | sort)" = "$readable" ]
    [[ "$readable" != *net* ]]
    # Type options are a filter for list (and unpin): a type given twice is the same set.
    # (Other tests on the machine make and end namespaces meanwhile: a few tries.)
    for _ in 1 2 3 4 5 6 7 8 9 10; do
        [ "$("$NSCTL" list --net --net -r -o NS)" = "$("$NSCTL" list --net -r -o NS)" ] && return 0
    done
    false
}

@test "bad input: list --task of a kernel thread reads and agrees with /proc" {
    require_root
    find_kernel_thread
    list_agrees_with_proc "$KTHREAD"
    [ "$(echo "$output" | wc -l)" -eq 8 ]
}
