#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The Debian packages: debian/libnsctl1.symbols is what scripts/debian-symbols.sh
# makes of the version script; dpkg-buildpackage builds libnsctl1, libnsctl-dev
# and nsctl from a copy of the tree; unpacked into an empty root (dpkg-deb -x)
# they hold what they should, lintian finds nothing, and examples/ns_exec.c
# builds against the unpacked library through pkg-config and joins a namespace.
# The build (scripts/deb.sh, some 20 s) is made once, in setup_file, in a
# directory that teardown_file removes with everything in it.

load helpers

# Why the packages cannot be built here, or nothing when they can.
missing_tools() {
    local tool
    for tool in dpkg-buildpackage dpkg-deb dh dh_auto_configure; do
        command -v "$tool" >/dev/null || {
            echo "$tool missing: apt-get install dpkg-dev debhelper (scripts/install-deps.sh check does)"
            return
        }
    done
    dpkg-checkbuilddeps "$NSCTL_TOP/debian/control" 2>/dev/null ||
        echo "build dependencies missing: $(dpkg-checkbuilddeps "$NSCTL_TOP/debian/control" 2>&1)"
}

setup_file() {
    export PKG_WORK="" PKG_SKIP=""
    PKG_SKIP=$(missing_tools)
    [ -z "$PKG_SKIP" ] || return 0
    PKG_WORK=$(mktemp -d "${TMPDIR:-/tmp}/nsctl-package.XXXXXX")
    mkdir "$PKG_WORK/root"
    # The build, as make deb makes it: in a copy, nothing written to the checkout.
    "$NSCTL_TOP/scripts/deb.sh" "$PKG_WORK" >/dev/null 2>&1 || {
        export PKG_BUILD_FAILED=1
        return 0
    }
    for deb in "$PKG_WORK"/*.deb; do
        case $deb in *-dbgsym_*) continue ;; esac
        dpkg-deb -x "$deb" "$PKG_WORK/root"
    done
    export MULTIARCH=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
}

teardown_file() {
    [ -z "$PKG_WORK" ] || rm -rf "$PKG_WORK"
}

setup() {
    ROOT=${PKG_WORK:+$PKG_WORK/root}
}

# For the tests of the built packages: skip, saying why, where they cannot be built.
require_packages() {
    [ -z "$PKG_SKIP" ] || skip "$PKG_SKIP"
    [ -z "${PKG_BUILD_FAILED:-}" ] || { tail -n 60 "$PKG_WORK/build.log"; false; }
}

teardown() {
    cleanup_pids
}

@test "package: debian/libnsctl1.symbols is what scripts/debian-symbols.sh makes of lib/libnsctl.sym" {
    made=$("$NSCTL_TOP/scripts/debian-symbols.sh" -)
    diff -u "$NSCTL_TOP/debian/libnsctl1.symbols" <(echo "$made")
    # One line per exported function, and one per version node.
    [ "$(grep -c '^ nsctl_' <<<"$made")" -eq "$("$NSCTL_TOP/scripts/symbols.sh" map | wc -l)" ]
    grep -qx ' NSCTL_1.0@NSCTL_1.0 1.0' <<<"$made"
}

@test "package: dpkg-buildpackage makes libnsctl1, libnsctl-dev and nsctl, with the symbols file" {
    require_packages
    for p in libnsctl1 libnsctl-dev nsctl; do
        ls "$PKG_WORK/${p}_"*.deb
    done
    # dh_makeshlibs -c4 checked the library against the symbols file; the
    # package carries it as it is committed.
    dpkg-deb -e "$PKG_WORK"/libnsctl1_*.deb "$PKG_WORK/control"
    diff -u "$NSCTL_TOP/debian/libnsctl1.symbols" "$PKG_WORK/control/symbols"
    grep -qx "libnsctl 1 libnsctl1 (>= $(dpkg-parsechangelog -l "$NSCTL_TOP/debian/changelog" -S Version))" \
        "$PKG_WORK/control/shlibs"
}

@test "package: nsctl depends on libsmartcols1, which it loads with dlopen()" {
    require_packages
    depends=$(dpkg-deb -f "$PKG_WORK"/nsctl_*.deb Depends)
    echo "$depends"
    echo "$depends" | grep -qE '(^|, )libsmartcols1 \(>= [0-9.~a-z]+\)(,|$)'
    # The binary really does not link it (else shlibs would have named it).
    run -0 readelf -d "$ROOT/usr/bin/nsctl"
    ! echo "$output" | grep -q 'libsmartcols' || false
    # and the -dev package pins the library of its own build.
    dpkg-deb -f "$PKG_WORK"/libnsctl-dev_*.deb Depends | grep -qE '(^|, )libnsctl1 \(= '
}

@test "package: the unpacked root holds the library, header, pkg-config file, man pages and completion" {
    require_packages
    lib=$ROOT/usr/lib/$MULTIARCH
    [ -f "$lib/libnsctl.so.1.0.0" ]
    [ "$(readlink "$lib/libnsctl.so.1")" = libnsctl.so.1.0.0 ]
    [ "$(readlink "$lib/libnsctl.so")" = libnsctl.so.1 ]
    [ -f "$lib/libnsctl.a" ]
    [ -f "$lib/pkgconfig/libnsctl.pc" ]
    cmp "$ROOT/usr/include/nsctl.h" "$NSCTL_TOP/include/nsctl.h"
    [ -x "$ROOT/usr/bin/nsctl" ]
    for page in "$NSCTL_TOP"/man/*.[0-9]; do
        page=${page##*/}
        [ -f "$ROOT/usr/share/man/man${page##*.}/$page.gz" ]
    done
    cmp "$ROOT/usr/share/bash-completion/completions/nsctl" "$NSCTL_TOP/completions/nsctl"
    cmp "$ROOT/usr/share/zsh/vendor-completions/_nsctl" "$NSCTL_TOP/completions/_nsctl"
    for p in libnsctl1 libnsctl-dev nsctl; do
        [ -f "$ROOT/usr/share/doc/$p/copyright" ]
    done
    # The installed nsctl runs, and loads libsmartcols for a table.
    run -0 "$ROOT/usr/bin/nsctl" --version
    [ "$output" = "nsctl $(dpkg-parsechangelog -l "$NSCTL_TOP/debian/changelog" -S Version)" ]
    run -0 "$ROOT/usr/bin/nsctl" compare --uts $$ $$
    echo "$output" | grep -qE '^uts .* same$'
}

