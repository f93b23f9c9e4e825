#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Every newer kernel interface nsctl uses has a fallback.  Each is taken away
# here with a seccomp filter (tests/tools/seccomp-deny: ENOSYS, or ENOTTY for an
# ioctl, as an older kernel answers), and the results must still agree with /proc.

load helpers
load hardening
load socket-holder

setup() {
    TMP=$(mktemp -d)
    NAME=nsctl-old-$$-$BATS_TEST_NUMBER
    MOUNTS_BEFORE=$(own_mount_table)
    CGROUP=
}

teardown() {
    cleanup_pids
    # A cgroup a test made: its killed target leaves it a moment later.
    if [ -n "$CGROUP" ]; then
        for _ in $(seq 200); do rmdir "$CGROUP" 2>/dev/null && break; sleep 0.01; done
        [ ! -d "$CGROUP" ] || echo "cgroup $CGROUP left behind" >&2
    fi
    # Whatever a failed test left pinned: our own names only.
    for f in "$TMP"/* /run/netns/$NAME /run/nsctl/*/$NAME; do
        [ -e "$f" ] || continue
        umount -l "$f" 2>/dev/null
        rm -f "$f"
    done
    rm -rf "$TMP"
    [ "$(own_mount_table)" = "$MOUNTS_BEFORE" ]
}

# Each newer interface taken away alone (with the errno an older kernel or a
# seccomp profile gives), then all at once: "run_on_old_kernels CHECK" calls
# CHECK with the seccomp-deny options of each.  setns-pidfd: the library tries
# setns(pidfd, types) whenever it holds a pidfd, and on any error but ESRCH and
# ENOMEM opens each /proc/PID/ns file and joins one by one; the checks join
# several types at once, which the filter tells from a namespace fd's setns.
ONE_AT_A_TIME=("-s clone3" "-s pidfd_open" "-s pidfd" "-s pidfd_open:EPERM" "-s setns-pidfd"
    "-s close_range" "-s close_range:EINVAL" "-s open_tree" "-s move_mount" "-s fsopen"
    "-s fsconfig" "-s fsmount" "-s mount_setattr" "-s newmount" "-i NS_GET_ID"
    "-i NS_GET_ID:EINVAL" "-i pidfd-ns" "-i NS_GET_NSTYPE" "-s waitid-pidfd")
run_on_old_kernels() {
    local check=$1 denial
    for denial in "${ONE_AT_A_TIME[@]}"; do
        # (word splitting wanted: "-s clone3" is two arguments)
        $check $denial
    done
    $check "${EVERY_FALLBACK[@]}"
}

# The inodes of PID's namespaces of TYPES, as "type:[inode]" lines in that order.
ns_links() {
    local pid=$1 t
    shift
    for t in "$@"; do readlink "/proc/$pid/ns/$t"; done
}

NS_TYPES=(cgroup ipc mnt net pid time user uts)

# Compare $$ with TARGET (raw, no headings) under a filter, and check every row
# against the inodes /proc shows.  $1...: seccomp-deny options.
compare_agrees_with_proc() {
    run old_kernel "$@" -- "$NSCTL" compare -r --noheadings $$ "$TARGET"
    echo "$output"
    [ "$status" -eq 1 ]
    [ "$(echo "$output" | wc -l)" -eq 8 ]
    for t in cgroup ipc mnt net pid time user uts; do
        a=$(ns_inode $$ $t) b=$(ns_inode "$TARGET" $t)
        if [ "$a" = "$b" ]; then want=same; else want=different; fi
        echo "$output" | grep -E "^$t $a $b [0-9]* ?[0-9]* ?$want$"
    done
}

@test "older kernels: the filter really denies, and says so" {
    run old_kernel -s pidfd_open -- perl -e 'syscall(434, $$, 0); print $! + 0'
    [ "$status" -eq 0 ]
    [ "$output" = 38 ] # ENOSYS
    run old_kernel -s no_such_call -- true
    [ "$status" -eq 2 ]
    run "$TOOLS/seccomp-deny" --list
    [[ "$output" == *"-s clone3"* && "$output" == *"-i NS_GET_ID"* ]]
}

