# SPDX-License-Identifier: GPL-2.0-or-later
# What the list test files share: each test's own directory and pin name, and the
# check that it leaves no mount of its own behind.  Other engineers' tests mount
# and unmount meanwhile, so only our part of the mount table is compared.

our_mounts() {
    mount_table | grep -F -e "$TMP" -e "$NETNS" || true
}

# setup(): TMP, NETNS (nsctl-PREFIX-...), VETH, and the mounts to find again at the end.
list_setup() {
    TMP=$(mktemp -d)
    NETNS=nsctl-$1-$$-$BATS_TEST_NUMBER
    VETH=nsl$$x$BATS_TEST_NUMBER
    MOUNTS_BEFORE=$(our_mounts)
}

# teardown(): what the tests may have made, removed; then no mount of ours is left.
list_teardown() {
    cleanup_pids
    umount "$TMP"/extra-pin-* "$TMP/second-pin" 2>/dev/null || true
    ip link delete "${VETH}a" 2>/dev/null || true
    ip netns del "$NETNS" 2>/dev/null || true
    [ "$(our_mounts)" = "$MOUNTS_BEFORE" ]
    rm -rf "$TMP"
}

# Start a background process and record it; TARGET is its PID.
start_bg() {
    "$@" &
    TARGET=$!
    TEST_PIDS+=("$TARGET")
}
