#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Replay the README's two commands as a new user would, on a fresh root of a
# Debian release: debootstrap (minbase, build-essential and git, from the
# package archive this machine's apt uses), a clone of this checkout's HEAD
# under /root (mode 0700), then "make demo" and "make check" in each PLACE:
#
#   container  new mount and PID namespaces, pivot_root into the fresh root,
#              its own /proc, the host's /sys and /dev (a privileged
#              container, as docker --privileged or podman --privileged)
#   chroot     chroot(2) into the fresh root, itself a mount point (bound
#              onto itself, as arch-chroot and schroot make it), with the
#              host's /proc, /sys and /dev bound in (in a mount namespace
#              of its own: the host's table never shows them)
#
# As root.  Each place's last lines and status go to WORK/RELEASE-PLACE.log;
# the summary, one line a place, to standard output.  The root is kept in
# WORK/RELEASE (remove it by hand; a second run reuses it, fresh clone each time).
#
# Usage: scripts/replay-debian.sh [--work DIR] [--demo-only] RELEASE [PLACE...]
#   RELEASE: bookworm (12), trixie (13) ...; PLACE default: container chroot
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
work=/var/tmp/nsctl-replay
targets="demo check"
while [ $# -gt 0 ]; do
    case $1 in
        --work) work=$2; shift 2 ;;
        --demo-only) targets=demo; shift ;;
        -h | --help) sed -n '3,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "replay-debian.sh: unknown option '$1'" >&2; exit 2 ;;
        *) break ;;
    esac
done
[ $# -ge 1 ] || { echo "usage: replay-debian.sh [--work DIR] [--demo-only] RELEASE [PLACE...]" >&2; exit 2; }
release=$1
shift
places=("$@")
[ ${#places[@]} -gt 0 ] || places=(container chroot)
for place in "${places[@]}"; do
    case $place in container | chroot) ;; *) echo "replay-debian.sh: '$place': not a place (container, chroot)" >&2; exit 2 ;; esac
done
[ "$(id -u)" -eq 0 ] || { echo "replay-debian.sh: needs root (debootstrap, mounts)" >&2; exit 1; }

# The archive this machine's apt uses (deb822 or one-line sources).
mirror=$(grep -hsE '^(URIs:|deb )' /etc/apt/sources.list.d/*.sources /etc/apt/sources.list \
    /etc/apt/sources.list.d/*.list 2>/dev/null | grep -v security | head -n 1 |
    sed -E 's/^URIs: *//; s/^deb +(\[[^]]*\] +)?//; s/ .*//')
[ -n "$mirror" ] || mirror=http://deb.debian.org/debian
command -v debootstrap >/dev/null || {
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
}

root=$work/$release
mkdir -p "$work"
if [ ! -x "$root/usr/bin/make" ]; then
    echo "== debootstrap $release from $mirror into $root"
    rm -rf "$root"
    debootstrap --variant=minbase --include=build-essential,git,ca-certificates \
        "$release" "$root" "$mirror" >"$work/$release-debootstrap.log" 2>&1 ||
        { tail -n 20 "$work/$release-debootstrap.log"; exit 1; }
fi
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true

# The checkout as a new user gets it: a clone of HEAD, under /root (0700).
fresh_clone() {
    rm -rf "$root/root/nsctl"
    chmod 0700 "$root/root"
    git clone -q "$top" "$root/root/nsctl"
}

# The commands, run inside; the last lines of each are what the note shows.
inner="cd /root/nsctl && for t in $targets; do echo \"== make \$t\"; make \$t || exit \$?; done"

run_container() {
    # New mount and PID namespaces; the root bound onto itself, then pivot_root.
    unshare --mount --pid --fork --propagation private /bin/sh -euc '
        root=$1 inner=$2
        mount --bind "$root" "$root"
        mount -t proc proc "$root/proc"
        mount --rbind /sys "$root/sys"
        mount --rbind /dev "$root/dev"
        mount -t tmpfs tmpfs "$root/run"
        mkdir -p "$root/.old"
        cd "$root"
        pivot_root . .old
        umount -l /.old
        rmdir /.old
        exec env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
            PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin /bin/sh -c "$inner"
    ' sh "$root" "$inner"
}

run_chroot() {
    # As arch-chroot: the root a mount point of its own, the host's /proc,
    # /sys, /dev in it; all in a mount namespace of its own, so that the
    # host's table (and other tests on it) never sees them.
    unshare --mount --propagation private /bin/sh -euc '
        root=$1 inner=$2
        mount --bind "$root" "$root"
        mount --bind /proc "$root/proc"
        mount --rbind /sys "$root/sys"
        mount --rbind /dev "$root/dev"
        mount -t tmpfs tmpfs "$root/run"
        exec env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
            PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
            chroot "$root" /bin/sh -c "$inner"
    ' sh "$root" "$inner"
}

summary=()
for place in "${places[@]}"; do
    log=$work/$release-$place.log
    echo "== $release, $place: make $targets (log: $log)"
    fresh_clone
    status=0
    "run_$place" >"$log" 2>&1 || status=$?
    last=$(grep -E '^all: [0-9]+ passed' "$log" | tail -n 1)
    summary+=("$release $place: status $status${last:+, $last}")
    tail -n 40 "$log"
done
echo
printf '%s\n' "${summary[@]}"