@test "older kernels: compare without pidfd_open (before 5.3) agrees with /proc" {
    require_root
    start_target --uts --ipc
    compare_agrees_with_proc -s pidfd_open
    # A container's seccomp profile may answer EPERM instead: the same fallback.
    compare_agrees_with_proc -s pidfd_open:EPERM
}

@test "older kernels: pidfd_open without pidfd_send_signal (a seccomp profile) still works" {
    require_root
    start_target --uts
    compare_agrees_with_proc -s pidfd_send_signal
    dead=$(dead_pid)
    run old_kernel -s pidfd_send_signal -- "$NSCTL" compare $$ "$dead"
    [ "$status" -eq 2 ]
    [[ "$output" == *"PID $dead: no such process"* ]]
    run old_kernel -s pidfd_send_signal -- "$NSCTL_BUILD"/tests/unit/test-supervise
    echo "$output" | grep '^not ok' || true
    [ "$status" -eq 0 ]
}

@test "older kernels: compare without the pidfd namespace ioctls (before 6.11) agrees with /proc" {
    require_root
    start_target --net --mount
    compare_agrees_with_proc -i pidfd-ns
    compare_agrees_with_proc -i pidfd-ns:EINVAL
    compare_agrees_with_proc -i pidfd-ns:EOPNOTSUPP
}

@test "older kernels: compare without NS_GET_ID (before 6.18) leaves the ID columns empty" {
    require_root
    start_target --uts
    compare_agrees_with_proc -i NS_GET_ID:EINVAL
    compare_agrees_with_proc -i NS_GET_ID
    ! echo "$output" | grep -E '^[a-z]+ [0-9]+ [0-9]+ [0-9]' || false
    run old_kernel -i NS_GET_ID -- "$NSCTL" compare -J $$ "$TARGET"
    [ "$(echo "$output" | jq -r '[.compare[]."a-id"] | unique | .[]')" = null ]
    [ "$(echo "$output" | jq -r '.compare[] | select(.type == "uts") | .result')" = different ]
}

@test "older kernels: id:ID without namespace file handles (before 6.18) says so; PIDs still work" {
    require_root
    start_target --uts --net
    id=$(ns_id "/proc/$TARGET/ns/uts")
    want="id:$id: this kernel cannot open a namespace by its ID (that needs namespace file handles, Linux 6.18); name it by a PID or a file"
    # Before 6.18 FD_NSFS_ROOT is a bad fd (EBADF); a filter may deny the call (ENOSYS);
    # before 6.9 a caller without CAP_DAC_READ_SEARCH is refused first (EPERM), and nsfs
    # makes no handles (EOPNOTSUPP).
    for denial in "-s nsfs-handles" "-s open_by_handle_at" "-s open_by_handle_at:ENOSYS" \
        "-s open_by_handle_at:EOPNOTSUPP" "-s open_by_handle_at:EPERM -s name_to_handle_at"; do
        echo "--- $denial"
        run old_kernel $denial -- "$NSCTL" enter "id:$id" touch "$TMP/ran"
        echo "$output"
        [ "$status" -eq 125 ]
        [ "$output" = "nsctl: enter: $want" ]
        [ ! -e "$TMP/ran" ]
        run old_kernel $denial -- "$NSCTL" compare "id:$id" "$TARGET"
        [ "$status" -eq 2 ]
        [ "$output" = "nsctl: compare: $want" ]
        run old_kernel $denial -- "$NSCTL" pin "id:$id" "$TMP/pin"
        [ "$status" -eq 1 ]
        [ "$output" = "nsctl: pin: $want" ]
        [ ! -e "$TMP/pin" ]
        # The same namespace by its PID or file, under the same filter.
        run old_kernel $denial -- "$NSCTL" enter --uts "$TARGET" stat -L -c %i /proc/self/ns/uts
        [ "$status" -eq 0 ]
        [ "$output" = "$(ns_inode "$TARGET" uts)" ]
        run old_kernel $denial -- "$NSCTL" compare -q "/proc/$TARGET/ns/uts" "$TARGET"
        [ "$status" -eq 0 ]
    done
    # On 6.18 itself EPERM is the kernel's refusal, and is said so.
    run old_kernel -s open_by_handle_at:EPERM -- "$NSCTL" enter "id:$id" true
    [ "$status" -eq 125 ]
    [[ $output == *"id:$id: opening a namespace by ID needs to be in it, or CAP_SYS_ADMIN in the user namespace that owns it: Operation not permitted" ]]
    # And an ordinary user is told the same about the kernel.
    own=$(ns_id /proc/self/ns/net)
    run as_nobody "$TOOLS/seccomp-deny" -s nsfs-handles -- "$NSCTL" compare "id:$own" $$
    [ "$status" -eq 2 ]
    [ "$output" = "nsctl: compare: id:$own: this kernel cannot open a namespace by its ID (that needs namespace file handles, Linux 6.18); name it by a PID or a file" ]
}

