#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The bad-input table of nsctl run and nsctl unshare (bad-input.bash): every
# row is given to both, and each must refuse it with the status docs/DESIGN.md
# gives (125 nsctl failed, 126 PROGRAM not executable, 127 not found), a
# message naming the input, and nothing created: no pin, no mount, no process,
# and the host's names unchanged.

bats_require_minimum_version 1.5.0

load bad-input

# both STATUS NEEDLE [ARG...]: the row for run and for unshare.
both() {
    bad run "$@"
    bad unshare "$@"
}

@test "bad input: run, unshare: paths to pin at (--TYPE=FILE)" {
    require_root
    both 125 "--net='$TMP/file': the file exists" "--net=$TMP/file" true
    both 125 "--net='$TMP/dir': the file exists" "--net=$TMP/dir" true
    both 125 "--net='$TMP/fifo': the file exists" "--net=$TMP/fifo" true # no open() blocks
    both 125 "--uts='/dev/null': the file exists" --uts=/dev/null true
    both 125 "--uts='/dev/tty': the file exists" --uts=/dev/tty true
    both 125 "--uts='/dev/ptmx': the file exists" --uts=/dev/ptmx true
    both 125 "--uts='/proc/$$/ns/uts': the file exists" "--uts=/proc/$$/ns/uts" true
    # A pin of the right type, but a pin is always a new file.
    both 125 "--net='/proc/$$/ns/net': the file exists" "--net=/proc/$$/ns/net" true
    both 125 "--net='$TMP/missing/pin': no such directory" "--net=$TMP/missing/pin" true
    both 125 "--net='$TMP/file/pin': Not a directory" "--net=$TMP/file/pin" true
    both 125 "--net='': an empty file name" --net= true
    both 125 "unrecognized option '-=' in '-n=': a short type option takes no argument" -n= true
    # Two pins asked for, the second impossible: the first is not made either.
    both 125 "--uts='$TMP/dir': the file exists" "--net=$TMP/pin-$MARK" "--uts=$TMP/dir" true
    # unshare's new PID namespace exists only once PROGRAM forks.
    bad unshare 125 "--pid='$TMP/pin': a new PID namespace is empty" "--pid=$TMP/pin" true
    # A FILE without a '/' is a pin NAME (issue 15): one that cannot be is refused.
    both 125 "--net='..': not a valid pin name (a file is written with a '/')" --net=.. true
    both 125 "--uts='.': not a valid pin name" --uts=. true
    [ "$ROW_FAILURES" -eq 0 ]
}

@test "bad input: run, unshare: namespace types" {
    require_root
    both 125 "unrecognized option '--bogus'" --bogus true
    both 125 "unrecognized option '--network'" --network true
    both 125 "no namespace to create" true
    both 125 "--net given twice" -n -n true
    both 125 "--net given twice" --net "--net=$TMP/pin" true
    both 125 "--uts given twice" "--uts=$TMP/a" "--uts=$TMP/b" true
    both 125 "--mount given twice" -m --mount true
    # A type the kernel lacks, as before Linux 5.6: named, and nothing left running.
    # (run names the call that failed: its child's own unshare(CLONE_NEWTIME).)
    without_time_namespace
    bad unshare 125 "unshare(): time namespaces: Operation not supported" -T true
    bad unshare 125 "unshare(): time namespaces: Operation not supported" -T -u true
    bad run 125 "unshare(CLONE_NEWTIME): time namespaces: Operation not supported" -T true
    bad run 125 "unshare(CLONE_NEWTIME): time namespaces: Operation not supported" -T -u --hostname "h-$MARK" true
    bad run 125 "unshare(CLONE_NEWTIME): time namespaces: Operation not supported" -T "--net=$TMP/pin-$MARK" true
    # A short type option takes no file (issue 15): -n=FILE, -nFILE and -Uu=FILE pinned once.
    both 125 "in '-n=$TMP/pin': a short type option takes no argument; the file form is --net=FILE" \
        "-n=$TMP/pin" true
    both 125 "in '-n$TMP/pin': a short type option takes no argument; the file form is --net=FILE" \
        "-n$TMP/pin" true
    both 125 "the file form is --uts=FILE" "-Uu=$TMP/pin" true
    # After a long option: the cluster is named, not the option before it.
    both 125 "in '-T=$TMP/time': a short type option takes no argument; the file form is --time=FILE" \
        "--uts=$TMP/uts" "-T=$TMP/time" true
    [ "$ROW_FAILURES" -eq 0 ]
}

