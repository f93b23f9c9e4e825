#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# nsctl beside the real container runtimes, where they are installed and can
# run here: a container of a busybox root file system from the local disk (no
# registry), named for this test, then nsctl list and enter against podman
# inspect and podman exec, docker inspect and docker exec, lxc-info and
# lxc-attach.  Each runtime missing, or
# unable to run a container in this place, is a skip that says why.

load helpers

setup() {
    TMP=$(mktemp -d)
    NAME=nsctl-web-$$-$BATS_TEST_NUMBER
    PODMAN_MADE=
    LXC_MADE=
    DOCKER_MADE=
}

teardown() {
    if [ -n "$PODMAN_MADE" ]; then
        timeout 60 podman rm -f -t 0 "$NAME" >/dev/null 2>&1 || true
        timeout 60 podman rmi -f "localhost/$NAME" >/dev/null 2>&1 || true
    fi
    if [ -n "$DOCKER_MADE" ]; then
        timeout 60 docker rm -f "$NAME" >/dev/null 2>&1 || true
        timeout 60 docker rmi -f "nsctl-test/$NAME" >/dev/null 2>&1 || true
    fi
    if [ -n "$LXC_MADE" ]; then
        timeout 60 lxc-stop -k -n "$NAME" >/dev/null 2>&1 || true
        timeout 60 lxc-destroy -n "$NAME" >/dev/null 2>&1 || true
    fi
    rm -rf "$TMP"
}

# A root file system of busybox and its applets' links, in $TMP/rootfs.
make_busybox_rootfs() {
    local busybox applet
    busybox=$(command -v busybox) || skip "busybox is not installed (busybox-static)"
    ldd "$busybox" >/dev/null 2>&1 && skip "$busybox is not a static busybox (busybox-static)"
    mkdir -p "$TMP/rootfs/bin" "$TMP/rootfs/proc" "$TMP/rootfs/sys" "$TMP/rootfs/dev" \
        "$TMP/rootfs/etc" "$TMP/rootfs/tmp"
    cp "$busybox" "$TMP/rootfs/bin/busybox"
    for applet in sh sleep hostname cat; do
        ln -s busybox "$TMP/rootfs/bin/$applet"
    done
}

# Import $TMP/rootfs as IMAGE with CLI (podman or docker, which take the same
# words), then run container NAME of it (sleep 600, hostname h-N); its first
# process is PID.  Skips, saying why, where the runtime cannot do either here.
run_container() {
    local cli=$1 image=$2 err
    tar -C "$TMP/rootfs" -c . | timeout 120 "$cli" import - "$image" >/dev/null ||
        skip "$cli cannot import an image here"
    if ! err=$(timeout 120 "$cli" run -d --name "$NAME" --hostname "h-$BATS_TEST_NUMBER" \
        --network none "$image" sleep 600 2>&1); then
        skip "$cli cannot run a container here: $(echo "$err" | tail -n 1)"
    fi
    PID=$(timeout 60 "$cli" inspect -f '{{.State.Pid}}' "$NAME")
    [ "$PID" -gt 0 ]
}

# podman's settings for a host without systemd (the cgroupfs manager, runc, which
# takes a hybrid cgroup hierarchy as crun does not), in a file of the test's own.
podman_conf() {
    export CONTAINERS_CONF=$TMP/containers.conf
    {
        echo '[engine]'
        [ -d /run/systemd/system ] || echo 'cgroup_manager = "cgroupfs"'
        echo 'events_logger = "file"'
        command -v runc >/dev/null && echo 'runtime = "runc"'
        echo '[containers]'
        # Limits below this session's: podman's defaults (and the hard limits
        # themselves) are refused in some places ("error setting rlimit").
        echo 'default_ulimits = ["nofile=1024:1024", "nproc=4096:4096"]'
    } >"$CONTAINERS_CONF"
}

