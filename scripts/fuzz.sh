#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Build the libFuzzer targets (clang, ASan+UBSan) in build-fuzz/, replay every
# committed corpus in fuzz/corpus/, then fuzz each target for SECONDS (default
# 60; 0 replays only).  Output is TAP, a test per corpus replayed and one per
# target fuzzed (with its executions), ending with "N passed, N failed, N
# skipped" as tests/run does, so scripts/check.sh counts them.  Any crash,
# leak, UB or broken property fails, with the input in build-fuzz/artifacts/.
# New inputs the fuzzers find go to build-fuzz/work/TARGET (copy the good ones
# into fuzz/corpus/TARGET to keep them).
#
# Usage: scripts/fuzz.sh [SECONDS]          (make fuzz FUZZ_SECONDS=N)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
seconds=${1:-60}
dir=build-fuzz

options=(-Dfuzz=true -Dtests=disabled -Db_sanitize=address,undefined -Db_lundef=false
    "-Dc_args=-fsanitize=fuzzer-no-link -fno-sanitize-recover=all")
if [ -f "$dir/build.ninja" ]; then
    meson configure "$dir" "${options[@]}" >/dev/null
else
    CC=clang meson setup "$dir" "${options[@]}" >/dev/null
fi || exit 1
ninja -C "$dir" >/dev/null || { ninja -C "$dir"; exit 1; }

mkdir -p "$dir/artifacts" "$dir/work"
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
n=0 passed=0 failed=0 failures=()

# One TAP line: "ok" or "not ok", then what was checked.
tap() {
    n=$((n + 1))
    if [ "$1" = ok ]; then passed=$((passed + 1)); else failed=$((failed + 1)) failures+=("$2"); fi
    echo "$1 $n - $2"
}

# What a failed run said, as TAP comments.
explain() {
    grep -E 'property broken|ERROR|SUMMARY|Test unit written|misses its' "$1" | head -5 |
        sed 's/^/# /'
}

for target in "$dir"/fuzz/fuzz-*; do
    [ -f "$target" ] && [ -x "$target" ] || continue
    name=$(basename "$target")
    seeds=fuzz/corpus/$name
    log=$dir/$name.log
    n_seeds=$(find "$seeds" -type f 2>/dev/null | wc -l)
    if [ "$n_seeds" -eq 0 ]; then
        tap "not ok" "$name: no seed corpus in $seeds"
        continue
    fi
    # Replay: every committed input, once (-close_fd_mask: nsctl's own messages go to /dev/null).
    if ! "$target" -close_fd_mask=3 -artifact_prefix="$dir/artifacts/$name-" \
        "$seeds"/* >"$log" 2>&1; then
        tap "not ok" "$name: replaying its $n_seeds seeds failed (log: $log)"
        explain "$log"
        continue
    fi
    tap ok "$name: $n_seeds seeds replayed"
    [ "$seconds" -gt 0 ] || continue
    mkdir -p "$dir/work/$name"
    if ! "$target" -close_fd_mask=3 -max_total_time="$seconds" -print_final_stats=1 \
        -artifact_prefix="$dir/artifacts/$name-" "$dir/work/$name" "$seeds" >"$log" 2>&1; then
        tap "not ok" "$name: fuzzing found a failure (log: $log)"
        explain "$log"
        continue
    fi
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    tap ok "$name: fuzzed $seconds s, $executions executions, nothing found"
done
echo
for f in "${failures[@]+"${failures[@]}"}"; do echo "failed: $f"; done
echo "$passed passed, $failed failed, 0 skipped"
[ "$failed" -eq 0 ]