@test "bad input: run, unshare: id maps (every case of the create issue)" {
    require_root
    # The count: at least 1.
    both 125 "--map-users '0:1000:0': the count must be 1 or more" --map-users 0:1000:0 true
    both 125 "--map-groups '0:1000:0': the count must be 1 or more" --map-groups 0:1000:0 true
    # No overflow of 32 bits, and never 4294967295 (the kernel's (uid_t)-1).
    both 125 "'4294967294:0:2'" --map-users 4294967294:0:2 true
    both 125 "'0:4294967294:2'" --map-users 0:4294967294:2 true
    both 125 "'0:4294967295:1'" --map-users 0:4294967295:1 true
    both 125 "'4294967295:0:1'" --map-users 4294967295:0:1 true
    both 125 "'0:0:4294967296'" --map-users 0:0:4294967296 true
    both 125 "'1:0:4294967295'" --map-users 1:0:4294967295 true
    both 125 "'99999999999999999999:0:1'" --map-users 99999999999999999999:0:1 true
    both 125 "--map-user '4294967295': not a valid user ID" --map-user 4294967295 true
    both 125 "--map-group '4294967295': not a valid group ID" --map-group 4294967295 true
    # No overlap, inside or outside, within one option kind or across them.
    both 125 "--map-users '5:200000:10': overlaps" \
        --map-users 0:100000:10 --map-users 5:200000:10 true
    both 125 "--map-users '20:100005:10': overlaps" \
        --map-users 0:100000:10 --map-users 20:100005:10 true
    both 125 "--map-groups '0:1:1': overlaps" --map-root --map-groups 0:1:1 true
    both 125 "--map-user '0:0:1': overlaps" --map-users 0:100000:1 --map-user 0 true
    # At most 340 lines: 341 small ranges fit a page, and are still refused.
    local many=() i
    for i in $(seq 0 340); do many+=(--map-users "$((i * 2)):$((i * 2)):1"); done
    both 125 "--map-users '680:680:1': more than 340 ranges" "${many[@]}" true
    # ... and no more than a page of text: 300 long lines do not fit.
    many=()
    for i in $(seq 0 299); do many+=(--map-users "$((1000000000 + i)):$((2000000000 + i)):1"); done
    both 125 "more than a page of text" "${many[@]}" true
    # Syntax.
    for m in "" 0:0 0:1:2:3 a:b:c " 0:0:1" "0:0:1 " 0x1:0:1 -1:0:1 +1:0:1 0::1 ::: 0:0:1x; do
        both 125 "--map-users '$m': not INNER:OUTER:COUNT" --map-users "$m" true
    done
    both 125 "--map-user '-1': no such user" --map-user -1 true
    both 125 "--map-user 'no-such-user-$MARK': no such user" --map-user "no-such-user-$MARK" true
    both 125 "--map-group 'no-such-group-$MARK': no such group" \
        --map-group "no-such-group-$MARK" true
    both 125 "--setgroups 'maybe': not \"allow\" or \"deny\"" --setgroups maybe true
    both 125 "--setgroups '': not \"allow\" or \"deny\"" --setgroups "" true
    [ "$ROW_FAILURES" -eq 0 ]
}

