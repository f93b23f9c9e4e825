#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The rules docs/ARCHITECTURE.md states about the code itself, each checked
# here so that breaking one fails: one place starts a process, and no
# assembly.

load helpers

# The shipped C sources: the library, the command, the examples (bench/ and
# tests/ measure and provoke the bare system calls on purpose).
shipped_sources() {
    find "$NSCTL_TOP/lib" "$NSCTL_TOP/src" "$NSCTL_TOP/examples" "$NSCTL_TOP/include" \
        -name '*.[ch]' | sort
}

# FILE without its comments (the compiler's own reading) and the text of its
# string and character literals.
code_of() {
    gcc -fpreprocessed -dD -E -P "$1" |
        sed -E 's/"([^"\\]|\\.)*"/""/g; s/'"'"'([^'"'"'\\]|\\.)*'"'"'/0/g'
}

# Where FILE starts a process other than through process_start(): "FILE: LINE" lines.
starts_in() {
    code_of "$1" | grep -nE '(^|[^A-Za-z0-9_])(fork|vfork|_Fork|clone|clone3|posix_spawnp?|pidfd_spawnp?|syscall[[:space:]]*\([[:space:]]*(SYS|__NR)_clone3?)[[:space:]]*\(|(SYS|__NR)_clone' |
        sed "s|^|$1: |"
}

@test "design: one start: no fork, vfork, clone, clone3 or posix_spawn outside lib/spawn.c" {
    local found="" f
    for f in $(shipped_sources); do
        [ "$f" = "$NSCTL_TOP/lib/spawn.c" ] && continue
        found+=$(starts_in "$f")
    done
    echo "$found"
    [ -z "$found" ]
    # lib/spawn.c itself: the C library's clone(), in process_start() alone.
    run starts_in "$NSCTL_TOP/lib/spawn.c"
    echo "$output"
    [ "${#lines[@]}" -eq 2 ]
    [ "$(echo "$output" | grep -c 'clone(start_child')" -eq 2 ]
}

@test "design: the one-start check finds what it looks for" {
    # It can fail: each way to start a process, planted in a file of its own.
    local f=$BATS_TEST_TMPDIR/planted.c call
    for call in 'fork()' 'vfork()' 'clone(fn, stack, 0, NULL)' 'syscall(SYS_clone3, &args, 88)' \
        'syscall(__NR_clone, 0, 0)' 'posix_spawnp(&pid, file, 0, 0, argv, envp)' '_Fork()'; do
        printf '/* fork() in a comment */\nstatic const char *s = "clone(";\nint f(void) { return %s; }\n' \
            "$call" >"$f"
        run starts_in "$f"
        echo "$call: $output"
        [ "${#lines[@]}" -eq 1 ]
        [[ "$output" == *"return $call"* ]]
    done
    # Comments and strings are not code.
    printf '/* fork() */\nstatic const char *s = "clone() failed";\n' >"$f"
    run starts_in "$f"
    [ -z "$output" ]
}

@test "design: no assembly, and no copy of the kernel's struct sigaction or clone_args" {
    local found="" f
    for f in $(shipped_sources); do
        found+=$(code_of "$f" | grep -nE '(^|[^A-Za-z0-9_])(__asm__|asm)[[:space:]]*(volatile|__volatile__)?[[:space:]]*\(|struct (kernel_sigaction|clone3?_args)' |
            sed "s|^|$f: |")
    done
    echo "$found"
    [ -z "$found" ]
}

