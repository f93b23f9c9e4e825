#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Install the Debian packages that one job needs, where missing: "build" (make,
# make demo), "check" (make check: the build, the tests, the sanitizers, the
# fuzzers, the ABI and package checks), "bench" (make bench), "fuzz" (make
# fuzz), "deb" (make deb).  As root it installs them; otherwise it says
# exactly what to run.
#
# Usage: scripts/install-deps.sh [build|check|bench|fuzz|deb]...   (default: build)
set -eu

build=(meson ninja-build pkg-config gcc libc6-dev libsmartcols-dev libjson-c-dev)
# clang and its runtime: the second compiler, ASan+UBSan, libFuzzer.  The
# runtime by the name every release has (libclang-rt-dev, which depends on
# libclang-rt-14-dev in Debian 12 and libclang-rt-19-dev in 13), never a
# version number.
fuzz=("${build[@]}" clang libclang-rt-dev)
check=("${fuzz[@]}"
    # memcheck, and syscall traces in the hostile-state tests
    valgrind strace
    # unit and CLI tests, and the independent witnesses they check nsctl against
    libcmocka-dev bats jq util-linux iproute2 uidmap procps psmisc
    # the ordinary user's racers and traps in the hostile tests (ctypes); zsh, its completion's
    python3 zsh
    # man pages are checked with groff; the formatting with clang-format; list --dot with dot
    groff-base man-db clang-format graphviz
    # bench.bats runs a quick benchmark, which draws its plot
    gnuplot-nox
    # runtimes.bats: real container runtimes beside nsctl (docker needs a
    # daemon, which no test starts: it runs where one does)
    podman runc lxc busybox-static
    # abi.bats compares the library with abi/libnsctl.abi; package.bats
    # builds the Debian packages and runs lintian on them
    abigail-tools dpkg-dev debhelper lintian)
# the plot of docs/PERFORMANCE.md; the peers measured
bench=("${build[@]}" gnuplot-nox util-linux iproute2)
# make deb: debian/control's Build-Depends
deb=(dpkg-dev debhelper meson ninja-build pkgconf libsmartcols-dev libjson-c-dev)

[ $# -gt 0 ] || set -- build
packages=()
for job in "$@"; do
    case $job in
        build) packages+=("${build[@]}") ;;
        check) packages+=("${check[@]}") ;;
        bench) packages+=("${bench[@]}") ;;
        fuzz) packages+=("${fuzz[@]}") ;;
        deb) packages+=("${deb[@]}") ;;
        *) echo "install-deps.sh: '$job': not a job (build, check, bench, fuzz, deb)" >&2; exit 2 ;;
    esac
done

missing=()
for p in $(printf '%s\n' "${packages[@]}" | sort -u); do
    status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
    [ "$status" = installed ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
    echo "nsctl needs these Debian packages; as root, run:" >&2
    echo "  apt-get update && apt-get install -y ${missing[*]}" >&2
    exit 1
fi
echo "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
