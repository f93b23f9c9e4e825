#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# make demo (scripts/demo.sh): every step runs and is checked, and nothing is
# left behind, neither when it succeeds nor when a step fails.

load helpers

# The mounts the demo could leave: its directory, its mqueue, its pin.
demo_mounts() {
    mount_table | grep nsctl-demo || true
}

# The demo's own directories in /tmp.
demo_dirs() {
    find /tmp -maxdepth 1 -name 'nsctl-demo.*' | sort
}

setup() {
    require_root
    DIRS_BEFORE=$(demo_dirs)
    TMP=$(mktemp -d)
    MOUNTS_BEFORE=$(demo_mounts)
    RUN_PINS_BEFORE=$(find /run/nsctl /run/netns 2>/dev/null | sort)
}

teardown() {
    rm -rf "$TMP"
}

# After a run whose output is $output: its processes, pin, namespace, files and mounts are gone.
assert_nothing_left() {
    local dir pid uts
    [ "$(demo_mounts)" = "$MOUNTS_BEFORE" ]
    # The demo never pins under /run; other tests on the machine may meanwhile.
    [ -z "$(comm -13 <(echo "$RUN_PINS_BEFORE") <(find /run/nsctl /run/netns 2>/dev/null | sort) | grep nsctl-demo)" ]
    [ "$(demo_dirs)" = "$DIRS_BEFORE" ]
    # The child of step 1: gone, and its UTS namespace pinned nowhere.
    pid=$(echo "$output" | sed -n 's/^PID of child created by clone() is //p')
    [ -n "$pid" ]
    uts=$(echo "$output" | grep -A1 "^# readlink /proc/$pid/ns/uts\$" | sed -n 's/^uts:\[\([0-9]*\)\]$/\1/p')
    [ -n "$uts" ]
    [ "$(stat -L -c %i "/proc/$pid/ns/uts" 2>/dev/null)" != "$uts" ]
    ! findmnt -n -t nsfs -o SOURCE | grep -qF "uts:[$uts]" || false
    # Step 6's target, when the demo got that far.
    pid=$(echo "$output" | sed -n 's/^# \.\/pidfd_enter_all \([0-9]*\) .*/\1/p')
    if [ -n "$pid" ]; then
        ! grep -qx sleep "/proc/$pid/comm" 2>/dev/null || false
    fi
}

@test "demo: every step of the article runs and is checked, and nothing is left behind" {
    run "$NSCTL_TOP/scripts/demo.sh" "$NSCTL_BUILD"
    echo "$output"
    [ "$status" -eq 0 ]
    for n in 1 2 3 4 5 6; do
        [[ "$output" == *"== $n. "* ]]
    done
    [[ "$output" != *FAILED* ]]
    [ "$(echo "$output" | grep -c '^   ok: ')" -ge 25 ]
    [[ "$output" == *"uts.nodename in child:  bizarro"* ]]
    [[ "$output" == *"demo complete"* ]]
    assert_nothing_left
}

# A build directory whose nsctl and examples are the real ones, but for one program.
fake_build() {
    mkdir -p "$TMP/build/examples"
    ln -sf "$NSCTL_BUILD/nsctl" "$TMP/build/nsctl"
    for p in demo_uts_namespaces ns_exec unshare pidfd_enter_all; do
        ln -sf "$NSCTL_BUILD/examples/$p" "$TMP/build/examples/$p"
    done
}

@test "demo: a step that fails stops it with non-zero; its processes, pin and files are removed" {
    # Step 2 fails while both processes of step 1 live.
    fake_build
    rm "$TMP/build/nsctl"
    printf '#!/bin/sh\n[ "$1" = compare ] && exit 2\nexec "%s" "$@"\n' "$NSCTL_BUILD/nsctl" >"$TMP/build/nsctl"
    chmod +x "$TMP/build/nsctl"
    run "$NSCTL_TOP/scripts/demo.sh" "$TMP/build"
    echo "$output"
    [ "$status" -ne 0 ]
    [[ "$output" == *"FAILED: nsctl compare says the UTS namespaces differ"* ]]
    [[ "$output" == *"demo: failed"* ]]
    assert_nothing_left

    # Step 4 fails while the namespace is pinned and no process is in it.
    rm -rf "$TMP/build"
    fake_build
    rm "$TMP/build/examples/ns_exec"
    printf '#!/bin/sh\nexit 3\n' >"$TMP/build/examples/ns_exec"
    chmod +x "$TMP/build/examples/ns_exec"
    run "$NSCTL_TOP/scripts/demo.sh" "$TMP/build"
    echo "$output"
    [ "$status" -eq 3 ]
    [[ "$output" == *"ok: the pin still holds"* ]]
    [[ "$output" == *"demo: failed"* ]]
    assert_nothing_left
}

@test "demo: as an ordinary user it says to run it as root, and creates nothing" {
    chmod 755 "$TMP"
    run as_nobody "$NSCTL_TOP/scripts/demo.sh" "$NSCTL_BUILD"
    [ "$status" -eq 1 ]
    [[ "$output" == *"run it as root"* ]]
    [ "$(demo_mounts)" = "$MOUNTS_BEFORE" ]
}
