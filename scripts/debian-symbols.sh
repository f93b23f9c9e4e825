#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Write debian/libnsctl1.symbols from the version script lib/libnsctl.sym:
# every function at the version of the node that exports it (node NSCTL_X.Y:
# libnsctl1 (>= X.Y)), and each node itself, as dpkg-gensymbols lists them.
# package.bats checks that the committed file is what this writes; the package
# build (dh_makeshlibs -c4) fails if the library exports anything else.
#
# Usage: scripts/debian-symbols.sh [OUTPUT]   (default: debian/libnsctl1.symbols; - for stdout)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/debian/libnsctl1.symbols}
soversion=$(sed -n "s/^[[:space:]]*version : '\([0-9]*\)\..*',/\1/p" "$top/meson.build" | head -n 1)
[ -n "$soversion" ] || { echo "debian-symbols.sh: no version in meson.build" >&2; exit 1; }

symbols() {
    echo "libnsctl.so.$soversion libnsctl$soversion #MINVER#"
    echo "* Build-Depends-Package: libnsctl-dev"
    # Each node "NAME { global: f; g; local: *; } [PARENT];", comments dropped.
    perl -0777 -ne 's{/\*.*?\*/}{}gs;
        my @lines;
        while (/(NSCTL_(\d+)\.(\d+))\s*\{(.*?)\}/gs) {
            my ($node, $version, $body) = ($1, "$2.$3", $4);
            $body =~ s/local:.*//s;
            $body =~ s/global://;
            push @lines, " $node\@$node $version";
            push @lines, " $_\@$node $version" for grep { length } map { s/\s+//gr } split /;/, $body;
        }
        print "$_\n" for sort @lines;' "$top/lib/libnsctl.sym"
}

if [ "$out" = - ]; then
    symbols
else
    symbols >"$out"
fi