@test "older kernels: enter --net-socket without pidfd_getfd (before 5.6) says so; --net still works" {
    require_root
    start_socket_holder
    for denial in "-s pidfd_getfd" "-s pidfd"; do
        echo "--- $denial"
        run old_kernel $denial -- "$NSCTL" enter -N "$SOCKET_FD" "$TARGET" touch "$TMP/ran"
        echo "$output"
        [ "$status" -eq 125 ]
        [ "$output" = "nsctl: enter: --net-socket $SOCKET_FD: this kernel cannot copy another process's fd (that needs pidfds and pidfd_getfd, Linux 5.6)" ]
        [ ! -e "$TMP/ran" ]
        # The process's own network namespace, under the same filter.
        run old_kernel $denial -- "$NSCTL" enter --net "$TARGET" stat -L -c %i /proc/self/ns/net
        [ "$status" -eq 0 ]
        [ "$output" = "$(ns_inode "$TARGET" net)" ]
    done
}

@test "older kernels: without NS_GET_NSTYPE (before 4.11) a file's type comes from its link" {
    require_root
    start_target --uts
    compare_agrees_with_proc -i NS_GET_NSTYPE:EINVAL
    compare_agrees_with_proc -i NS_GET_NSTYPE
    run old_kernel -i NS_GET_NSTYPE -- "$NSCTL" compare "/proc/$$/ns/uts" "/proc/$TARGET/ns/uts"
    [ "$status" -eq 1 ]
    echo "$output" | grep -E "^uts +$(ns_inode $$ uts) +$(ns_inode "$TARGET" uts) .*different$"
    run old_kernel -i NS_GET_NSTYPE -- "$NSCTL" compare "/proc/$$/ns/net" "/proc/$$/ns/uts"
    [ "$status" -eq 2 ]
    [[ "$output" == *"is a net namespace"*"a uts namespace"* ]]
    run old_kernel -i NS_GET_NSTYPE -- "$NSCTL" compare $$ /dev/null
    [ "$status" -eq 2 ]
    [[ "$output" == *"/dev/null: not a namespace file"* ]]
}

@test "older kernels: compare with every fallback at once agrees with /proc" {
    require_root
    start_target --uts --net --ipc --mount --cgroup
    compare_agrees_with_proc "${EVERY_FALLBACK[@]}"
}

@test "older kernels: without close_range (before 5.9), or its CLOEXEC flag (5.9, 5.10), fds are still limited" {
    run old_kernel -s close_range -- "$TOOLS/fds-keep-only" --expect-no-close-range
    echo "$output"
    [ "$status" -eq 0 ]
    [ "$output" = ok ]
    run old_kernel -s close_range:EINVAL -- "$TOOLS/fds-keep-only"
    [ "$status" -eq 0 ]
    [ "$output" = ok ]
    run "$TOOLS/fds-keep-only"
    [ "$status" -eq 0 ]
}

@test "older kernels: every unit test passes with every fallback forced" {
    for t in "$NSCTL_BUILD"/tests/unit/test-types "$NSCTL_BUILD"/tests/unit/test-fds \
        "$NSCTL_BUILD"/tests/unit/test-process "$NSCTL_BUILD"/tests/unit/test-supervise; do
        run old_kernel "${EVERY_FALLBACK[@]}" -- "$t"
        echo "$t: $status"
        echo "$output" | grep '^not ok' || true
        [ "$status" -eq 0 ]
    done
    # test-ns also checks NS_GET_USERNS/PARENT/OWNER_UID, which have no fallback: keep them.
    run old_kernel -s pidfd -s close_range -i pidfd-ns -i NS_GET_ID -i NS_GET_NSTYPE -- \
        "$NSCTL_BUILD"/tests/unit/test-ns
    echo "$output" | grep '^not ok' || true
    [ "$status" -eq 0 ]
}

