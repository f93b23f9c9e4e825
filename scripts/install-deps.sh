#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Install the Debian packages that building and testing nsctl need, where
# missing.  As root it installs them; otherwise it says exactly what to run.
set -eu

packages=(
    # build
    meson ninja-build pkg-config gcc clang libsmartcols-dev
    # sanitizers and fuzzing (clang's runtime for ASan, UBSan and libFuzzer)
    libclang-rt-14-dev
    # hardening: memcheck, and syscall traces in the hostile-state tests
    valgrind strace
    # tests: unit, CLI, and the independent witnesses they check nsctl against
    libcmocka-dev bats jq util-linux iproute2 uidmap procps psmisc
    # man pages are checked with groff; format with clang-format
    groff-base man-db clang-format
    # benchmarks and their plot, list --dot rendering
    hyperfine gnuplot-nox graphviz time
)

missing=()
for p in "${packages[@]}"; do
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
