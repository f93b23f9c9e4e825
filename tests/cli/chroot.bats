#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# In a chroot (issue 17): new mount namespaces made private, though "/" there
# is no mount's root, without leaving the chroot or the working directory.

load helpers
load chroot
bats_require_minimum_version 1.5.0

setup() {
    require_root
    CHROOT_BASE=$(mktemp -d "$BATS_TEST_TMPDIR/chroot.XXXXXX")
    # Outside the chroot, after it: how many mounts at the chroot's /tmp/probe
    # and /proc the shell that made it sees (none and one when nothing leaked).
    CHROOT_AFTER='printf "outside: probe %s proc %s\n" \
        "$(grep -c " $ROOT/tmp/probe " /proc/self/mountinfo)" \
        "$(grep -c " $ROOT/proc " /proc/self/mountinfo)"'
}

# Run by PROGRAM in the chroot: where it is, and what it mounted there.
inside='set -e
    [ -e /nsctl-chroot-root ] && [ ! -e "$0" ] && echo "inside: in the chroot"
    echo "inside: cwd $(pwd)"
    mount -t tmpfs nsctl-chroot-probe /tmp/probe
    echo "inside: probe $(grep -c " /tmp/probe " /proc/self/mountinfo)"'

@test "chroot: nsctl unshare --mount is private, in the chroot and working directory" {
    run in_chroot 'cd /tmp && exec "$0" unshare --mount -- sh -c "$1" "$2"' \
        "$NSCTL" "$inside" "$CHROOT_BASE"
    echo "$output"
    [ "$status" -eq 0 ]
    grep -qx "inside: in the chroot" <<<"$output"
    grep -qx "inside: cwd /tmp" <<<"$output"
    grep -qx "inside: probe 1" <<<"$output"
    # The mount that holds the chroot is shared: left so, the probe would be seen here.
    grep -qx "outside: probe 0 proc 1" <<<"$output"
}

@test "chroot: nsctl run --mount --pid --mount-proc mounts proc in the chroot only" {
    run in_chroot 'cd /tmp && exec "$0" run --mount --pid --mount-proc -- sh -c "
        echo pid \$\$; cat /proc/1/comm; $1" "$2"' \
        "$NSCTL" "$inside" "$CHROOT_BASE"
    echo "$output"
    [ "$status" -eq 0 ]
    grep -qx "pid 1" <<<"$output"
    grep -qx sh <<<"$output"
    grep -qx "inside: in the chroot" <<<"$output"
    grep -qx "inside: cwd /tmp" <<<"$output"
    grep -qx "inside: probe 1" <<<"$output"
    grep -qx "outside: probe 0 proc 1" <<<"$output"
}

@test "chroot: the article's unshare -m (make demo, step 5) runs there" {
    run in_chroot 'cd /tmp && exec "$0" -m sh -c "$1" "$2"' \
        "$NSCTL_BUILD/examples/unshare" "$inside" "$CHROOT_BASE"
    echo "$output"
    [ "$status" -eq 0 ]
    grep -qx "inside: in the chroot" <<<"$output"
    grep -qx "inside: cwd /tmp" <<<"$output"
    grep -qx "outside: probe 0 proc 1" <<<"$output"
}

@test "chroot: --propagation unchanged leaves the shared mount shared (the test can fail)" {
    # The witness that the first test's "probe 0" means something: unchanged, it leaks.
    run in_chroot 'cd /tmp && exec "$0" unshare --mount --propagation unchanged -- \
        mount -t tmpfs nsctl-chroot-probe /tmp/probe' "$NSCTL"
    echo "$output"
    [ "$status" -eq 0 ]
    grep -qx "outside: probe 1 proc 1" <<<"$output"
}
