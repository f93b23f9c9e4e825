# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers of habits.bats: pins and netns this test made, removed by name, and the watched cwd.

# The working directory (setup's $TMP/cwd) holds nothing: no pin was made there by mistake.
no_stray_files() {
    local left
    left=$(ls -A "$TMP/cwd")
    [ -z "$left" ] || { echo "stray files in the cwd: $left" >&2; return 1; }
}

# Remove what the test recorded in PINS (paths) and NETNS (ip netns names).
habits_cleanup() {
    local pin name
    for pin in "${PINS[@]+"${PINS[@]}"}"; do
        umount "$pin" 2>/dev/null
        rm -f "$pin"
    done
    for name in "${NETNS[@]+"${NETNS[@]}"}"; do
        ip netns delete "$name" 2>/dev/null
    done
}
