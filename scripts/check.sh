#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The whole test suite, as CI runs it: install what is missing, check the
# formatting, build with gcc and clang with warnings as errors, run every test
# against the gcc build and again against an ASan+UBSan build, the CLI tests
# once more as in a container (scripts/container-check.sh), valgrind and the
# fuzzers, and end with one line "N passed, N failed, N skipped" for all of it.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

scripts/install-deps.sh check || exit 1

passed=0 failed=0 skipped=0
# What failed or was skipped, by pass, repeated just above the last line: CI
# may show only the end of the output.
report=()
step_failed() {
    echo "FAILED: $1"
    failed=$((failed + 1))
    report+=("FAILED: $1")
}

# One build directory, configured once and reconfigured when options change.
build() {
    local dir=$1 compiler=$2
    shift 2
    if [ -f "$dir/build.ninja" ]; then
        meson configure "$dir" "$@" >/dev/null
    else
        CC=$compiler meson setup "$dir" "$@" >/dev/null
    fi && ninja -C "$dir"
}

echo "== format"
if scripts/format.sh --check; then passed=$((passed + 1)); else step_failed "clang-format"; fi

echo "== build: gcc, warnings as errors"
build build gcc -Dwerror=true -Dtests=enabled || step_failed "gcc build"
echo "== build: clang, warnings as errors"
build build-clang clang -Dwerror=true -Dtests=enabled || step_failed "clang build"
echo "== build: ASan + UBSan"
build build-asan gcc -Dwerror=true -Dtests=enabled -Db_sanitize=address,undefined -Db_lundef=false ||
    step_failed "sanitizer build"

# Run a command whose output ends with "N passed, N failed, N skipped"; add that to the totals.
count_summary() {
    local name=$1 line log
    shift
    log=$(mktemp)
    "$@" >"$log" 2>&1
    cat "$log"
    while IFS= read -r line; do
        report+=("$name: $line")
    done < <(grep -E '^(failed: |skipped: |CI runs every test)' "$log")
    line=$(tail -n 1 "$log")
    rm -f "$log"
    if [[ "$line" =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed,\ ([0-9]+)\ skipped$ ]]; then
        passed=$((passed + BASH_REMATCH[1]))
        failed=$((failed + BASH_REMATCH[2]))
        skipped=$((skipped + BASH_REMATCH[3]))
    else
        step_failed "$name ended without a summary"
    fi
}

run_suite() {
    local name=$1 dir=$2
    shift 2
    echo "== tests: $name"
    count_summary "tests ($name)" env "$@" tests/run "$dir"
}

# docker needs its daemon, a service of the machine that no test starts (podman
# and lxc need none, and run everywhere): where none runs, runtimes.bats skips
# it, saying so, and the summary counts it.
no_docker='no docker daemon is running here'
[ -x build/nsctl ] && run_suite gcc build NSCTL_ALLOWED_SKIP="$no_docker"
# A test that drives list to its memory bound skips there: ASan's allocator
# aborts when its own mmap() meets RLIMIT_DATA.  Locals on ASan's fake stack
# (use after return), as GCC 13 and later (Debian 13) have it by default: the
# same pass on Debian 12's GCC 12, where it is off.
[ -x build-asan/nsctl ] && run_suite "ASan+UBSan" build-asan \
    NSCTL_ALLOWED_SKIP="under AddressSanitizer|$no_docker" \
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=99:detect_stack_use_after_return=1 \
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=98

# As in a privileged container: new mount and PID namespaces (no kernel thread
# visible, PID 1 a shell), the checkout under a 0700 directory as /root is.
echo "== container: the CLI suite again, in new mount and PID namespaces, from a 0700 directory"
count_summary "container" env NSCTL_ALLOWED_SKIP="no kernel thread is visible|$no_docker" \
    scripts/container-check.sh

echo "== valgrind: unit tests and nsctl invocations"
if [ -x build/nsctl ]; then count_summary "valgrind" scripts/valgrind.sh build; else step_failed "valgrind"; fi

# Each target counts twice: its corpus replayed, then fuzzed (a TAP line each).
echo "== fuzz: replay fuzz/corpus, then ${NSCTL_CHECK_FUZZ_SECONDS:-3} s per target"
count_summary "fuzz" scripts/fuzz.sh "${NSCTL_CHECK_FUZZ_SECONDS:-3}"

echo
for line in "${report[@]+"${report[@]}"}"; do echo "$line"; done
echo "all: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
