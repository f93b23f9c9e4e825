#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The bad-input table of nsctl enter (bad-input.bash): 125 when nsctl fails,
# 126 and 127 when PROGRAM cannot be run, a message naming the input, and
# nothing joined, run or left behind.  PROGRAM, where a row could reach it,
# creates a file in TMP: a row that ran it leaves that file behind.

bats_require_minimum_version 1.5.0

load bad-input

setup() {
    bad_input_setup
    RAN=(sh -c 'touch "$0"' "$TMP/ran")
}

@test "bad input: enter: PIDs" {
    require_root
    dead=$(dead_pid)
    start_zombie
    bad enter 125 "'': an empty TARGET" "" "${RAN[@]}"
    bad enter 125 "'0': not a valid PID" 0 "${RAN[@]}"
    bad enter 125 "unrecognized option '-1'" -1 "${RAN[@]}"
    bad enter 125 "'010': not a valid PID" 010 "${RAN[@]}"
    bad enter 125 "'2147483648': not a valid PID (too large)" 2147483648 "${RAN[@]}"
    bad enter 125 "'4294967297': not a valid PID (too large)" 4294967297 "${RAN[@]}"
    bad enter 125 "'99999999999999999999': not a valid PID (too large)" \
        99999999999999999999 "${RAN[@]}"
    # Not digits only: a pin name, and there is no such pin.
    for pid in +1 " 1" "1 " 1x 0x10 99999999999x; do
        bad enter 125 "'$pid': neither a PID, a file nor a pin name" "$pid" "${RAN[@]}"
    done
    bad enter 125 "PID $dead: no such process" "$dead" "${RAN[@]}"
    bad enter 125 "PID $ZOMBIE: no such process" "$ZOMBIE" "${RAN[@]}"
    bad enter 125 "PID $ZOMBIE: no such process" --uts "$ZOMBIE" "${RAN[@]}"
    bad enter 125 "PID $ZOMBIE: no such process" -F --pid "$ZOMBIE" "${RAN[@]}"
    [ "$ROW_FAILURES" -eq 0 ]
}

@test "bad input: enter: a kernel thread is refused before anything is joined" {
    require_root
    find_kernel_thread
    # Only read: its /proc/PID/stat says what it is; nothing of it is joined.
    bad enter 125 "PID $KTHREAD is a kernel thread" "$KTHREAD" "${RAN[@]}"
    bad enter 125 "PID $KTHREAD is a kernel thread" --net "$KTHREAD" "${RAN[@]}"
    bad enter 125 "PID $KTHREAD is a kernel thread" -F --pid "$KTHREAD" "${RAN[@]}"
    bad enter 125 "PID $KTHREAD is a kernel thread" --net="/proc/$$/ns/net" "$KTHREAD" \
        "${RAN[@]}"
    [ "$ROW_FAILURES" -eq 0 ]
}

@test "bad input: enter: an unprivileged caller is refused cleanly, naming the namespace" {
    require_userns_for_nobody
    start_target --uts
    as_nobody_rows
    bad enter 125 "open(/proc/$TARGET/ns/uts): Permission denied" --uts "$TARGET" "${RAN[@]}"
    bad enter 125 "open(/proc/$TARGET/ns/" "$TARGET" "${RAN[@]}"
    bad enter 125 "/proc/$TARGET/ns/uts: Permission denied" "/proc/$TARGET/ns/uts" "${RAN[@]}"
    [ "$ROW_FAILURES" -eq 0 ]
    # The table can fail: a row whose message is not the one nsctl gives is counted.
    bad enter 125 "PID $TARGET is a kernel thread" "$TARGET" "${RAN[@]}"
    [ "$ROW_FAILURES" -eq 1 ]
}