@test "older kernels: supervision without waitid(P_PIDFD) (5.3) reaps by PID" {
    run old_kernel -s waitid-pidfd -- "$NSCTL_BUILD"/tests/unit/test-supervise
    echo "$output" | grep '^not ok' || true
    [ "$status" -eq 0 ]
}

# (PROGRAM lists its fds first, on stdout: a shell keeps fds of its own for redirections.)
# run: new namespaces of every type, a hostname, lo, a clock offset, proc, a pin,
# the exit status and no inherited fd, all checked through /proc from outside and in.
check_run() {
    echo "--- run under: $*"
    local out=$TMP/run.out
    run old_kernel "$@" -- "$NSCTL" run -C -i -n -T -U -r -p --mount-proc --hostname "old-$$" \
        --loopback --boottime 86400 --uts="$TMP/uts" -- sh -c '
        ls -v /proc/$$/fd
        for t in cgroup ipc mnt net pid time user uts; do readlink /proc/self/ns/$t; done >"$1"
        hostname >>"$1"; echo "pid $$" >>"$1"
        cat /sys/class/net/lo/operstate >>"$1"
        echo "uptime $(cut -d. -f1 /proc/uptime)" >>"$1"
        exit 3' sh "$out" 7</dev/null
    cat "$out"
    [ "$status" -eq 3 ]
    # Every namespace is new: none is one of ours.
    for t in "${NS_TYPES[@]}"; do
        ! grep -qx "$(readlink /proc/$$/ns/$t)" "$out" || false
    done
    [ "$(sed -n 9p "$out")" = "old-$$" ]
    [ "$(sed -n 10p "$out")" = "pid 1" ]
    [ "$(echo $output)" = "0 1 2" ]
    [ "$(sed -n 11p "$out")" != down ]
    [ "$(sed -n 12p "$out" | cut -d' ' -f2)" -ge 86400 ]
    # The pin holds the uts namespace PROGRAM was in; unpin removes it.
    [ "uts:[$(stat -c %i "$TMP/uts")]" = "$(sed -n 8p "$out")" ]
    run old_kernel "$@" -- "$NSCTL" unpin "$TMP/uts"
    [ "$status" -eq 0 ]
    [ ! -e "$TMP/uts" ]
    [ "$(hostname)" != "old-$$" ]
}

@test "older kernels: run makes every namespace right with each fallback, and with all" {
    require_root
    require_userns
    run_on_old_kernels check_run
}

# unshare: the same, for the caller itself (its new pid namespace is its children's).
check_unshare() {
    echo "--- unshare under: $*"
    local out=$TMP/unshare.out
    run old_kernel "$@" -- "$NSCTL" unshare -C -n -T -U -r -m -u --hostname "old-$$" \
        --ipc="$TMP/ipc" -- sh -c '
        ls -v /proc/$$/fd
        for t in cgroup ipc mnt net time_for_children user uts; do readlink /proc/self/ns/$t; done >"$1"
        hostname >>"$1"
        exit 4' sh "$out" 7</dev/null
    cat "$out"
    [ "$status" -eq 4 ]
    for t in cgroup ipc mnt net time user uts; do
        ! grep -qx "$(readlink /proc/$$/ns/$t)" "$out" || false
    done
    [ "$(sed -n 8p "$out")" = "old-$$" ]
    [ "$(echo $output)" = "0 1 2" ]
    [ "ipc:[$(stat -c %i "$TMP/ipc")]" = "$(sed -n 2p "$out")" ]
    run old_kernel "$@" -- "$NSCTL" unpin "$TMP/ipc"
    [ "$status" -eq 0 ]
    [ ! -e "$TMP/ipc" ]
}

@test "older kernels: unshare makes every namespace right with each fallback, and with all" {
    require_root
    require_userns
    run_on_old_kernels check_unshare
}