@test "package: lintian finds nothing at its default level" {
    require_packages
    command -v lintian >/dev/null || skip "lintian missing: apt-get install lintian (scripts/install-deps.sh check does)"
    run lintian --fail-on error,warning "$PKG_WORK"/nsctl_*.changes
    echo "$output"
    [ "$status" -eq 0 ]
    # Nothing is printed but the note on running as root.
    [ -z "$(echo "$output" | grep -v 'running with root privileges is not recommended')" ]
}

@test "package: examples/ns_exec.c builds against the unpacked libnsctl (pkg-config) and joins a uts namespace" {
    require_packages
    require_root
    export PKG_CONFIG_SYSROOT_DIR=$ROOT PKG_CONFIG_LIBDIR=$ROOT/usr/lib/$MULTIARCH/pkgconfig
    run -0 pkg-config --modversion libnsctl
    [ "$output" = "$(dpkg-parsechangelog -l "$NSCTL_TOP/debian/changelog" -S Version)" ]
    flags=$(pkg-config --cflags --libs libnsctl)
    echo "$flags" | grep -qF -- "-I$ROOT/usr/include"
    echo "$flags" | grep -qF -- "-L$ROOT/usr/lib/$MULTIARCH"
    "${CC:-cc}" -Wall -Werror -o "$PKG_WORK/ns_exec" "$NSCTL_TOP/examples/ns_exec.c" $flags
    # It is the unpacked library that it loads.
    LD_LIBRARY_PATH=$ROOT/usr/lib/$MULTIARCH ldd "$PKG_WORK/ns_exec" |
        grep -qF "libnsctl.so.1 => $ROOT/usr/lib/$MULTIARCH/libnsctl.so.1"

    name=nsctl-pkg-$$
    unshare --uts sh -c 'hostname "$0" && exec sleep 600' "$name" &
    TEST_PIDS+=($!)
    wait_for_exec $! sleep
    [ "$(hostname)" != "$name" ]
    run -0 env LD_LIBRARY_PATH="$ROOT/usr/lib/$MULTIARCH" "$PKG_WORK/ns_exec" "/proc/$!/ns/uts" hostname
    [ "$output" = "$name" ]
    # ... in that namespace: the same uts inode as the sleeper's.
    run -0 env LD_LIBRARY_PATH="$ROOT/usr/lib/$MULTIARCH" "$PKG_WORK/ns_exec" "/proc/$!/ns/uts" \
        readlink /proc/self/ns/uts
    [ "$output" = "$(readlink "/proc/$!/ns/uts")" ]
}
