#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Namespaces named by their 64-bit ID (id:ID) for enter, pin and compare, and
# enter -N/--net-socket: checked through /proc and an NS_GET_ID of Python's,
# never through nsctl's own answers.

bats_require_minimum_version 1.5.0

load bad-input
load socket-holder

setup() {
    bad_input_setup
    RAN=(sh -c 'touch "$0"' "$TMP/ran")
}

teardown() {
    cleanup_pids
    local p
    for p in /run/netns/"$MARK" "$TMP"/pin-*; do
        [ -e "$p" ] || continue
        umount "$p" 2>/dev/null
        rm -f "$p"
    done
    bad_input_teardown
}

# Where the kernel opens none by ID: enter, pin and compare refuse it, saying why.
assert_refused_by_id() {
    run -125 "$NSCTL" enter "id:$PROBE_ID" true
    [[ $output == *"id:$PROBE_ID: opening a namespace by ID needs to be in it"* ]]
    run -2 "$NSCTL" compare "id:$PROBE_ID" $$
    [[ $output == *"id:$PROBE_ID: opening a namespace by ID needs to be in it"* ]]
}

# A sleeper in new uts and net namespaces, its hostname HOST: TARGET.
start_named() {
    unshare --uts --net sh -c 'hostname "$0" && exec sleep 600' "$1" &
    TARGET=$!
    TEST_PIDS+=("$TARGET")
    wait_for_exec "$TARGET" sleep
}

@test "enter id:ID joins that one namespace, whatever its type" {
    require_root
    if ! kernel_opens_by_id; then
        assert_refused_by_id
        return 0
    fi
    start_named "id-$$"
    uts_id=$(ns_id "/proc/$TARGET/ns/uts")
    net_id=$(ns_id "/proc/$TARGET/ns/net")
    run "$NSCTL" enter "id:$uts_id" -- sh -c 'hostname; stat -L -c %i /proc/self/ns/uts /proc/self/ns/net'
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "id-$$" ]
    [ "${lines[1]}" = "$(ns_inode "$TARGET" uts)" ]
    # Only that type: the network namespace stays ours.
    [ "${lines[2]}" = "$(ns_inode $$ net)" ]
    run "$NSCTL" enter "id:$net_id" -- sh -c 'stat -L -c %i /proc/self/ns/net; hostname'
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "$(ns_inode "$TARGET" net)" ]
    [ "${lines[1]}" = "$(uname -n)" ]
    # The type option of its own type is allowed.
    run "$NSCTL" enter --uts "id:$uts_id" hostname
    [ "$status" -eq 0 ]
    [ "$output" = "id-$$" ]
    # --TYPE=FILE adds another type from a file.
    run "$NSCTL" enter --net="/proc/$TARGET/ns/net" "id:$uts_id" -- sh -c 'hostname; stat -L -c %i /proc/self/ns/net'
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "id-$$" ]
    [ "${lines[1]}" = "$(ns_inode "$TARGET" net)" ]
}

@test "enter id:ID: a network namespace held only by a socket, its process back in ours" {
    require_root
    if ! kernel_opens_by_id; then
        assert_refused_by_id
        return 0
    fi
    start_socket_holder
    [ "$(ns_inode "$TARGET" net)" = "$(ns_inode $$ net)" ]
    [ "$NETNS_INO" != "$(ns_inode $$ net)" ]
    run "$NSCTL" enter "id:$NETNS_ID" -- stat -L -c %i /proc/self/ns/net
    [ "$status" -eq 0 ]
    [ "$output" = "$NETNS_INO" ]
}

