#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# nsctl list -Q/--filter, each test twice: with the nsctl built here, whose loaded
# libsmartcols decides the evaluator (nsctl's own before 2.40, as Debian 12's 2.38),
# and through Debian trixie's libsmartcols 2.41 (smartcols.bash), whose filter API
# evaluates it.  The rows selected are checked against the inodes /proc gives, on
# namespaces each test makes: other tests make namespaces meanwhile.

load helpers
load place
load smartcols

load list-helpers

setup() {
    list_setup filter
}

teardown() {
    list_teardown
}

# The NS column of "nsctl list -r --noheadings -o NS ARGS...", sorted: the rows it printed.
listed() {
    "$NSCTL" list -r --noheadings -o NS "$@" | sort -n
}

sorted() {
    printf '%s\n' "$@" | sort -n
}

# busy: a process's own; pinned: by ip netns add, no process in it; host: ours.
three_net_namespaces() {
    require_root
    start_target --net
    busy=$(ns_inode "$TARGET" net)
    ip netns add "$NETNS"
    pinned=$(stat -L -c %i "/run/netns/$NETNS")
    host=$(ns_inode $$ net)
}

check_selects_rows() {
    three_net_namespaces
    ours="(NS == $busy || NS == $pinned || NS == $host)"
    [ "$(listed -Q "$ours && NPROCS == 0 && TYPE == \"net\"")" = "$pinned" ]
    [ "$(listed -Q "$ours && NPROCS > 0")" = "$(sorted "$busy" "$host")" ]
    [ "$(listed -Q "$ours and not NSFS")" = "$(sorted "$busy" "$host")" ]
    [ "$(listed -Q "ns eq $busy OR ns EQ $pinned")" = "$(sorted "$busy" "$pinned")" ]
    [ "$(listed -Q "$ours && !(NS != $busy)")" = "$busy" ]
    # Columns that are not shown: PID, NSFS (a regex), TYPE.
    [ "$(listed -Q "PID == $TARGET")" = "$busy" ]
    [ "$(listed -Q "NSFS =~ '^/run/netns/$NETNS\$'")" = "$pinned" ]
    [ "$(listed -Q "NSFS =~ '/$NETNS\$' && TYPE != 'net'")" = "" ]
    [ "$(listed -Q "$ours && NSFS !~ 'netns' && TYPE =~ '^n.t\$'")" = "$(sorted "$busy" "$host")" ]
    # A number compared with a number column as text, in quotes; a fraction as a fraction.
    [ "$(listed -Q "$ours && NS == '$pinned'")" = "$pinned" ]
    [ "$(listed -Q "$ours && NPROCS < 0.5")" = "$pinned" ]
    # A namespace no process is in has no PID: no comparison with a number holds, != neither.
    [ "$(listed -Q "NS == $pinned && PID < 1000000000")" = "" ]
    [ "$(listed -Q "NS == $pinned && PID != 1")" = "" ]
    [ "$(listed -Q "NS == $pinned && !(PID == 1)")" = "$pinned" ]
    # Combined with the other selections, and the hidden columns stay out of JSON.
    [ "$(listed -P -Q "$ours")" = "$pinned" ]
    [ "$(listed --uts -Q "$ours")" = "" ]
    run "$NSCTL" list -J -o NS,TYPE -Q "NS == $busy && PID == $TARGET && NPROCS == 1"
    [ "$status" -eq 0 ]
    [ "$(echo "$output" | jq -c '.namespaces')" = "[{\"ns\":$busy,\"type\":\"net\"}]" ]
    # Every type's row of the target that /proc says is its own, and no other.
    for t in net uts ipc; do
        [ "$(listed -Q "PID == $TARGET && TYPE == '$t'")" = "$([ $t = net ] && echo "$busy")" ]
    done
}

@test "list -Q, own evaluator: selects exactly the rows its expression says" {
    check_selects_rows
}

@test "list -Q, libsmartcols 2.41: selects exactly the rows its expression says" {
    use_library_filter
    check_selects_rows
}

# libsmartcols' precedence, not SQL's: && and || on one level from the left, ! on the value after it.
check_precedence() {
    three_net_namespaces
    # (busy || pinned) && NPROCS == 0; SQL would read busy || (pinned && NPROCS == 0).
    [ "$(listed -Q "NS == $busy || NS == $pinned && NPROCS == 0")" = "$pinned" ]
    # (!NPROCS) == 1: no process; SQL's !(NPROCS == 1) would take the host's too.
    [ "$(listed -Q "(NS == $busy || NS == $pinned || NS == $host) && ! NPROCS == 1")" = "$pinned" ]
    # Keywords are all lower or all upper case; "Eq" is no operator.
    run "$NSCTL" list -Q "NS Eq $busy"
    [ "$status" -eq 2 ]
    [[ "$output" == "nsctl: list: --filter: at 4: expected an operator, '&&', '||' or the end, not 'Eq'"* ]]
    [ "$(listed -Q "NS == $busy AND TRUE")" = "$busy" ]
    [ "$(listed -Q "NS == $busy and false")" = "" ]
}

