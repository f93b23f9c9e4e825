#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# nsctl list, checked against util-linux lsns, iproute2 and the NS_GET_* ioctls, on namespaces
# this file makes itself: other tests run on the machine at the same time, so only ours count.

load helpers
load socket-holder
load list-helpers

setup() {
    list_setup list
}

teardown() {
    list_teardown
}

# The JSON object of namespace INODE in nsctl's output ($JSON).
row() {
    echo "$JSON" | jq -c --argjson ns "$1" '[.namespaces[] | .. | objects | select(.ns == $ns)] | .[0]'
}

field() {
    row "$1" | jq -r ".$2"
}

# An independent witness: the inode NS_GET_PARENT (0xb702) or NS_GET_USERNS (0xb701) leads to.
ioctl_ino() {
    /usr/bin/python3 -c '
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
try:
    print(os.fstat(fcntl.ioctl(fd, int(sys.argv[2], 16))).st_ino)
except OSError:
    print(0)' "$1" "$2"
}

# The one child of PID, once it has forked it.
child_of() {
    local i children
    for i in $(seq 2000); do
        children=$(cat "/proc/$1/task/$1/children" 2>/dev/null)
        [ -n "$children" ] && { echo $children; return 0; }
        sleep 0.01
    done
    return 1
}

@test "list: namespaces made by unshare are there, with their processes" {
    require_root
    start_target --uts --ipc
    run "$NSCTL" list -J --output-all
    [ "$status" -eq 0 ]
    JSON=$output
    for t in uts ipc; do
        ino=$(ns_inode "$TARGET" $t)
        [ "$(field "$ino" type)" = "$t" ]
        [ "$(field "$ino" nprocs)" = 1 ]
        [ "$(field "$ino" pid)" = "$TARGET" ]
        [ "$(field "$ino" ppid)" = $$ ]
        [ "$(field "$ino" command)" = "sleep 600" ]
        [ "$(field "$ino" user)" = root ]
        [ "$(field "$ino" path)" = "/proc/$TARGET/ns/$t" ]
        [ "$(field "$ino" ons)" = "$(ns_inode $$ user)" ]
        [ "$(field "$ino" id)" -gt 0 ]
    done
}

@test "list: every namespace lsns -J shows is there, with the same NPROCS for ours" {
    require_root
    start_target --uts --net
    start_bg unshare --uts --fork --kill-child sleep 600
    wait_for_exec "$(child_of "$TARGET")" sleep
    # Present in both lsns runs around nsctl's: it lived through the scan, so nsctl must show
    # it.  Other tests make and end namespaces meanwhile, so a miss is tried twice.
    for attempt in 1 2; do
        before=$(lsns -J -o NS | jq -r '.namespaces[].ns' | sort)
        JSON=$("$NSCTL" list -J)
        lsns_json=$(lsns -J -o NS,NPROCS,PID,COMMAND)
        after=$(echo "$lsns_json" | jq -r '.namespaces[].ns' | sort)
        ours=$(echo "$JSON" | jq -r '.namespaces[].ns' | sort)
        missing=$(comm -12 <(echo "$before") <(echo "$after") | comm -23 - <(echo "$ours"))
        [ -z "$missing" ] && break
        echo "attempt $attempt: nsctl missed $missing" >&2
        echo "$lsns_json" | jq -c --argjson ns "${missing%%$'\n'*}" '.namespaces[] | select(.ns == $ns)' >&2
    done
    [ -z "$missing" ]
    for ino in $(ns_inode "${TEST_PIDS[0]}" uts) $(ns_inode "${TEST_PIDS[0]}" net) \
        $(ns_inode "$TARGET" uts); do
        want=$(echo "$lsns_json" | jq --argjson ns "$ino" '.namespaces[] | select(.ns == $ns) | .nprocs')
        [ "$(field "$ino" nprocs)" = "$want" ]
    done
    # unshare --fork: unshare and the sleep it forked share the new uts namespace.
    [ "$(field "$(ns_inode "$TARGET" uts)" nprocs)" = 2 ]
}

@test "list: the JSON keys and value types are those of lsns -J" {
    require_root
    cols=NS,TYPE,PATH,NPROCS,PID,PPID,COMMAND,UID,USER,NSFS,PNS,ONS
    # The same row in both: our own net namespace's (a namespace another test on the
    # host holds only by an fd may come first in nsctl's list, and not in lsns 2.38's).
    types=".namespaces[] | select(.ns == $(ns_inode $$ net)) | to_entries | map([.key, (.value | type)])"
    theirs=$(lsns -J -o $cols | jq -c "$types")
    ours=$("$NSCTL" list -J -o $cols | jq -c "$types")
    [ -n "$ours" ]
    [ "$theirs" = "$ours" ]
    # NSFS: a string, or null where there is no pin, never an array ([null] in 2.38's libsmartcols).
    types=$("$NSCTL" list -J -o NS,NSFS | jq -r '[.namespaces[].nsfs | type] | unique | join(" ")')
    [[ "$types" == "null" || "$types" == "null string" ]]
    [ "$("$NSCTL" list -J --task $$ | jq -c '[.namespaces[] | keys_unsorted] | unique')" = \
      "$(lsns -J --task $$ | jq -c '[.namespaces[] | keys_unsorted] | unique')" ]
}

