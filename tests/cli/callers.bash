# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by callers.bats: what PROGRAM receives from its caller, and the fixtures for it.

# A cgroup v2 directory of this test's own under the cgroup2 mount, made empty; CGROUP names it.
make_cgroup() {
    local base
    base=$(awk '$3 == "cgroup2" {print $2; exit}' /proc/self/mounts)
    [ -n "$base" ] || return 1
    CGROUP="$base/nsctl-callers-$$-$BATS_TEST_NUMBER"
    mkdir "$CGROUP"
}

# A root directory with only /bin/sh and its libraries, a marker file at its
# top and another in /sub; ROOT names it.  The shell's builtins (pwd, read)
# are all PROGRAM needs there.
make_root() {
    local sh_path f
    ROOT=$TMP/root
    sh_path=$(readlink -f /bin/sh)
    for f in "$sh_path" $(ldd "$sh_path" | grep -oE '/[^ ]+'); do
        mkdir -p "$ROOT$(dirname "$f")"
        cp "$f" "$ROOT$f"
    done
    mkdir -p "$ROOT/bin" "$ROOT/sub"
    [ -e "$ROOT/bin/sh" ] || cp "$sh_path" "$ROOT/bin/sh"
    echo "top of the new root" >"$ROOT/marker"
    echo "sub of the new root" >"$ROOT/sub/marker"
}

# Start sleep with the environment "env -i VAR=VALUE..." in new namespaces
# (util-linux unshare OPTIONS...); its PID is TARGET.  Usage:
# start_target_with_env "unshare options" VAR=VALUE...
start_target_with_env() {
    local options=$1
    shift
    # shellcheck disable=SC2086 # the options are words
    unshare_here $options
    env -i "$@" "${UNSHARE_HERE[@]}" /bin/sleep 600 2>/dev/null &
    TARGET=$!
    TEST_PIDS+=("$TARGET")
    wait_for_exec "$TARGET" sleep
}

# What PROGRAM prints of its /proc/self/status: "Gid=GID" then "Groups=LIST" (space-separated).
GROUPS_OF_PROGRAM='awk '"'"'/^Gid:/ {print "Gid=" $2} /^Groups:/ {$1 = ""; sub(/^ +/, ""); print "Groups=" $0}'"'"' /proc/self/status'