@test "bad input: enter: paths" {
    require_root
    bad enter 125 "$TMP/missing: No such file or directory" "$TMP/missing" "${RAN[@]}"
    bad enter 125 "$TMP/dir: Is a directory" "$TMP/dir" "${RAN[@]}"
    bad enter 125 "$TMP/file: not a namespace file" "$TMP/file" "${RAN[@]}"
    bad enter 125 "$TMP/fifo: not a namespace file" "$TMP/fifo" "${RAN[@]}" # no open() blocks
    bad enter 125 "/dev/tty: not a namespace file" /dev/tty "${RAN[@]}"
    bad enter 125 "/dev/ptmx: not a namespace file" /dev/ptmx "${RAN[@]}"
    bad enter 125 "/dev/null: not a namespace file" /dev/null "${RAN[@]}"
    bad enter 125 "/proc/$$/ns: Is a directory" "/proc/$$/ns" "${RAN[@]}"
    bad enter 125 "/proc/$$/ns/net/x: Not a directory" "/proc/$$/ns/net/x" "${RAN[@]}"
    # The same, as --TYPE=FILE.
    for f in "$TMP/missing" "$TMP/dir" "$TMP/file" "$TMP/fifo" /dev/tty /dev/ptmx; do
        bad enter 125 "--net=$f: " "--net=$f" $$ "${RAN[@]}"
    done
    bad enter 125 "--net=: an empty file name" --net= $$ "${RAN[@]}"
    # The wrong namespace type.
    bad enter 125 "--net=/proc/$$/ns/uts: a namespace of another type" \
        "--net=/proc/$$/ns/uts" $$ "${RAN[@]}"
    bad enter 125 "/proc/$$/ns/uts is a uts namespace: the other type options need =FILE" \
        --net "/proc/$$/ns/uts" "${RAN[@]}"
    bad enter 125 "/proc/$$/ns/uts is a uts namespace, and --uts=FILE gives one too" \
        "--uts=/proc/$$/ns/uts" "/proc/$$/ns/uts" "${RAN[@]}"
    # Pin names.
    bad enter 125 "'nonexistent-$MARK': neither a PID, a file nor a pin name" \
        "nonexistent-$MARK" "${RAN[@]}"
    bad enter 125 "'nonexistent-$MARK': neither a PID, a file nor a pin name" \
        --net "nonexistent-$MARK" "${RAN[@]}"
    bad enter 125 "'.': neither a PID, a path nor a valid pin name" . "${RAN[@]}"
    bad enter 125 "'..': neither a PID, a path nor a valid pin name" .. "${RAN[@]}"
    long=$(printf 'n%.0s' $(seq 256))
    bad enter 125 "'$long': neither a PID, a path nor a valid pin name" "$long" "${RAN[@]}"
    [ "$ROW_FAILURES" -eq 0 ]
}

@test "bad input: enter: namespace types" {
    require_root
    bad enter 125 "unrecognized option '--bogus'" --bogus $$ "${RAN[@]}"
    bad enter 125 "unrecognized option '--type'" --type net $$ "${RAN[@]}"
    bad enter 125 "--net given twice" -n -n $$ "${RAN[@]}"
    bad enter 125 "--net given twice" --net "--net=/proc/$$/ns/net" $$ "${RAN[@]}"
    bad enter 125 "--uts given twice" "--uts=/proc/$$/ns/uts" "--uts=/proc/$$/ns/uts" $$ \
        "${RAN[@]}"
    bad enter 125 "unrecognized option '-q' in '-Fq'" -Fq $$ "${RAN[@]}"
    # A type the kernel lacks, as before Linux 5.6.
    without_time_namespace
    bad enter 125 "--time: Operation not supported" --time "/proc/$$/ns/uts" "${RAN[@]}"
    bad enter 125 "--time: Operation not supported" "--time=/proc/$$/ns/time" \
        "/proc/$$/ns/uts" "${RAN[@]}"
    bad enter 125 "open(/proc/$$/ns/time): Operation not supported" --time $$ "${RAN[@]}"
    bad enter 125 "open(/proc/$$/ns/time): Operation not supported" -T -u $$ "${RAN[@]}"
    # A short type option takes no file (issue 15): only --net=FILE does.
    bad enter 125 "in '-n=/proc/$$/ns/net': a short type option takes no argument; the file form is --net=FILE" \
        "-n=/proc/$$/ns/net" $$ "${RAN[@]}"
    bad enter 125 "the file form is --net=FILE" "-n/proc/$$/ns/net" $$ "${RAN[@]}"
    [ "$ROW_FAILURES" -eq 0 ]
}

