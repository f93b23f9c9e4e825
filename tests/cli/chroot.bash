# SPDX-License-Identifier: GPL-2.0-or-later
# A chroot as a user makes one with debootstrap and chroot(8): its root is a
# directory inside a mount, not a mount of its own, and that mount is shared
# with the machine's (as systemd makes "/").  Built in a mount namespace of the
# test's own, so nothing of it reaches the machine's mount table.

# COMMAND... in a new mount namespace whose mounts are all private, as
# "unshare --mount --propagation private" makes one, also where this runs in a
# chroot itself: there "/" is no mount's root and util-linux fails (EINVAL), so
# nsenter enters the new namespace at its root, makes it private from there,
# and chroot(8) returns through an fd of the old root, as nsctl does.
private_mount_ns() {
    if unshare --mount --propagation private true 2>/dev/null; then
        unshare --mount --propagation private "$@"
        return
    fi
    unshare --mount --propagation unchanged sh -c '
        exec 9</ || exit 1
        exec nsenter --mount=/proc/self/ns/mnt sh -c "
            mount --make-rprivate / && cd /proc/self/fd/9 && exec 9<&- &&
                exec /usr/sbin/chroot . sh -c '\''cd \"\$0\" && exec \"\$@\"'\'' \"\$@\"" sh "$@"' \
        sh "$(pwd)" "$@"
}

# in_chroot SCRIPT [ARG...]: run sh -c SCRIPT, chrooted in $CHROOT_BASE/root
# with the machine's /usr, /etc, /proc and /dev and the build at its own path.
# The shell that chroots waits for it, then runs $CHROOT_AFTER outside the
# chroot (where $ROOT names the chroot's directory): what it sees of the mounts
# made inside.
in_chroot() {
    local script=$1
    shift
    private_mount_ns timeout 30 sh -eu -c '
        base=$1 build=$2 script=$3 after=$4
        shift 4
        mount -t tmpfs nsctl-chroot-test "$base"
        mount --make-shared "$base"
        ROOT=$base/root
        mkdir -p "$ROOT/usr" "$ROOT/etc" "$ROOT/proc" "$ROOT/dev" "$ROOT/tmp/probe" "$ROOT$build"
        for d in bin lib lib64 sbin; do
            [ -L "/$d" ] && ln -s "$(readlink "/$d")" "$ROOT/$d"
        done
        for d in /usr /etc /proc /dev "$build"; do
            mount --rbind "$d" "$ROOT$d"
        done
        status=0
        : >"$ROOT/nsctl-chroot-root"
        chroot "$ROOT" /bin/sh -c "$script" "$@" || status=$?
        export ROOT
        sh -c "$after"
        exit "$status"' sh "$CHROOT_BASE" "$NSCTL_BUILD" "$script" "${CHROOT_AFTER:-true}" "$@"
}