@test "bad input: run, unshare: hostnames and domain names" {
    require_root
    local long
    long=$(printf 'h%.0s' $(seq 65))
    both 125 "--hostname '': empty" -u --hostname "" true
    both 125 "--domainname '': empty" -u --domainname "" true
    both 125 "--hostname '$long': longer than 64 bytes" -u --hostname "$long" true
    both 125 "--domainname '$long': longer than 64 bytes" -u --domainname "$long" true
    # Control characters are named escaped, never written raw to the terminal.
    both 125 "--hostname 'a\\012b': a control character" -u --hostname $'a\nb' true
    both 125 "--hostname 'a\\011b': a control character" -u --hostname $'a\tb' true
    both 125 "--hostname '\\033]0;x\\007': a control character" -u --hostname $'\e]0;x\a' true
    both 125 "--domainname 'a\\177': a control character" -u --domainname $'a\x7f' true
    both 125 "--hostname needs a new uts namespace" --hostname "h-$MARK" true
    both 125 "--domainname needs a new uts namespace" -n --domainname "d-$MARK" true
    [ "$ROW_FAILURES" -eq 0 ]
}

@test "bad input: run, unshare: clock offsets" {
    require_root
    for o in "" x 1x 1.5 0x10 " 1" "1 " +-1 --1 1e3; do
        both 125 "--monotonic '$o': not a whole number of seconds" -T --monotonic "$o" true
    done
    # Overflow of 64 bits, and the kernel's range: the clock stays in [0, KTIME_SEC_MAX / 2].
    for o in 9223372036854775808 -9223372036854775809 99999999999999999999 4611686019 \
        -4611686019; do
        both 125 "--monotonic '$o': out of range" -T --monotonic "$o" true
        both 125 "--boottime '$o': out of range" -T --boottime "$o" true
    done
    # Before the clock's start: the uptime is not that long.
    both 125 "--monotonic '-999999999': out of range" -T --monotonic -999999999 true
    both 125 "--monotonic needs a new time namespace" --monotonic 1 true
    both 125 "--boottime needs a new time namespace" -u --boottime 1 true
    [ "$ROW_FAILURES" -eq 0 ]
}

@test "bad input: run, unshare: PROGRAM" {
    require_root
    printf '#!/bin/sh\nexit 0\n' >"$TMP/-dash"
    chmod +x "$TMP/-dash"
    printf '#!/nonexistent-interpreter-%s\n' "$MARK" >"$TMP/no-interpreter"
    chmod +x "$TMP/no-interpreter"
    cp "$TMP/file" "$TMP/not-executable"
    both 127 "cannot execute '': No such file or directory" -u ""
    both 127 "cannot execute 'no-such-program-$MARK': No such file or directory" \
        -u "no-such-program-$MARK"
    both 127 "cannot execute '$TMP/missing': No such file or directory" -u "$TMP/missing"
    both 126 "cannot execute '$TMP/not-executable': Permission denied" -u "$TMP/not-executable"
    both 126 "cannot execute '$TMP/dir': Permission denied" -u "$TMP/dir"
    both 126 "cannot execute '$TMP/fifo': Permission denied" -u "$TMP/fifo"
    both 127 "cannot execute '$TMP/no-interpreter'" -u "$TMP/no-interpreter"
    both 126 "cannot execute '/dev/null'" -u /dev/null
    # A name starting with '-' is an option before "--", PROGRAM after it.
    both 125 "unrecognized option '-d' in '-dash'" -u -dash
    both 127 "cannot execute '-dash': No such file or directory" -u -- -dash
    [ "$ROW_FAILURES" -eq 0 ]
    PATH=$TMP:$PATH run "$NSCTL" run -u -- -dash
    [ "$status" -eq 0 ]
    PATH=$TMP:$PATH run "$NSCTL" unshare -u -- -dash
    [ "$status" -eq 0 ]
}

