#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# zsh completion (completions/_nsctl): a completion function zsh's compinit
# takes for nsctl, offering each subcommand's options as its --help lists them,
# and the values and operands the bash completion offers.  Driven through
# tests/cli/zsh-complete.zsh, which prints what would be offered.

load helpers

setup() {
    command -v zsh >/dev/null || skip "no zsh here"
}

teardown() {
    cleanup_pids
    [ -n "${PIN:-}" ] && "$NSCTL" unpin "$PIN" 2>/dev/null
    true
}

offered() {
    zsh -f "$NSCTL_TOP/tests/cli/zsh-complete.zsh" "$NSCTL" "$NSCTL_TOP/completions/_nsctl" "$@"
}

@test "completion-zsh: compinit takes _nsctl for nsctl" {
    # -D: no dump file; HOME and ZDOTDIR a directory of the test's, should one be written.
    # (compinit -d FILE writes FILE by a rename over it, even with -D: never /dev/null.)
    local home
    home=$(mktemp -d)
    run env HOME="$home" ZDOTDIR="$home" zsh -f -c \
        'fpath=("$1" $fpath); autoload -U compinit; compinit -u -D; print -r -- ${_comps[nsctl]}' \
        zsh "$NSCTL_TOP/completions"
    rm -rf "$home"
    echo "$output"
    [ "$output" = _nsctl ]
    [ -c /dev/null ]
}

@test "completion-zsh: the subcommands, and each one's options exactly as its --help lists them" {
    run offered nsctl ""
    [ "$(echo "$output" | sort | tr '\n' ' ')" = "--help --version compare enter list pin run unpin unshare " ]
    for cmd in $("$NSCTL" --help | awk '/^Subcommands:/{on=1; next} on && NF==0 {exit} on {print $1}'); do
        # The options of the help's option lines (" -X, --name" or "     --name"), read here with grep.
        want=$("$NSCTL" "$cmd" --help | grep -E '^( -[A-Za-z], --|     --)[a-z]' |
            sed -E 's/^ +//; s/  .*//' | grep -oE -- '(^|, )-{1,2}[A-Za-z][a-z-]*' | sed 's/^, //' | sort -u)
        run offered nsctl "$cmd" -
        got=$(echo "$output" | sed 's/=$//' | sort -u)
        echo "$cmd: want $(echo $want); got $(echo $got)"
        [ -n "$got" ]
        [ "$got" = "$want" ]
    done
}

@test "completion-zsh: values: types, columns, follow and users, choices, directories" {
    run offered nsctl compare -t ""
    [ "$output" = "$(printf '%s\n' cgroup ipc mnt net pid time user uts all)" ]
    run offered nsctl list --type net,p
    [[ "$output" == *"net,pid"* ]]
    run offered nsctl list -o ""
    [ "$(echo "$output" | sort)" = "$("$NSCTL" list -H | awk 'NR > 0 {print $1}' | sort)" ]
    run offered nsctl enter -S ""
    [ "$output" = "$(printf '%s\n' follow '<users>')" ]
    run offered nsctl run -G ""
    [ "$output" = "<groups>" ]
    run offered nsctl unshare --setgroups ""
    [ "$output" = "$(printf '%s\n' allow deny)" ]
    run offered nsctl list --tree=p
    [ "$output" = "$(printf '%s\n' owner parent process)" ]
    run offered nsctl run --uts=
    [ "$output" = "<files>" ]
    run offered nsctl enter -W ""
    [ "$output" = "<directories>" ]
}

@test "completion-zsh: operands: a PID, a pin name or an id:ID for enter, then PROGRAM, then files" {
    sleep 600 &
    TEST_PIDS+=($!)
    run offered nsctl enter ""
    [[ $'\n'"$output"$'\n' == *$'\n'"$!"$'\n'* ]]
    [[ "$output" == *"id:$("$NSCTL" list --task $$ --uts -r --noheadings -o ID)"* ]]
    [[ "$output" == *"<files>"* ]]
    run offered nsctl enter -u "$!" ""
    [ "$output" = "<commands>" ]
    run offered nsctl enter -t "$!" ""
    [ "$output" = "<commands>" ]
    run offered nsctl enter "$!" hostname ""
    [ "$output" = "<files>" ]
    run offered nsctl unshare -u ""
    [ "$output" = "<commands>" ]
    run offered nsctl run --hostname x ""
    [ "$output" = "<commands>" ]
}

@test "completion-zsh: pin names of /run/nsctl/TYPE for unpin and enter" {
    require_root
    name=nsctl-zsh-complete-$$
    "$NSCTL" pin -u $$ "$name"
    PIN=$name
    run offered nsctl unpin ""
    [[ $'\n'"$output"$'\n' == *$'\n'"$name"$'\n'* ]]
    run offered nsctl enter ""
    [[ $'\n'"$output"$'\n' == *$'\n'"$name"$'\n'* ]]
}
