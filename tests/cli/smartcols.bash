# SPDX-License-Identifier: GPL-2.0-or-later
# list -Q through libsmartcols' own filter (2.40+) on a machine whose libsmartcols
# is older: scripts/fetch-smartcols.sh (called by "scripts/install-deps.sh check")
# extracts Debian trixie's libsmartcols1 and its libc6 into a tree, and nsctl runs
# through that tree's dynamic loader, which dlopen() follows with --library-path.

SMARTCOLS_DIR=${NSCTL_SMARTCOLS_DIR:-$NSCTL_TOP/build-smartcols}
SMARTCOLS_LOADER=$SMARTCOLS_DIR/root/usr/lib64/ld-linux-x86-64.so.2
SMARTCOLS_LIBS=$SMARTCOLS_DIR/root/usr/lib/x86_64-linux-gnu

# From here on, $NSCTL is the built nsctl run by the fetched loader and libraries
# (a wrapper script); NSCTL_OWN is the plain one; smartcols_run runs another
# program of the build so.  Skips, with the reason, where
# the tree is missing or cannot run this build.
use_library_filter() {
    if [ ! -x "$SMARTCOLS_LOADER" ] || [ ! -e "$SMARTCOLS_LIBS/libsmartcols.so.1" ]; then
        if [ -s "$SMARTCOLS_DIR/unavailable" ]; then
            skip "no libsmartcols 2.40+ to test with: $(head -n 1 "$SMARTCOLS_DIR/unavailable")"
        fi
        skip "no libsmartcols 2.40+ to test with: $SMARTCOLS_DIR has none (scripts/fetch-smartcols.sh makes it)"
    fi
    NSCTL_OWN=${NSCTL_OWN:-$NSCTL}
    local wrapper=$BATS_TEST_TMPDIR/nsctl-smartcols
    # The sanitizer build: the fetched libsmartcols 2.41.5 leaks 152 bytes (flex's
    # scanner state) per filter parsed; scols_new_filter, scols_filter_parse_string
    # and scols_unref_filter alone show it.  Only its two files are suppressed.
    SMARTCOLS_ENV=()
    if ldd "$NSCTL_OWN" 2>/dev/null | grep -q libasan; then
        printf 'leak:%s\nleak:%s\n' "$SMARTCOLS_LIBS/libsmartcols.so.1" "$SMARTCOLS_LOADER" \
            >"$BATS_TEST_TMPDIR/lsan-smartcols.supp"
        SMARTCOLS_ENV=("LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}print_suppressions=0:suppressions=$BATS_TEST_TMPDIR/lsan-smartcols.supp")
    fi
    printf '#!/bin/sh\nexec env %s "%s" --library-path "%s" "%s" "$@"\n' \
        "${SMARTCOLS_ENV[*]@Q}" "$SMARTCOLS_LOADER" "$SMARTCOLS_LIBS" "$NSCTL_OWN" >"$wrapper"
    chmod +x "$wrapper"
    local note
    note=$("$wrapper" list --help 2>&1 | tail -n 1) ||
        skip "this build of nsctl cannot run with the fetched libc and loader: $note"
    [[ "$note" == "Here -Q is evaluated by libsmartcols 2."*"'s filter; with =~ or !~ by nsctl itself, which bounds their memory." ]] || {
        echo "nsctl through $SMARTCOLS_LOADER: $note"
        return 1
    }
    NSCTL=$wrapper
}

# The evaluator $NSCTL uses: "library" or "own", as its list --help says.
filter_evaluator() {
    case $("$NSCTL" list --help | tail -n 1) in
        *"by libsmartcols "*"'s filter; "*) echo library ;;
        *"by nsctl itself"*) echo own ;;
        *) echo unknown ;;
    esac
}

# Run PROGRAM [ARG...] of the build with the fetched loader and libraries (after use_library_filter).
smartcols_run() {
    env "${SMARTCOLS_ENV[@]}" "$SMARTCOLS_LOADER" --library-path "$SMARTCOLS_LIBS" "$@"
}
