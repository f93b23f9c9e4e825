#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# What PROGRAM and the caller's terminal receive from run, unshare and enter
# (issue 14, items 3 and 4): only the caller's own fds, a working directory
# inside the new root, no environment that picks the binary or the libraries
# root runs, no supplementary groups of root's after -S; and output errors.

load helpers
load callers

setup() {
    TMP=$(mktemp -d)
    chmod 755 "$TMP"
    CGROUP=
    MOUNTS_BEFORE=$(mount_table)
}

teardown() {
    cleanup_pids
    [ -n "$CGROUP" ] && rmdir "$CGROUP"
    rm -rf "$TMP"
    [ "$(mount_table)" = "$MOUNTS_BEFORE" ]
}

@test "callers: --keep-fd 3 without a caller's fd 3 is refused, not nsctl's --into-cgroup directory" {
    require_root
    make_cgroup || skip "no cgroup v2 hierarchy mounted"
    # 3>&-: bats keeps an fd 3 of its own; the caller here has none.
    run timeout 10 "$NSCTL" run -u --into-cgroup "$CGROUP" --keep-fd 3 \
        sh -c 'readlink /proc/self/fd/3' 3>&-
    echo "$output"
    [ "$status" -eq 125 ]
    [[ "$output" == "nsctl: run: --keep-fd '3': no such open file descriptor"* ]]
    [[ "$output" != *"$CGROUP"* ]]
    # The order of the options does not matter.
    run timeout 10 "$NSCTL" run -u --keep-fd 3 --into-cgroup "$CGROUP" true 3>&-
    [ "$status" -eq 125 ]
    [[ "$output" == *"--keep-fd '3': no such open file descriptor"* ]]
}

@test "callers: --keep-fd 3 hands PROGRAM the caller's fd 3, and nothing of nsctl's" {
    require_root
    make_cgroup || skip "no cgroup v2 hierarchy mounted"
    echo secret >"$TMP/file"
    # PROGRAM lists its fds but the one ls opens to list them.
    run timeout 10 "$NSCTL" run -u --into-cgroup "$CGROUP" --keep-fd 3 sh -c '
        readlink /proc/self/fd/3; read line <&3; echo "$line"
        ls /proc/self/fd | sort -n | tr "\n" " "' 3<"$TMP/file"
    echo "$output"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "$TMP/file" ]
    [ "${lines[1]}" = secret ]
    # 0, 1, 2, 3, and ls's own directory fd (4): no fd 5 or beyond.
    [ "${lines[2]}" = "0 1 2 3 4 " ]
}

@test "callers: --keep-fd of an fd the caller lacks is refused by unshare and enter too" {
    require_root
    start_target -u
    run timeout 10 "$NSCTL" unshare -u --keep-fd 3 true 3>&-
    [ "$status" -eq 125 ]
    [[ "$output" == "nsctl: unshare: --keep-fd '3': no such open file descriptor"* ]]
    run timeout 10 "$NSCTL" enter --keep-fd 3 "$TARGET" true 3>&-
    [ "$status" -eq 125 ]
    [[ "$output" == "nsctl: enter: --keep-fd '3': no such open file descriptor"* ]]
    echo hello >"$TMP/file"
    run timeout 10 "$NSCTL" enter --keep-fd 3 "$TARGET" sh -c 'read l <&3; echo "$l"' 3<"$TMP/file"
    [ "$status" -eq 0 ]
    [ "$output" = hello ]
}

