#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The scenarios of util-linux 2.42's tests/ts/lsns (filedesc, filter, ioctl_ns,
# netns-from-sock, netnsid, netnsid-for-persistent-namespaces, nsfs), replayed against
# nsctl list (filter in list-filter.bats, with both evaluators).  Each answer is checked
# against /proc, the NS_GET_* ioctls and iproute2, not against lsns.

load helpers
load list-helpers

setup() {
    list_setup lsns
}

teardown() {
    list_teardown
}

# The ID "ip netns list-id" gives our pin: "nsid 5 (iproute2 netns name: NAME)".
list_id() {
    ip netns list-id | sed -n "s/^nsid \([0-9]*\) .*name: $NETNS)\$/\1/p"
}

# The raw, headless value of COLUMN for namespace INODE.
value() {
    "$NSCTL" list -r --noheadings -o "$2" -Q "NS == $1"
}

# filedesc: a network namespace whose pin is gone, held by a process that opened the pin
# as a plain file (read-only, fd 4): TYPE, NPROCS and USER as for any namespace.
@test "lsns filedesc: a namespace held by an fd opened on its pin, the pin then removed" {
    require_root
    ip netns add "$NETNS"
    start_bg bash -c "exec 4</run/netns/$NETNS; exec sleep 600"
    wait_for_exec "$TARGET" sleep
    ip netns del "$NETNS"
    ino=$(stat -L -c %i "/proc/$TARGET/fd/4")
    [ "$(stat -L -f -c %T "/proc/$TARGET/fd/4")" = nsfs ]
    [ "$ino" != "$(ns_inode "$TARGET" net)" ]
    run value "$ino" TYPE,NPROCS,USER
    [ "$status" -eq 0 ]
    [ "$output" = "net 0 root" ]
    [ "$(value "$ino" HOLDERS)" = "$TARGET" ]
}

