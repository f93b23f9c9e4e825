#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Which container a namespace is (list's CGROUP and CONTAINER), and
# container:NAME targets: real processes moved into cgroups of each runtime's
# shape, named by state files of the shape the real runtimes write
# (tests/fixtures/containers), the files in a mount namespace of the test's own.

load helpers
load hardening

setup() {
    TMP=$(mktemp -d)
    MARK=nsctl-containers-$$-$BATS_TEST_NUMBER
    MADE_CGROUPS=()
    MOUNTS_BEFORE=$(own_mount_table)
}

teardown() {
    local d
    cleanup_pids
    # The cgroups this test made, deepest first; a cgroup someone else made stays.
    for d in "${MADE_CGROUPS[@]+"${MADE_CGROUPS[@]}"}"; do
        rmdir "$d" 2>/dev/null || true
    done
    rm -rf "$TMP"
    [ "$(own_mount_table)" = "$MOUNTS_BEFORE" ]
}

# 64 hex digits, as the runtimes' IDs are.
random_id() {
    head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n'
}

# Make the cgroup v2 directory REL (below the cgroup2 mount), noting each
# directory this test made; CG names it.  Skips where there is none to make.
make_runtime_cgroup() {
    local rel=$1 base dir part
    base=$(awk '$3 == "cgroup2" {print $2; exit}' /proc/self/mounts)
    [ -n "$base" ] || skip "no cgroup v2 hierarchy mounted"
    dir=$base
    IFS=/ read -ra parts <<<"${rel#/}"
    for part in "${parts[@]}"; do
        dir=$dir/$part
        [ -d "$dir" ] && continue
        mkdir "$dir" 2>/dev/null || skip "cannot make a cgroup v2 directory here ($dir)"
        MADE_CGROUPS=("$dir" "${MADE_CGROUPS[@]+"${MADE_CGROUPS[@]}"}")
    done
    CG=$dir
}

# A sleeper in a new uts namespace whose hostname is $1, moved into cgroup CG; TARGET.
start_in_cgroup() {
    start_target --uts sh -c "hostname $1; exec sleep 600"
    echo "$TARGET" 2>/dev/null >"$CG/cgroup.procs" ||
        skip "cannot move a process into a cgroup v2 directory here ($CG)"
}

# The v2 path of PID's cgroup, as the kernel shows it: the witness of CGROUP.
v2_path() {
    sed -n 's/^0:://p' "/proc/$1/cgroup"
}

@test "containers: a process in lxc's cgroup is lxc:NAME in list (table, -J, -Q, the default columns), and enter, compare and pin reach it" {
    require_root
    make_runtime_cgroup "lxc.payload.$MARK"
    start_in_cgroup "in-$MARK"
    uts=$(ns_inode "$TARGET" uts)
    run "$NSCTL" list -r --noheadings -o NS,CONTAINER,CGROUP -Q "NS == $uts"
    [ "$status" -eq 0 ]
    [ "$output" = "$uts lxc:$MARK $(v2_path "$TARGET")" ]
    # CONTAINER joins the default columns, before COMMAND.
    run "$NSCTL" list -t uts
    [[ ${lines[0]} =~ ^\ *NS\ TYPE\ +NPROCS\ +PID\ USER\ +CONTAINER\ +COMMAND$ ]]
    run "$NSCTL" list -J -o NS,CONTAINER -Q "CONTAINER == \"lxc:$MARK\""
    [ "$(echo "$output" | jq -r '.namespaces[] | "\(.ns) \(.container)"')" = "$uts lxc:$MARK" ]
    # The hostname seen inside, as the container's own.
    run "$NSCTL" enter "container:$MARK" hostname
    [ "$status" -eq 0 ]
    [ "$output" = "in-$MARK" ]
    run "$NSCTL" enter -u "container:lxc:$MARK" hostname
    [ "$output" = "in-$MARK" ]
    run "$NSCTL" compare -r --noheadings -u "container:$MARK" "$TARGET"
    [ "$status" -eq 0 ]
    run "$NSCTL" compare -q -u "container:$MARK" $$
    [ "$status" -eq 1 ]
    run "$NSCTL" pin --uts "container:$MARK" "$TMP/uts"
    [ "$status" -eq 0 ]
    [ "$(stat -L -c %i "$TMP/uts")" = "$uts" ]
    "$NSCTL" unpin "$TMP/uts"
}