@test "list: a network namespace pinned by ip netns add, which lsns cannot count" {
    require_root
    ip netns add "$NETNS"
    ip netns set "$NETNS" 4242 || skip "ip netns set cannot assign an ID here"
    ino=$(stat -L -c %i "/run/netns/$NETNS")
    [ "$("$NSCTL" list -r --noheadings -o NETNSID -Q "NS == $ino")" = 4242 ]
    JSON=$("$NSCTL" list -J -o NS,TYPE,NPROCS,NSFS,PATH --type net)
    [ "$(field "$ino" type)" = net ]
    [ "$(field "$ino" nprocs)" = 0 ]
    [ "$(field "$ino" 'nsfs')" = "/run/netns/$NETNS" ]
    [ "$(field "$ino" path)" = "/run/netns/$NETNS" ]
    run "$NSCTL" list -P -r --noheadings -o NS
    echo "$output" | grep -qx "$ino"
    run "$NSCTL" list -r --noheadings -o NS --uts
    ! echo "$output" | grep -qx "$ino" || false
    run "$NSCTL" list -r --noheadings -o NS -Q "NS == $ino"
    [ "$output" = "$ino" ]
    # As a NAMESPACE, by its inode, its NAME or its file: its processes (none), as lsns.
    for operand in "$ino" "$NETNS" "/run/netns/$NETNS"; do
        run -0 "$NSCTL" list -r --noheadings "$operand"
        [ -z "$output" ]
    done
}

@test "list: a namespace held only by an open fd, with its holder" {
    require_root
    start_target --uts
    ino=$(ns_inode "$TARGET" uts)
    start_bg bash -c "exec 7</proc/$TARGET/ns/uts; exec sleep 600"
    holder=$TARGET
    wait_for_exec "$holder" sleep
    kill -KILL "${TEST_PIDS[0]}"
    wait "${TEST_PIDS[0]}" 2>/dev/null || true
    # No process is in it any more (the kernel's word, not a witness's: lsns
    # 2.40+ looks at fds and shows it, 2.38 does not).
    ! stat -L -c %i /proc/[0-9]*/ns/uts 2>/dev/null | grep -qx "$ino" || false
    JSON=$("$NSCTL" list -J -o NS,TYPE,NPROCS,HOLDERS,PATH)
    [ "$(field "$ino" type)" = uts ]
    [ "$(field "$ino" nprocs)" = 0 ]
    [ "$(field "$ino" holders)" = "$holder" ]
    [ "$(field "$ino" path)" = "/proc/$holder/fd/7" ]
}

@test "list: a namespace pinned inside another mount namespace" {
    require_root
    start_target --uts
    ino=$(ns_inode "$TARGET" uts)
    touch "$TMP/pin"
    start_bg "$PRIVATE_MOUNT_NS" \
        bash -c "mount --bind /proc/$TARGET/ns/uts $TMP/pin && exec sleep 600"
    keeper=$TARGET
    wait_for_exec "$keeper" sleep
    kill -KILL "${TEST_PIDS[0]}"
    wait "${TEST_PIDS[0]}" 2>/dev/null || true
    # Not in our mount table: only a process in the other mount namespace sees the pin.
    ! grep -q "$TMP/pin" /proc/self/mountinfo || false
    ! lsns -r -n -o NS | grep -qx "$ino" || false
    JSON=$("$NSCTL" list -J -o NS,TYPE,NPROCS,NSFS)
    [ "$(field "$ino" nprocs)" = 0 ]
    [ "$(field "$ino" 'nsfs')" = "/proc/$keeper/root$TMP/pin" ]
    [ "$(stat -L -c %i "/proc/$keeper/root$TMP/pin")" = "$ino" ]
}

