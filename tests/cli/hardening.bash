# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the hardening tests: older kernels, hostile process state, bad input.
# Each helper takes a whole command line, so a subcommand joins a test with one line.

TOOLS=$NSCTL_BUILD/tests/tools

# LeakSanitizer cannot work under ptrace (strace), nor in a process that is not
# dumpable (set-group-ID): there, in the sanitizer build, leaks are not looked for.
NO_LSAN="ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0"

# Every newer interface nsctl has a fallback for, taken away as on an older kernel.
EVERY_FALLBACK=(-s pidfd -s clone3 -s close_range -s newmount -s waitid-pidfd -s setns-pidfd
    -i pidfd-ns -i NS_GET_ID -i NS_GET_NSTYPE -s nsfs-handles)

# The same as mount_table (helpers.bash), which already keeps to what a test
# can have made: kept for the tests that name it.
own_mount_table() {
    mount_table
}

# A sleeper in a new PID namespace (util-linux unshare OPTIONS... --pid --fork); its PID
# (the sleeper's, not unshare's) is TARGET.
start_pid_ns_target() {
    local i
    unshare "$@" --pid --fork --kill-child sleep 600 &
    TEST_PIDS+=("$!")
    for i in $(seq 200); do
        TARGET=$(cat "/proc/$!/task/$!/children" 2>/dev/null) && [ -n "$TARGET" ] && break
        sleep 0.01
    done
    TARGET=${TARGET% }
    wait_for_exec "$TARGET" sleep
}

# old_kernel [-s SYSCALL[:ERRNO]]... [-i IOCTL[:ERRNO]]... -- COMMAND...
old_kernel() {
    "$TOOLS/seccomp-deny" "$@"
}

# The subcommands nsctl --help lists.
subcommands() {
    "$NSCTL" --help | awk '/^Subcommands:/{on=1; next} on && NF==0 {exit} on {print $1}'
}

# What a subcommand exits with when nsctl itself fails (docs/DESIGN.md).
failure_status() {
    case $1 in
        run | unshare | enter) echo 125 ;;
        compare) echo 2 ;;
        *) echo 1 ;;
    esac
}

# Run COMMAND... (bats "run" style: $status, $output) with fds 0, 1 and 2 closed,
# under strace; then fail if nsctl wrote to fd 1 or 2 while that fd was a file it
# had opened itself (anything but /dev/null), the hazard of a closed 0-2.
run_with_closed_std_fds() {
    local trace=$BATS_TEST_TMPDIR/closed-fds.trace
    run env "$NO_LSAN" strace -f -qq -o "$trace" -e trace=%desc,%file,write,writev -- \
        sh -c 'exec "$@" <&- >&- 2>&-' sh "$@"
    check_writes_to_std_fds "$trace"
}

check_writes_to_std_fds() {
    local trace=$1 line started="" fd call pid
    local -A owner=() program=() unfinished=()
    while IFS= read -r line; do
        # strace pads the PID to five columns: "752   execve(...", "12345 execve(...".
        pid=${line%% *}
        line=${line#"$pid"}
        line=${line#"${line%%[! ]*}"}
        # nsctl's exec starts the check; after any other exec a process is PROGRAM's
        # (or the wrapper's), whose files are not nsctl's business.
        # strace splits a call another process interrupts: "<unfinished ...>", then
        # "<... NAME resumed>": joined again here.
        case $line in
            *" <unfinished ...>")
                unfinished[$pid]=${line% <unfinished ...>}
                continue
                ;;
            "<... "*" resumed>"*) line=${unfinished[$pid]:-}${line#*resumed>} ;;
        esac
        case $line in
            execve\(*" = 0")
                if [[ "$line" =~ ^execve\(\"([^\"]*/)?nsctl\" ]]; then
                    started=1
                    owner=()
                    unset "program[$pid]"
                else
                    program[$pid]=1
                fi
                continue
                ;;
        esac
        [ -n "$started" ] && [ -z "${program[$pid]:-}" ] || continue
        if [[ "$line" =~ ^(openat|open|openat2|pidfd_open|socket|dup|fcntl|signalfd4|memfd_create|open_tree|fsmount|fsopen|pidfd_getfd|ioctl)\(.*\)\ =\ ([0-9]+)$ ]]; then
            call=${BASH_REMATCH[1]} fd=${BASH_REMATCH[2]}
            # Only calls that make an fd: an ioctl or fcntl returning 0 made nothing.
            case $call in ioctl | fcntl) [[ "$line" == *F_DUPFD* || "$line" == *0xff* ]] || continue ;; esac
            # (an "if", not "&&": a false test as the loop's last command would fail it)
            if [ "$fd" -le 2 ]; then owner[$fd]=$line; fi
        elif [[ "$line" =~ ^close\(([0-9]+)\) ]]; then
            unset "owner[${BASH_REMATCH[1]}]"
        elif [[ "$line" =~ ^(write|writev)\(([12]), ]]; then
            fd=${BASH_REMATCH[2]}
            if [ -n "${owner[$fd]:-}" ] && [[ "${owner[$fd]}" != *'"/dev/null"'* ]]; then
                echo "wrote to fd $fd, which was: ${owner[$fd]}" >&2
                return 1
            fi
            if [ -z "${owner[$fd]:-}" ]; then
                echo "wrote to fd $fd, closed at start and never reopened" >&2
                return 1
            fi
        fi
    done <"$trace"
    if [ -z "$started" ]; then
        echo "no exec of nsctl in the trace; status $status, output: $output; the trace:" >&2
        head -20 "$trace" >&2
        return 2
    fi
}

# Run PROGRAM with argc == 0 (an empty argv), and an environment whose first string
# reads as an option, as argv[1] would on a kernel before 5.18.
run_with_empty_argv() {
    run env -i -- --help=1 "$TOOLS/exec-empty-argv" "$1"
}

# Run COMMAND... as a careless caller would: SIGCHLD ignored, the usual signals blocked.
run_with_hostile_signals() {
    run env --ignore-signal=CHLD --block-signal=HUP,INT,QUIT,TERM,USR1,USR2,CHLD,PIPE,ALRM "$@"
}

# Run COMMAND... under umask 077, traced: print the umask() calls it made, if any.
run_with_umask_077() {
    local trace=$BATS_TEST_TMPDIR/umask.trace
    run env "$NO_LSAN" sh -c 'umask 077; exec strace -f -qq -o "$0" -e trace=umask -- "$@"' "$trace" "$@"
    UMASK_CALLS=$(grep -c 'umask(' "$trace" || true)
}

# A copy of nsctl with the set-user-ID (u) or set-group-ID (g) bit, owned by root,
# in a directory an unprivileged user can reach.  Sets SETID_NSCTL.
# Run it with: run as_nobody env "$NO_LSAN" "$SETID_NSCTL" ...
make_setid_copy() {
    local dir
    dir=$(mktemp -d)
    chmod 755 "$dir"
    cp "$NSCTL" "$dir/nsctl"
    chown root:root "$dir/nsctl"
    chmod "$1+s" "$dir/nsctl"
    SETID_NSCTL=$dir/nsctl
}

remove_setid_copy() {
    [ -n "${SETID_NSCTL:-}" ] && rm -rf "$(dirname "$SETID_NSCTL")"
    SETID_NSCTL=
}
