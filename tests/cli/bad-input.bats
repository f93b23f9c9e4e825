#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The bad-input table: each row is one bad command line, the exit status
# docs/DESIGN.md gives it, and a piece of the message that names the input.  Every
# row must print "nsctl: SUBCOMMAND: ..." on stderr, nothing on stdout, and
# leave no mount, file or process behind (bad-input.bash).  This file is
# compare's table; bad-input-SUBCOMMAND.bats are the others'.

bats_require_minimum_version 1.5.0

load bad-input

@test "bad input: PIDs" {
    dead=$(dead_pid)
    start_zombie
    bad compare 2 "''" $$ ""
    bad compare 2 "'0'" $$ 0
    bad compare 2 "'-1'" -1 $$ # before the operands: an option nsctl does not have
    bad compare 2 "'-1'" $$ -1
    bad compare 2 "'+1'" $$ +1
    bad compare 2 "' 1'" $$ " 1"
    bad compare 2 "'1 '" $$ "1 "
    bad compare 2 "'1x'" $$ 1x
    bad compare 2 "'0x10'" $$ 0x10
    bad compare 2 "'010'" $$ 010
    bad compare 2 "'2147483648'" $$ 2147483648
    bad compare 2 "'4294967297'" $$ 4294967297
    bad compare 2 "'99999999999999999999'" $$ 99999999999999999999
    bad compare 2 "'99999999999x'" $$ 99999999999x
    bad compare 2 "PID $dead: no such process" $$ "$dead"
    bad compare 2 "PID $ZOMBIE" $$ "$ZOMBIE"
    [ "$ROW_FAILURES" -eq 0 ]
}

@test "bad input: paths" {
    bad compare 2 "/nonexistent-$MARK" $$ "/nonexistent-$MARK"
    bad compare 2 "'nonexistent-$MARK': neither a PID nor" $$ "nonexistent-$MARK"
    bad compare 2 "$TMP/dir: Is a directory" $$ "$TMP/dir"
    bad compare 2 "$TMP/file: not a namespace file" $$ "$TMP/file"
    bad compare 2 "$TMP/fifo: not a namespace file" $$ "$TMP/fifo" # and no open() blocks on it
    bad compare 2 "/dev/tty: not a namespace file" $$ /dev/tty
    bad compare 2 "/dev/null: not a namespace file" $$ /dev/null
    bad compare 2 "/proc/$$/ns/net/x: Not a directory" $$ "/proc/$$/ns/net/x"
    bad compare 2 "/proc/$$/ns: Is a directory" $$ "/proc/$$/ns"
    # The wrong namespace type.
    bad compare 2 "/proc/$$/ns/net is a net namespace and /proc/$$/ns/uts a uts" \
        "/proc/$$/ns/net" "/proc/$$/ns/uts"
    bad compare 2 "/proc/$$/ns/net is a net namespace, which the type options leave out" \
        --uts "/proc/$$/ns/net" $$
    [ "$ROW_FAILURES" -eq 0 ]
}

@test "bad input: namespace type names" {
    bad compare 2 "unknown namespace type 'foo'" --type foo $$ $$
    bad compare 2 "unknown namespace type 'ALL'" --type ALL $$ $$
    bad compare 2 "unknown namespace type 'net uts'" --type "net uts" $$ $$
    bad compare 2 "--type '': empty namespace type" --type "" $$ $$
    bad compare 2 "--type 'net,': empty namespace type" --type net, $$ $$
    bad compare 2 "--type ',net': empty namespace type" --type ,net $$ $$
    bad compare 2 "--type 'net,,uts': empty namespace type" --type net,,uts $$ $$
    bad compare 2 "'net' given twice" --type net,net $$ $$
    bad compare 2 "'net' given twice" --type net,ipc,net $$ $$
    bad compare 2 "'mount' given twice" --type mnt,mount $$ $$
    bad compare 2 "option '--type' needs an argument" --type
    bad compare 2 "option '-t' needs an argument" -t
    [ "$ROW_FAILURES" -eq 0 ]
}