@test "enter id:ID: a uts namespace held only by an open fd, its process back in ours" {
    require_root
    if ! kernel_opens_by_id; then
        assert_refused_by_id
        return 0
    fi
    # The holder makes a uts namespace, names it, keeps an fd of it, and goes back.
    /usr/bin/python3 -c '
import ctypes, fcntl, os, socket, struct, sys, time
libc = ctypes.CDLL(None, use_errno=True)
back = os.open("/proc/self/ns/uts", os.O_RDONLY)
if libc.unshare(0x04000000) != 0:
    sys.exit("unshare: %s" % os.strerror(ctypes.get_errno()))
socket.sethostname(sys.argv[2])
held = os.open("/proc/self/ns/uts", os.O_RDONLY)
nsid = struct.unpack("Q", fcntl.ioctl(held, 0x8008b70d, bytes(8)))[0]
ino = os.fstat(held).st_ino
if libc.setns(back, 0x04000000) != 0:
    sys.exit("setns: %s" % os.strerror(ctypes.get_errno()))
os.close(back)
with open(sys.argv[1] + ".tmp", "w") as f:
    f.write("%d %d\n" % (ino, nsid))
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
time.sleep(600)' "$TMP/fd-holder" "fd-held-$$" &
    TARGET=$!
    TEST_PIDS+=("$TARGET")
    for _ in $(seq 2000); do
        [ -e "$TMP/fd-holder" ] && break
        sleep 0.01
    done
    read -r ino id <"$TMP/fd-holder"
    # The kernel's word: the holder is back in ours; no process is in that namespace.
    [ "$(ns_inode "$TARGET" uts)" = "$(ns_inode $$ uts)" ]
    [ "$ino" != "$(ns_inode $$ uts)" ]
    run "$NSCTL" enter "id:$id" -- sh -c 'hostname; stat -L -c %i /proc/self/ns/uts'
    echo "$output"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "fd-held-$$" ]
    [ "${lines[1]}" = "$ino" ]
}

