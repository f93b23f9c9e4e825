# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers of pidns.bats: nsctl run inside a new PID namespace, with its own
# /proc, with the host's /proc, or with none.

# SCRIPT in a new PID namespace as its PID 1 (sh), with WHERE for /proc:
# "own" (mounted for the namespace), "host" (the one it inherits, another
# namespace's) or "none".  When PID 1 ends, the kernel kills every process of
# the namespace: nothing is left behind.  Bounded by a timeout.
in_pid_namespace() {
    local where=$1 script=$2
    shift 2
    case $where in
        own)
            unshare_here --pid --fork --mount-proc
            timeout 30 "${UNSHARE_HERE[@]}" sh -c "$script" sh "$@"
            ;;
        host)
            # LeakSanitizer looks for the process under its own number in this
            # /proc, where that number is another process's: it must be told off.
            local asan=${ASAN_OPTIONS:-}
            ldd "$NSCTL" | grep -q libasan && asan=${asan:+$asan:}detect_leaks=0
            ASAN_OPTIONS=$asan timeout 30 unshare --pid --fork sh -c "$script" sh "$@"
            ;;
        none) without_proc timeout 30 unshare --pid --fork sh -c "$script" sh "$@" ;;
    esac
}

# A kernel thread that lives as long as the machine (PF_KTHREAD in the flags of
# /proc/PID/stat, read only; never signalled): sets KTHREAD.
find_long_lived_kernel_thread() {
    local stat rest comm flags pid
    KTHREAD=
    for stat in /proc/[0-9]*/stat; do
        rest=$(cat "$stat" 2>/dev/null) || continue
        comm=${rest#*(}
        comm=${comm%)*}
        case $comm in
            kthreadd | ksoftirqd/* | migration/* | cpuhp/* | kswapd*) ;;
            *) continue ;;
        esac
        flags=$(echo "${rest##*) }" | awk '{print $7}')
        [ -n "$flags" ] && [ $((flags & 0x00200000)) -ne 0 ] || continue
        pid=${stat#/proc/}
        KTHREAD=${pid%/stat}
        return 0
    done
    skip "no kernel thread is visible in this PID namespace (a container's), and none can be made"
}