# "N FILE NAME" for each function of FILE longer than 80 lines (its braces
# at the start of a line, as clang-format writes them).
long_functions() {
    awk -v file="$1" '
        /^[A-Za-z_].*\(/ { if (match($0, /[A-Za-z_][A-Za-z_0-9]*[[:space:]]*\(/)) name = substr($0, RSTART, RLENGTH - 1) }
        /^\{/ { start = NR }
        /^\}/ && start { if (NR - start + 1 > 80) print NR - start + 1, file, name; start = 0 }
    ' "$1"
}

@test "design: no function of the command over 80 lines, its help texts aside" {
    local found="" f
    for f in "$NSCTL_TOP"/src/*.c; do
        found+=$(long_functions "$f" | awk '$3 != "help"')
    done
    echo "$found"
    [ -z "$found" ]
    # It can fail: a function of 81 lines.
    { echo 'static int f(void)'; echo '{'; for _ in $(seq 79); do echo '	;'; done; echo '}'; } \
        >"$BATS_TEST_TMPDIR/long.c"
    [ "$(long_functions "$BATS_TEST_TMPDIR/long.c")" = "81 $BATS_TEST_TMPDIR/long.c f" ]
}

@test "design: the command is the library's first client: src/ includes nsctl.h, common/ and its own headers only" {
    local found="" f h
    for f in "$NSCTL_TOP"/src/*.[ch]; do
        for h in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
            [ "$h" = nsctl.h ] || [ -e "$NSCTL_TOP/src/$h" ] || [ -e "$NSCTL_TOP/common/$h" ] ||
                found+=" ${f##*/}:$h"
        done
    done
    echo "private headers included by src/:$found"
    [ -z "$found" ]
    # The build holds to it: src/ is compiled with include/ and common/ only.
    grep -q "^src_inc = include_directories('include', 'common')$" "$NSCTL_TOP/meson.build"
    # And every library function the command calls is one nsctl.h declares.
    local called declared unknown
    declared=$(grep -oE '\bnsctl_[a-z0-9_]+\(' "$NSCTL_TOP/include/nsctl.h" | tr -d '(' | sort -u)
    called=$(cat "$NSCTL_TOP"/src/*.c | grep -oE '\bnsctl_[a-z0-9_]+\(' | tr -d '(' | sort -u)
    unknown=$(comm -23 <(echo "$called") <(echo "$declared"))
    echo "called, not in nsctl.h: $unknown"
    [ -z "$unknown" ]
}

@test "design: one parser family for decimal numbers: no strtol, strtoul, sscanf or atoi outside common/number.c" {
    local found="" f
    for f in $(shipped_sources) "$NSCTL_TOP"/common/*.[ch]; do
        # -Q's floating-point literals are no decimal integers: strtold() reads them.
        found+=$(code_of "$f" | grep -nE '(^|[^A-Za-z0-9_])(strto(l|ul|ll|ull|imax|umax)|v?f?sscanf|scanf|atoi|atol|atoll)[[:space:]]*\(' |
            sed "s|^|$f: |")
    done
    echo "$found"
    [ -z "$found" ]
    # It can fail.
    printf 'int f(const char *s) { return atoi(s); }\n' >"$BATS_TEST_TMPDIR/atoi.c"
    run code_of "$BATS_TEST_TMPDIR/atoi.c"
    echo "$output" | grep -qE '(^|[^A-Za-z0-9_])atoi[[:space:]]*\('
}

# "LINE: TEXT" of each NSCTL_ name of an enum of HEADER given no value.
implicit_values() {
    awk '/^enum [a-z_]+ \{/ { e = 1; next } e && /^\};/ { e = 0 }
        e && /^\t+NSCTL_[A-Z0-9_]+[ \t]*,/ { print NR ": " $0 }' "$1"
}

@test "design: every enum of nsctl.h is named and gives each value explicitly" {
    local header=$NSCTL_TOP/include/nsctl.h
    # No anonymous enum: its values would have no type to check against.
    run grep -n '^enum {' "$header"
    [ "$status" -eq 1 ]
    # Inside an enum, every NSCTL_ name is given its value.
    run implicit_values "$header"
    echo "$output"
    [ -z "$output" ]
    # It can fail.
    printf 'enum nsctl_x {\n\tNSCTL_X_A = 0,\n\tNSCTL_X_B,\n};\n' >"$BATS_TEST_TMPDIR/x.h"
    [ "$(implicit_values "$BATS_TEST_TMPDIR/x.h")" = "3: 	NSCTL_X_B," ]
}

# The nouns DESIGN.md allows, one a line.
design_nouns() {
    sed -n '/named `nsctl_<noun>_<verb>`, from these nouns/,/alone is named by its verb/p' \
        "$NSCTL_TOP/docs/DESIGN.md" | grep -o '`[a-z_]*`' | tr -d '`'
}

# The functions a header declares, one a line.
declared_functions() {
    grep -E '^[a-z].*\bnsctl_[a-z0-9_]+ *\(' "$1" | sed -E 's/.*\b(nsctl_[a-z0-9_]+) *\(.*/\1/' |
        sort -u
}

# The functions of header $1 whose names break the rule.
misnamed() {
    local nouns fn ok noun
    nouns=$(design_nouns)
    for fn in $(declared_functions "$1"); do
        [ "$fn" = nsctl_spawn ] && continue
        ok=
        for noun in $nouns; do
            case $fn in nsctl_"$noun"_?*) ok=1 ;; esac
        done
        [ -n "$ok" ] || echo "$fn"
    done
}

@test "design: every exported function is nsctl_<noun>_<verb>, of the nouns DESIGN.md lists" {
    local header=$NSCTL_TOP/include/nsctl.h noun
    [ "$(design_nouns | wc -l)" -ge 10 ]
    run misnamed "$header"
    echo "$output"
    [ -z "$output" ]
    # Each noun listed names something: a noun no function uses would be a rule nobody keeps.
    for noun in $(design_nouns); do
        grep -qE "\bnsctl_${noun}_[a-z0-9_]+ *\(" "$header" || { echo "unused noun $noun"; false; }
    done
    # Every exported symbol is one of them, declared.
    run bash -c "grep -oE '^\s*nsctl_[a-z0-9_]+;' '$NSCTL_TOP/lib/libnsctl.sym' | tr -d ' \t;' | sort"
    [ "$output" = "$(declared_functions "$header")" ]
    # It can fail.
    printf 'int nsctl_types_all(void);\nint nsctl_ns_open(int fd);\n' >"$BATS_TEST_TMPDIR/x.h"
    [ "$(misnamed "$BATS_TEST_TMPDIR/x.h")" = nsctl_types_all ]
}

# The structs of header $1 that neither are room nor carry their size first.
unsized_structs() {
    awk '/^struct nsctl_[a-z_]+ \{$/ { name = $2; getline; if ($0 !~ /^\tsize_t size;$/ && $0 !~ /^\tuint64_t opaque\[[0-9]+\];$/) print name }' "$1" |
        grep -vx nsctl_idmap_range
}

@test "design: every public struct is opaque room or carries its size first" {
    local header=$NSCTL_TOP/include/nsctl.h
    [ "$(grep -c '^struct nsctl_[a-z_]* {$' "$header")" -ge 10 ]
    run unsized_structs "$header"
    echo "$output"
    [ -z "$output" ]
    # A list the library hands out is an object, not an array of rows: no ** of a struct row.
    run grep -nE 'struct nsctl_(pin|list_ns|ns_id|type_info) \*\*' "$header"
    [ "$status" -eq 1 ]
    # It can fail.
    printf 'struct nsctl_x {\n\tint a;\n};\nstruct nsctl_y {\n\tsize_t size;\n};\n' >"$BATS_TEST_TMPDIR/x.h"
    [ "$(unsized_structs "$BATS_TEST_TMPDIR/x.h")" = nsctl_x ]
}