@test "enter: a PID alone, on a kernel without time namespaces, joins every other type that differs" {
    require_root
    start_target --uts --net
    nsenter -t "$TARGET" -u hostname "notime-$BATS_TEST_NUMBER" # util-linux, the witness
    # As such a kernel (Linux 6.11+) says, the time namespace's pidfd ioctl
    # answers EOPNOTSUPP (its /proc/PID/ns/time is hidden too): that type is
    # left out, and every other one that differs is joined.
    without_time_namespace
    run --separate-stderr "${BAD_WRAP[@]}" "$NSCTL" enter "$TARGET" sh -c 'hostname; ip -o link | wc -l'
    echo "$output $stderr"
    [ "$status" -eq 0 ]
    [ "$output" = "notime-$BATS_TEST_NUMBER"$'\n'1 ] # the target's hostname, and its lone lo
    [ -z "$stderr" ]
}

@test "enter: a directory mounted over /proc/PID/ns is not believed when it hides a type" {
    require_root
    start_target --time
    # A kernel before 6.11 (no pidfd namespace ioctls), where nsctl asks
    # /proc/self/ns which types exist; a tmpfs there, such as a container's
    # root could mount, hides the time namespace.  nsctl must not take that
    # for a kernel without time namespaces and leave the target's unjoined.
    run --separate-stderr "${WITHOUT_TIME_NAMESPACE[@]}" "$TMP" "$TOOLS/seccomp-deny" -i pidfd-ns -- \
        "$NSCTL" enter "$TARGET" readlink /proc/self/ns/time
    echo "$output $stderr"
    [ "$status" -eq 0 ]
    [ "$output" = "time:[$(ns_inode "$TARGET" time)]" ]
    [ "$output" != "time:[$(ns_inode $$ time)]" ]
}

@test "bad input: enter: other options" {
    require_root
    bad enter 125 "--setuid 'x': no such user" -S x $$ "${RAN[@]}"
    bad enter 125 "--setgid '-1': no such group" -G -1 $$ "${RAN[@]}"
    bad enter 125 "--setuid '4294967295': not a valid user ID" -S 4294967295 $$ "${RAN[@]}"
    bad enter 125 "--keep-fd '99': no such open file descriptor" --keep-fd 99 $$ "${RAN[@]}"
    bad enter 125 "--keep-fd 'x': not a file descriptor number" --keep-fd x $$ "${RAN[@]}"
    # A 65th --keep-fd: refused in the option loop, before anything is looked at.
    local many=() i
    for i in $(seq 65); do many+=(--keep-fd 1); done
    bad enter 125 "--keep-fd '1': at most 64 --keep-fd options" "${many[@]}" $$ "${RAN[@]}"
    bad run 125 "--keep-fd '1': at most 64 --keep-fd options" "${many[@]}" -u "${RAN[@]}"
    bad unshare 125 "--keep-fd '1': at most 64 --keep-fd options" "${many[@]}" -u "${RAN[@]}"
    bad enter 125 "--root $TMP/missing: No such file or directory" "--root=$TMP/missing" $$ \
        "${RAN[@]}"
    bad enter 125 "--wd $TMP/file: Not a directory" "--wd=$TMP/file" $$ "${RAN[@]}"
    bad enter 125 "--env, --join-cgroup and -S/-G follow need a PID TARGET" --env "/proc/$$/ns/uts" \
        "${RAN[@]}"
    bad enter 125 "no TARGET given"
    # Issue 15: names for -S/-G, nsenter's -W/--wdns, --user-parent.
    bad enter 125 "--setgid 'no-such-group-$MARK': no such group" -G "no-such-group-$MARK" $$ \
        "${RAN[@]}"
    bad enter 125 "--wd and --wdns are mutually exclusive" --wd=/ -W / $$ "${RAN[@]}"
    bad enter 125 "--wdns '': an empty directory name" --wdns= $$ "${RAN[@]}"
    bad enter 125 "--wdns $TMP/missing: chdir: No such file or directory" -W "$TMP/missing" $$ \
        "${RAN[@]}"
    bad enter 125 "--user-parent: the parent of the target's user namespace" --user-parent $$ \
        "${RAN[@]}"
    # nsenter's -t and -a; -Z, which nsctl has not.
    bad enter 125 "--target $$ without a type option" -t $$ "${RAN[@]}"
    bad enter 125 "--target given twice" -t $$ --target=$$ -u "${RAN[@]}"
    bad enter 125 "'x': neither a PID, a file nor a pin name" -t x -u "${RAN[@]}"
    bad enter 125 "option '-t' needs an argument" -u -t
    bad enter 125 "--follow-context: nsctl enter sets no SELinux context" -Z -a -t $$ "${RAN[@]}"
    bad enter 125 "--all needs a PID or a pin NAME TARGET" -a "/proc/$$/ns/uts" "${RAN[@]}"
    [ "$ROW_FAILURES" -eq 0 ]
}