@test "runtimes: podman: list's CONTAINER against podman inspect, enter container:NAME against podman exec" {
    require_root
    command -v podman >/dev/null || skip "podman is not installed"
    make_busybox_rootfs
    podman_conf
    PODMAN_MADE=1
    run_container podman "localhost/$NAME"
    pid=$PID
    id=$(timeout 60 podman inspect -f '{{.Id}}' "$NAME")
    # Every namespace podman made for it is podman:NAME, at its PID and cgroup.
    run "$NSCTL" list -r --noheadings -o TYPE,PID,CONTAINER -Q "CONTAINER == \"podman:$NAME\""
    [ "$status" -eq 0 ]
    for type in mnt uts ipc pid; do
        echo "$output" | grep -qx "$type $pid podman:$NAME"
    done
    run "$NSCTL" list -r --noheadings -o NS,CGROUP --task "$pid" -t mnt
    [ "$output" = "$(ns_inode "$pid" mnt) $(sed -n 's/^0:://p' "/proc/$pid/cgroup")" ]
    [[ $output == *"$id"* ]]
    # enter, as podman exec: the same hostname, and the container's own processes.
    [ "$("$NSCTL" enter "container:$NAME" hostname)" = "$(timeout 60 podman exec "$NAME" hostname)" ]
    [ "$("$NSCTL" enter "container:podman:$NAME" hostname)" = "h-$BATS_TEST_NUMBER" ]
    # PID 1 as podman exec sees it: "sleep 600" where podman makes the
    # container a root and /proc of its own; in a chroot on Debian 13 (podman
    # 5, runc) the container gets neither, and podman exec sees the host's
    # PID 1 there, as nsctl enter must then too.
    pid1=$(timeout 60 podman exec "$NAME" cat /proc/1/cmdline | tr '\0' ' ')
    [ -n "$pid1" ]
    [ "$("$NSCTL" enter "container:${id:0:8}" cat /proc/1/cmdline | tr '\0' ' ')" = "$pid1" ]
    run "$NSCTL" compare -q "container:$NAME" "$pid"
    [ "$status" -eq 0 ]
}

@test "runtimes: lxc: list's CONTAINER against lxc-info, enter container:NAME against lxc-attach" {
    require_root
    command -v lxc-start >/dev/null || skip "lxc is not installed"
    make_busybox_rootfs
    cat >"$TMP/lxc.conf" <<CONF
lxc.net.0.type = empty
lxc.apparmor.profile = unconfined
lxc.uts.name = h-$BATS_TEST_NUMBER
lxc.init.cmd = /bin/sleep 600
lxc.mount.auto = proc:mixed sys:ro
lxc.rootfs.path = dir:$TMP/rootfs
CONF
    timeout 60 lxc-create -n "$NAME" -t none -f "$TMP/lxc.conf" >/dev/null 2>&1 ||
        skip "lxc-create cannot make a container here"
    LXC_MADE=1
    if ! err=$(timeout 60 lxc-start -n "$NAME" -d 2>&1); then
        skip "lxc cannot run a container here: $(echo "$err" | tail -n 1)"
    fi
    for i in $(seq 100); do
        pid=$(timeout 10 lxc-info -n "$NAME" -p -H 2>/dev/null)
        [ -n "$pid" ] && break
        sleep 0.05
    done
    [ -n "$pid" ]
    run "$NSCTL" list -r --noheadings -o PID,CONTAINER --task "$pid" -t uts
    [ "$output" = "$pid lxc:$NAME" ]
    [ "$("$NSCTL" enter "container:$NAME" hostname)" = "$(timeout 60 lxc-attach -n "$NAME" -- /bin/hostname)" ]
    [ "$("$NSCTL" enter "container:lxc:$NAME" hostname)" = "h-$BATS_TEST_NUMBER" ]
}

@test "runtimes: docker: list's CONTAINER against docker inspect, enter container:NAME against docker exec" {
    require_root
    command -v docker >/dev/null || skip "docker is not installed"
    timeout 20 docker info >/dev/null 2>&1 || skip "no docker daemon is running here"
    make_busybox_rootfs
    DOCKER_MADE=1
    run_container docker "nsctl-test/$NAME"
    pid=$PID
    run "$NSCTL" list -r --noheadings -o PID,CONTAINER --task "$pid" -t uts
    [ "$output" = "$pid docker:$NAME" ]
    [ "$("$NSCTL" enter "container:$NAME" hostname)" = "$(timeout 60 docker exec "$NAME" hostname)" ]
    [ "$("$NSCTL" enter "container:docker:$NAME" hostname)" = "h-$BATS_TEST_NUMBER" ]
}