@test "callers: run and unshare --root DIR --wd RELATIVE: PROGRAM's working directory is inside the new root" {
    require_root
    make_root
    # From a working directory outside the root that has a marker of its own.
    echo "outside the new root" >"$TMP/marker"
    mkdir "$TMP/sub"
    echo "outside, sub" >"$TMP/sub/marker"
    cd "$TMP"
    for sub in run unshare; do
        run timeout 10 "$NSCTL" $sub -m -R "$ROOT" -w . /bin/sh -c 'pwd -P; read l <marker; echo "$l"'
        echo "$sub -w .: $output"
        [ "$status" -eq 0 ]
        [ "${lines[0]}" = / ]
        [ "${lines[1]}" = "top of the new root" ]
        run timeout 10 "$NSCTL" $sub -m -R "$ROOT" -w sub /bin/sh -c 'pwd -P; read l <marker; echo "$l"'
        echo "$sub -w sub: $output"
        [ "$status" -eq 0 ]
        [ "${lines[0]}" = /sub ]
        [ "${lines[1]}" = "sub of the new root" ]
        run timeout 10 "$NSCTL" $sub -m -R "$ROOT" -w ./sub/.. /bin/sh -c 'pwd -P'
        [ "$status" -eq 0 ]
        [ "$output" = / ]
    done
    # Without --root, a relative --wd is still the caller's.
    run timeout 10 "$NSCTL" run -u -w sub sh -c 'pwd -P'
    [ "$status" -eq 0 ]
    [ "$output" = "$(cd "$TMP/sub" && pwd -P)" ]
}

@test "callers: with --root, a relative --mount-proc DIR is inside the new root too, --wd or not" {
    require_root
    make_root
    mkdir "$ROOT/proc"
    cd "$TMP" # no proc directory here: a path taken from outside the root would fail
    for wd in "" /sub; do
        run timeout 10 "$NSCTL" run -m -p -R "$ROOT" ${wd:+-w "$wd"} --mount-proc=proc \
            /bin/sh -c 'read stat </proc/1/stat; echo "${stat%% *}"; pwd -P'
        echo "--wd '$wd': $output"
        [ "$status" -eq 0 ]
        [ "${lines[0]}" = 1 ]
        [ "${lines[1]}" = "${wd:-/}" ]
    done
    # The proc went with the child's mount namespace.
    ! grep -qF "$ROOT/proc" /proc/self/mountinfo || false
}

@test "callers: enter -e on nsctl's files passes only the target's data variables; --keep-loader-env only where the target's files are PROGRAM's" {
    require_root
    local libc
    libc=$(ldd /bin/sh | grep -oE '/[^ ]*/libc\.so[^ ]*' | head -1)
    [ -n "$libc" ]
    mkdir "$TMP/evil"
    printf '#!/bin/sh\necho EVIL\n' >"$TMP/evil/id"
    chmod 755 "$TMP/evil/id"
    # The target shares nsctl's mount namespace: its PATH names a directory of ours.
    start_target_with_env "-u" PATH="$TMP/evil:/usr/bin:/bin" LD_PRELOAD="$libc" \
        LD_LIBRARY_PATH="$TMP/evil" GCONV_PATH="$TMP/evil" GLIBC_TUNABLES=glibc.malloc.check=3 \
        APP_SETTING=yes TERM=xterm
    run timeout 10 "$NSCTL" enter -e -u "$TARGET" id -u
    echo "$output"
    [ "$status" -eq 0 ]
    [ "$output" = 0 ]
    run timeout 10 "$NSCTL" enter -e -u "$TARGET" env
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"TERM=xterm"* ]]
    [[ "$output" != *"APP_SETTING"* ]]
    [ "$(echo "$output" | grep '^PATH=')" = "PATH=$PATH" ]
    [[ "$output" != *LD_PRELOAD* ]]
    [[ "$output" != *GCONV_PATH* ]]
    [[ "$output" != *GLIBC_TUNABLES* ]]
    # The target's loader variables never reach a PROGRAM that runs on nsctl's files.
    run timeout 10 "$NSCTL" enter -e --keep-loader-env -u "$TARGET" true
    echo "$output"
    [ "$status" -eq 125 ]
    [[ "$output" == *"--keep-loader-env: PROGRAM runs on nsctl's files (the target's mount namespace is not joined)"* ]]
    run timeout 10 "$NSCTL" enter -e --keep-loader-env -m -u --root=/ "$TARGET" true
    [ "$status" -eq 125 ]
    [[ "$output" == *"(--root DIR)"* ]]
    # With the target's files, they are kept, asked for.
    start_target_with_env "-m -u" PATH=/usr/bin:/bin GCONV_PATH="$TMP/evil" APP_SETTING=yes
    local root=()
    running_chrooted && root=(-r)
    run timeout 10 "$NSCTL" enter -e --keep-loader-env -m -u "${root[@]+"${root[@]}"}" "$TARGET" env
    echo "$output"
    [ "$status" -eq 0 ]
    [[ "$output" == *"GCONV_PATH=$TMP/evil"* ]]
    [[ "$output" == *"APP_SETTING=yes"* ]]
    run timeout 10 "$NSCTL" enter -e -m -u "${root[@]+"${root[@]}"}" "$TARGET" env
    [ "$status" -eq 0 ]
    [[ "$output" != *GCONV_PATH* ]]
    run timeout 10 "$NSCTL" enter --keep-loader-env -u "$TARGET" true
    [ "$status" -eq 125 ]
    [[ "$output" == *"--keep-loader-env is for the environment of --env"* ]]
}

