#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# What a reader finds: libnsctl(3) documents the whole API and points to the
# examples; bash completion offers types, PIDs, pin names and list columns;
# README.md and docs/ document the design in the repository itself.

load helpers

teardown() {
    cleanup_pids
    [ -n "${PIN:-}" ] && "$NSCTL" unpin "$PIN" 2>/dev/null
    true
}

@test "libnsctl(3) documents every function of nsctl.h and every exported symbol" {
    page=$NSCTL_TOP/man/libnsctl.3
    lib=$(readlink -f "$NSCTL_BUILD/libnsctl.so")
    missing=""
    for f in $(grep -oE '\bnsctl_[a-z_]+\(' "$NSCTL_TOP/include/nsctl.h" | tr -d '(' | sort -u) \
        $(nm -D --defined-only "$lib" | awk '$2 == "T" {print $3}' | sed 's/@.*//'); do
        grep -qE "\\b$f\\b" "$page" || missing+=" $f"
    done
    echo "not in libnsctl.3:$missing"
    [ -z "$missing" ]
}

@test "libnsctl(3) and nsctl(1) render cleanly; EXAMPLES names every program of examples/" {
    for page in "$NSCTL_TOP/man/libnsctl.3" "$NSCTL_TOP/man/nsctl.1"; do
        [ -z "$(groff -man -ww -z "$page" 2>&1)" ]
    done
    examples=$(sed -n '/^\.SH EXAMPLES/,/^\.SH /p' "$NSCTL_TOP/man/libnsctl.3")
    for src in "$NSCTL_TOP"/examples/*.c; do
        echo "$examples" | grep -qF "${src##*/}"
    done
}

@test "completion: list -o offers exactly the columns nsctl list -H describes" {
    columns=$("$NSCTL" list -H | awk '{print $1}' | sort)
    [ -n "$columns" ]
    run complete_words nsctl list -o ""
    [ "$(echo "$output" | sort)" = "$columns" ]
    run complete_words nsctl list --output NS,NP
    [ "$output" = "NS,NPROCS" ]
    # "+LIST" adds to the default columns.
    run complete_words nsctl list -o +NET
    [ "$output" = "+NETNSID" ]
    run complete_words nsctl list -o PID,P
    echo "$output" | grep -qx "PID,PPID"
    echo "$output" | grep -qx "PID,PNS"
    echo "$output" | grep -qx "PID,PATH"
}

@test "completion: list -Q completes the expression's last word with columns and operators" {
    run complete_words nsctl list -Q NPR
    [ "$output" = "NPROCS" ]
    run complete_words nsctl list --filter "'NPROCS == 0 && TY"
    [ "$output" = "'NPROCS == 0 && TYPE" ]
    run complete_words nsctl list -Q "'TYPE ="
    echo "$output" | grep -qx "'TYPE =="
    echo "$output" | grep -qx "'TYPE =~"
}

@test "completion: types after -t and the type options, for every subcommand that takes them" {
    for cmd in compare list pin; do
        run complete_words nsctl "$cmd" -t ""
        for t in cgroup ipc mnt net pid time user uts all; do
            echo "$output" | grep -qx "$t"
        done
    done
    for cmd in compare enter list pin run unshare; do
        run complete_words nsctl "$cmd" --ut
        [ "$output" = "--uts" ]
        run complete_words nsctl "$cmd" --mou
        echo "$output" | grep -qx -- "--mount"
    done
}

@test "completion: PIDs where a process is named, commands where PROGRAM is" {
    for words in "compare" "compare $$" "pin" "enter" "list --task"; do
        run complete_words nsctl $words "$$"
        echo "$words: $output"
        echo "$output" | grep -qx "$$"
    done
    run complete_words nsctl run -u --hostname h ba
    echo "$output" | grep -qx bash
    run complete_words nsctl unshare -m -- ba
    echo "$output" | grep -qx bash
    run complete_words nsctl enter "$$" ba
    echo "$output" | grep -qx bash
}

