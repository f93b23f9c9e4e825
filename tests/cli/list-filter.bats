#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# nsctl list -Q/--filter: libsmartcols' grammar and rules, evaluated by nsctl
# (src/list-filter.c, its patterns by src/ere.c).  The rows selected are checked against the inodes /proc gives, on
# namespaces each test makes: other tests make namespaces meanwhile.

load helpers
load place

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

@test "list -Q: selects exactly the rows its expression says" {
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

@test "list -Q: libsmartcols' precedence and keywords" {
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

@test "list -Q: with --tree a row the filter drops leaves its children at the top" {
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
    check_bad_filter 'TYPE =~ "("' "at 6: bad regular expression after '=~': unmatched (, at character 1 of it"
    check_bad_filter 'NPROCS > 1x' "at 10: '1x' is not a number (digits, and maybe '.' and digits)"
    check_bad_filter 'NS > 18446744073709551616' "at 6: '18446744073709551616' is larger than 18446744073709551615"
    check_bad_filter '1 =~ "x"' "at 3: '=~' needs a column or a string before it"
    check_bad_filter 'TYPE =~ 5' "at 6: '=~' needs a regular expression in quotes after it"
    # Too big for the states a match may keep, no back-references, nested too deep: said, with where.
    check_bad_filter 'TYPE =~ "(a{3000}){3000}"' "at 6: bad regular expression after '=~': too big: written out, its repetitions come to more states than the matcher keeps (20000), at character 1 of it"
    check_bad_filter 'TYPE =~ "(|)(\1\1)*"' "at 6: bad regular expression after '=~': back-references are not supported (POSIX extended expressions have none), at character 5 of it"
    check_bad_filter "TYPE !~ \"$(printf '(%.0s' {1..30000})n$(printf ')%.0s' {1..30000})\"" "at 6: bad regular expression after '!~': groups and repetitions nest too deep, at character 201 of it"
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

@test "list -Q: a bad expression: status 2, its position and the reason, nothing on stdout" {
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

@test "list -Q: a row the expression cannot be evaluated on fails it, status 1" {
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

@test "list -Q: NSFS of several pins and USER of a UID with no name alike in every format" {
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

@test "list -Q: lsns's filter scenario, a process's own user namespace" {
    check_lsns_scenario
}

