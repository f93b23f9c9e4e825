# SPDX-License-Identifier: GPL-2.0-or-later
# What the place the tests run in allows: a chroot (a Debian chroot made with
# debootstrap, say) shares the machine's namespaces, but its root is a
# directory inside a mount, and the kernel treats a chrooted caller apart.

# shellcheck source=tests/cli/chroot.bash
source "${BASH_SOURCE[0]%/*}/chroot.bash"

# The same as a program (for timeout, prefix arrays, background targets).
PRIVATE_MOUNT_NS=$(cd "${BASH_SOURCE[0]%/*}" && pwd)/private-mount-ns

# True where this process is chrooted.  As root: its "/" is not the root
# of its mount namespace, where setns() into that namespace puts nsenter.
# Otherwise guessed: "/" is no mount root (no line of its mountinfo has "/"
# for mount point: the kernel shows only the mounts reachable from the
# caller's root), or its root is not PID 1's (a chroot into a mount's root;
# PID 1's root may be refused even to root, and in a PID namespace of its
# own PID 1 may be chrooted too: hence mountinfo first).
running_chrooted() {
    local ours theirs
    # The kernel's answer first: setns() into our own mount namespace puts a
    # process at its root, which in a chroot is not ours (as root only).
    ours=$(stat -c %d:%i / 2>/dev/null) || return 1
    if theirs=$(nsenter --mount=/proc/self/ns/mnt stat -c %d:%i / 2>/dev/null); then
        [ "$ours" != "$theirs" ]
        return
    fi
    if [ -r /proc/self/mountinfo ] &&
        awk '$5 == "/" { found = 1 } END { exit found }' /proc/self/mountinfo; then
        return 0
    fi
    ours=$(stat -c %d:%i / 2>/dev/null) || return 1
    theirs=$(stat -L -c %d:%i /proc/1/root 2>/dev/null) || return 1
    [ "$ours" != "$theirs" ]
}

# Skip the test where this place refuses user namespaces even to root: the
# kernel's answer decides, not a guess at the place.  clone(2) and unshare(2)
# fail with EPERM for a chrooted caller (the kernel's check that it cannot
# escape through a new user namespace), and so do a seccomp filter or a
# sysctl that forbid them.  Any other failure is left to the test, which then
# fails and says so.  (Under CI a skip is a failure unless allowed.)
require_userns() {
    local err
    err=$(unshare --user true 2>&1) && return 0
    if [[ "$err" == *"Operation not permitted"* ]]; then
        if running_chrooted; then
            skip "a chrooted process cannot make user namespaces (the kernel refuses: EPERM)"
        fi
        skip "this place refuses user namespaces even to root (the kernel says EPERM)"
    fi
}

# True where util-linux can make a private mount namespace: not in a chroot,
# whose "/" is no mount root (mount(MS_PRIVATE) on it fails with EINVAL).
private_unshare_works() {
    unshare --mount --propagation private true 2>/dev/null
}

# unshare_here OPTION...: set UNSHARE_HERE to a command that runs
# "unshare OPTION..." here, followed by PROGRAM [ARG...].  In a chroot, where
# util-linux cannot make a new mount namespace private (--mount, --mount-proc
# without --propagation), private-mount-ns makes a private one first, and
# unshare copies it with --propagation unchanged (a copy of a private mount is
# private); every step execs the next, so PROGRAM keeps the PID either way.
# shellcheck disable=SC2034 # UNSHARE_HERE is for the caller
unshare_here() {
    local a mount=
    UNSHARE_HERE=(unshare "$@")
    for a in "$@"; do
        case $a in
            --mount | -m | --mount-proc | --mount-proc=*) mount=1 ;;
            --propagation*) return 0 ;;
            -*) ;;
            *) break ;;
        esac
    done
    if [ -n "$mount" ] && ! private_unshare_works; then
        UNSHARE_HERE=("$PRIVATE_MOUNT_NS" unshare --propagation unchanged "$@")
    fi
}

# Skip the test where "ip netns exec" cannot work: it makes its mounts private
# from "/", which in a chroot is no mount root (EINVAL).
require_ip_netns_exec() {
    if ! private_unshare_works && running_chrooted; then
        skip "ip netns exec cannot work in a chroot: / is no mount root there (EINVAL)"
    fi
}

# netns_exec_here NAME COMMAND...: "ip netns exec NAME COMMAND..." where it
# works; in a chroot, where it cannot (see above), nsenter into the same file,
# /run/netns/NAME: the network namespace alone, without ip's /sys and
# /etc/netns/NAME (the tests that look at those skip instead).
netns_exec_here() {
    local name=$1
    shift
    if private_unshare_works || ! running_chrooted; then
        ip netns exec "$name" "$@"
    else
        nsenter --net="/run/netns/$name" "$@"
    fi
}