@test "bad input: options and operands" {
    bad compare 2 "unrecognized option '--bogus'" --bogus $$ $$
    bad compare 2 "option '--json' takes no argument" --json=yes $$ $$
    bad compare 2 "two operands needed" $$
    bad compare 2 "two operands needed"
    bad compare 2 "too many operands: '3'" 1 2 3
    bad compare 2 "--json and --raw are mutually exclusive" -J -r $$ $$
    # lsns's -n, -p, -T, -u are not nsctl's type letters: list takes neither reading.
    bad list 2 "-n: lsns reads it as --noheadings" -n
    bad list 2 "-p: lsns reads it as --task PID" -p $$
    bad list 2 "-T: lsns reads it as --tree" -T
    bad list 2 "-u: lsns reads it as --notruncate" -ru
    [ "$ROW_FAILURES" -eq 0 ]
}

@test "bad input: mutually exclusive options, every row of every subcommand's table, either order" {
    # One table per subcommand (src/cli.c's cli_exclusive_check): the same
    # message whichever option comes first, with long or short spellings, and
    # an option given twice is no conflict with itself.
    RAN=(sh -c 'touch "$0"' "$TMP/ran")
    bad compare 2 "--json and --raw are mutually exclusive" -J -r $$ $$
    bad compare 2 "--json and --raw are mutually exclusive" --raw --json $$ $$
    bad list 2 "--json, --raw and --dot are mutually exclusive" -J -r
    bad list 2 "--json, --raw and --dot are mutually exclusive" --dot --raw
    bad list 2 "--json, --raw and --dot are mutually exclusive" --json --dot
    bad list 2 "--dot and --tree are mutually exclusive" --tree=parent --dot
    bad list 2 "--dot and --filter are mutually exclusive" --dot -Q 'TYPE == "net"'
    bad list 2 "--list, --tree and --dot are mutually exclusive" -l --tree
    bad list 2 "--list, --tree and --dot are mutually exclusive" --dot --list
    local creds="--preserve-credentials and --setuid/--setgid are mutually exclusive"
    bad enter 125 "$creds" --preserve-credentials -S 0 $$ "${RAN[@]}"
    bad enter 125 "$creds" --setgid 0 --preserve-credentials $$ "${RAN[@]}"
    bad enter 125 "--keep-fds and --keep-fd are mutually exclusive" --keep-fds --keep-fd 1 $$ \
        "${RAN[@]}"
    bad enter 125 "--keep-fds and --keep-fd are mutually exclusive" --keep-fd=2 --keep-fds $$ \
        "${RAN[@]}"
    bad enter 125 "--wd and --wdns are mutually exclusive" -W / --wd $$ "${RAN[@]}"
    bad enter 125 "--keep-caps and --target-caps are mutually exclusive" --target-caps \
        --keep-caps $$ "${RAN[@]}"
    bad enter 125 "--net-socket and --net are mutually exclusive" --net -N 0 $$ "${RAN[@]}"
    bad enter 125 "--net-socket and --net are mutually exclusive" --net-socket=0 -n $$ \
        "${RAN[@]}"
    [ ! -e "$TMP/ran" ]
    # Twice the same option is not two of a row: these go on to other errors, or run.
    run -0 "$NSCTL" compare -J -J $$ $$
    run -0 "$NSCTL" enter -S 0 -G 0 -S 0 $$ true
    [ "$ROW_FAILURES" -eq 0 ]
}

@test "bad input: a kernel thread is read, never signalled, and agrees with /proc" {
    # PID 2 is kthreadd: only its /proc/2/ns links are read.
    [ "$(cat /proc/2/comm)" = kthreadd ] || skip "no kernel thread is visible as PID 2 here (kthreadd is outside this PID namespace)"
    run "$NSCTL" compare -r --noheadings $$ 2
    echo "$output"
    [ "$status" -eq 0 ] || [ "$status" -eq 1 ]
    for t in cgroup ipc mnt net pid time user uts; do
        a=$(ns_inode $$ $t) b=$(ns_inode 2 $t)
        if [ "$a" = "$b" ]; then want=same; else want=different; fi
        echo "$output" | grep -E "^$t $a $b .*$want$"
    done
}

@test "bad input: a process that exits while it is compared gives a right answer or trouble" {
    for i in $(seq 40); do
        sleep "0.00$((i % 10))" &
        pid=$!
        run "$NSCTL" compare -r --noheadings $$ "$pid"
        wait "$pid" || true
        case $status in
            0 | 1) [ "$(echo "$output" | wc -l)" -eq 8 ] ;;
            2) [[ "$output" == "nsctl: compare: PID $pid"*"no such process" ]] ;;
            *) echo "status $status: $output"; false ;;
        esac
    done
}