@test "bad input: enter: PROGRAM" {
    require_root
    start_target --uts
    printf '#!/bin/sh\nexit 0\n' >"$TMP/-dash"
    chmod +x "$TMP/-dash"
    cp "$TMP/file" "$TMP/not-executable"
    # No PROGRAM: $SHELL, else /bin/sh.
    SHELL=$TMP/missing bad enter 127 "cannot execute '$TMP/missing'" "$TARGET"
    SHELL=$TMP/dir bad enter 126 "cannot execute '$TMP/dir'" "$TARGET"
    bad enter 127 "cannot execute '': No such file or directory" "$TARGET" ""
    bad enter 127 "cannot execute 'no-such-program-$MARK'" "$TARGET" "no-such-program-$MARK"
    bad enter 126 "cannot execute '$TMP/not-executable': Permission denied" \
        "$TARGET" "$TMP/not-executable"
    bad enter 126 "cannot execute '$TMP/dir': Permission denied" "$TARGET" "$TMP/dir"
    bad enter 126 "cannot execute '$TMP/fifo': Permission denied" "$TARGET" "$TMP/fifo"
    # PROGRAM starts after TARGET: a name with a '-' is PROGRAM there, with or without "--".
    bad enter 127 "cannot execute '-dash'" "$TARGET" -dash
    bad enter 127 "cannot execute '-dash'" "$TARGET" -- -dash
    # Joining pid: PROGRAM runs as a supervised child; its exec failure is still 127.
    bad enter 127 "cannot execute 'no-such-program-$MARK'" --pid=/proc/$$/ns/pid "$TARGET" \
        "no-such-program-$MARK"
    [ "$ROW_FAILURES" -eq 0 ]
    PATH=$TMP:$PATH run "$NSCTL" enter "$TARGET" -dash
    [ "$status" -eq 0 ]
}