@test "enter id:ID: a namespace pinned only in another mount namespace" {
    require_root
    if ! kernel_opens_by_id; then
        assert_refused_by_id
        return 0
    fi
    # The pin lives in a private mount namespace (made so in a chroot too);
    # its process is in our uts namespace.
    "$PRIVATE_MOUNT_NS" sh -c '
        touch "$0/pin-uts" && unshare --uts="$0/pin-uts" hostname "$1" &&
            python3 -c "
import fcntl, os, struct, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
print(os.fstat(fd).st_ino, struct.unpack(\"Q\", fcntl.ioctl(fd, 0x8008b70d, bytes(8)))[0])
" "$0/pin-uts" >"$0/ids.tmp" && mv "$0/ids.tmp" "$0/ids" && exec sleep 600' "$TMP" "pinned-$$" &
    TEST_PIDS+=($!)
    for _ in $(seq 2000); do [ -e "$TMP/ids" ] && break; sleep 0.01; done
    read -r ino id <"$TMP/ids"
    # Not pinned here: our mount table has no such mount.
    run ! mountpoint -q "$TMP/pin-uts"
    [ "$ino" != "$(ns_inode $$ uts)" ]
    run "$NSCTL" enter "id:$id" -- sh -c 'hostname; stat -L -c %i /proc/self/ns/uts'
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "pinned-$$" ]
    [ "${lines[1]}" = "$ino" ]
}

@test "enter id:ID with type options of another type is refused, nothing run" {
    require_root
    start_named "id-$$"
    uts_id=$(ns_id "/proc/$TARGET/ns/uts")
    bad enter 125 "id:$uts_id is a uts namespace: the other type options need =FILE" \
        --net "id:$uts_id" "${RAN[@]}"
    bad enter 125 "id:$uts_id is a uts namespace, and --uts=FILE gives one too" \
        --uts=/proc/self/ns/uts "id:$uts_id" "${RAN[@]}"
    bad enter 125 "id:$uts_id is a uts namespace: the other type options need =FILE" \
        -nu "id:$uts_id" "${RAN[@]}"
}

@test "bad input: enter, pin, compare: id:ID that is no ID, or no namespace's" {
    require_root
    dead_id=18446744073709551615
    for sub in enter compare; do
        if [ $sub = enter ]; then want=125; else want=2; fi
        args=("${RAN[@]}")
        [ $sub = compare ] && args=($$)
        bad $sub $want "'id:': not a namespace ID" id: "${args[@]}"
        bad $sub $want "'id:0': not a namespace ID" id:0 "${args[@]}"
        bad $sub $want "'id:012': not a namespace ID" id:012 "${args[@]}"
        bad $sub $want "'id:-1': not a namespace ID" id:-1 "${args[@]}"
        bad $sub $want "'id:1x': not a namespace ID" id:1x "${args[@]}"
        bad $sub $want "'id: 1': not a namespace ID" "id: 1" "${args[@]}"
        bad $sub $want "'id:18446744073709551616': the namespace ID is larger than 64 bits" \
            id:18446744073709551616 "${args[@]}"
        bad $sub $want "id:$dead_id: no namespace with ID $dead_id found (nsctl list shows the IDs)" \
            "id:$dead_id" "${args[@]}"
    done
    bad pin 2 "'id:0': not a namespace ID" id:0 "$TMP/pin-x"
    bad pin 2 "'id:18446744073709551616': the namespace ID is larger than 64 bits" \
        id:18446744073709551616 "$TMP/pin-x"
    bad pin 1 "id:$dead_id: no namespace with ID $dead_id found" "id:$dead_id" "$TMP/pin-x"
    bad pin 1 "id:$dead_id: no namespace with ID $dead_id found" "id:$dead_id" "$MARK"
    [ "$ROW_FAILURES" -eq 0 ]
}

@test "pin id:ID pins that namespace, at a PATH or a NAME, held only by a socket too" {
    require_root
    if ! kernel_opens_by_id; then
        assert_refused_by_id
        return 0
    fi
    start_socket_holder
    run "$NSCTL" pin "id:$NETNS_ID" "$MARK"
    [ "$status" -eq 0 ]
    [ "$(stat -c %i "/run/netns/$MARK")" = "$NETNS_INO" ]
    run netns_exec_here "$MARK" stat -L -c %i /proc/self/ns/net
    [ "$output" = "$NETNS_INO" ]
    # The pin keeps it after its last holder has gone.
    cleanup_pids
    run nsenter --net="/run/netns/$MARK" stat -L -c %i /proc/self/ns/net
    [ "$output" = "$NETNS_INO" ]
    run "$NSCTL" unpin "$MARK"
    [ "$status" -eq 0 ]
    start_named "id-$$"
    uts_id=$(ns_id "/proc/$TARGET/ns/uts")
    run "$NSCTL" pin "id:$uts_id" "$TMP/pin-uts"
    [ "$status" -eq 0 ]
    [ "$(stat -c %i "$TMP/pin-uts")" = "$(ns_inode "$TARGET" uts)" ]
    [ "$(nsenter --uts="$TMP/pin-uts" hostname)" = "id-$$" ]
    # A type option of another type is refused; nothing is made.
    run "$NSCTL" pin --net "id:$uts_id" "$TMP/pin-other"
    [ "$status" -eq 2 ]
    [[ $output == *"id:$uts_id is a uts namespace; the type options ask for others"* ]]
    [ ! -e "$TMP/pin-other" ]
    run "$NSCTL" unpin "$TMP/pin-uts"
    [ "$status" -eq 0 ]
}

@test "compare id:ID with PIDs, files and other IDs" {
    require_root
    if ! kernel_opens_by_id; then
        assert_refused_by_id
        return 0
    fi
    start_named "id-$$"
    uts_id=$(ns_id "/proc/$TARGET/ns/uts")
    net_id=$(ns_id "/proc/$TARGET/ns/net")
    own_uts_id=$(ns_id /proc/self/ns/uts)
    run "$NSCTL" compare -r --noheadings "id:$uts_id" "$TARGET"
    [ "$status" -eq 0 ]
    [ "$output" = "uts $(ns_inode "$TARGET" uts) $(ns_inode "$TARGET" uts) $uts_id $uts_id same" ]
    run "$NSCTL" compare -r --noheadings "id:$uts_id" "id:$own_uts_id"
    [ "$status" -eq 1 ]
    [ "$output" = "uts $(ns_inode "$TARGET" uts) $(ns_inode $$ uts) $uts_id $own_uts_id different" ]
    run "$NSCTL" compare -q "/proc/$TARGET/ns/net" "id:$net_id"
    [ "$status" -eq 0 ]
    run "$NSCTL" compare -q $$ "id:$net_id"
    [ "$status" -eq 1 ]
    run "$NSCTL" compare "id:$uts_id" "id:$net_id"
    [ "$status" -eq 2 ]
    [[ $output == *"id:$uts_id is a uts namespace and id:$net_id a net namespace: nothing to compare"* ]]
    run "$NSCTL" compare --net "id:$uts_id" $$
    [ "$status" -eq 2 ]
    [[ $output == *"id:$uts_id is a uts namespace, which the type options leave out"* ]]
}

@test "id:ID as an ordinary user: its own namespaces, those of its user namespaces, nothing else" {
    require_userns_for_nobody
    # Nobody's sleeper in a user and network namespace it made.
    setpriv --reuid=65534 --regid=65534 --clear-groups unshare --user --map-root-user --net sleep 600 &
    TEST_PIDS+=($!)
    wait_for_exec $! sleep
    mine=$!
    user_id=$(as_nobody /usr/bin/python3 -c '
import fcntl, os, struct, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
print(struct.unpack("Q", fcntl.ioctl(fd, 0x8008b70d, bytes(8)))[0])' "/proc/$mine/ns/user")
    net_id=$(ns_id "/proc/$mine/ns/net")
    # The user namespace it owns, and the network namespace that one owns:
    # Linux 6.18 let nobody open them by ID (CAP_SYS_ADMIN there is enough);
    # later 6.18 kernels find by ID only what the caller is in.  nsctl does
    # what the kernel, asked directly as nobody, does.
    if [ "$(as_nobody /usr/bin/python3 -c "$OPEN_BY_ID" "/proc/$mine/ns/user")" = opened ]; then
        run as_nobody "$NSCTL" enter "id:$user_id" -- sh -c 'cat /proc/self/uid_map; stat -L -c %i /proc/self/ns/user'
        [ "$status" -eq 0 ]
        [ "$(echo "${lines[0]}" | tr -s ' ' | sed 's/^ //')" = "0 65534 1" ]
        [ "${lines[1]}" = "$(ns_inode "$mine" user)" ]
        run as_nobody "$NSCTL" compare -r --noheadings "id:$net_id" "$mine"
        [ "$status" -eq 0 ]
        [[ $output == *" same" ]]
    else
        run -125 as_nobody "$NSCTL" enter "id:$user_id" true
        [[ $output == *"id:$user_id: opening a namespace by ID needs to be in it, or CAP_SYS_ADMIN in the user namespace that owns it"* ]]
        run -2 as_nobody "$NSCTL" compare -q "id:$net_id" "$mine"
        [[ $output == *"id:$net_id: opening a namespace by ID needs to be in it"* ]]
    fi
    # Its own namespaces (those it is in) too.
    own_net_id=$(ns_id /proc/self/ns/net)
    run as_nobody "$NSCTL" compare -q "id:$own_net_id" "$mine"
    [ "$status" -eq 1 ]
    # Root's network namespace, with a process of nobody's in it: seen, refused by the kernel.
    unshare --net setpriv --reuid=65534 --regid=65534 --clear-groups sleep 600 &
    TEST_PIDS+=($!)
    wait_for_exec $! sleep
    theirs=$!
    root_net_id=$(ns_id "/proc/$theirs/ns/net")
    run as_nobody "$NSCTL" compare "id:$root_net_id" "$theirs"
    [ "$status" -eq 2 ]
    [[ $output == *"id:$root_net_id: opening a namespace by ID needs to be in it, or CAP_SYS_ADMIN in the user namespace that owns it: Operation not permitted"* ]]
    run as_nobody "$NSCTL" enter "id:$root_net_id" true
    [ "$status" -eq 125 ]
    [[ $output == *"Operation not permitted"* ]]
    # Root's, with no process of nobody's in it: out of its sight.
    start_named "id-$$"
    hidden_id=$(ns_id "/proc/$TARGET/ns/uts")
    run as_nobody "$NSCTL" enter "id:$hidden_id" true
    [ "$status" -eq 125 ]
    [[ $output == *"id:$hidden_id: no namespace with ID $hidden_id found among those this user can see"* ]]
    # Root opens any of them, where the kernel opens any by ID for root.
    if kernel_opens_by_id; then
        run "$NSCTL" enter "id:$user_id" -- stat -L -c %i /proc/self/ns/user
        [ "$output" = "$(ns_inode "$mine" user)" ]
    else
        assert_refused_by_id
    fi
}

@test "enter -N/--net-socket FD joins the network namespace of the target's socket" {
    require_root
    start_socket_holder
    [ "$(ns_inode "$TARGET" net)" = "$(ns_inode $$ net)" ]
    run "$NSCTL" enter -N "$SOCKET_FD" "$TARGET" -- sh -c 'stat -L -c %i /proc/self/ns/net /proc/self/ns/uts'
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "$NETNS_INO" ]
    [ "${lines[1]}" = "$(ns_inode $$ uts)" ]
    run "$NSCTL" enter --net-socket="$SOCKET_FD" "$TARGET" stat -L -c %i /proc/self/ns/net
    [ "$output" = "$NETNS_INO" ]
    # With a type option of the process: both.
    run "$NSCTL" enter --uts -N "$SOCKET_FD" "$TARGET" -- stat -L -c %i /proc/self/ns/net /proc/self/ns/uts
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "$NETNS_INO" ]
    [ "${lines[1]}" = "$(ns_inode "$TARGET" uts)" ]
}

