#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Print COUNT (default 20000) random list -Q expressions, one a line, the same ones
for the same SEED: columns, literals of every type, every operator and keyword
spelling, ! and parentheses, nested.  tools/filter-differ compares nsctl's evaluator
with libsmartcols' on them (tests/cli/list-filter.bats).

Usage: filter-expressions.py [COUNT [SEED]]"""
import random
import sys

COLUMNS = ["NS", "TYPE", "NPROCS", "PID", "NSFS", "NETNSID", "FLAG", "type", "pid"]
LITERALS = ["0", "1", "2", "85", "1234", "1.5", "0.5", "4026531840", "18446744073709551615",
            '"net"', "'uts'", '""', '" net "', '"1"', '"0"', '"true"', '"y"', '"unassigned"',
            '"-1"', "true", "false", "TRUE", '"85"', '"1.5"', '" 2 "']
COMPARISONS = ["==", "!=", "<", "<=", ">", ">=", "eq", "ne", "lt", "le", "gt", "ge", "EQ", "NE"]
PATTERNS = ['"^n"', '"t$"', '"."', '"^$"', '"a.b"', '"^/run"', '"^[0-9]+$"', '""']
LOGIC = ["&&", "||", "and", "or", "AND", "OR"]
NOTS = ["!", "not ", "NOT ", "! "]


def value(rng, depth):
    r = rng.random()
    if r < 0.4 or depth > 2:
        return rng.choice(COLUMNS)
    if r < 0.75:
        return rng.choice(LITERALS)
    return "(" + expression(rng, depth + 1) + ")"


def prefix(rng, depth):
    if rng.random() < 0.15:
        return rng.choice(NOTS) + prefix(rng, depth)
    return value(rng, depth)


def comparison(rng, depth):
    text = prefix(rng, depth)
    for _ in range(rng.choice([0, 1, 1, 1, 2])):
        if rng.random() < 0.1:
            text += " " + rng.choice(["=~", "!~"]) + " " + rng.choice(PATTERNS)
        else:
            text += " " + rng.choice(COMPARISONS) + " " + prefix(rng, depth)
    return text


def expression(rng, depth=0):
    text = comparison(rng, depth)
    for _ in range(rng.choice([0, 0, 1, 2])):
        text += " " + rng.choice(LOGIC) + " " + comparison(rng, depth)
    return text


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 16)
    for _ in range(count):
        print(expression(rng))


main()