@test "containers: docker's and podman's cgroups, named from their state files" {
    require_root
    local docker_id podman_id
    docker_id=$(random_id)
    podman_id=$(random_id)
    make_runtime_cgroup "docker/$docker_id"
    start_in_cgroup "d-$MARK"
    docker_pid=$TARGET
    make_runtime_cgroup "libpod_parent/libpod-$podman_id"
    start_in_cgroup "p-$MARK"
    podman_pid=$TARGET
    # No state: the runtime and the ID's first 12 digits.
    run "$NSCTL" list -r --noheadings -o CONTAINER --task "$docker_pid" -t uts
    [ "$output" = "docker:${docker_id:0:12}" ]
    # The runtimes' files, of the shapes docker.io 20.10 and podman 4.3 wrote
    # (tests/fixtures/containers), where they keep them, seen in a mount
    # namespace of this test's own.
    mkdir -p "$TMP/lib/docker/containers/$docker_id" "$TMP/lib/containers/storage/overlay-containers"
    jq --arg id "$docker_id" --arg name "/web-$MARK" '.ID = $id | .Name = $name' \
        "$NSCTL_TOP/tests/fixtures/containers/docker/config.v2.json" \
        >"$TMP/lib/docker/containers/$docker_id/config.v2.json"
    jq --arg id "$podman_id" --arg name "web-$MARK" '.[0].id = $id | .[0].names = [$name]' \
        "$NSCTL_TOP/tests/fixtures/containers/podman/containers.json" \
        >"$TMP/lib/containers/storage/overlay-containers/containers.json"
    chmod 0600 "$TMP/lib/docker/containers/$docker_id/config.v2.json"
    # shellcheck disable=SC2016 # expanded by the inner shell
    run private_mount_ns sh -c 'mount --bind "$1" /var/lib && shift && "$@"' sh "$TMP/lib" \
        "$NSCTL" list -r --noheadings -o PID,CONTAINER -t uts -Q 'CONTAINER =~ "web-"'
    [ "$status" -eq 0 ]
    [ "$output" = "$(printf '%s\n' "$docker_pid docker:web-$MARK" "$podman_pid podman:web-$MARK" | sort -n)" ]
    run private_mount_ns sh -c 'mount --bind "$1" /var/lib && shift && "$@"' sh "$TMP/lib" \
        "$NSCTL" enter "container:docker:web-$MARK" hostname
    [ "$output" = "d-$MARK" ]
    run private_mount_ns sh -c 'mount --bind "$1" /var/lib && shift && "$@"' sh "$TMP/lib" \
        "$NSCTL" enter "container:web-$MARK" hostname
    # Both are named web-MARK by their runtimes: the bare name is refused, both listed.
    [ "$status" -eq 125 ]
    [[ $output == *"several containers are so named: "*"docker:web-$MARK"*"podman:web-$MARK"* ]]
}

@test "containers: a container by 4 or more hex digits of its ID; an ambiguous prefix is refused, listing the candidates" {
    require_root
    local a b
    a=abcd$(random_id)
    a=${a:0:64}
    b=abcd$(random_id)
    b=${b:0:64}
    make_runtime_cgroup "docker/$a"
    start_in_cgroup "a-$MARK"
    make_runtime_cgroup "docker/$b"
    start_in_cgroup "b-$MARK"
    run "$NSCTL" enter "container:${a:0:8}" hostname
    [ "$status" -eq 0 ]
    [ "$output" = "a-$MARK" ]
    run "$NSCTL" enter "container:docker:${b:0:12}" hostname
    [ "$output" = "b-$MARK" ]
    run "$NSCTL" enter container:abcd hostname
    [ "$status" -eq 125 ]
    [[ $output == *"container:abcd: several containers are so named: "* ]]
    [[ $output == *"docker:${a:0:12}"* && $output == *"docker:${b:0:12}"* ]]
    # Three digits are a name, and no container has it.
    run "$NSCTL" enter container:abc hostname
    [ "$status" -eq 125 ]
    [[ $output == *"container:abc: no such container"* ]]
    run "$NSCTL" compare container:abc $$
    [ "$status" -eq 2 ]
    run "$NSCTL" pin --uts container:abc "$TMP/x"
    [ "$status" -eq 1 ]
    [ ! -e "$TMP/x" ]
}