@test "bad input: enter -N/--net-socket: no socket, no such fd, no PID, with --net" {
    require_root
    start_socket_holder
    bad enter 125 "--net-socket $FILE_FD: fd $FILE_FD of PID $TARGET is not a socket" \
        -N "$FILE_FD" "$TARGET" "${RAN[@]}"
    bad enter 125 "--net-socket 999: PID $TARGET has no fd 999" -N 999 "$TARGET" "${RAN[@]}"
    bad enter 125 "--net-socket $SOCKET_FD: the socket is an fd of a process, and '/proc/$TARGET/ns/net' is not a PID" \
        -N "$SOCKET_FD" "/proc/$TARGET/ns/net" "${RAN[@]}"
    bad enter 125 "--net-socket 3: the socket is an fd of a process, and 'id:1' is not a PID" \
        -N 3 id:1 "${RAN[@]}"
    bad enter 125 "--net-socket and --net are mutually exclusive" -n -N "$SOCKET_FD" "$TARGET" "${RAN[@]}"
    bad enter 125 "--net-socket and --net are mutually exclusive" \
        --net=/proc/self/ns/net -N "$SOCKET_FD" "$TARGET" "${RAN[@]}"
    bad enter 125 "--net-socket given twice" -N 3 -N 4 "$TARGET" "${RAN[@]}"
    for fd in x -1 "" 1x " 3" 99999999999; do
        bad enter 125 "--net-socket '$fd': not a file descriptor number" -N "$fd" "$TARGET" "${RAN[@]}"
    done
    bad enter 125 "option '-N' needs an argument" -N
    [ "$ROW_FAILURES" -eq 0 ]
}

@test "enter -N as an ordinary user: only a process it may ptrace" {
    require_userns_for_nobody
    start_socket_holder
    run as_nobody "$NSCTL" enter -N "$SOCKET_FD" "$TARGET" true
    [ "$status" -eq 125 ]
    [[ $output == *"--net-socket $SOCKET_FD: the socket of PID $TARGET: Operation not permitted"* ]]
}