@test "list -Q, own evaluator: libsmartcols' precedence and keywords" {
    check_precedence
}

@test "list -Q, libsmartcols 2.41: libsmartcols' precedence and keywords" {
    use_library_filter
    check_precedence
}

check_tree() {
    require_root
    require_userns
    start_target --user --map-root-user --uts
    user=$(ns_inode "$TARGET" user)
    uts=$(ns_inode "$TARGET" uts)
    # Both: the uts namespace hangs under its owner.
    JSON=$("$NSCTL" list -J --tree -o NS,TYPE -Q "NS == $user || NS == $uts")
    [ "$(echo "$JSON" | jq -c '.namespaces')" = "[{\"ns\":$user,\"type\":\"user\",\"children\":[{\"ns\":$uts,\"type\":\"uts\"}]}]" ]
    # Its owner dropped: the uts namespace is a root.
    JSON=$("$NSCTL" list -J --tree -o NS,TYPE -Q "NS == $uts")
    [ "$(echo "$JSON" | jq -c '.namespaces')" = "[{\"ns\":$uts,\"type\":\"uts\"}]" ]
    # The tree hangs on the first column shown, not on a hidden one of the filter's.
    JSON=$("$NSCTL" list -J --tree -o NS -Q "(NS == $user || NS == $uts) && PID == $TARGET && TYPE =~ 'u'")
    [ "$(echo "$JSON" | jq -c '.namespaces')" = "[{\"ns\":$user,\"children\":[{\"ns\":$uts}]}]" ]
}

@test "list -Q, own evaluator: with --tree a row the filter drops leaves its children at the top" {
    check_tree
}

@test "list -Q, libsmartcols 2.41: with --tree a row the filter drops leaves its children at the top" {
    use_library_filter
    check_tree
}

check_bad_filter() {
    local expression=$1 message=$2
    "$NSCTL" list -Q "$expression" >"$TMP/out" 2>"$TMP/err" && status=0 || status=$?
    cat "$TMP/err"
    [ "$status" -eq 2 ]
    [ ! -s "$TMP/out" ]
    [ "$(head -n 1 "$TMP/err")" = "nsctl: list: --filter: $message" ]
    [ "$(sed -n 2p "$TMP/err")" = "Try 'nsctl list --help'." ]
}

check_bad_expressions() {
    check_bad_filter 'NPROCS == 0 && TYPE ==' "at 23: expected a value after '=='"
    check_bad_filter 'NOPE == 1' "at 1: unknown column 'NOPE' (nsctl list -H lists them)"
    check_bad_filter 'TYPE == net' "at 9: unknown column 'net' (nsctl list -H lists them)"
    check_bad_filter '(TYPE == "net"' "at 15: expected ')' to close the '(' at 1, not the end"
    check_bad_filter 'TYPE = "net"' "at 6: '=' is not an operator: '==' compares"
    check_bad_filter 'TYPE == "net' "at 9: the string that starts here has no closing \""
    check_bad_filter 'TYPE =~ "("' "at 6: bad regular expression after '=~': Unmatched ( or \\("
    check_bad_filter 'NPROCS > 1x' "at 10: '1x' is not a number (digits, and maybe '.' and digits)"
    check_bad_filter 'NS > 18446744073709551616' "at 6: '18446744073709551616' is larger than 18446744073709551615"
    check_bad_filter '1 =~ "x"' "at 3: '=~' needs a column or a string before it"
    check_bad_filter 'TYPE =~ 5' "at 6: '=~' needs a regular expression in quotes after it"
    # glibc's regcomp() would take gigabytes for the first, and overflow its stack on the second.
    check_bad_filter 'TYPE =~ "(a{3000}){3000}"' "at 6: the regular expression after '=~' is too big: written out, with those before it, its repetitions come to more than 1024 items"
    check_bad_filter 'TYPE =~ "(|)(\1\1)*"' "at 6: the regular expression after '=~' has a back-reference, \\1: extended ones have none in POSIX, and glibc's matcher overflows its stack on some"
    check_bad_filter "TYPE !~ \"$(printf '(%.0s' {1..30000})n$(printf ')%.0s' {1..30000})\"" "at 6: the regular expression after '!~' nests groups deeper than 200 levels"
    # No escapes in a string, as in libsmartcols: the quote ends it.
    check_bad_filter "TYPE == 'it\\'s'" "at 14: expected an operator, '&&', '||' or the end, not 's'"
    # Bytes outside the grammar (libsmartcols' scanner would copy them to stdout and go on).
    check_bad_filter 'TYPE == "net" ;' "at 15: unexpected character ';'"
    check_bad_filter '' "at 1: the expression is empty"
    run "$NSCTL" list --dot -Q 'NPROCS == 0'
    [ "$status" -eq 2 ]
    [[ $output == *"--dot and --filter are mutually exclusive"* ]]
    # Found before any scan: where /proc has no proc filesystem, still the usage error.
    if [ "$(id -u)" -eq 0 ]; then
        run --separate-stderr without_proc "$NSCTL" list --filter 'TYPE =='
        [ "$status" -eq 2 ]
        [[ $stderr == *"--filter: at 8: expected a value after '=='"* ]]
    fi
}