@test "callers: enter -e on nsctl's files: of every hostile and a few hundred other variables only the allowlist's reach PROGRAM, as a child too, with --root or --wd" {
    require_root
    mkdir "$TMP/evil"
    printf 'touch %s/ran-$1\n' "$TMP" >"$TMP/evil/rc"
    printf 'touch %s/ran-bashrc\n' "$TMP" >"$TMP/evil/.bashrc"
    local vars=() name prefix suffix i
    # Each named in the issues that found them: each once ran a target's code as root.
    vars+=(PATH="$TMP/evil:/usr/bin:/bin" HOME="$TMP/evil" BASH_ENV="$TMP/evil/rc" ENV="$TMP/evil/rc"
        PROMPT_COMMAND="touch $TMP/ran-prompt" PS4='$(touch '"$TMP"'/ran-ps4)' SHELLOPTS=xtrace
        'BASH_FUNC_id%%=() { touch '"$TMP"'/ran-func; }' PS1='$(touch '"$TMP"'/ran-ps1)$ '
        PS0='$(touch '"$TMP"'/ran-ps0)' SUDO_USER=x SUDO_PS1=x HISTFILE="$TMP/evil/history"
        SHELL="$TMP/evil/rc" LESS="+!$TMP/evil/rc" MAILPATH="$TMP/box?\$(touch $TMP/ran-mail)"
        MAILCHECK=0 MAIL="$TMP/box" HISTFILESIZE=0 HISTSIZE=0 TAR_OPTIONS=--checkpoint-action=exec=id
        MAKEFILES="$TMP/evil/rc" COMPILER_PATH="$TMP/evil" GCC_EXEC_PREFIX="$TMP/evil/"
        TCL_LIBRARY="$TMP/evil" RSYNC_RSH="$TMP/evil/rc" JDK_JAVA_OPTIONS=-Dx=1 HGRCPATH="$TMP/evil"
        PHPRC="$TMP/evil" SCREENRC="$TMP/evil/rc" GUILE_LOAD_PATH="$TMP/evil" PYTHONPATH="$TMP/evil"
        PERL5OPT=-d GIT_SSH_COMMAND="$TMP/evil/rc" XDG_CONFIG_HOME="$TMP/evil" EDITOR="$TMP/evil/rc"
        LD_PRELOAD="$TMP/evil/x.so" GCONV_PATH="$TMP/evil" http_proxy=http://127.0.0.1:1
        OPENSSL_CONF="$TMP/evil/rc" SSH_AUTH_SOCK="$TMP/evil/agent")
    # A few hundred more, of the shapes programs read settings from.
    for prefix in APP TOOL X11 QT GTK MY_ZZ FOO LIBFOO K8S VENDOR; do
        for suffix in OPTIONS OPTS PATH HOME DIR CONFIG RC FLAGS ARGS PLUGINS CMD SHELL EXEC HOOK \
            PROGRAM DEBUG FILE LIBRARY PREFIX INIT SOCKET URL CACHE LOGFILE PAGER EDITOR; do
            vars+=("${prefix}_${suffix}=$TMP/evil/rc")
        done
    done
    for i in $(seq 40); do vars+=("v$i=$TMP/evil/rc" "V_$i=data$i"); done
    # The allowlist's, with data values and with values that name files.
    vars+=(TERM=xterm-test COLORTERM=truecolor LANG=C.UTF-8 LC_MESSAGES=C LANGUAGE=en_GB:en
        COLUMNS=77 LINES=33 NO_COLOR=1 TZ=Europe/Paris LC_ALL=../../tmp LC_CTYPE="$TMP/evil")
    [ "${#vars[@]}" -gt 300 ]
    local places=("-u" "-u -p" "-u -p -F" "-m -u --root=/" "-m -u --wd=/tmp")
    start_target_with_env "-m -p -u" "${vars[@]}"
    for form in "${places[@]}"; do
        # shellcheck disable=SC2086
        run timeout 10 "$NSCTL" enter -e $form "$TARGET" /usr/bin/env
        echo "$form: $output" | head -5
        [ "$status" -eq 0 ]
        local got=$output
        # The allowlist's data: the target's.
        for name in TERM=xterm-test COLORTERM=truecolor LANG=C.UTF-8 LC_MESSAGES=C LANGUAGE=en_GB:en \
            COLUMNS=77 LINES=33 NO_COLOR=1 TZ=Europe/Paris; do
            echo "$got" | grep -qxF "$name"
        done
        # Everything else: nsctl's own (the test's), or absent.
        for i in "${vars[@]}"; do
            name=${i%%=*}
            case $name in TERM | COLORTERM | LANG | LC_MESSAGES | LANGUAGE | COLUMNS | LINES | NO_COLOR | TZ) continue ;; esac
            if [ "$(echo "$got" | grep "^$name=")" != "$(env | grep "^$name=")" ]; then
                echo "$form: $name is the target's"
                false
            fi
        done
    done
    # A shell that prompts runs nothing of the target's (as root, at the first prompt).
    for form in "-u" "-u -p" "-m -u --root=/"; do
        # shellcheck disable=SC2016 # for the inner shell
        run timeout 10 bash -c 'echo "sleep 0.2; true" | HISTFILE=/dev/null "$0" enter -e $1 "$2" bash --norc -i' \
            "$NSCTL" "$form" "$TARGET"
        [ "$status" -eq 0 ]
        run timeout 10 "$NSCTL" enter -e $form "$TARGET" bash -i -c true
        [ -z "$(ls "$TMP" | grep '^ran-')" ]
    done
}