# enter: by PID (all that differ: the pidfd way, several types at once), then by type.
check_enter() {
    echo "--- enter under: $*"
    want=$(ns_links "$TARGET" "${NS_TYPES[@]}")
    run old_kernel "$@" -- "$NSCTL" enter "$TARGET" sh -c \
        'for t in cgroup ipc mnt net pid time user uts; do readlink /proc/self/ns/$t; done' 7</dev/null
    echo "$output"
    [ "$status" -eq 0 ]
    # /proc/self is the host's /proc seen from the target's mount namespace: the target's.
    [ "$output" = "$want" ]
    run old_kernel "$@" -- "$NSCTL" enter -u -n -i "$TARGET" sh -c \
        'readlink /proc/self/ns/uts /proc/self/ns/net /proc/self/ns/ipc; ls /proc/self/fd | tr "\n" " "' 7</dev/null
    [ "$status" -eq 0 ]
    [ "$output" = "$(ns_links "$TARGET" uts net ipc)"$'\n'"0 1 2 3 " ]
    run old_kernel "$@" -- "$NSCTL" enter "$TARGET" sh -c 'exit 5'
    [ "$status" -eq 5 ]
}

@test "older kernels: enter joins the target's namespaces with each fallback, and with all" {
    require_root
    require_userns
    start_pid_ns_target --user --map-root-user --uts --ipc --net --mount --cgroup --time
    run_on_old_kernels check_enter
}

# enter --target-caps (the target's sets read through its process handle) and
# --join-cgroup, under the filters given.
check_target_caps() {
    echo "--- enter --target-caps --join-cgroup under: $*"
    run old_kernel "$@" -- "$NSCTL" enter --target-caps --join-cgroup "$TARGET" \
        sh -c 'grep -E "^(Cap(Inh|Prm|Eff|Bnd|Amb)|NoNewPrivs):" /proc/self/status; grep "^0::" /proc/self/cgroup'
    echo "$output"
    [ "$status" -eq 0 ]
    [ "$output" = "$(grep -E '^(Cap(Inh|Prm|Eff|Bnd|Amb)|NoNewPrivs):' "/proc/$TARGET/status"; grep '^0::' "/proc/$TARGET/cgroup")" ]
}

@test "older kernels: enter --target-caps and --join-cgroup with each fallback, and with all" {
    require_root
    local v2
    v2=$(findmnt -n -o TARGET -t cgroup2 | head -n 1)
    [ -n "$v2" ] || skip "no cgroup v2 mounted"
    CGROUP=$v2/$NAME
    mkdir "$CGROUP"
    # no_new_privs as seccomp-deny gives it to nsctl: a set that can be taken on.
    unshare --uts setpriv --no-new-privs --bounding-set -all,+chown,+net_raw --inh-caps -all,+net_raw sleep 600 &
    TARGET=$!
    TEST_PIDS+=("$TARGET")
    wait_for_exec "$TARGET" sleep
    echo "$TARGET" >"$CGROUP/cgroup.procs"
    run_on_old_kernels check_target_caps
}

# pin: one type at a path, several at a NAME; enter through the pin; unpin.
check_pin() {
    echo "--- pin under: $*"
    run old_kernel "$@" -- "$NSCTL" pin -u "$TARGET" "$TMP/uts"
    echo "$output"
    [ "$status" -eq 0 ]
    [ "$(stat -c %i "$TMP/uts")" = "$(ns_inode "$TARGET" uts)" ]
    run old_kernel "$@" -- "$NSCTL" pin -t net,ipc,mnt "$TARGET" "$NAME"
    echo "$output"
    [ "$status" -eq 0 ]
    [ "$(stat -c %i "/run/netns/$NAME")" = "$(ns_inode "$TARGET" net)" ]
    [ "$(stat -c %i "/run/nsctl/ipc/$NAME")" = "$(ns_inode "$TARGET" ipc)" ]
    [ "$(stat -c %i "/run/nsctl/mnt/$NAME")" = "$(ns_inode "$TARGET" mnt)" ]
    run old_kernel "$@" -- "$NSCTL" enter "$NAME" readlink /proc/self/ns/net
    echo "$output"
    [ "$output" = "$(readlink "/proc/$TARGET/ns/net")" ]
    run old_kernel "$@" -- "$NSCTL" enter "$TMP/uts" readlink /proc/self/ns/uts
    [ "$output" = "$(readlink "/proc/$TARGET/ns/uts")" ]
    run old_kernel "$@" -- "$NSCTL" unpin "$NAME" "$TMP/uts"
    [ "$status" -eq 0 ]
    [ ! -e "/run/netns/$NAME" ]
    [ ! -e "/run/nsctl/mnt/$NAME" ]
    [ ! -e "$TMP/uts" ]
}