@test "list -Q, own evaluator: a bad expression: status 2, its position and the reason, nothing on stdout" {
    check_bad_expressions
}

@test "list -Q, libsmartcols 2.41: a bad expression: status 2, its position and the reason, nothing on stdout" {
    use_library_filter
    check_bad_expressions
}

# Text compared with a number: libsmartcols fails the row, and nsctl with it, status 1.
check_evaluation_error() {
    uts=$(ns_inode $$ uts)
    run --separate-stderr "$NSCTL" list -o NS -Q "NS == $uts && TYPE == 5"
    [ "$status" -eq 1 ]
    [ -z "$output" ]
    [ "$stderr" = "nsctl: list: --filter: cannot evaluate it on namespace $uts: a value is not of the type it is compared as (a number in quotes compares as text)" ]
    # Rows the expression never compares so are not in the way: && stops first.
    run -0 "$NSCTL" list -r --noheadings -o NS -Q "NS == $uts && (TYPE == 'uts' || TYPE == 5)"
    [ "$output" = "$uts" ]
}

@test "list -Q, own evaluator: a row the expression cannot be evaluated on fails it, status 1" {
    check_evaluation_error
}

@test "list -Q, libsmartcols 2.41: a row the expression cannot be evaluated on fails it, status 1" {
    use_library_filter
    check_evaluation_error
}

check_pins_and_users() {
    require_root
    uid=54321
    getent passwd "$uid" >/dev/null && skip "UID $uid has a passwd entry here"
    ip netns add "$NETNS"
    ino=$(stat -L -c %i "/run/netns/$NETNS")
    touch "$TMP/extra-pin-1"
    mount --bind "/run/netns/$NETNS" "$TMP/extra-pin-1"
    start_bg unshare --uts setpriv --reuid="$uid" sleep 600
    wait_for_exec "$TARGET" sleep
    uts=$(ns_inode "$TARGET" uts)
    # The NS column of the rows -Q selects, in FORMAT (table, -r, -W or -J).
    selected() {
        local format=$1
        shift
        if [ "$format" = -J ]; then
            "$NSCTL" list -J -o NS "$@" | jq -r '.namespaces[].ns'
        else
            "$NSCTL" list $format --noheadings -o NS "$@" | tr -d ' '
        fi
    }
    for format in "" -r -W -J; do
        echo "format: '$format'"
        # The pins are the lines of one cell, as the table shows them: ^ and $ match
        # at its ends only, and one byte that is no comma is between them.
        [ "$(selected "$format" -Q "NSFS =~ '^/run/netns/$NETNS\$'")" = "" ]
        [ "$(selected "$format" -Q "NSFS =~ '^/run/netns/$NETNS.$TMP/extra-pin-1\$'")" = "$ino" ]
        [ "$(selected "$format" -Q "NS == $ino && NSFS =~ ','")" = "" ]
        [ "$(selected "$format" -Q "NS == $ino && NSFS == '/run/netns/$NETNS'")" = "" ]
        # No process is in it: UID and USER are its user namespace's creator's (root).
        [ "$(selected "$format" -Q "NS == $ino && UID == 0 && USER == 'root'")" = "$ino" ]
        # A UID with no passwd entry: USER is its number, as a number or a string.
        [ "$(selected "$format" -Q "NS == $uts && USER == $uid && USER == '$uid'")" = "$uts" ]
    done
    # Shown, the pins are joined as -r joins them; -Q reads them one per line still.
    run "$NSCTL" list -r --noheadings -o NS,NSFS -Q "NSFS =~ '$TMP/extra-pin-1\$'"
    [ "$output" = "$ino /run/netns/$NETNS,$TMP/extra-pin-1" ]
    umount "$TMP/extra-pin-1"
}

@test "list -Q, own evaluator: NSFS of several pins and USER of a UID with no name alike in every format" {
    check_pins_and_users
}

@test "list -Q, libsmartcols 2.41: NSFS of several pins and USER of a UID with no name alike in every format" {
    use_library_filter
    check_pins_and_users
}