@test "bad input: run, unshare: an unprivileged caller is refused cleanly" {
    require_userns_for_nobody
    as_nobody_rows
    bad run 125 "clone(): Operation not permitted" -u true
    bad unshare 125 "unshare(): Operation not permitted" -n true
    # The bad input is named before the kernel is asked anything.
    both 125 "--hostname 'a\\012b': a control character" -r -u --hostname $'a\nb' true
    both 125 "--map-users '0:0:0': the count must be 1 or more" --map-users 0:0:0 true
    # A pin where nobody may write: nothing pinned, PROGRAM not started, nothing left.
    chmod 755 "$TMP/dir"
    bad run 125 "--net='$TMP/dir/pin': cannot pin the new net namespace: Permission denied" \
        -U "--net=$TMP/dir/pin" "$TMP/ran"
    [ "$ROW_FAILURES" -eq 0 ]
    # newuidmap refuses a range nobody has no subordinate IDs for; it says so, and so does nsctl.
    for sub in run unshare; do
        run --separate-stderr as_nobody "$NSCTL" $sub -U --map-users 0:100000:65536 true
        [ "$status" -eq 125 ]
        [[ "$stderr" == *"nsctl: $sub: cannot write the user namespace maps of PID "* ]]
    done
}

# The arguments PROGRAM received, one per line, each as a hex dump.
print_args_hex='for a in "$@"; do printf %s "$a" | od -An -tx1 | tr -d " \n"; echo; done'

@test "bad input: run, unshare: arguments with newlines and quotes reach PROGRAM byte for byte" {
    require_root
    local args=($'a\nb' "'" '"' '\' '' ' ' "\$HOME" '$(id)' '`id`' '*' '-n' '--' \
        $'\t' $'\xff\xfe' $'x\ry' '%s%n')
    local want=() a
    for a in "${args[@]}"; do
        want+=("$(printf %s "$a" | od -An -tx1 | tr -d ' \n')")
    done
    for sub in run unshare; do
        run "$NSCTL" $sub -u -- sh -c "$print_args_hex" sh "${args[@]}"
        [ "$status" -eq 0 ]
        [ "$output" = "$(printf '%s\n' "${want[@]}")" ]
    done
}

@test "bad input: run, unshare: hostnames with C1 controls, bidirectional controls, bytes not UTF-8" {
    require_root
    local why="not allowed: a C1 control character (such as CSI, U+009B), a bidirectional or invisible formatting character (such as U+202E), or bytes that are not UTF-8"
    # Shown escaped, byte by byte: the message must not do what the name would.
    # The names are written as UTF-8 bytes: bash's $'\u...' depends on the
    # test's locale (in C it stays the six characters '\u009b' on Debian 13).
    both 125 "--hostname 'a\\302\\23331mb': $why" -u --hostname $'a\xc2\x9b31mb' true
    both 125 "--hostname 'a\\23331mb': $why" -u --hostname $'a\x9b31mb' true
    both 125 "--hostname 'a\\302\\205': $why" -u --hostname $'a\xc2\x85' true
    both 125 "--hostname 'evil\\342\\200\\256gnp.': $why" -u --hostname $'evil\xe2\x80\xaegnp.' true
    both 125 "--hostname 'a\\342\\201\\246b': $why" -u --hostname $'a\xe2\x81\xa6b' true
    both 125 "--hostname 'a\\342\\200\\213b': $why" -u --hostname $'a\xe2\x80\x8bb' true
    both 125 "--domainname 'a\\342\\200\\217': $why" -u --domainname $'a\xe2\x80\x8f' true
    both 125 "--domainname '\\357\\273\\277a': $why" -u --domainname $'\xef\xbb\xbfa' true
    both 125 "--hostname 'caf\\351': $why" -u --hostname $'caf\xe9' true
    both 125 "--hostname '\\300\\256': $why" -u --hostname $'\xc0\xae' true
    [ "$ROW_FAILURES" -eq 0 ]
}