@test "containers: what nsctl does not believe: another user's state file, one others may write, a symlink, a FIFO (no wait), bad JSON; a root runtime's shape in a user's own cgroups" {
    require_root
    local id fifo_id
    id=$(random_id)
    make_runtime_cgroup "docker/$id"
    start_in_cgroup "x-$MARK"
    pid=$TARGET
    dir=$TMP/lib/docker/containers/$id
    mkdir -p "$dir"
    printf '{"ID": "%s", "Name": "/trusted-%s"}\n' "$id" "$MARK" >"$TMP/good.json"
    in_state() {
        # shellcheck disable=SC2016 # expanded by the inner shell
        timeout 20 unshare --mount --propagation private sh -c \
            'mount --bind "$1" /var/lib && shift && "$@"' sh "$TMP/lib" \
            "$NSCTL" list -r --noheadings -o CONTAINER --task "$pid" -t uts
    }
    cp "$TMP/good.json" "$dir/config.v2.json"
    run in_state
    [ "$output" = "docker:trusted-$MARK" ]
    # Each of these shows the ID instead, at once.
    chown 65534 "$dir/config.v2.json"
    run in_state
    [ "$output" = "docker:${id:0:12}" ]
    chown 0 "$dir/config.v2.json"
    chmod 0620 "$dir/config.v2.json"
    run in_state
    [ "$output" = "docker:${id:0:12}" ]
    rm "$dir/config.v2.json"
    ln -s "$TMP/good.json" "$dir/config.v2.json"
    run in_state
    [ "$output" = "docker:${id:0:12}" ]
    rm "$dir/config.v2.json"
    mkfifo -m 0600 "$dir/config.v2.json"
    run in_state
    [ "$status" -eq 0 ]
    [ "$output" = "docker:${id:0:12}" ]
    rm "$dir/config.v2.json"
    printf '{"ID": "%s", "Name": "/tr\\u001b]0;x\\u0007"}' "$id" >"$dir/config.v2.json"
    run in_state
    [ "$output" = "docker:${id:0:12}" ]
    printf '{"ID": "%s", "Name": ' "$id" >"$dir/config.v2.json"
    run in_state
    [ "$output" = "docker:${id:0:12}" ]
    # Below user@UID.service a user names its own cgroups: docker's shape there is no container.
    fifo_id=$(random_id)
    make_runtime_cgroup "$MARK/user@65534.service/docker-$fifo_id.scope"
    start_in_cgroup "u-$MARK"
    run "$NSCTL" list -r --noheadings -o CONTAINER --task "$TARGET" -t uts
    [ "$status" -eq 0 ]
    [ "$output" = "" ]
    run "$NSCTL" enter "container:${fifo_id:0:12}" true
    [ "$status" -eq 125 ]
    [[ $output == *"no such container"* ]]
}

@test "containers: bad container targets are refused before anything is opened" {
    run "$NSCTL" enter container: true
    [ "$status" -eq 125 ]
    [[ $output == *"'container:': no container named"* ]]
    run "$NSCTL" compare container: $$
    [ "$status" -eq 2 ]
    run "$NSCTL" pin container:web "$TMP/x"
    [ "$status" -eq 2 ]
    [[ $output == *"which namespaces of container:web? Give type options"* ]]
    [ ! -e "$TMP/x" ]
}

@test "containers: --help, the man pages and completion know container:NAME and the columns" {
    for sub in enter pin compare; do
        "$NSCTL" "$sub" --help | grep -q 'container:NAME'
        grep -q 'container:' "$NSCTL_TOP/man/nsctl-$sub.1"
    done
    "$NSCTL" list -H | grep -q '^CONTAINER '
    "$NSCTL" list -H | grep -q '^CGROUP '
    grep -q 'CONTAINER' "$NSCTL_TOP/man/nsctl-list.1"
    grep -q '_nsctl_container_complete' "$NSCTL_TOP/completions/nsctl"
    grep -q '_nsctl_containers' "$NSCTL_TOP/completions/_nsctl"
}

@test "containers: two users' rootless containers of one ID are two: an ID prefix is refused as ambiguous, podman@UID:ID is the one asked for, whoever has the lower PID" {
    require_root
    local id
    id=$(random_id)
    # The attacker's first, so that its PID is the lower.
    make_runtime_cgroup "$MARK/user@1001.service/user.slice/libpod-$id.scope"
    start_in_cgroup "mallory-$MARK"
    mallory=$TARGET
    make_runtime_cgroup "$MARK/user@1000.service/user.slice/libpod-$id.scope"
    start_in_cgroup "bob-$MARK"
    bob=$TARGET
    run "$NSCTL" list -r --noheadings -o PID,CONTAINER -t uts -Q "CONTAINER =~ \"${id:0:12}\""
    [ "$output" = "$(printf '%s\n' "$mallory podman@1001:${id:0:12}" "$bob podman@1000:${id:0:12}" | sort -n)" ]
    run "$NSCTL" enter "container:${id:0:12}" hostname
    [ "$status" -eq 125 ]
    [[ $output == *"several containers are so named: "* ]]
    [[ $output == *"podman@1000:${id:0:12}"* && $output == *"podman@1001:${id:0:12}"* ]]
    run "$NSCTL" enter "container:podman@1000:${id:0:12}" hostname
    [ "$status" -eq 0 ]
    [ "$output" = "bob-$MARK" ]
}