@test "list: nested user namespaces, parents and owners as NS_GET_PARENT and NS_GET_USERNS tell" {
    require_root
    require_userns
    # The outer unshare execs the inner one: no process stays in the outer user namespace.
    start_target --user --map-root-user unshare --user --map-root-user --uts
    wait_for_exec "$TARGET" sleep 2>/dev/null || true
    inner=$(ns_inode "$TARGET" user)
    outer=$(ioctl_ino "/proc/$TARGET/ns/user" b702)
    uts=$(ns_inode "$TARGET" uts)
    [ "$outer" -gt 0 ]
    [ "$outer" != "$(ns_inode $$ user)" ]
    JSON=$("$NSCTL" list -J --output-all)
    [ "$(field "$inner" nprocs)" = 1 ]
    [ "$(field "$inner" pns)" = "$outer" ]
    [ "$(field "$inner" ons)" = "$outer" ]
    [ "$(field "$outer" nprocs)" = 0 ]
    [ "$(field "$outer" type)" = user ]
    [ "$(field "$outer" pns)" = "$(ns_inode $$ user)" ]
    [ "$(field "$uts" ons)" = "$(ioctl_ino "/proc/$TARGET/ns/uts" b701)" ]
    [ "$(field "$uts" ons)" = "$inner" ]
    # lsns agrees where it sees the namespace.
    [ "$(lsns -n -r -o PNS "$inner")" = "$outer" ]
    # The owner tree: ours > outer > inner > uts, nested in the JSON.
    JSON=$("$NSCTL" list -J --tree -o NS,TYPE)
    path=$(echo "$JSON" | jq -c --argjson ns "$uts" \
        'paths(objects | select(.ns? == $ns)) as $p | [range(0; $p | length) as $i | $p[:$i] | select(length > 0 and (.[-1] | type) == "number")] | length')
    [ "$path" -ge 3 ]
    parent_of_uts=$(echo "$JSON" | jq --argjson ns "$uts" '.. | objects | select(.children? and any(.children[]; .ns == $ns)) | .ns')
    [ "$parent_of_uts" = "$inner" ]
    parent_of_inner=$(echo "$JSON" | jq --argjson ns "$inner" '.. | objects | select(.children? and any(.children[]; .ns == $ns)) | .ns')
    [ "$parent_of_inner" = "$outer" ]
}

@test "list: --tree=parent and --tree=process" {
    require_root
    require_userns
    start_target --user --map-root-user unshare --user --map-root-user
    inner=$(ns_inode "$TARGET" user)
    outer=$(ioctl_ino "/proc/$TARGET/ns/user" b702)
    JSON=$("$NSCTL" list -J --tree=parent -o NS,TYPE --user)
    [ "$(echo "$JSON" | jq --argjson ns "$inner" '.. | objects | select(.children? and any(.children[]; .ns == $ns)) | .ns')" = "$outer" ]
    start_bg unshare --uts --fork --kill-child sleep 600
    child=$(child_of "$TARGET")
    wait_for_exec "$child" sleep
    JSON=$("$NSCTL" list -J --tree=process -o NS,TYPE,PID --uts)
    # The sleep's uts namespace hangs under that of its parent, unshare: ours.
    [ "$(echo "$JSON" | jq --argjson ns "$(ns_inode "$child" uts)" '.. | objects | select(.children? and any(.children[]; .ns == $ns)) | .ns')" = "$(ns_inode $$ uts)" ]
}

@test "list: --task, type letters and --type select rows" {
    require_root
    start_target --uts
    run "$NSCTL" list -r --noheadings -o NS,TYPE --task "$TARGET"
    [ "$status" -eq 0 ]
    [ "$(echo "$output" | wc -l)" -eq "$(ls /proc/$TARGET/ns | grep -vc _for_children)" ]
    for t in $(ls "/proc/$TARGET/ns" | grep -v _for_children); do
        echo "$output" | grep -qx "$(ns_inode "$TARGET" $t) $t"
    done
    run "$NSCTL" list -r --noheadings -o TYPE --uts --net
    [ "$(echo "$output" | sort -u | tr '\n' ' ')" = "net uts " ]
    run "$NSCTL" list -r --noheadings -o TYPE --type uts,ipc --type net
    [ "$(echo "$output" | sort -u | tr '\n' ' ')" = "ipc net uts " ]
}

@test "list: -H gives each column's type, the JSON one" {
    run "$NSCTL" list -H
    [ "$status" -eq 0 ]
    echo "$output" | grep -Eq '^NS +number +namespace identifier'
    echo "$output" | grep -Eq '^TYPE +string '
    echo "$output" | grep -Eq '^NSFS +string +'
    # Every type is one -J writes for that column, NSFS's too (the pins one per line).
    JSON=$("$NSCTL" list -J --output-all --task $$ --user)
    while read -r name type _; do
        value_type=$(echo "$JSON" | jq -r --arg k "${name,,}" '.namespaces[0][$k] | type')
        echo "$name $type $value_type"
        [ "$value_type" = null ] || [ "$value_type" = "$type" ] || false
    done <<<"$output"
}

@test "list: --dot renders with dot -Tpng" {
    require_root
    require_userns
    start_target --user --map-root-user --uts
    run "$NSCTL" list --dot
    [ "$status" -eq 0 ]
    echo "$output" | grep -q "ns$(ns_inode "$TARGET" user) -> ns$(ns_inode "$TARGET" uts)"
    echo "$output" | grep -q "ns$(ns_inode $$ user) -> ns$(ns_inode "$TARGET" user)"
    "$NSCTL" list --dot | dot -Tpng > "$TMP/graph.png"
    [ "$(head -c 4 "$TMP/graph.png" | tail -c 3)" = PNG ]
}