@test "completion: pin names of /run/nsctl/TYPE for unpin and enter" {
    require_root
    unshare --uts sleep 600 &
    TEST_PIDS+=($!)
    wait_for_exec $! sleep
    name=nsctl-docs-complete-$$
    "$NSCTL" pin --uts $! "$name"
    PIN=$name
    [ -e "/run/nsctl/uts/$name" ]
    run complete_words nsctl unpin nsctl-docs-complete-
    [ "$output" = "$name" ]
    run complete_words nsctl enter nsctl-docs-complete-
    [ "$output" = "$name" ]
}

@test "completion: every option it offers is one the subcommand's --help lists" {
    for cmd in $("$NSCTL" --help | awk '/^Subcommands:/{on=1; next} on && NF==0 {exit} on {print $1}'); do
        help=$("$NSCTL" "$cmd" --help)
        run complete_words nsctl "$cmd" -
        [ -n "$output" ]
        for opt in $output; do
            opt=${opt%=}
            echo "$cmd $opt"
            echo "$help" | grep -qE -- "(^|[ ,])$opt([ =[,]|$)"
        done
    done
}

@test "README: exactly two commands to run, make demo and make check, both Makefile targets" {
    commands=$(awk '/^```sh/{on=1; next} /^```/{on=0} on && /^make /{print $1, $2}' "$NSCTL_TOP/README.md")
    [ "$commands" = "make demo
make check" ]
    grep -q '^demo: ' "$NSCTL_TOP/Makefile"
    grep -q '^check:' "$NSCTL_TOP/Makefile"
}

@test "tests: no assertion is a bare '! COMMAND', which bats never fails on" {
    # Under "set -e" a negated command's status is ignored: "! grep x f" passes
    # whatever grep finds.  A negation must end in "|| false" (or use "run !").
    run grep -nE '^[[:space:]]*! ' "$NSCTL_TOP"/tests/cli/*.bats "$NSCTL_TOP"/tests/cli/*.bash
    bare=$(printf '%s\n' "$output" | grep -vE '\|\| false$' || true)
    [ -z "$bare" ] || { echo "bare negations: $bare" >&2; false; }
    # The rule itself holds: a bare negation of a command that succeeds passes.
    bash -ec '! true; echo reached' | grep -qx reached
}

@test "tests: no assertion is '[ A ] && [ B ]', of which bats judges only B" {
    # Under "set -e" only the last command of an && list can end the test:
    # "[ 1 = 2 ] && [ 1 = 1 ]" passes.  One assertion a line (a list whose
    # status is used, continuing the line before, is no assertion).
    local chained='/^[[:space:]]*\[\[? .*\]\]? && \[\[? .*\]\]?[[:space:]]*$/ && prev !~ /(&&|\|\||\|)[[:space:]]*$/ {
        print FILENAME ":" FNR ": " $0
    }
    { prev = $0 }'
    run awk "$chained" "$NSCTL_TOP"/tests/cli/*.bats "$NSCTL_TOP"/tests/cli/*.bash
    [ -z "$output" ] || { echo "chained assertions: $output" >&2; false; }
    # The rule itself holds, and the check sees such a line.
    bash -ec '[ 1 = 2 ] && [ 1 = 1 ]; echo reached' | grep -qx reached
    printf '%s\n' '@test "x" {' '    [ -n "$a" ] && [ -z "$b" ]' '}' >"$BATS_TEST_TMPDIR/chained.bats"
    run awk "$chained" "$BATS_TEST_TMPDIR/chained.bats"
    [ -n "$output" ]
}

@test "tests: no assertion is made a no-op by a leading ':'" {
    # ": [ 1 = 2 ]" is the null command with arguments: it always succeeds.
    run grep -nE '^[[:space:]]*:[[:space:]]+\[' "$NSCTL_TOP"/tests/cli/*.bats "$NSCTL_TOP"/tests/cli/*.bash
    [ -z "$output" ] || { echo "no-op assertions: $output" >&2; false; }
    # The rule itself holds, and the check sees such a line.
    bash -ec ': [ 1 = 2 ]; echo reached' | grep -qx reached
    printf '%s\n' '@test "x" {' '    : [ "$a" = "$b" ]' '}' >"$BATS_TEST_TMPDIR/noop.bats"
    run grep -nE '^[[:space:]]*:[[:space:]]+\[' "$BATS_TEST_TMPDIR/noop.bats"
    [ -n "$output" ]
}

@test "README and docs/: every link leads to a file of the repository, and none leaves it" {
    cd "$NSCTL_TOP"
    bad=""
    for doc in README.md docs/*.md fuzz/README.md; do
        dir=$(dirname "$doc")
        # Markdown links [text](target), anchors dropped.
        for target in $(grep -oE '\]\([^)]+\)' "$doc" | sed 's/^](//; s/)$//; s/#.*//'); do
            [ -n "$target" ] || continue
            case $target in
                *://* | /*) bad+=" $doc:$target" ;;
                *) [ -e "$dir/$target" ] || bad+=" $doc:$target" ;;
            esac
        done
        # No address of the web, and no path of this machine outside the tree.
        grep -qE 'https?://' "$doc" && bad+=" $doc:(a URL)"
        grep -qE '(^|[ `(])/(home|root|work|tmp)/' "$doc" && bad+=" $doc:(a path of this machine)"
    done
    echo "links that leave the repository or lead nowhere:$bad"
    [ -z "$bad" ]
}