@test "containers: the outermost container owns a process: a tenant's nested shapes are its own container's; a VM's machine scope and a name with ':' are none" {
    require_root
    local id
    id=$(random_id)
    make_runtime_cgroup "lxc.payload.$MARK/docker/$id"
    start_in_cgroup "tenant-$MARK"
    tenant=$TARGET
    mkdir -p "$TMP/lib/docker/containers/$id"
    printf '{"ID": "%s", "Name": "/prod-%s"}\n' "$id" "$MARK" >"$TMP/lib/docker/containers/$id/config.v2.json"
    # shellcheck disable=SC2016 # expanded by the inner shell
    run private_mount_ns sh -c 'mount --bind "$1" /var/lib && shift && "$@"' sh "$TMP/lib" \
        "$NSCTL" list -r --noheadings -o CONTAINER --task "$tenant" -t uts
    [ "$output" = "lxc:$MARK" ]
    make_runtime_cgroup "machine-vm$MARK.scope/libvirt/emulator"
    start_in_cgroup "vm-$MARK"
    run "$NSCTL" list -r --noheadings -o CONTAINER --task "$TARGET" -t uts
    [ "$output" = "" ]
    make_runtime_cgroup "machine-box$MARK.scope/payload"
    start_in_cgroup "box-$MARK"
    run "$NSCTL" list -r --noheadings -o CONTAINER --task "$TARGET" -t uts
    [ "$output" = "nspawn:box$MARK" ]
    make_runtime_cgroup "lxc.payload.a:$MARK"
    start_in_cgroup "colon-$MARK"
    run "$NSCTL" list -r --noheadings -o CONTAINER --task "$TARGET" -t uts
    [ "$output" = "" ]
}

@test "containers: a rootless podman container is named from its user's own state, read as that user, and only for that user's own cgroups" {
    require_root
    local id uid=61234
    id=$(random_id)
    make_runtime_cgroup "$MARK/user@$uid.service/user.slice/libpod-$id.scope"
    start_in_cgroup "rl-$MARK"
    rl=$TARGET
    # A user of the test's own, seen through a passwd of the test's mount namespace.
    chmod 0755 "$TMP"
    home=$TMP/home
    store=$home/.local/share/containers/storage/overlay-containers
    mkdir -p "$store"
    { cat /etc/passwd; echo "nsctl-rl:x:$uid:$uid::$home:/bin/sh"; } >"$TMP/passwd"
    jq --arg id "$id" --arg name "web-$MARK" '.[0].id = $id | .[0].names = [$name]' \
        "$NSCTL_TOP/tests/fixtures/containers/podman-rootless/containers.json" >"$store/containers.json"
    chown -R "$uid:$uid" "$home"
    in_userns() {
        # shellcheck disable=SC2016 # expanded by the inner shell
        timeout 20 unshare --mount --propagation private sh -c \
            'mount --bind "$1" /etc/passwd && shift && "$@"' sh "$TMP/passwd" "$@"
    }
    run in_userns "$NSCTL" list -r --noheadings -o CONTAINER --task "$rl" -t uts
    [ "$status" -eq 0 ]
    [ "$output" = "podman@$uid:web-$MARK" ]
    run in_userns "$NSCTL" enter "container:podman@$uid:web-$MARK" hostname
    [ "$output" = "rl-$MARK" ]
    # Not the user's own file, or one others may write: not believed.
    chown 0 "$store/containers.json"
    run in_userns "$NSCTL" list -r --noheadings -o CONTAINER --task "$rl" -t uts
    [ "$output" = "podman@$uid:${id:0:12}" ]
    chown "$uid" "$store/containers.json"
    chmod 0666 "$store/containers.json"
    run in_userns "$NSCTL" list -r --noheadings -o CONTAINER --task "$rl" -t uts
    [ "$output" = "podman@$uid:${id:0:12}" ]
    # Read as the user: a directory the user cannot enter hides it, root's rights notwithstanding.
    chmod 0644 "$store/containers.json"
    chown 0 "$home/.local"
    chmod 0700 "$home/.local"
    run in_userns "$NSCTL" list -r --noheadings -o CONTAINER --task "$rl" -t uts
    [ "$output" = "podman@$uid:${id:0:12}" ]
    chown "$uid" "$home/.local"
    # A FIFO there makes nothing wait.
    rm "$store/containers.json"
    mkfifo -m 0600 "$store/containers.json"
    chown "$uid" "$store/containers.json"
    run in_userns "$NSCTL" list -r --noheadings -o CONTAINER --task "$rl" -t uts
    [ "$status" -eq 0 ]
    [ "$output" = "podman@$uid:${id:0:12}" ]
}