@test "bad input: enter: arguments with newlines and quotes reach PROGRAM byte for byte" {
    require_root
    start_target --uts
    local args=($'a\nb' "'" '"' '\' '' ' ' "\$HOME" '$(id)' '`id`' '*' '-n' '--' \
        $'\t' $'\xff\xfe' $'x\ry' '%s%n')
    local want=() a
    for a in "${args[@]}"; do
        want+=("$(printf %s "$a" | od -An -tx1 | tr -d ' \n')")
    done
    local hex='for a in "$@"; do printf %s "$a" | od -An -tx1 | tr -d " \n"; echo; done'
    # In place, and as a supervised child (a pid namespace joined).
    for opts in "" "--pid=/proc/$$/ns/pid"; do
        run "$NSCTL" enter $opts "$TARGET" sh -c "$hex" sh "${args[@]}"
        [ "$status" -eq 0 ]
        [ "$output" = "$(printf '%s\n' "${want[@]}")" ]
    done
}

@test "bad input: enter: a target that exits mid-join is entered or cleanly refused, never another" {
    require_root
    local round pid entered=0 refused=0 opts
    # (not "i": bats's own functions set it)
    for round in $(seq 60); do
        rm -f "$TMP/ready"
        mkfifo "$TMP/ready"
        # A uts namespace whose hostname says which target it is, gone within ~0-9 ms.
        unshare --uts sh -c 'hostname "$0"; echo >"$1"; exec sleep "0.00$2"' \
            "m$round-$MARK" "$TMP/ready" $((round % 10)) &
        pid=$!
        read -r _ <"$TMP/ready"
        case $((round % 3)) in
            0) opts=(--uts) ;;
            1) opts=() ;;
            2) opts=(--uts --net) ;;
        esac
        run --separate-stderr "$NSCTL" enter "${opts[@]}" "$pid" hostname
        wait "$pid" || true
        case $status in
            0)
                # Joined: only that target's namespace, never the host's nor another's.
                [ "$output" = "m$round-$MARK" ] ||
                    { echo "entered the wrong one: '$output', not 'm$round-$MARK'"; false; }
                entered=$((entered + 1))
                ;;
            125)
                [[ "$stderr" == "nsctl: enter: "*"PID $pid"*"no such process" ]] ||
                    [[ "$stderr" == "nsctl: enter: "*"/proc/$pid/ns/"*"no such process" ]] ||
                    { echo "unclean refusal: $stderr"; false; }
                [ -z "$output" ]
                refused=$((refused + 1))
                ;;
            *) echo "status $status: $output $stderr"; false ;;
        esac
    done
    echo "entered $entered, refused $refused"
    # The host's name never changed.
    [[ "$(uname -n)" != *"$MARK"* ]]
}

@test "bad input: enter: --keep-loader-env without --env, --keep-fd of an fd the caller lacks" {
    require_root
    start_target -u
    bad enter 125 "--keep-loader-env is for the environment of --env" --keep-loader-env "$TARGET" \
        "${RAN[@]}"
    bad enter 125 "--keep-fd '999': no such open file descriptor" --keep-fd 999 "$TARGET" "${RAN[@]}"
    [ "$ROW_FAILURES" -eq 0 ]
}

@test "bad input: enter --target-caps: not a process, with --keep-caps, sets that cannot be given" {
    require_root
    # A root target with two capabilities: net_raw (13) and chown (0).
    unshare --uts setpriv --bounding-set -all,+net_raw,+chown sleep 600 &
    TEST_PIDS+=($!)
    TARGET=$!
    wait_for_exec "$TARGET" sleep
    bad enter 125 "--target-caps needs a PID TARGET" --target-caps "/proc/$TARGET/ns/uts" \
        "${RAN[@]}"
    bad enter 125 "--target-caps needs a PID TARGET" --target-caps id:12345 "${RAN[@]}"
    bad enter 125 "--target-caps needs a PID TARGET" --target-caps "no-such-pin-$MARK" \
        "${RAN[@]}"
    bad enter 125 "--keep-caps and --target-caps are mutually exclusive" --keep-caps \
        --target-caps "$TARGET" "${RAN[@]}"
    # As uid 1000 the exec gives the ambient set (empty), not the target's permitted set.
    bad enter 125 "--target-caps: permitted set: the exec of PROGRAM as uid 1000 would give" \
        --target-caps -S 1000 -G 1000 "$TARGET" "${RAN[@]}"
    # What nsctl lacks cannot be raised, nor no_new_privs cleared.
    BAD_WRAP=(setpriv --bounding-set -net_raw)
    bad enter 125 "--target-caps: bounding set: the target has capability 13, which nsctl's" \
        --target-caps "$TARGET" "${RAN[@]}"
    BAD_WRAP=(setpriv --no-new-privs)
    bad enter 125 "--target-caps: no_new_privs: nsctl runs with it and the target without" \
        --target-caps "$TARGET" "${RAN[@]}"
    BAD_WRAP=()
    [ "$ROW_FAILURES" -eq 0 ]
}
