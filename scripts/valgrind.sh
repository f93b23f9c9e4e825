#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Valgrind memcheck over every unit test and a representative set of nsctl
# invocations (successes, usage errors, failures): no invalid access, no use
# of uninitialized memory, no definite or indirect leak, on any of them.
#
# Usage: scripts/valgrind.sh [BUILD_DIR]      (make valgrind)
# To cover a new subcommand, add its invocations to the cli list below.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd) || exit 2
nsctl=$build/nsctl
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT
failed=0 passed=0 skipped=0

# memcheck NAME WANT COMMAND...: WANT is the status the program itself ends
# with outside valgrind ("any" for nsctl's invocations, whose status is theirs
# to choose).  Valgrind's errors fail; a program that ends otherwise under
# valgrind is a skip, with its reason: never a silent pass.
memcheck() {
    local name=$1 want=$2 status unfollowed
    shift 2
    valgrind --quiet --error-exitcode=99 --leak-check=full \
        --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect \
        --child-silent-after-fork=yes --log-file="$log/vg" "$@" >"$log/out" 2>&1
    status=$?
    # A system call this valgrind does not know (3.19: pidfd_open, 434; 3.24:
    # pidfd_send_signal, 424, and process_madvise, 440) fails with ENOSYS under
    # it, and valgrind says so: the program then takes its fallback, which is
    # what is checked there.  Said in the result, never silent.
    unfollowed=$(grep -oE 'unhandled [a-z0-9_-]+ syscall: [0-9]+' "$log/vg" | awk '{print $NF}' |
        sort -un | tr '\n' ' ')
    unfollowed=${unfollowed% }
    if [ "$status" -eq 99 ]; then
        echo "failed: $name (status $status${unfollowed:+; valgrind cannot follow system call $unfollowed})"
        cat "$log/vg"
        # A leak is often an assertion's longjmp past a free(): which one.
        grep -E '^(not ok|# .*(error|Failure))' "$log/out" | head -n 6 | sed 's/^/    /
        failed=$((failed + 1))
    elif [ "$want" != any ] && [ "$status" -ne "$want" ]; then
        # The program's own checks failed under valgrind: where it answers
        # ENOSYS for the kernel (said above, or silently: fsopen in 3.19), or
        # runs a clone with namespace flags as a fork.  Memcheck found nothing;
        # the tests themselves are judged in the test runs.  Not a pass.
        echo "skipped: $name: its own checks failed under valgrind (status $status), which ${unfollowed:+cannot follow system call $unfollowed and }follows some calls only in part; memcheck found no error"
        grep -E '^(not ok|# .*(error|Failure))' "$log/out" | head -n 4 | sed 's/^/    /'
        skipped=$((skipped + 1))
    else
        echo "ok: $name (status $status${unfollowed:+; valgrind cannot follow system call $unfollowed, so the fallback ran})"
        passed=$((passed + 1))
    fi
}

for t in "$build"/tests/unit/test-*; do
    [ -f "$t" ] && [ -x "$t" ] || continue
    CMOCKA_MESSAGE_OUTPUT=TAP memcheck "unit/$(basename "$t")" 0 "$t"
done

# A process of our own in other namespaces, so that compare finds differences.
unshare --uts --ipc sleep 600 &
target=$!
trap 'kill -KILL $target 2>/dev/null; wait $target 2>/dev/null; rm -rf "$log"' EXIT
for i in $(seq 200); do
    [ "$(cat /proc/$target/comm 2>/dev/null)" = sleep ] && break
    sleep 0.01
done

cli=(
    "--help" "--version" "" "frobnicate" "--bogus"
    "compare --help"
    "compare $$ $$" "compare -J $$ $target" "compare -r --noheadings --uts $$ $target"
    "compare -q --type ipc,net $$ $target" "compare /proc/$$/ns/net /proc/$target/ns/net"
    "compare /proc/$$/ns/uts $target" "compare /proc/$$/ns/net /proc/$$/ns/uts"
    "compare $$ 0" "compare $$ /nonexistent" "compare $$ /dev/null" "compare --type net,net $$ $$"
    "compare --bogus $$ $$" "compare -J -r $$ $$" "compare $$"
    # nsctl_spawn(): valgrind runs its shared-memory child as a copy; errors still reach the parent.
    "run -u true" "run -u --hostname vg sh -c true" "run -u /nonexistent" "run -u /etc/passwd"
    # Its other starts: a time namespace; a parent step (id maps); a child step (loopback, --init).
    "run -T true" "run -U -r true" "run -n --loopback true" "run -p --init true"
)
for args in "${cli[@]}"; do
    # shellcheck disable=SC2086 # the words of each invocation
    memcheck "nsctl $args" any "$nsctl" $args
done
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