@test "list: table, raw and headings" {
    run "$NSCTL" list
    [ "$status" -eq 0 ]
    # CONTAINER joins the default columns where a container is running on the host.
    [[ ${lines[0]} =~ ^\ *NS\ TYPE\ +NPROCS\ +PID\ USER\ +(CONTAINER\ +)?COMMAND$ ]]
    run "$NSCTL" list -r -o NS,TYPE
    [ "${lines[0]}" = "NS TYPE" ]
    echo "${lines[1]}" | grep -Eq '^[0-9]+ (cgroup|ipc|mnt|net|pid|time|user|uts)$'
    run "$NSCTL" list -r --noheadings -o NS --task $$ --user
    [ "$output" = "$(ns_inode $$ user)" ]
    run "$NSCTL" list -H
    [ "$status" -eq 0 ]
    [ "$(echo "$output" | wc -l)" -eq 18 ]
    run "$NSCTL" list -r --noheadings -o +ID --task $$ --uts
    [ "$(echo "$output" | awk '{print NF}')" -ge 6 ]
}

@test "list: bad usage is rejected with status 2" {
    run "$NSCTL" list -o NOPE
    [ "$status" -eq 2 ]
    [[ $output == *"--output 'NOPE': unknown column 'NOPE'"* ]]
    run "$NSCTL" list --type bogus
    [ "$status" -eq 2 ]
    run "$NSCTL" list --tree=sideways
    [ "$status" -eq 2 ]
    run "$NSCTL" list --task 0
    [ "$status" -eq 2 ]
    run "$NSCTL" list -J -r
    [ "$status" -eq 2 ]
    run "$NSCTL" list ''
    [ "$status" -eq 2 ]
    [[ $output == *"'': not a namespace inode, ID, pin NAME or namespace file"* ]]
    run "$NSCTL" list --task "$(dead_pid)"
    [ "$status" -eq 1 ]
    [[ $output == *"no such process"* ]]
}

@test "list: an unprivileged user sees its own namespaces" {
    require_userns_for_nobody
    # A root process's namespaces are not nobody's to look at: said so, not "no such process".
    run as_nobody "$NSCTL" list -r --noheadings -o NS,TYPE --task $$
    [ "$status" -eq 1 ]
    [[ $output == *"--task $$: Permission denied"* ]]
    run as_nobody sh -c 'exec "$0" list -r --noheadings -o NS --task $$ --uts' "$NSCTL"
    [ "$status" -eq 0 ]
    [ "$output" = "$(ns_inode $$ uts)" ]
}

@test "list: without a proc filesystem on /proc, an error rather than an empty host" {
    require_root
    # util-linux lsns prints nothing and succeeds there.
    run --separate-stderr without_proc "$NSCTL" list
    echo "$output $stderr"
    [ "$status" -eq 1 ]
    [ -z "$output" ]
    [[ "$stderr" == *"nsctl: list: cannot scan /proc: no proc filesystem is mounted there"* ]]
}

@test "list: several pins on one namespace: one per line, commas in -r, one string of lines in -J (as lsns)" {
    require_root
    ip netns add "$NETNS"
    ino=$(stat -L -c %i "/run/netns/$NETNS")
    for i in 1 2; do
        touch "$TMP/extra-pin-$i"
        mount --bind "/run/netns/$NETNS" "$TMP/extra-pin-$i"
        [ "$(stat -L -c %i "$TMP/extra-pin-$i")" = "$ino" ]
    done
    pins=("/run/netns/$NETNS" "$TMP/extra-pin-1" "$TMP/extra-pin-2")
    run "$NSCTL" list --noheadings -o NS,NSFS -Q "NS == $ino"
    [ "$status" -eq 0 ]
    [ "${#lines[@]}" -eq 3 ]
    [[ ${lines[0]} =~ ^$ino\ +${pins[0]}$ ]]
    [[ ${lines[1]} =~ ^\ +${pins[1]}$ ]]
    [[ ${lines[2]} =~ ^\ +${pins[2]}$ ]]
    [[ $output != *'\x0a'* ]]
    run "$NSCTL" list -r --noheadings -o NS,NSFS -Q "NS == $ino"
    [ "$output" = "$ino ${pins[0]},${pins[1]},${pins[2]}" ]
    run "$NSCTL" list -W --noheadings -o NSFS -Q "NS == $ino"
    [ "$output" = "${pins[0]},${pins[1]},${pins[2]}" ]
    JSON=$("$NSCTL" list -J -o NS,NSFS -Q "NS == $ino")
    [ "$(row "$ino" | jq -r .nsfs)" = "$(printf '%s\n' "${pins[@]}")" ]
    umount "$TMP/extra-pin-1" "$TMP/extra-pin-2"
}

