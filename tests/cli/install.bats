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
    ls "$p"/lib*/*/libnsctl.so.0 "$p"/lib*/libnsctl.so.0 2>/dev/null | grep -q .
    [ -f "$p/include/nsctl.h" ]
    find "$p" -name libnsctl.pc | grep -q .
    for page in nsctl.1 nsctl-compare.1 nsctl-pin.1 nsctl-unpin.1; do
        [ -f "$p/share/man/man1/$page" ]
    done
    [ -f "$p/share/man/man3/libnsctl.3" ]
    find "$DEST" -path '*bash-completion/completions/nsctl' | grep -q .
}

@test "install: a program builds against the installed libnsctl through pkg-config" {
    p=$DEST$(prefix)
    pcdir=$(dirname "$(find "$p" -name libnsctl.pc | head -n 1)")
    libdir=$(dirname "$(find "$p" -name 'libnsctl.so.0' | head -n 1)")
    # The man page's example program, as a user would copy it.
    sed -n '/^\.SH EXAMPLE/,/^\.SH SEE ALSO/p' "$NSCTL_TOP/man/libnsctl.3" |
        sed '1,2d;$d' | sed '$d' | sed 's/\\e/\\/g' > "$DEST/example.c"
    flags=$(PKG_CONFIG_PATH=$pcdir PKG_CONFIG_SYSROOT_DIR=$DEST pkg-config --cflags --libs libnsctl)
    cc -Wall -Werror -o "$DEST/example" "$DEST/example.c" $flags
    run env LD_LIBRARY_PATH="$libdir" "$DEST/example" $$ $$
    [ "$status" -eq 0 ]
    [ "$output" = same ]
    # It really is the installed library that ran.
    LD_LIBRARY_PATH="$libdir" ldd "$DEST/example" | grep -q "$libdir/libnsctl.so.0"
}