@test "callers: enter -e with the mount namespace joined looks PROGRAM up in the target's PATH" {
    require_root
    mkdir "$TMP/evil"
    printf '#!/bin/sh\necho "the target'"'"'s id"\n' >"$TMP/evil/id"
    chmod 755 "$TMP/evil/id"
    start_target_with_env "-m -u" PATH="$TMP/evil:/usr/bin:/bin" MAILPATH=/var/mail/x APP_SETTING=yes
    # Joining a mount namespace puts the caller at its root (setns(2)); in a
    # chroot the target's root is the chroot's directory below it, so there
    # -r (the target's root) finds the target's files, as nsenter -r would.
    local root=()
    running_chrooted && root=(-r)
    run timeout 10 "$NSCTL" enter -e -m -u "${root[@]+"${root[@]}"}" "$TARGET" id
    echo "$output"
    [ "$status" -eq 0 ]
    [ "$output" = "the target's id" ]
    # There PROGRAM is the target's own program: its environment is the target's, as nsenter -e gives.
    run timeout 10 "$NSCTL" enter -e -m -u "${root[@]+"${root[@]}"}" "$TARGET" /usr/bin/env
    [ "$status" -eq 0 ]
    [ "$(echo "$output" | grep '^MAILPATH=')" = "MAILPATH=/var/mail/x" ]
    [ "$(echo "$output" | grep '^APP_SETTING=')" = "APP_SETTING=yes" ]
    # No type option: every namespace that differs, the mount namespace among them.
    run timeout 10 "$NSCTL" enter -e "${root[@]+"${root[@]}"}" "$TARGET" id
    [ "$status" -eq 0 ]
    [ "$output" = "the target's id" ]
    # Without -m, nsctl's PATH.
    run timeout 10 "$NSCTL" enter -e -u "$TARGET" id -u
    [ "$status" -eq 0 ]
    [ "$output" = 0 ]
}