@test "docs: README links docs/DESIGN.md and docs/ARCHITECTURE.md; every relative link resolves" {
    grep -qF '](docs/DESIGN.md)' "$NSCTL_TOP/README.md"
    grep -qF '](docs/ARCHITECTURE.md)' "$NSCTL_TOP/README.md"
    broken=""
    for md in "$NSCTL_TOP/README.md" "$NSCTL_TOP"/docs/*.md "$NSCTL_TOP/fuzz/README.md"; do
        dir=$(dirname "$md")
        # [text](target) links that are neither URLs nor anchors in the same file.
        for target in $(grep -oE '\]\([^)#[:space:]]+' "$md" | sed 's/^](//' | grep -vE '^[a-z]+:'); do
            [ -e "$dir/$target" ] || broken+=" ${md#"$NSCTL_TOP"/}->$target"
        done
    done
    echo "broken links:$broken"
    [ -z "$broken" ]
}

@test "docs: the repository documents itself: nothing points to a directory outside it" {
    # The design lives in docs/DESIGN.md; no file may send a reader to a
    # place only the team's machines have (../shared, /work/shared).
    cd "$NSCTL_TOP"
    run -1 grep -rInE '(\.\./shared|/work/shared)' --exclude-dir='build*' --exclude-dir=.git \
        --exclude=docs.bats .
    echo "$output"
    [ -z "$output" ]
}

@test "docs: DESIGN.md's synopsis and exit statuses are the command's" {
    design=$NSCTL_TOP/docs/DESIGN.md
    # Every subcommand nsctl --help lists has its synopsis line, and no other.
    listed=$("$NSCTL" --help | awk '/^Subcommands:/ {on = 1; next} on && /^  [a-z]/ {print $1} on && /^$/ {on = 0}' | sort)
    [ "$(echo "$listed" | wc -l)" -ge 7 ]
    documented=$(grep -E '^nsctl [a-z]+ +(\[|[A-Z])' "$design" | awk '{print $2}' | sort -u)
    [ "$listed" = "$documented" ]
    # The statuses of run, unshare and enter, as src/cli.h numbers them.
    for name in EXIT_EXEC_FAILED EXIT_CANNOT_EXECUTE EXIT_NOT_FOUND; do
        n=$(sed -n "s/^[[:space:]]*$name = \([0-9]*\),.*/\1/p" "$NSCTL_TOP/src/cli.h")
        [ -n "$n" ]
        grep -qE "^\| $n \|" "$design"
    done
    # A usage error's last line, as DESIGN.md quotes it.
    run -2 "$NSCTL" list --bogus
    [ "${lines[-1]}" = "Try 'nsctl list --help'." ]
    grep -qF "Try 'nsctl SUBCOMMAND --help'." "$design"
}
