# SPDX-License-Identifier: GPL-2.0-or-later
# For hostile-pin.bats: an ordinary user racing root's pin, run, unshare and unpin.

# As nobody, in the background: swap the names A and B (symlinks it owns) with
# renameat2(RENAME_EXCHANGE) in a tight loop, for at most SECONDS.  Its PID
# goes into TEST_PIDS, so teardown kills it.
start_swapper() {
    local a=$1 b=$2 seconds=${3:-30}
    as_nobody timeout "$seconds" /usr/bin/python3 -c '
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
a, b = sys.argv[1].encode(), sys.argv[2].encode()
while True:
    libc.renameat2(-100, a, -100, b, 2)  # AT_FDCWD, RENAME_EXCHANGE
' "$a" "$b" &
    SWAPPER=$!
    TEST_PIDS+=("$SWAPPER")
}

stop_swapper() {
    kill -KILL "$SWAPPER" 2>/dev/null
    wait "$SWAPPER" 2>/dev/null || true
}

# The mount points at exactly PATH, one line each (a stack shows as several).
mounts_at() {
    awk -v p="$1" '$5 == p' /proc/self/mountinfo | wc -l
}

# Every nsfs mount below DIR, as "MOUNTPOINT ROOT" (ROOT: "mnt:[INODE]").
nsfs_below() {
    awk -v d="$1/" '$9 == "nsfs" && index($5, d) == 1 { print $5, $4 }' /proc/self/mountinfo
}

# Unmount everything mounted at or below DIR, deepest first (a failed test's leftovers).
umount_below() {
    awk -v d="$1" '$5 == d || index($5, d "/") == 1 { print length($5), $5 }' /proc/self/mountinfo |
        sort -rn | cut -d' ' -f2- | while read -r m; do umount -l "$m" 2>/dev/null; done
}