@test "callers: root's groups never stay with PROGRAM in an ordinary user's user namespace whose setgroups is deny" {
    require_userns_for_nobody
    # unshare -r as nobody writes "deny" to setgroups, as every rootless namespace has.
    setpriv --reuid=65534 --regid=65534 --clear-groups unshare -Ur sleep 600 &
    TEST_PIDS+=($!)
    target=$!
    wait_for_exec "$target" sleep
    [ "$(cat "/proc/$target/setgroups")" = deny ]
    # PROGRAM's host view: its uid is nobody's, whom the namespace's owner is and
    # who may ptrace it; the groups must not be root's 0 and 4.
    for form in "-U" "" "-U -n"; do
        # shellcheck disable=SC2086
        run timeout 10 setpriv --groups 0,4 "$NSCTL" enter $form "$target" \
            sh -c 'grep -E "^(Uid|Groups):" /proc/$$/status'
        echo "enter $form: $output"
        [ "$status" -eq 0 ]
        # (Seen from inside: the IDs the namespace maps, 65534 for the rest.)
        # Seen from the host, through PROGRAM's PID (the output file is the test's).
        rm -f "$TMP/program.out"
        # shellcheck disable=SC2086
        setpriv --groups 0,4 "$NSCTL" enter $form "$target" sh -c 'echo $$; exec sleep 5' \
            >"$TMP/program.out" &
        TEST_PIDS+=($!)
        for i in $(seq 50); do [ -s "$TMP/program.out" ] && break; sleep 0.1; done
        host=$(grep -E '^(Uid|Groups):' "/proc/$(cat "$TMP/program.out")/status")
        echo "host view: $host"
        [ "$(echo $host)" = "Uid: 65534 65534 65534 65534 Groups:" ]
    done
    # Without a user namespace joined, the caller keeps its groups, as before.
    start_target -u
    run -0 setpriv --groups 0,4 "$NSCTL" enter -u "$TARGET" sh -c 'grep -E "^Groups:" /proc/$$/status'
    [ "$(echo $output)" = "Groups: 0 4" ]
}

@test "callers: -S without -G drops the caller's supplementary groups (run, unshare, enter)" {
    require_root
    start_target -u
    # A caller with supplementary groups, as root's login often has.
    for sub in run unshare; do
        run timeout 10 setpriv --groups 0,4242 "$NSCTL" $sub -u -S 65534 -- sh -c "id -u; $GROUPS_OF_PROGRAM"
        echo "$sub: $output"
        [ "$status" -eq 0 ]
        [ "${lines[0]}" = 65534 ]
        # The group ID stays (documented): -G changes it.
        [ "${lines[1]}" = "Gid=0" ]
        [ "${lines[2]}" = "Groups=" ]
        run timeout 10 setpriv --groups 0,4242 "$NSCTL" $sub -u -S 65534 -G 65534 -- sh -c "$GROUPS_OF_PROGRAM"
        [ "$status" -eq 0 ]
        [ "${lines[0]}" = "Gid=65534" ]
        [ "${lines[1]}" = "Groups=" ]
    done
    run timeout 10 setpriv --groups 0,4242 "$NSCTL" enter -u -S 65534 "$TARGET" sh -c "id -u; $GROUPS_OF_PROGRAM"
    echo "enter: $output"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = 65534 ]
    [ "${lines[1]}" = "Gid=0" ]
    [ "${lines[2]}" = "Groups=" ]
    # Without -S or -G the caller's groups stay: they are its own.
    run timeout 10 setpriv --groups 0,4242 "$NSCTL" run -u -- sh -c "$GROUPS_OF_PROGRAM"
    [ "${lines[1]}" = "Groups=0 4242" ]
}

