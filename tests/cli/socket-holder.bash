# SPDX-License-Identifier: GPL-2.0-or-later
# Namespaces as the kernel names them, and one held by a socket alone: for the
# tests of list, enter id:ID and -N/--net-socket, and the older-kernel rows.

# The 64-bit ID of the namespace at PATH, as the kernel's NS_GET_ID gives it.
ns_id() {
    /usr/bin/python3 -c '
import fcntl, os, struct, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
print(struct.unpack("Q", fcntl.ioctl(fd, 0x8008b70d, bytes(8)))[0])' "$1"
}

# A helper in a network namespace of its own that makes a socket there, goes back to
# ours with setns() and sleeps: TARGET, holding the namespace by the socket alone.
# NETNS_INO and NETNS_ID are the namespace's, read before it left; SOCKET_FD is the
# socket's fd, FILE_FD an fd of a plain file it holds too.
start_socket_holder() {
    /usr/bin/python3 -c '
import ctypes, fcntl, os, socket, struct, sys, time
libc = ctypes.CDLL(None, use_errno=True)
back = os.open("/proc/self/ns/net", os.O_RDONLY)
if libc.unshare(0x40000000) != 0:
    sys.exit("unshare: %s" % os.strerror(ctypes.get_errno()))
own = os.open("/proc/self/ns/net", os.O_RDONLY)
ino = os.fstat(own).st_ino
nsid = struct.unpack("Q", fcntl.ioctl(own, 0x8008b70d, bytes(8)))[0]
os.close(own)
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
if libc.setns(back, 0x40000000) != 0:
    sys.exit("setns: %s" % os.strerror(ctypes.get_errno()))
os.close(back)
plain = os.open("/dev/null", os.O_RDONLY)
with open(sys.argv[1] + ".tmp", "w") as f:
    f.write("%d %d %d %d\n" % (ino, nsid, s.fileno(), plain))
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
time.sleep(600)' "$TMP/socket-holder" &
    TARGET=$!
    TEST_PIDS+=("$TARGET")
    for _ in $(seq 300); do
        [ -e "$TMP/socket-holder" ] && break
        sleep 0.01
    done
    read -r NETNS_INO NETNS_ID SOCKET_FD FILE_FD <"$TMP/socket-holder"
    rm -f "$TMP/socket-holder"
}

# The kernel's own answer to open_by_handle_at(FD_NSFS_ROOT) of the namespace
# at argv[1]'s handle (FILEID_NSFS: ID, type, inode), without nsctl: "opened"
# or the error.
OPEN_BY_ID='
import ctypes, fcntl, os, struct, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
ns_id = struct.unpack("Q", fcntl.ioctl(fd, 0x8008b70d, bytes(8)))[0]
ns_type = fcntl.ioctl(fd, 0xb703)
ino = os.fstat(fd).st_ino
libc = ctypes.CDLL(None, use_errno=True)
handle = ctypes.create_string_buffer(struct.pack("IiQII", 16, 0xf1, ns_id, ns_type, ino), 32)
r = libc.open_by_handle_at(-10003, handle, os.O_RDONLY)
print("opened" if r >= 0 else os.strerror(ctypes.get_errno()))'

# Whether the kernel opens, for root, a namespace root is not in by its ID:
# Linux 6.18 as first released did for CAP_SYS_ADMIN over its owner; a later
# 6.18 kernel finds by ID only from the initial PID namespace (in a
# container's own PID namespace, none).  Asked directly, of a probe's uts
# namespace (its ID: PROBE_ID).
kernel_opens_by_id() {
    unshare --uts sleep 600 &
    TEST_PIDS+=($!)
    wait_for_exec $! sleep
    PROBE_ID=$(ns_id "/proc/$!/ns/uts")
    [ "$(/usr/bin/python3 -c "$OPEN_BY_ID" "/proc/$!/ns/uts")" = opened ]
}
