# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers of habits.bats: pins and netns this test made, removed by name, and the watched cwd.

# The working directory (setup's $TMP/cwd) holds nothing: no pin was made there by mistake.
no_stray_files() {
    local left
    left=$(ls -A "$TMP/cwd")
    [ -z "$left" ] || { echo "stray files in the cwd: $left" >&2; return 1; }
}

# Remove what the test recorded in PINS (paths) and NETNS (ip netns names),
# and whatever is mounted under its $TMP (the stray pins of an older nsctl,
# "-Uru" pinned at ./ru), deepest first.
habits_cleanup() {
    local pin name
    awk -v tmp="$TMP/" 'index($5, tmp) == 1 { print $5 }' /proc/self/mountinfo | sort -r |
        while read -r pin; do umount "$pin" 2>/dev/null; done
    for pin in "${PINS[@]+"${PINS[@]}"}"; do
        umount "$pin" 2>/dev/null
        rm -f "$pin"
    done
    for name in "${NETNS[@]+"${NETNS[@]}"}"; do
        ip netns delete "$name" 2>/dev/null
    done
}

# A real user with subordinate ranges, made for one test: HABITS_USER, its uid
# and gid, and its first /etc/subuid and /etc/subgid ranges (SUBUID, SUBGID as START:COUNT).
make_subid_user() {
    HABITS_USER=nsh$$x$BATS_TEST_NUMBER
    useradd -M -N -s /usr/sbin/nologin -K SUB_UID_COUNT=0 -K SUB_GID_COUNT=0 "$HABITS_USER"
    HABITS_USER_MADE=1
    # Ranges of our own, named by the test, whatever login.defs gives by default.
    usermod --add-subuids 3100000-3165535 --add-subgids 3200000-3265535 "$HABITS_USER"
    HABITS_UID=$(id -u "$HABITS_USER")
    HABITS_GID=$(id -g "$HABITS_USER")
    SUBUID=$(awk -F: -v u="$HABITS_USER" '$1 == u { print $2 ":" $3; exit }' /etc/subuid)
    SUBGID=$(awk -F: -v u="$HABITS_USER" '$1 == u { print $2 ":" $3; exit }' /etc/subgid)
}

remove_subid_user() {
    [ -n "${HABITS_USER_MADE:-}" ] || return 0
    userdel "$HABITS_USER" 2>/dev/null
    # userdel removes its subordinate ranges where shadow was built to; make sure.
    sed -i "/^$HABITS_USER:/d" /etc/subuid /etc/subgid
    HABITS_USER_MADE=
}

# COMMAND... as HABITS_USER, for 10 seconds at most, with paths of the build as it can reach them.
as_habits_user() {
    local args=() a
    for a in "$@"; do
        args+=("$(reachable_path "$a")")
    done
    setpriv --reuid="$HABITS_UID" --regid="$HABITS_GID" --clear-groups timeout 10 "${args[@]}"
}

# /etc/netns/NAME made by a test, removed by it.
remove_etc_netns() {
    [ -n "${ETC_NETNS:-}" ] && rm -rf "/etc/netns/$ETC_NETNS"
    ETC_NETNS=
}