# lsns's filter scenario (util-linux tests/ts/lsns/filter): a process alone in a user
# namespace of its own, which it also holds by an fd.
check_lsns_scenario() {
    require_userns
    start_bg unshare --user bash -c 'exec 4</proc/self/ns/user; exec sleep 600'
    wait_for_exec "$TARGET" sleep
    ino=$(ns_inode "$TARGET" user)
    [ "$ino" != "$(ns_inode $$ user)" ]
    [ "$(stat -L -c %i "/proc/$TARGET/fd/4")" = "$ino" ]
    for option in -Q --filter; do
        run "$NSCTL" list -r --noheadings -o PID "$option" "NS == $ino && NPROCS == 1"
        [ "$status" -eq 0 ]
        [ "$output" = "$TARGET" ]
    done
}

@test "list -Q, own evaluator: lsns's filter scenario, a process's own user namespace" {
    check_lsns_scenario
}

@test "list -Q, libsmartcols 2.41: lsns's filter scenario, a process's own user namespace" {
    use_library_filter
    check_lsns_scenario
}

@test "list -Q: which evaluator runs is the one list --help names, and libsmartcols' really runs" {
    # The nsctl built here: the libsmartcols installed decides.
    version=$(/usr/bin/python3 -c 'import ctypes; v = ctypes.c_char_p(); ctypes.CDLL("libsmartcols.so.1").scols_get_library_version(ctypes.byref(v)); print(v.value.decode())')
    case $version in
        2.[0-3]?.*) [ "$(filter_evaluator)" = own ] ;;
        *) [ "$(filter_evaluator)" = library ] ;;
    esac
    [[ "$("$NSCTL" list --help | tail -n 1)" == *"libsmartcols $version"* ]]
    uts=$(ns_inode $$ uts)
    # libsmartcols traces its filter on stderr when asked (LIBSMARTCOLS_DEBUG, as for
    # util-linux's tools); nsctl's own evaluator leaves no such trace.
    if [ "$(filter_evaluator)" = own ]; then
        run --separate-stderr env LIBSMARTCOLS_DEBUG=filter,fparam "$NSCTL" list -r --noheadings --task $$ --uts -o NS -Q "NS == $uts"
        [ "$status" -eq 0 ]
        [ "$output" = "$uts" ]
        [[ "$stderr" != *"FLTR"* && "$stderr" != *"FPARAM"* ]]
    fi
    use_library_filter
    [ "$(filter_evaluator)" = library ]
    run --separate-stderr env LIBSMARTCOLS_DEBUG=filter,fparam "$NSCTL" list -r --noheadings --task $$ --uts -o NS -Q "NS == $uts"
    [ "$status" -eq 0 ]
    [ "$output" = "$uts" ]
    # The fetched library, its filter parsed, the holder given nsctl's column, the row's cell read.
    echo "$stderr" | grep -q "INIT: library version: 2\.4[0-9]"
    echo "$stderr" | grep -q "FLTR: .*new NS holder"
    echo "$stderr" | grep -q "FPARAM: .*assign NS to column NS"
    echo "$stderr" | grep -q "FPARAM: .*casting \"$uts\" to u64"
}

@test "list -Q: nsctl's evaluator and libsmartcols 2.41's agree on every row, over thousands of expressions" {
    use_library_filter
    differ=$NSCTL_BUILD/tests/tools/filter-differ
    run_differ() {
        smartcols_run "$differ" "$@"
    }
    # The fuzzer's seeds, each a file; then expressions made at random, every rule mixed.
    run run_differ -v "$NSCTL_TOP"/fuzz/corpus/fuzz-list-filter/*
    echo "$output" | grep -v '^agree on ' || true
    [ "$status" -eq 0 ]
    run -0 bash -c '"$1"/tests/tools/filter-expressions.py 20000 16 >"$2"' sh "$NSCTL_TOP" "$TMP/expressions"
    run run_differ -v <"$TMP/expressions"
    echo "$output" | grep -v '^agree on ' | head -n 20 || true
    [ "$status" -eq 0 ]
    # It compared: most are accepted, and each result occurs (selected, not, failed).
    agreed=$(echo "$output" | grep -c '^agree on ')
    echo "$agreed expressions compared"
    [ "$agreed" -gt 10000 ]
    echo "$output" | grep -q '^agree on .*\b1\b'
    echo "$output" | grep -q '^agree on .*\b0\b'
    echo "$output" | grep -q '^agree on .*-1'
    # Where SQL's precedence would select rows 0 and 1 (net), libsmartcols' selects none.
    printf '%s' 'TYPE == "net" || TYPE == "uts" && NPROCS == 7' >"$TMP/one"
    run -0 run_differ -v "$TMP/one"
    [[ "$output" == "agree on 0 0 0 0 0: "* ]]
}
