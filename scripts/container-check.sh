#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The CLI suite again, in the places a developer's VM never puts it: a copy of
# the checkout under a fresh 0700 directory (as /root is), built there, and
# run inside new mount and PID namespaces with their own /proc, as in a
# privileged container (PID 1 is a shell; no kernel thread is visible).
#
# Usage: scripts/container-check.sh [BATS_FILE...]   (names relative to tests/cli)
# Ends with the suite's "N passed, N failed, N skipped" line.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)

base=$(mktemp -d "${TMPDIR:-/tmp}/nsctl-container.XXXXXX") || exit 1
trap 'rm -rf "$base"' EXIT
chmod 0700 "$base"
mkdir "$base/project"
# The tracked and untracked (not ignored) files: the checkout as it stands.
(cd "$top" && git ls-files -z --cached --others --exclude-standard |
    tar --null -T - -cf -) | tar -xf - -C "$base/project" || exit 1
cd "$base/project" || exit 1
{ meson setup build -Dwerror=true >/dev/null && ninja -C build >/dev/null; } || {
    echo "container pass: build failed"
    echo "0 passed, 1 failed, 0 skipped"
    exit 1
}

files=()
for f in "$@"; do files+=("tests/cli/$f"); done
[ ${#files[@]} -gt 0 ] || files=(tests/cli/*.bats)
# The suite's own files only: the unit tests ran in the main pass.  Not exec'd:
# the EXIT trap must still remove the copy.
# On one CPU: the kernel pins a mount namespace only onto a mount of an older
# one (a lower ID), and Linux 6.18 hands namespace IDs out in per-CPU batches,
# so one made later on another CPU can have the lower ID.  The pins of the
# tests, made from this new mount namespace, would then fail now and then
# (the VM's pass runs in the initial mount namespace, older than any).
cpu=$(taskset -cp $$ | sed 's/.*: *//; s/[,-].*//')
if unshare --mount --propagation private true 2>/dev/null; then
    taskset -c "$cpu" unshare --mount --pid --fork --mount-proc --propagation private \
        tests/run build "${files[@]}"
else
    # In a chroot "/" is no mount root, and util-linux cannot make the mounts
    # private (EINVAL): private-mount-ns makes a mount namespace whose mounts
    # are all private, from its real root, and returns into the chroot.  The
    # PID namespace's unshare then copies it (a copy of a private mount is
    # private) and mounts its /proc there, unseen by the machine.
    echo "# in a chroot: the mount namespace is made private by tests/cli/private-mount-ns"
    taskset -c "$cpu" tests/cli/private-mount-ns \
        unshare --pid --fork --mount-proc --propagation unchanged tests/run build "${files[@]}"
fi
