#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# meson install with DESTDIR puts everything where it belongs, and a program
# builds against the installed library through pkg-config alone.

load helpers

setup_file() {
    export DEST=$(mktemp -d)
    meson install -C "$NSCTL_BUILD" --destdir "$DEST" --no-rebuild >/dev/null
}

teardown_file() {
    rm -rf "$DEST"
}

prefix() {
    meson introspect "$NSCTL_BUILD" --buildoptions | jq -r '.[] | select(.name == "prefix") | .value'
}

@test "install: CLI, library, header, pkg-config file, man pages, completion" {
    p=$DEST$(prefix)
    [ -x "$p/bin/nsctl" ]
    ls "$p"/lib*/*/libnsctl.so.1 "$p"/lib*/libnsctl.so.1 2>/dev/null | grep -q .
    [ -f "$p/include/nsctl.h" ]
    find "$p" -name libnsctl.pc | grep -q .
    # Every page of man/, in its section.
    for page in "$NSCTL_TOP"/man/*.[0-9]; do
        page=${page##*/}
        [ -f "$p/share/man/man${page##*.}/$page" ]
    done
    find "$DEST" -path '*bash-completion/completions/nsctl' | grep -q .
    # zsh's, where zsh looks under this prefix (site-functions; vendor-completions under /usr).
    find "$DEST" -path '*/share/zsh/*/_nsctl' | grep -q .
}

@test "install: a program builds against the installed libnsctl through pkg-config" {
    p=$DEST$(prefix)
    pcdir=$(dirname "$(find "$p" -name libnsctl.pc | head -n 1)")
    libdir=$(dirname "$(find "$p" -name 'libnsctl.so.1' | head -n 1)")
    # The man page's example program, as a user would copy it.
    sed -n '/^\.SH EXAMPLES/,/^\.SH SEE ALSO/p' "$NSCTL_TOP/man/libnsctl.3" |
        sed -n '/^\.EX$/,/^\.EE$/p' | sed '1d;$d' | sed 's/\\e/\\/g' > "$DEST/example.c"
    flags=$(PKG_CONFIG_PATH=$pcdir PKG_CONFIG_SYSROOT_DIR=$DEST pkg-config --cflags --libs libnsctl)
    # A sanitizer build installs an instrumented library: the program needs the same runtime.
    sanitize=$(meson introspect "$NSCTL_BUILD" --buildoptions | jq -r '.[] | select(.name == "b_sanitize") | .value')
    extra=()
    [ "$sanitize" != none ] && extra=(-fsanitize="$sanitize")
    cc -Wall -Werror "${extra[@]}" -o "$DEST/example" "$DEST/example.c" $flags
    run env LD_LIBRARY_PATH="$libdir" "$DEST/example" $$ $$
    [ "$status" -eq 0 ]
    [ "$output" = same ]
    # It really is the installed library that ran.
    LD_LIBRARY_PATH="$libdir" ldd "$DEST/example" | grep -q "$libdir/libnsctl.so.1"
}

@test "install: examples/ns_exec.c builds against the installed libnsctl and joins a namespace" {
    require_root
    p=$DEST$(prefix)
    pcdir=$(dirname "$(find "$p" -name libnsctl.pc | head -n 1)")
    libdir=$(dirname "$(find "$p" -name 'libnsctl.so.1' | head -n 1)")
    flags=$(PKG_CONFIG_PATH=$pcdir PKG_CONFIG_SYSROOT_DIR=$DEST pkg-config --cflags --libs libnsctl)
    sanitize=$(meson introspect "$NSCTL_BUILD" --buildoptions | jq -r '.[] | select(.name == "b_sanitize") | .value')
    extra=()
    [ "$sanitize" != none ] && extra=(-fsanitize="$sanitize")
    # Only the installed header: the source tree's include/ is not on the path.
    cc -Wall -Wextra -Werror "${extra[@]}" -o "$DEST/ns_exec" "$NSCTL_TOP/examples/ns_exec.c" $flags
    LD_LIBRARY_PATH="$libdir" ldd "$DEST/ns_exec" | grep -q "$libdir/libnsctl.so.1"
    name=nsctl-install-$$
    unshare --uts sh -c "hostname $name && exec sleep 600" &
    target=$!
    TEST_PIDS+=("$target")
    wait_for_exec "$target" sleep
    run env LD_LIBRARY_PATH="$libdir" "$DEST/ns_exec" "/proc/$target/ns/uts" hostname
    cleanup_pids
    [ "$status" -eq 0 ]
    [ "$output" = "$name" ]
}
