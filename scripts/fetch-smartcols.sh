#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A libsmartcols with the filter API (2.40+) for the tests of list -Q, on a
# machine whose own is older (2.38 in Debian 12): Debian trixie's libsmartcols1
# and the libc6 it needs (glibc 2.38+ symbols), fetched by apt-get from
# deb.debian.org with a private state directory (the machine's apt sources and
# packages are untouched) and extracted, never installed, into DIR/root.
# apt checks the InRelease signature with the Debian archive keyring, then the
# Packages index and each .deb against the hashes it signed.  The tests run
# the built nsctl through that tree's dynamic loader (tests/cli/smartcols.bash).
#
# Usage: scripts/fetch-smartcols.sh [DIR]   (default: build-smartcols in the checkout)
# Never fails: where the archive cannot be reached it says so, and the tests
# that need the tree skip with that reason (DIR/unavailable).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$top/build-smartcols}
suite=trixie
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
mirror=${NSCTL_DEBIAN_MIRROR:-http://deb.debian.org/debian}

give_up() {
    echo "fetch-smartcols: $*: the tests of libsmartcols' filter will skip" >&2
    mkdir -p "$dir" && echo "$*" >"$dir/unavailable"
    exit 0
}

[ -x "$dir/root/usr/lib64/ld-linux-x86-64.so.2" ] && [ -e "$dir/root/usr/lib/x86_64-linux-gnu/libsmartcols.so.1" ] &&
    exit 0
[ "$(dpkg --print-architecture 2>/dev/null)" = amd64 ] || give_up "not an amd64 machine"
command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null || give_up "no apt-get or dpkg-deb here"
[ -r "$keyring" ] || give_up "no Debian archive keyring at $keyring"

rm -rf "$dir"
mkdir -p "$dir/apt/lists/partial" "$dir/apt/cache/archives/partial" "$dir/apt/preferences.d" "$dir/debs" ||
    give_up "cannot make $dir"
touch "$dir/apt/status"
echo "deb [arch=amd64 signed-by=$keyring] $mirror $suite main" >"$dir/apt/sources.list"
apt=(apt-get -q -o Dir::Etc::SourceList="$dir/apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
    -o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts="$dir/apt/preferences.d"
    -o Dir::State="$dir/apt" -o Dir::State::Lists="$dir/apt/lists" -o Dir::State::status="$dir/apt/status"
    -o Dir::Cache="$dir/apt/cache" -o Acquire::Languages=none -o APT::Architectures=amd64
    -o Debug::NoLocking=1 -o APT::Sandbox::User=root -o Acquire::Retries=1
    -o Acquire::http::Timeout=30)
"${apt[@]}" --error-on=any update >"$dir/apt.log" 2>&1 || give_up "cannot reach $mirror $suite (apt-get update failed; see $dir/apt.log)"
(cd "$dir/debs" && "${apt[@]}" download libc6 libsmartcols1 >>"$dir/apt.log" 2>&1) ||
    give_up "cannot download $suite's libc6 and libsmartcols1 (see $dir/apt.log)"
for deb in "$dir"/debs/*.deb; do
    dpkg-deb -x "$deb" "$dir/root" || give_up "cannot extract $deb"
done
# Only the two packages are kept; the index is big and is of no further use.
rm -rf "$dir/apt/lists" "$dir/apt/cache"
[ -x "$dir/root/usr/lib64/ld-linux-x86-64.so.2" ] || give_up "$suite's libc6 has no usr/lib64/ld-linux-x86-64.so.2"
echo "fetch-smartcols: $suite's libsmartcols1 and libc6 in $dir/root"
