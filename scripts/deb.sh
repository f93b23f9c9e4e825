#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Build the Debian packages (libnsctl1, libnsctl-dev, nsctl) from a copy of
# the tree in OUTDIR/nsctl, so that the checkout gets nothing written to it;
# the .deb files land in OUTDIR, the build's output in OUTDIR/build.log.
#
# Usage: scripts/deb.sh [OUTDIR]   (default: build-deb; emptied first)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/build-deb}

rm -rf "$out/nsctl"
mkdir -p "$out/nsctl"
out=$(cd "$out" && pwd)
rm -f "$out"/*.deb "$out"/*.buildinfo "$out"/*.changes
# What git tracks plus what it does not ignore; without git, all but the builds.
if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
    (cd "$top" && git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf -)
else
    (cd "$top" && tar --exclude='./build*' --exclude='./obj-*' -cf - .)
fi | tar -xf - -C "$out/nsctl"
if ! (cd "$out/nsctl" && dpkg-buildpackage -b -us -uc) >"$out/build.log" 2>&1; then
    tail -n 40 "$out/build.log" >&2
    echo "deb.sh: dpkg-buildpackage failed; its output is in $out/build.log" >&2
    exit 1
fi
rm -rf "$out/nsctl"
ls "$out"/*.deb
