#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The namespaces article's shell sessions, replayed with nsctl and the
# examples/ programs, one step at a time: each step says what it shows, runs
# it, and checks it (exit 1 at the first check that fails).  It leaves nothing
# behind, on success or failure: the processes it starts are killed by PID,
# its pin and its mount are removed, its files deleted.
#
# Usage: scripts/demo.sh [BUILD_DIR]   (as root; "make demo" builds and runs it)
set -eu
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
top=$(cd "$(dirname "$0")/.." && pwd)

step() {
	printf '\n== %s\n' "$1"
	shift
	printf '   %s\n' "$@"
}
# Run a command as the article shows it, after a root prompt.
show() {
	local arg line=""
	for arg in "$@"; do
		# Quoted as one would type it, where the shell would otherwise split or expand it.
		[[ $arg =~ ^[][A-Za-z0-9_./:=+,@%-]+$ ]] || arg="'${arg//\'/\'\\\'\'}'"
		line+="${line:+ }$arg"
	done
	printf '# %s\n' "$line"
	"$@"
}
check() {
	if eval "$1"; then
		echo "   ok: $2"
	else
		echo "   FAILED: $2" >&2
		exit 1
	fi
}
# Wait (at most 5 s) until the shell condition $1 holds.
wait_until() {
	local i
	for i in $(seq 250); do
		eval "$1" && return 0
		sleep 0.02
	done
	return 1
}

# The second half of the unshare step runs here, as the shell the article
# starts in a new mount namespace: "$0 --in-new-mount-namespace PID DIR".
if [ "${1:-}" = --in-new-mount-namespace ]; then
	other=$2 mq=$3
	show readlink /proc/$$/ns/mnt
	check '[ "$(readlink /proc/$$/ns/mnt)" != "$(readlink /proc/$other/ns/mnt)" ]' \
		"this shell's mount namespace is not that of the demo (PID $other)"
	show umount "$mq"
	show grep -c " $mq " /proc/$$/mounts || true
	check '! grep -q " $mq " /proc/$$/mounts' "$mq is gone from this mount namespace"
	show grep " $mq " /proc/$other/mounts
	check 'grep -q " $mq " /proc/$other/mounts' "and still there in the demo's (PID $other)"
	exit 0
fi

build=$(cd "${1:-$top/build}" && pwd)
# As the article runs them: "nsctl" from PATH, "./ns_exec" from the examples' directory.
export PATH=$build:$PATH
NSCTL=nsctl
EX=.
cd "$build/examples"

if [ "$(id -u)" -ne 0 ]; then
	echo "demo: it creates UTS and mount namespaces and pins one: run it as root" >&2
	exit 1
fi
for program in "$build/nsctl" "$EX/demo_uts_namespaces" "$EX/ns_exec" "$EX/unshare" \
	"$EX/pidfd_enter_all"; do
	[ -x "$program" ] || {
		echo "demo: $program is missing: run 'make demo'" >&2
		exit 1
	}
done