@test "older kernels: pin and unpin with each fallback, and with all" {
    require_root
    start_target --uts --net --ipc --mount
    run_on_old_kernels check_pin
}

# list: every namespace of the target, as /proc has them; a namespace held by a pin only.
check_list() {
    echo "--- list under: $*"
    run old_kernel "$@" -- "$NSCTL" list --task "$TARGET" -r --noheadings -o TYPE,NS
    echo "$output"
    [ "$status" -eq 0 ]
    for t in "${NS_TYPES[@]}"; do
        echo "$output" | grep -qx "$t $(ns_inode "$TARGET" $t)"
    done
    run old_kernel "$@" -- "$NSCTL" list -P -r --noheadings -o NS,TYPE,NSFS --uts
    echo "$output"
    [ "$status" -eq 0 ]
    echo "$output" | grep -qx "$PINNED uts $TMP/uts"
    run old_kernel "$@" -- "$NSCTL" list -J -o NS,ID --uts -Q "NS == $PINNED"
    [ "$status" -eq 0 ]
    id=$(echo "$output" | jq -r '.namespaces[0].id')
    case " $* " in
        *" NS_GET_ID"* | *" -i NS_GET_ID "*) [ "$id" = null ] ;;
        *) [ "$id" != null ] ;;
    esac
}

@test "older kernels: list agrees with /proc with each fallback, and with all" {
    require_root
    require_userns
    # A uts namespace with no process left, held by a pin only.
    start_target --uts
    "$NSCTL" pin -u "$TARGET" "$TMP/uts"
    PINNED=$(stat -c %i "$TMP/uts")
    cleanup_pids
    start_target --uts --net --ipc --mount --cgroup --time --user
    run_on_old_kernels check_list
    "$NSCTL" unpin "$TMP/uts"
}

@test "without /proc: enter and compare find the namespaces through pidfds (6.11), or say they cannot" {
    require_root
    start_target --uts --net
    nsenter -t "$TARGET" -u hostname "$NAME" # util-linux, the witness
    uts_in=$(ns_inode "$TARGET" uts) uts_out=$(ns_inode $$ uts)
    inside='hostname; ip -o link | wc -l'
    # Every type that differs: told apart through a pidfd's namespace ioctls.
    run --separate-stderr without_proc "$NSCTL" enter "$TARGET" sh -c "$inside"
    echo "$output $stderr"
    [ "$status" -eq 0 ]
    [ "$output" = "$NAME"$'\n'1 ] # the target's hostname, and its lone lo
    run --separate-stderr without_proc "$NSCTL" compare -r --noheadings $$ "$TARGET"
    echo "$output $stderr"
    [ "$status" -eq 1 ]
    echo "$output" | grep -E "^uts $uts_out $uts_in .*different$"
    echo "$output" | grep -E "^ipc ([0-9]+) \1 .*same$"
    # Nor those ioctls (before 6.11): nobody can tell which types differ.  A clear
    # error, where joining nothing and running PROGRAM would look like success.
    run --separate-stderr without_proc "$TOOLS/seccomp-deny" -i pidfd-ns -- "$NSCTL" enter "$TARGET" hostname
    echo "$output $stderr"
    [ "$status" -eq 125 ]
    [[ "$stderr" == *"nsctl: enter: cannot tell which namespace types this kernel has"* ]]
    [ -z "$output" ]
    run --separate-stderr without_proc "$TOOLS/seccomp-deny" -i pidfd-ns -- "$NSCTL" compare $$ "$TARGET"
    [ "$status" -eq 2 ]
    [[ "$stderr" == *"nsctl: compare: cannot tell which namespace types this kernel has"* ]]
    # Types named: one setns() through the pidfd needs no /proc at all.
    run --separate-stderr without_proc "$TOOLS/seccomp-deny" -i pidfd-ns -- "$NSCTL" enter -u -n "$TARGET" sh -c "$inside"
    [ "$status" -eq 0 ]
    [ "$output" = "$NAME"$'\n'1 ]
}
