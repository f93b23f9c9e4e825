# SPDX-License-Identifier: GPL-2.0-or-later
# An ordinary user's trap for a lister that copies sockets (hostile-list.bats):
# a TCP connection on loopback whose receiver never reads, so that the
# sender's queue stays full, with SO_LINGER of 60 s on the sender.  This
# process keeps the sender as fd 3, prints its PID and exits HOLD seconds
# later; its child keeps the receiver, never reading, for PEER seconds.
# Whoever holds the last copy of the sender then closes it: a close() that
# waits the linger time unless the closing task is exiting.
import os
import socket
import struct
import sys
import time

hold, peer_seconds = float(sys.argv[1]), float(sys.argv[2])
listener = socket.socket()
listener.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
listener.bind(("127.0.0.1", 0))
listener.listen(1)
sender = socket.socket()
sender.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
sender.connect(listener.getsockname())
peer, _ = listener.accept()
listener.close()
sender.setblocking(False)
try:
    while True:
        sender.send(b"x" * 4096)
except BlockingIOError:
    pass
sender.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 60))
if os.fork() == 0:
    # The receiver, at a higher PID than the holder: a lister in PID order copies the sender first.
    sender.close()
    time.sleep(peer_seconds)
    os._exit(0)
peer.close()
os.dup2(sender.fileno(), 3)
sender.close()
print(os.getpid(), flush=True)
time.sleep(hold)
