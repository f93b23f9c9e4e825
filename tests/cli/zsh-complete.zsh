# SPDX-License-Identifier: GPL-2.0-or-later
# zsh-complete.zsh NSCTL COMPLETION WORD...: what completions/_nsctl offers for
# the command line WORD... (the last word the one being completed), one a line,
# with zsh's completion builtins replaced by stand-ins that print: compadd
# prints its words (with their prefix), _files "<files>", _command_names
# "<commands>", _users "<users>", _groups "<groups>", _directories
# "<directories>".  The words are not filtered by what is typed, as zsh would.
emulate zsh
NSCTL=$1 COMPLETION=$2
shift 2
compadd() {
    local prefix=
    while [[ $1 == -* && $1 != -- ]]; do
        case $1 in
            -P) prefix=$2; shift 2 ;;
            -S) shift 2 ;;
            *) shift ;;
        esac
    done
    [[ $1 == -- ]] && shift
    local w
    for w in "$@"; do print -r -- "$prefix$w"; done
}
compset() { [[ $1 == -P ]] && PREFIX=${PREFIX#*=}; }
_files() { print -- "<files>"; }
_directories() { print -- "<directories>"; }
_command_names() { print -- "<commands>"; }
_users() { print -- "<users>"; }
_groups() { print -- "<groups>"; }
# The file ends by calling _nsctl, as an autoloaded completion function does: not here.
source <(sed '$d' "$COMPLETION")
words=("$@")
words[1]=$NSCTL
CURRENT=${#words}
PREFIX=${words[-1]}
_nsctl
