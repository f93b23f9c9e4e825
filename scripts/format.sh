#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Format every C file with the project's .clang-format; --check only reports.
set -eu
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.c' '*.h' 2>/dev/null; git ls-files --others --exclude-standard '*.c' '*.h' 2>/dev/null)
[ ${#files[@]} -gt 0 ] || exit 0
if [ "${1:-}" = --check ]; then
    clang-format --dry-run --Werror "${files[@]}"
else
    clang-format -i "${files[@]}"
fi