# ioctl_ns: a child in new user and pid namespaces: the user namespace's parent and owner
# are ours; the pid namespace's parent is ours and its owner is the child's user namespace.
@test "lsns ioctl_ns: parents and owners of new user and pid namespaces" {
    require_root
    require_userns
    start_bg unshare --user --map-root-user --pid --fork --kill-child sleep 600
    child=
    for _ in $(seq 2000); do
        read -r child _ <"/proc/$TARGET/task/$TARGET/children" || true
        [ -n "$child" ] && break
        sleep 0.01
    done
    wait_for_exec "$child" sleep
    child_user=$(ns_inode "$child" user)
    child_pid=$(ns_inode "$child" pid)
    [ "$child_user" != "$(ns_inode $$ user)" ]
    [ "$child_pid" != "$(ns_inode $$ pid)" ]
    # The kernel's word, through NS_GET_PARENT (0xb702) and NS_GET_USERNS (0xb701).
    kernel=$(/usr/bin/python3 -c '
import fcntl, os, sys
for path in sys.argv[1:]:
    fd = os.open(path, os.O_RDONLY)
    print(os.fstat(fd).st_ino, os.fstat(fcntl.ioctl(fd, 0xb702)).st_ino,
          os.fstat(fcntl.ioctl(fd, 0xb701)).st_ino)' "/proc/$child/ns/user" "/proc/$child/ns/pid")
    [ "$kernel" = "$child_user $(ns_inode $$ user) $(ns_inode $$ user)
$child_pid $(ns_inode $$ pid) $child_user" ]
    [ "$(value "$child_user" NS,PNS,ONS)" = "$child_user $(ns_inode $$ user) $(ns_inode $$ user)" ]
    [ "$(value "$child_pid" NS,PNS,ONS)" = "$child_pid $(ns_inode $$ pid) $child_user" ]
}

# netns-from-sock: sockets made in a network namespace their process has left: the
# namespace has no process, so PID and COMMAND are empty, and USER is its creator's.
@test "lsns netns-from-sock: a network namespace found through sockets alone" {
    require_root
    /usr/bin/python3 -c '
import ctypes, os, socket, sys, time
libc = ctypes.CDLL(None, use_errno=True)
back = os.open("/proc/self/ns/net", os.O_RDONLY)
if libc.unshare(0x40000000) != 0:
    sys.exit("unshare: %s" % os.strerror(ctypes.get_errno()))
ino = os.stat("/proc/self/ns/net").st_ino
socks = [socket.socket(socket.AF_INET, socket.SOCK_STREAM), socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)]
if libc.setns(back, 0x40000000) != 0:
    sys.exit("setns: %s" % os.strerror(ctypes.get_errno()))
os.close(back)
with open(sys.argv[1] + ".tmp", "w") as f:
    f.write("%d %d %d\n" % (ino, socks[0].fileno(), socks[1].fileno()))
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
time.sleep(600)' "$TMP/holder" &
    holder=$!
    TEST_PIDS+=("$holder")
    for _ in $(seq 2000); do [ -e "$TMP/holder" ] && break; sleep 0.01; done
    read -r ino fd1 fd2 <"$TMP/holder"
    [ "$(ns_inode "$holder" net)" = "$(ns_inode $$ net)" ]
    [[ $(readlink "/proc/$holder/fd/$fd1") == socket:* ]]
    [[ $(readlink "/proc/$holder/fd/$fd2") == socket:* ]]
    [ "$(value "$ino" NS)" = "$ino" ]
    [ "$(value "$ino" TYPE)" = net ]
    [ "$(value "$ino" NPROCS)" = 0 ]
    [ -z "$(value "$ino" PID)" ]
    [ -z "$(value "$ino" COMMAND)" ]
    [ "$(value "$ino" USER)" = root ]
    # Two sockets, one holder.
    [ "$(value "$ino" HOLDERS)" = "$holder" ]
}

# netnsid: a veth pair with one end moved into a pinned namespace gives that namespace an
# ID in ours; NETNSID of a process in it is that ID, as ip link and ip netns list-id say.
@test "lsns netnsid: NETNSID of the namespace of a process, as iproute2 sees it" {
    require_root
    ip netns add "$NETNS"
    ip link add name "${VETH}a" type veth peer name "${VETH}b" || skip "no veth here"
    ip link set "${VETH}b" netns "$NETNS"
    # nsenter execs sleep: TARGET is the sleep, in the pinned namespace.
    start_bg nsenter --net="/run/netns/$NETNS" sleep 600
    wait_for_exec "$TARGET" sleep
    [ "$(ns_inode "$TARGET" net)" = "$(stat -L -c %i "/run/netns/$NETNS")" ]
    # ip link names the peer's namespace by its pin where it can, else by its ID.
    link=$(ip -o link show dev "${VETH}a")
    [[ $link == *" link-netns $NETNS"* ]] || [[ $link == *" link-netnsid $(list_id)"* ]]
    id=$(list_id)
    [ -n "$id" ]
    run "$NSCTL" list -r --noheadings -o NETNSID --type net --task "$TARGET"
    [ "$status" -eq 0 ]
    [ "$output" = "$id" ]
}

# netnsid-for-persistent-namespaces: a pinned namespace no process is in, given an ID by
# ip netns set: NETNSID, TYPE and NSFS.
@test "lsns netnsid-for-persistent-namespaces: NETNSID, TYPE and NSFS of a pin alone" {
    require_root
    id=$(($$ % 100000 + 1000))
    ip netns add "$NETNS"
    ip netns set "$NETNS" "$id" || skip "ip netns set cannot assign an ID here"
    ino=$(stat -L -c %i "/run/netns/$NETNS")
    [ "$(list_id)" = "$id" ]
    [ "$(value "$ino" NETNSID)" = "$id" ]
    [ "$(value "$ino" TYPE)" = net ]
    [ "$(value "$ino" NPROCS)" = 0 ]
    [ "$(value "$ino" NSFS)" = "/run/netns/$NETNS" ]
    # The namespace with that ID is this one, and the only one.
    [ "$("$NSCTL" list -r --noheadings -o NETNSID,NS --type net | awk -v id="$id" '$1 == id { print $2 }')" = "$ino" ]
}

# nsfs: a namespace pinned twice (ip netns add and a bind mount), a process in it: NSFS
# one per line, and with --nowrap on one line with commas.
@test "lsns nsfs: NSFS of a namespace pinned twice, one per line and with --nowrap" {
    require_root
    ip netns add "$NETNS"
    touch "$TMP/second-pin"
    mount --bind "/run/netns/$NETNS" "$TMP/second-pin"
    # nsenter execs sleep: TARGET is the sleep, in the pinned namespace.
    start_bg nsenter --net="/run/netns/$NETNS" sleep 600
    wait_for_exec "$TARGET" sleep
    ino=$(ns_inode "$TARGET" net)
    [ "$(stat -L -c %i "/run/netns/$NETNS")" = "$ino" ]
    [ "$(stat -L -c %i "$TMP/second-pin")" = "$ino" ]
    run "$NSCTL" list --noheadings -o NSFS --type net --task "$TARGET"
    [ "$status" -eq 0 ]
    [ "$(printf '%s\n' "${lines[@]}" | sed 's/ *$//')" = "/run/netns/$NETNS
$TMP/second-pin" ]
    run "$NSCTL" list --noheadings -o NSFS --nowrap --type net --task "$TARGET"
    [ "$output" = "/run/netns/$NETNS,$TMP/second-pin" ]
    run "$NSCTL" list -J -o NSFS --type net --task "$TARGET"
    # In JSON one string, the pins between newlines, as lsns 2.42 writes it.
    [ "$(echo "$output" | jq -c '.namespaces[0].nsfs')" = "\"/run/netns/$NETNS\\n$TMP/second-pin\"" ]
}