tmp=$(mktemp -d /tmp/nsctl-demo.XXXXXX)
pin=$tmp/uts
mq=""
mounted_mq=""
pids=()
cleanup() {
	local status=$? pid
	trap - EXIT INT TERM
	for pid in "${pids[@]+"${pids[@]}"}"; do kill -KILL "$pid" 2>/dev/null || true; done
	for pid in "${pids[@]+"${pids[@]}"}"; do wait "$pid" 2>/dev/null || true; done
	mountpoint -q "$pin" 2>/dev/null && umount "$pin"
	[ -n "$mounted_mq" ] && umount "$mounted_mq"
	rm -rf "$tmp"
	[ "$status" -eq 0 ] || echo "demo: failed (status $status); everything it made is removed" >&2
	exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

host=$(hostname)
step "1. A child in a new UTS namespace, with a hostname of its own" \
	"demo_uts_namespaces clones a child with CLONE_NEWUTS; the child sets its hostname," \
	"both print theirs.  The child then stays 100 s, to be looked at."
show uname -n
printf '# %s\n' "$EX/demo_uts_namespaces bizarro &"
"$EX/demo_uts_namespaces" bizarro >"$tmp/demo.out" &
parent=$!
pids+=("$parent")
wait_until '[ "$(grep -c nodename "$tmp/demo.out")" -eq 2 ]' || true
cat "$tmp/demo.out"
child=$(sed -n 's/^PID of child created by clone() is \([0-9]*\)$/\1/p' "$tmp/demo.out")
check '[ -n "$child" ]' "the parent printed the PID of its child: $child"
pids=("$child" "${pids[@]}")
check 'grep -qx "uts.nodename in child:  bizarro" "$tmp/demo.out"' "the child's hostname is bizarro"
check 'grep -qx "uts.nodename in parent: $host" "$tmp/demo.out"' "the parent's is still $host"
show nsenter --target "$child" --uts hostname
check '[ "$(nsenter --target "$child" --uts hostname)" = bizarro ]' \
	"util-linux nsenter, as a witness, sees bizarro in the child's namespace"
check '[ "$(hostname)" = "$host" ]' "and the host's hostname is unchanged: $host"
show "$NSCTL" run --uts --hostname bizarro-too hostname
check '[ "$("$NSCTL" run --uts --hostname bizarro-too hostname)" = bizarro-too ]' \
	"nsctl run does the same in one line"
check '[ "$(hostname)" = "$host" ]' "the host's hostname is still $host"

step "2. The two /proc/PID/ns/uts links differ" \
	"The kernel names a namespace by type and inode; two processes share one when those are equal."
show ls -l /proc/$$/ns
check '[ "$(LC_ALL=C ls /proc/$$/ns | tr "\n" " ")" = "cgroup ipc mnt net pid pid_for_children time time_for_children user uts " ]' \
	"one link per namespace type (pid and time also for children)"
show readlink /proc/$parent/ns/uts
show readlink /proc/$child/ns/uts
child_uts=$(readlink /proc/$child/ns/uts)
check '[ "$(readlink /proc/$parent/ns/uts)" != "$child_uts" ]' "the links differ"
show "$NSCTL" compare --uts "$parent" "$child" || true
check '"$NSCTL" compare -q --uts "$parent" "$child"; [ $? -eq 1 ]' \
	"nsctl compare says the UTS namespaces differ (exit 1)"
check '"$NSCTL" compare -q --net --mount "$parent" "$child"' \
	"and that their network and mount namespaces are the same (exit 0)"

step "3. A namespace pinned to a file outlives its last process" \
	"nsctl pin bind-mounts /proc/PID/ns/uts onto a file it creates, as the article's" \
	"'mount --bind' does; then the child, the namespace's only process, is killed."
show "$NSCTL" pin --uts "$child" "$pin"
show findmnt -n -o TARGET,FSTYPE,SOURCE "$pin"
check '[ "$(findmnt -n -o FSTYPE "$pin")" = nsfs ]' "util-linux findmnt sees an nsfs mount at $pin"
show kill "$child"
wait "$parent" 2>/dev/null || true
check '[ ! -e /proc/$child/ns/uts ] && [ ! -e /proc/$parent ]' \
	"the child and its parent are gone (the parent ended when its child did)"
pids=()
show stat -L -c 'inode %i' "$pin"
check '[ "uts:[$(stat -L -c %i "$pin")]" = "$child_uts" ]' "the pin still holds $child_uts"
show "$NSCTL" list --uts --persistent -o NS,NPROCS,PATH,NSFS
check '"$NSCTL" list --uts --persistent --raw --noheadings -o NS,NPROCS |
	grep -qx "$(stat -L -c %i "$pin") 0"' "nsctl list shows it, with 0 processes in it"

step "4. ns_exec joins the namespace through the pin" \
	"ns_exec opens the pinned file, setns() joins it, and the command run there sees its hostname."
show "$EX/ns_exec" "$pin" hostname
check '[ "$("$EX/ns_exec" "$pin" hostname)" = bizarro ]' "the hostname there is still bizarro"
show "$EX/ns_exec" "$pin" sh -c 'readlink /proc/$$/ns/uts'
check '[ "$("$EX/ns_exec" "$pin" sh -c "readlink /proc/\$\$/ns/uts")" = "$child_uts" ]' \
	"a shell run there is in $child_uts"
show "$NSCTL" enter "$pin" hostname
check '[ "$("$NSCTL" enter "$pin" hostname)" = bizarro ]' "nsctl enter does the same"
show "$NSCTL" unpin "$pin"
check '! mountpoint -q "$pin" && [ ! -e "$pin" ]' \
	"unpinned: the mount and its file are gone, and the namespace with them"

step "5. unshare -m: an unmount seen in one mount namespace and not in the other" \
	"unshare starts a shell in a new mount namespace (made private, so nothing" \
	"propagates back); the shell unmounts a file system the demo still sees."
if mountpoint -q /dev/mqueue; then
	mq=/dev/mqueue
else
	# No /dev/mqueue here (a fresh Debian has one): the demo mounts its own.
	mq=$tmp/mqueue
	mkdir "$mq"
	show mount -t mqueue nsctl-demo "$mq"
	mounted_mq=$mq
fi
# Its line of the mount table, mount ID included: the same mount must stay, untouched.
mq_before=$(grep " $mq " /proc/self/mountinfo)
show echo $$
show grep " $mq " /proc/$$/mounts
show readlink /proc/$$/ns/mnt
show "$EX/unshare" -m bash "$self" --in-new-mount-namespace $$ "$mq"
check 'grep -q " $mq " /proc/$$/mounts' "back in the demo's namespace, $mq is still mounted"
check '[ "$(grep " $mq " /proc/self/mountinfo)" = "$mq_before" ]' \
	"the very same mount (its line of /proc/self/mountinfo is unchanged)"
show "$NSCTL" unshare --mount sh -c "umount $mq; grep -c $mq /proc/self/mounts" || true
check 'grep -q " $mq " /proc/$$/mounts' "nsctl unshare does the same: $mq is still mounted here"

step "6. Beyond the article: every namespace of a process at once, through a pidfd" \
	"pidfd_enter_all opens a pidfd on the process and joins all the namespaces where it" \
	"differs in one setns(): a PID reused meanwhile cannot stand in for it."
printf '# %s\n' "$NSCTL unshare --uts --hostname pidfd-demo --ipc --net sleep 300 &"
"$NSCTL" unshare --uts --hostname pidfd-demo --ipc --net sleep 300 &
target=$!
pids+=("$target")
wait_until '[ "$(cat /proc/$target/comm 2>/dev/null)" = sleep ]'
show "$EX/pidfd_enter_all" "$target" sh -c 'hostname; readlink /proc/$$/ns/uts /proc/$$/ns/ipc /proc/$$/ns/net'
expected=$(echo pidfd-demo; readlink /proc/$target/ns/uts /proc/$target/ns/ipc /proc/$target/ns/net)
check '[ "$("$EX/pidfd_enter_all" "$target" sh -c "hostname; readlink /proc/\$\$/ns/uts /proc/\$\$/ns/ipc /proc/\$\$/ns/net")" = "$expected" ]' \
	"the command is in the target's UTS, IPC and network namespaces, all three"
show "$NSCTL" compare --uts --ipc --net $$ "$target" || true

echo
echo "demo complete: every step checked; nothing is left behind"