@test "callers: a failed write to stdout is an error: --help of every subcommand, compare, list" {
    local sub want
    run "$NSCTL" --help
    [ "$status" -eq 0 ]
    for sub in $(echo "$output" | awk '/^Subcommands:/{on=1; next} on && NF==0 {exit} on {print $1}'); do
        case $sub in
            run | unshare | enter) want=125 ;;
            compare) want=2 ;;
            *) want=1 ;;
        esac
        want_status=$want
        run --separate-stderr timeout 20 "$NSCTL" "$sub" --help
        [ "$status" -eq 0 ]
        run --separate-stderr timeout 20 sh -c '"$@" >/dev/full' sh "$NSCTL" "$sub" --help
        echo "$sub --help >/dev/full: status $status, stderr: $stderr"
        [ "$status" -eq "$want_status" ]
        [[ "$stderr" == "nsctl: $sub: write error on standard output: No space left on device"* ]]
    done
    for args in --help --version; do
        run --separate-stderr timeout 20 sh -c '"$@" >/dev/full' sh "$NSCTL" $args
        echo "$args: status $status, stderr: $stderr"
        [ "$status" -eq 1 ]
        [[ "$stderr" == "nsctl: write error on standard output: No space left on device"* ]]
    done
    run --separate-stderr timeout 20 sh -c '"$@" >/dev/full' sh "$NSCTL" compare $$ $$
    echo "compare: status $status, stderr: $stderr"
    [ "$status" -eq 2 ]
    [[ "$stderr" == "nsctl: compare: write error on standard output"* ]]
    # Nothing written, nothing failed: -q.
    run --separate-stderr timeout 20 sh -c '"$@" >/dev/full' sh "$NSCTL" compare -q $$ $$
    [ "$status" -eq 0 ]
    for args in "list" "list -H" "list -J" "list --dot"; do
        run --separate-stderr timeout 20 sh -c '"$@" >/dev/full' sh "$NSCTL" $args
        echo "$args: status $status, stderr: $stderr"
        [ "$status" -eq 1 ]
        [[ "$stderr" == "nsctl: list: write error"* ]]
    done
    # A reader that went away is not a failure of nsctl's (util-linux's rule).
    run timeout 20 sh -c 'trap "" PIPE; "$@" | true' sh "$NSCTL" list
    [ "$status" -eq 0 ]
}

@test "callers: --new-session leaves TIOCSTI to a PROGRAM with CAP_SYS_ADMIN on the host, as the man pages say" {
    require_root
    local pty_run=$NSCTL_BUILD/tests/tools/pty-run page man
    [ "$(cat /proc/sys/dev/tty/legacy_tiocsti 2>/dev/null || echo 1)" = 1 ] ||
        skip "dev.tty.legacy_tiocsti is 0: TIOCSTI is CAP_SYS_ADMIN's alone here"
    # Root on the host, no user namespace: the kernel lets it push into any terminal it has open.
    run timeout 20 "$pty_run" "$NSCTL" run -u --new-session -- "$pty_run" --tiocsti X
    echo "$output"
    [[ "$output" == *'pty-run: input queue: "X"'* ]]
    # Made another user by -S, it has lost the capability: refused.  That user runs
    # a copy it can reach where the build is under a 0700 directory (/root).
    run timeout 20 "$pty_run" "$NSCTL" run -u -S 65534 --new-session -- \
        "$(reachable_path "$pty_run")" --tiocsti X
    echo "$output"
    [[ "$output" == *"TIOCSTI: Operation not permitted"* ]]
    [[ "$output" == *"pty-run: input queue: empty"* ]]
    for page in run unshare enter; do
        man=$(tr '\n' ' ' <"$NSCTL_TOP/man/nsctl-$page.1")
        [[ "$man" == *"CAP_SYS_ADMIN in the initial user namespace"* ]]
    done
}