@test "list: USER of a UID no passwd entry names is the number, a string in JSON" {
    require_root
    uid=54321
    getent passwd "$uid" >/dev/null && skip "UID $uid has a passwd entry here"
    # A uts namespace of its own: the sleep is its lowest (only) process.
    start_bg unshare --uts setpriv --reuid="$uid" sleep 600
    wait_for_exec "$TARGET" sleep
    [ "$(stat -c %u "/proc/$TARGET")" = "$uid" ]
    ino=$(ns_inode "$TARGET" uts)
    run "$NSCTL" list -r --noheadings -o UID,USER -Q "NS == $ino"
    [ "$output" = "$uid $uid" ]
    JSON=$("$NSCTL" list -J -o NS,UID,USER -Q "NS == $ino")
    [ "$(row "$ino" | jq -c '[.uid, .user]')" = "[$uid,\"$uid\"]" ]
}

@test "list: --tree is left-aligned and each level of nested user namespaces is indented more" {
    require_root
    require_userns
    start_bg unshare --user --map-root-user unshare --user --map-root-user \
        unshare --user --map-root-user unshare --user --map-root-user sleep 600
    wait_for_exec "$TARGET" sleep
    # The chain from NS_GET_PARENT (0xb702), innermost first, up to ours.
    chain=$(/usr/bin/python3 -c '
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
while True:
    print(os.fstat(fd).st_ino)
    try:
        fd = fcntl.ioctl(fd, 0xb702)
    except OSError:
        break' "/proc/$TARGET/ns/user" | tac | tr '\n' ' ')
    read -r -a levels <<<"$chain"
    [ "${levels[0]}" = "$(ns_inode $$ user)" ]
    [ "${#levels[@]}" -ge 5 ]
    run "$NSCTL" list --tree --user -o NS,TYPE
    [ "$status" -eq 0 ]
    # The heading and the root are at the left edge, not pushed right.
    [[ ${lines[0]} == NS* ]]
    [[ $(printf '%s\n' "${lines[@]}" | grep -m1 -E "${levels[0]} +user$") == "${levels[0]} "* ]]
    previous=-1
    for ino in "${levels[@]}"; do
        line=$(printf '%s\n' "${lines[@]}" | grep -E "(^|[^0-9])$ino +user$")
        prefix=${line%%"$ino"*}
        [ "${#prefix}" -gt "$previous" ]
        # Nothing but the tree's art before the inode.
        [[ $prefix =~ ^[\ \|\`-]*$ ]] || [[ $prefix =~ ^[\ │├└─]*$ ]]
        previous=${#prefix}
    done
}

@test "list: a NAMESPACE that no namespace has is an error, status 1" {
    ino=$(ns_inode $$ uts)
    run "$NSCTL" list -r --noheadings -o NS -Q "NS == $ino"
    [ "$status" -eq 0 ]
    [ "$output" = "$ino" ]
    # An inode no namespace has: nsfs numbers start at 4026531834 (PROC_DYNAMIC_FIRST - ...).
    run --separate-stderr "$NSCTL" list 12345
    [ "$status" -eq 1 ]
    [ -z "$output" ]
    [ "$stderr" = "nsctl: list: not found namespace: 12345" ]
    run --separate-stderr "$NSCTL" list "$ino" 12345
    [ "$status" -eq 1 ]
    [ "$stderr" = "nsctl: list: not found namespace: 12345" ]
    # One of a type --type leaves out is not found either, as lsns (the witness) says.
    run -1 lsns -t net "$ino"
    [[ "$output" == *"not found namespace: $ino"* ]]
    run -1 --separate-stderr "$NSCTL" list -t net "$ino"
    [ -z "$output" ]
    [ "$stderr" = "nsctl: list: not found namespace: $ino (a uts namespace, not of the types of --type)" ]
    run -0 "$NSCTL" list -t uts,net -r --noheadings -o NS "$ino"
    [ "$(echo "$output" | sort -u)" = "$ino" ]
    # A pin NAME no pin has, or a file that is no namespace, says so.
    run -1 --separate-stderr "$NSCTL" list "no-such-pin-$$"
    [ "$stderr" = "nsctl: list: not found namespace: no-such-pin-$$ (no pin of that name: ip netns add NAME, or nsctl pin, makes one)" ]
    run -1 --separate-stderr "$NSCTL" list /etc/passwd
    [[ "$stderr" == "nsctl: list: '/etc/passwd': /etc/passwd: "* ]]
}

@test "list: NAMESPACE with --task, --persistent, --dot or a namespace --tree is refused, as lsns refuses --task" {
    local ino
    ino=$(ns_inode $$ uts)
    run -1 lsns --task $$ "$ino"
    [[ "$output" == *"mutually exclusive"* ]]
    run -2 --separate-stderr "$NSCTL" list --task $$ "$ino"
    [[ "$stderr" == "nsctl: list: --task and NAMESPACE are mutually exclusive (as lsns's): NAMESPACE lists the processes in it"* ]]
    run -2 "$NSCTL" list -P "$ino"
    [[ "$output" == *"--persistent lists namespaces no process is in"* ]]
    run -2 "$NSCTL" list --dot "$ino"
    [[ "$output" == *"--dot draws namespaces"* ]]
    run -2 "$NSCTL" list --tree=owner "$ino"
    [[ "$output" == *"--tree=owner draws namespaces"* ]]
}

@test "list NAMESPACE: its processes, a row each, as lsns NAMESPACE (the witness) lists them" {
    require_root
    start_target --uts
    # A second process in it, the target's child.
    local ino=$(ns_inode "$TARGET" uts) child
    nsenter -t "$TARGET" -u sh -c 'sleep 600 & echo $! > "$1"' sh "$TMP/child"
    child=$(cat "$TMP/child")
    TEST_PIDS+=("$child")
    # The same rows and columns as lsns's, the tree of COMMAND included.
    run -0 lsns "$ino"
    want=$output
    run -0 "$NSCTL" list "$ino"
    echo "$output"
    [ "$output" = "$want" ]
    run -0 "$NSCTL" list -r --noheadings -o PID,PPID "$ino"
    [ "$output" = "$(lsns -r --noheadings -o PID,PPID "$ino")" ]
    # lsns -n -o PID NS, the way scripts collect a namespace's processes.
    [ "$("$NSCTL" list --noheadings -o PID "$ino" | tr -d ' ')" = "$(lsns -n -o PID "$ino" | tr -d ' ')" ]
    # -l: a list; JSON nests children under their parent, as lsns -J.
    run -0 "$NSCTL" list -l -r --noheadings -o PID,COMMAND "$ino"
    [[ "$output" != *'\xe2\x94'* ]]
    [ "$("$NSCTL" list -J "$ino" | jq -c '[.namespaces[] | .pid, (.children // [] | .[].pid)]')" = \
        "$(lsns -J "$ino" | jq -c '[.namespaces[] | .pid, (.children // [] | .[].pid)]')" ]
    # Every column: a process's own, the namespace's for the rest; -Q selects processes.
    run -0 "$NSCTL" list -r --noheadings -o PID,NS,TYPE,NPROCS -Q "PID == $child" "$ino"
    [ "$output" = "$child $ino uts 2" ]
    # The processes of a pin NAME: ip netns pids, side by side.
    if [ "$(id -u)" -eq 0 ]; then
        ip netns add "$NETNS"
        ip netns exec "$NETNS" sleep 600 &
        TEST_PIDS+=($!)
        wait_for_exec $! sleep
        [ "$("$NSCTL" list --noheadings -o PID "$NETNS" | tr -d ' ')" = "$(ip netns pids "$NETNS")" ]
        # ip netns identify PID: the NAME column of the PID's network namespace.
        [ "$("$NSCTL" list --noheadings --task $! -t net -o NAME)" = "$(ip netns identify $!)" ]
    fi
}

@test "list NAMESPACE as an ordinary user: the processes of its own namespace, as its lsns sees them" {
    require_userns_for_nobody
    cd /
    # A simple command: the PID is the sleep's, as setpriv and unshare exec.
    setpriv --reuid=65534 --regid=65534 --clear-groups unshare --user --map-root-user --uts \
        sleep 600 &
    local pid=$! ino
    TEST_PIDS+=("$pid")
    wait_for_exec "$pid" sleep
    ino=$(ns_inode "$pid" uts)
    run -0 as_nobody "$NSCTL" list -r --noheadings -o PID,USER "$ino"
    [ "$output" = "$pid nobody" ]
    [ "$output" = "$(as_nobody lsns -r --noheadings -o PID,USER "$ino")" ]
}

@test "list: a long option may be abbreviated where unique; an ambiguous prefix is refused" {
    run "$NSCTL" list --list-col
    [ "$status" -eq 0 ]
    [ "$output" = "$("$NSCTL" list --list-columns)" ]
    run "$NSCTL" list --no
    [ "$status" -eq 2 ]
    [[ $output == *"option '--no' is ambiguous; possibilities: '--noheadings' '--notruncate' '--nowrap'"* ]]
    [[ $output == *"Try 'nsctl list --help'."* ]]
    run "$NSCTL" list --help
    [[ $output == *"may be abbreviated"* ]]
}

@test "list: a network namespace held only by a socket, after its process went back with setns" {
    require_root
    start_socket_holder
    # The kernel's word: the process is back in ours; its fd is a socket.
    [ "$(ns_inode "$TARGET" net)" = "$(ns_inode $$ net)" ]
    [ "$NETNS_INO" != "$(ns_inode $$ net)" ]
    [[ $(readlink "/proc/$TARGET/fd/$SOCKET_FD") == socket:* ]]
    JSON=$("$NSCTL" list -J -o NS,TYPE,NPROCS,PID,HOLDERS,PATH,ID)
    [ "$(field "$NETNS_INO" type)" = net ]
    [ "$(field "$NETNS_INO" nprocs)" = 0 ]
    [ "$(field "$NETNS_INO" pid)" = null ]
    [ "$(field "$NETNS_INO" holders)" = "$TARGET" ]
    [ "$(field "$NETNS_INO" path)" = "/proc/$TARGET/fd/$SOCKET_FD" ]
    # Its relations were read through the socket's namespace: NS_GET_ID answered.
    [ "$(field "$NETNS_INO" id)" -gt 0 ]
    # The process's own network namespace does not list it as a holder.
    [ "$(field "$(ns_inode $$ net)" holders)" != "$TARGET" ]
    run "$NSCTL" list -r --noheadings -o NS -Q "NS == $NETNS_INO"
    [ "$output" = "$NETNS_INO" ]
}

@test "list: a network namespace whose last process passed its socket to another and exited" {
    require_root
    # The receiver, in our network namespace, takes one fd over a unix socket and keeps it.
    /usr/bin/python3 -c '
import os, socket, sys, time
server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
server.bind(sys.argv[1])
server.listen(1)
conn, _ = server.accept()
_, fds, _, _ = socket.recv_fds(conn, 16, 1)
conn.close()
server.close()
with open(sys.argv[2] + ".tmp", "w") as f:
    f.write("%d\n" % fds[0])
os.rename(sys.argv[2] + ".tmp", sys.argv[2])
time.sleep(600)' "$TMP/unix" "$TMP/received" &
    receiver=$!
    TEST_PIDS+=("$receiver")
    for _ in $(seq 2000); do [ -S "$TMP/unix" ] && break; sleep 0.01; done
    # The sender, alone in a new network namespace, sends a socket made there and exits.
    unshare --net /usr/bin/python3 -c '
import os, socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
c.connect(sys.argv[1])
socket.send_fds(c, [b"x"], [s.fileno()])
print(os.stat("/proc/self/ns/net").st_ino)' "$TMP/unix" >"$TMP/sender-netns"
    ino=$(cat "$TMP/sender-netns")
    for _ in $(seq 2000); do [ -e "$TMP/received" ] && break; sleep 0.01; done
    fd=$(cat "$TMP/received")
    [ "$(ns_inode "$receiver" net)" = "$(ns_inode $$ net)" ]
    [ "$ino" != "$(ns_inode $$ net)" ]
    [[ $(readlink "/proc/$receiver/fd/$fd") == socket:* ]]
    JSON=$("$NSCTL" list -J -o NS,TYPE,NPROCS,HOLDERS,PATH)
    [ "$(field "$ino" type)" = net ]
    [ "$(field "$ino" nprocs)" = 0 ]
    [ "$(field "$ino" holders)" = "$receiver" ]
    [ "$(field "$ino" path)" = "/proc/$receiver/fd/$fd" ]
}

# A network namespace pinned by ip netns add (its inode: ino) and a process, TARGET,
# holding it by fd 7, opened on the pin.
start_pin_fd_holder() {
    ip netns add "$NETNS"
    ino=$(stat -L -c %i "/run/netns/$NETNS")
    start_bg bash -c "exec 7</run/netns/$NETNS; exec sleep 600"
    wait_for_exec "$TARGET" sleep
}

@test "list: a namespace fd opened through a pin is recognised by what it is, not its link" {
    require_root
    start_pin_fd_holder
    # The link reads as the pin's path, not net:[INO]; the kernel's inode is the namespace's.
    [ "$(readlink "/proc/$TARGET/fd/7")" = "/run/netns/$NETNS" ]
    [ "$(stat -L -c %i "/proc/$TARGET/fd/7")" = "$ino" ]
    JSON=$("$NSCTL" list -J -o NS,TYPE,NPROCS,HOLDERS,PATH)
    [ "$(field "$ino" holders)" = "$TARGET" ]
    # With the pin gone, the fd alone holds it.
    ip netns del "$NETNS"
    [ "$(stat -L -c %i "/proc/$TARGET/fd/7")" = "$ino" ]
    JSON=$("$NSCTL" list -J -o NS,TYPE,NPROCS,HOLDERS,PATH)
    [ "$(field "$ino" type)" = net ]
    [ "$(field "$ino" nprocs)" = 0 ]
    [ "$(field "$ino" holders)" = "$TARGET" ]
    [ "$(field "$ino" path)" = "/proc/$TARGET/fd/7" ]
}

@test "list: without pidfd_getfd (before 5.6), an fd opened through a pin is still recognised" {
    require_root
    start_pin_fd_holder
    ip netns del "$NETNS"
    [ "$(readlink "/proc/$TARGET/fd/7")" != "net:[$ino]" ]
    run "$NSCTL_BUILD/tests/tools/seccomp-deny" -s pidfd_getfd -- \
        "$NSCTL" list -r --noheadings -o NS,TYPE,NPROCS,HOLDERS,PATH -Q "NS == $ino"
    [ "$status" -eq 0 ]
    [ "$output" = "$ino net 0 $TARGET /proc/$TARGET/fd/7" ]
}

@test "list: a namespace no process is in shows the UID that made its user namespace" {
    require_userns_for_nobody
    # nobody makes a user namespace and a uts namespace it owns; a root process keeps
    # the uts namespace by an fd; then nobody's process ends.
    start_bg setpriv --reuid=65534 --regid=65534 --clear-groups unshare --user --uts sleep 600
    wait_for_exec "$TARGET" sleep
    maker=$TARGET
    uts=$(ns_inode "$maker" uts)
    user=$(ns_inode "$maker" user)
    start_bg bash -c "exec 7</proc/$maker/ns/uts; exec sleep 600"
    wait_for_exec "$TARGET" sleep
    holder=$TARGET
    kill -KILL "$maker"
    wait "$maker" 2>/dev/null || true
    # The kernel's word: NS_GET_USERNS (0xb701), then NS_GET_OWNER_UID (0xb704).
    owner_uid=$(/usr/bin/python3 -c '
import array, fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
user = fcntl.ioctl(fd, 0xb701)
uid = array.array("I", [0])
fcntl.ioctl(user, 0xb704, uid, True)
print(uid[0], os.fstat(user).st_ino)' "/proc/$holder/fd/7")
    [ "$owner_uid" = "65534 $user" ]
    name=$(getent passwd 65534 | cut -d: -f1)
    JSON=$("$NSCTL" list -J -o NS,TYPE,NPROCS,PID,UID,USER)
    [ "$(field "$uts" nprocs)" = 0 ]
    [ "$(field "$uts" pid)" = null ]
    [ "$(field "$uts" uid)" = 65534 ]
    [ "$(field "$uts" user)" = "$name" ]
    [ "$(field "$user" nprocs)" = 0 ]
    [ "$(field "$user" uid)" = 65534 ]
    [ "$(field "$user" user)" = "$name" ]
}

@test "list: PATH is the /proc/PID/ns link of the PID shown, an fd only when no process is in it" {
    require_root
    # The lower PID makes a uts namespace, keeps it by fd 7, and goes back to ours.
    start_bg unshare --uts bash -c "exec 7</proc/self/ns/uts; exec nsenter --uts=/proc/$$/ns/uts sleep 600"
    wait_for_exec "$TARGET" sleep
    keeper=$TARGET
    ino=$(stat -L -c %i "/proc/$keeper/fd/7")
    [ "$(ns_inode "$keeper" uts)" = "$(ns_inode $$ uts)" ]
    JSON=$("$NSCTL" list -J -o NS,NPROCS,PID,HOLDERS,PATH)
    [ "$(field "$ino" nprocs)" = 0 ]
    [ "$(field "$ino" path)" = "/proc/$keeper/fd/7" ]
    # A higher PID enters it.
    start_bg nsenter --uts="/proc/$keeper/fd/7" sleep 600
    wait_for_exec "$TARGET" sleep
    [ "$TARGET" -gt "$keeper" ]
    [ "$(ns_inode "$TARGET" uts)" = "$ino" ]
    JSON=$("$NSCTL" list -J -o NS,NPROCS,PID,HOLDERS,PATH)
    [ "$(field "$ino" nprocs)" = 1 ]
    [ "$(field "$ino" pid)" = "$TARGET" ]
    [ "$(field "$ino" path)" = "/proc/$TARGET/ns/uts" ]
    [ "$(field "$ino" holders)" = "$keeper" ]
}

# list starts threads (the table's loader; the scan's helper from 64 processes):
# where none can start, as under a user's RLIMIT_NPROC, the same rows.
@test "list: where no thread can start (RLIMIT_NPROC), the same rows from the main thread alone" {
    require_userns_for_nobody
    # setpriv execs unshare, which execs sleep: one PID (as_nobody is a function).
    start_bg setpriv --reuid=65534 --regid=65534 --clear-groups unshare --user --uts sleep 600
    wait_for_exec "$TARGET" sleep
    run as_nobody "$NSCTL" list -r --noheadings -o NS,TYPE,NPROCS,PID,USER --type user,uts --task "$TARGET"
    [ "$status" -eq 0 ]
    expected=$output
    [ "$expected" = "$(for type in user uts; do
        echo "$(ns_inode "$TARGET" "$type") $type 1 $TARGET nobody"
    done | sort -n)" ]
    # nobody has two processes, the sleeper and nsctl, and may have one: clone fails.
    run env "ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0" \
        strace -f -qq -o "$TMP/trace" -e trace=clone,clone3 -- \
        setpriv --reuid=65534 --regid=65534 --clear-groups prlimit --nproc=1 -- \
        "$(reachable_path "$NSCTL")" list -r --noheadings -o NS,TYPE,NPROCS,PID,USER --type user,uts \
        --task "$TARGET"
    cat "$TMP/trace"
    [ "$status" -eq 0 ]
    [ "$output" = "$expected" ]
    grep -Eq 'clone3?\(.*= -1 EAGAIN' "$TMP/trace"
}