@test "callers: enter -e gives the target's whole environment only where PROGRAM has no more rights than the target: its own user, or its user namespace joined" {
    require_root
    mkdir "$TMP/evil"
    printf 'touch %s/ran-$1\n' "$TMP" >"$TMP/evil/rc"
    printf '#!/bin/sh\ntouch %s/ran-ls\n' "$TMP" >"$TMP/evil/ls"
    chmod 755 "$TMP/evil/ls"
    chown -R 65534:65534 "$TMP/evil"
    local hostile=(PATH="$TMP/evil:/usr/bin:/bin" HOME="$TMP/evil" BASH_ENV="$TMP/evil/rc"
        PROMPT_COMMAND=". $TMP/evil/rc" APP_SETTING=theirs TERM=xterm-theirs)
    # Another user's process in nsctl's own mount namespace: joining that
    # mount namespace (-m, --mount=FILE) puts PROGRAM on root's files all the same.
    setpriv --reuid=65534 --regid=65534 --clear-groups env -i "${hostile[@]}" sleep 600 &
    TEST_PIDS+=($!)
    wait_for_exec $! sleep
    local nobody=$!
    # And one root put in a mount namespace of its own first (a service's PrivateTmp).
    unshare_here --mount
    "${UNSHARE_HERE[@]}" setpriv --reuid=65534 --regid=65534 --clear-groups \
        env -i "${hostile[@]}" sleep 600 &
    TEST_PIDS+=($!)
    wait_for_exec $! sleep
    local service=$!
    for form in "-m $nobody" "--mount=/proc/$$/ns/mnt $nobody" "-a $service" "-m -u $service"; do
        # shellcheck disable=SC2086 # the form is words
        run timeout 10 "$NSCTL" enter -e $form bash -c 'env; ls / >/dev/null' bash
        echo "$form: $(echo "$output" | grep -E '^(PATH|HOME|BASH_ENV|APP_SETTING|TERM)=')"
        [ "$status" -eq 0 ]
        [ "$(echo "$output" | grep '^PATH=')" = "PATH=$PATH" ]
        [ "$(echo "$output" | grep '^HOME=')" = "HOME=$HOME" ]
        [ -z "$(echo "$output" | grep -E '^(BASH_ENV|APP_SETTING|PROMPT_COMMAND)=')" ]
        # The allowlist's data still passes.
        echo "$output" | grep -qx 'TERM=xterm-theirs'
        # shellcheck disable=SC2086
        run timeout 10 "$NSCTL" enter -e --keep-loader-env $form true
        [ "$status" -eq 125 ]
        [[ "$output" == *"--keep-loader-env: "*"where only the target's data variables pass"* ]]
    done
    [ -z "$(ls "$TMP" | grep '^ran-')" ]
}

@test "callers: enter -e into another user's user and mount namespaces gives its environment; into its mount namespace alone, the allowlist" {
    require_userns_for_nobody
    setpriv --reuid=65534 --regid=65534 --clear-groups env -i PATH=/usr/bin:/bin APP_SETTING=theirs \
        unshare -Urm sleep 600 &
    TEST_PIDS+=($!)
    wait_for_exec $! sleep
    # Its user namespace joined (the default joins every one that differs): PROGRAM
    # has the target's rights there, and its environment.
    run -0 timeout 10 "$NSCTL" enter -e $! sh -c 'echo "${APP_SETTING:-none} $(id -u)"'
    [ "$output" = "theirs 0" ]
    # Its mount namespace without its user namespace: PROGRAM is root, the allowlist applies.
    run -0 timeout 10 "$NSCTL" enter -e -m $! sh -c 'echo "${APP_SETTING:-none} $(id -u)"'
    [ "$output" = "none 0" ]
}
