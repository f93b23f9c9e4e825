#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Turn one benchmark run (RESULTS/raw.csv, written by bench/run.sh) into ratios
# (RESULTS/results.csv), the list-scaling plot (RESULTS/list-scaling.png) and a
# Markdown summary (RESULTS/summary.md); with --docs, also put the summary
# into docs/PERFORMANCE.md (between its bench markers) and the plot into docs/.
#
# Usage: bench/report.sh RESULTS NSCTL [--docs]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
results=$1 nsctl=$2 docs=${3:-}
raw=$results/raw.csv

# One row per case: the three tools' medians side by side, and their ratios,
# twice: the ratio of the medians, and the median over the rounds of the
# ratio within each round ("paired", robust to bursts of load; the table
# shows these).  The peer is util-linux, or iproute2 for pins (whose bare
# program is measured in groups of its own, the cases "floor-...").  The
# driver's paired_first/paired_second are ratios to the first/second command
# of its run, which is recognised by its 1.0000.
awk -F, '
NR == 1 { next }
{
    key = $1 "," $2
    if (!(key in seen)) { seen[key] = 1; order[++n] = key }
    tool = ($3 == "bare" || $3 == "nsctl") ? $3 : "peer"
    if (tool == "peer") peer[key] = $3
    med[key, tool] = $5; kb[key, tool] = $10; pf[key, tool] = $11; ps[key, tool] = $12
    cpu[key, tool] = $13
    if ($11 == "1.0000") first[key] = tool
    if ($12 == "1.0000") second[key] = tool
}
function ratio(a, b) { return (a != "" && b != "" && b > 0) ? sprintf("%.3f", a / b) : "" }
# The paired ratio of tool A to tool B of a case, when B was first or second in its run.
function paired(k, a, b) {
    if (med[k, a] == "" || med[k, b] == "") return ""
    if (first[k] == b) return sprintf("%.3f", pf[k, a])
    if (second[k] == b) return sprintf("%.3f", ps[k, a])
    return ""
}
END {
    print "group,case,peer,bare_us,peer_us,nsctl_us,peer_over_bare,nsctl_over_bare,nsctl_over_peer," \
        "bare_kb,peer_kb,nsctl_kb,peer_over_bare_paired,nsctl_over_bare_paired,nsctl_over_peer_paired," \
        "bare_cpu_us,peer_cpu_us,nsctl_cpu_us"
    for (i = 1; i <= n; i++) {
        k = order[i]
        b = med[k, "bare"]; p = med[k, "peer"]; s = med[k, "nsctl"]
        print k "," peer[k] "," b "," p "," s "," ratio(p, b) "," ratio(s, b) "," ratio(s, p) "," \
            kb[k, "bare"] "," kb[k, "peer"] "," kb[k, "nsctl"] "," \
            paired(k, "peer", "bare") "," paired(k, "nsctl", "bare") "," paired(k, "nsctl", "peer") "," \
            cpu[k, "bare"] "," cpu[k, "peer"] "," cpu[k, "nsctl"]
    }
}' "$raw" >"$results/results.csv"

# The plot: list time against the number of processes in the farm.
plot=$results/list-scaling.png
rm -f "$plot"
# One data file per tool ("N median q1 q3" in ms), so each tool's points join into a line.
rm -f "$results"/list-*.dat
awk -F, -v dir="$results" '$1 == "list" { print $2, $5 / 1000, $6 / 1000, $7 / 1000 > (dir "/list-" $3 ".dat") }' "$raw"
plots=() per_process=()
for tool in bare util-linux nsctl; do
    [ -s "$results/list-$tool.dat" ] || continue
    case $tool in
        bare) title="bare /proc scan" ;;
        util-linux) title="util-linux lsns" ;;
        nsctl) title="nsctl list" ;;
    esac
    plots+=("'$results/list-$tool.dat' using 1:2:3:4 with yerrorlines title '$title'")
    # The same in microseconds per process: flat where the cost per process is.
    per_process+=("'$results/list-$tool.dat' using 1:(\$2*1000/\$1):(\$3*1000/\$1):(\$4*1000/\$1) with yerrorlines title '$title'")
done
if [ ${#plots[@]} -gt 0 ]; then
    joined=$(printf '%s, ' "${plots[@]}")
    joined_per_process=$(printf '%s, ' "${per_process[@]}")
    gnuplot <<EOF
set terminal pngcairo size 1200,500 noenhanced
set output '$plot'
set multiplot layout 1,2 title 'Listing every namespace (median, IQR bars); the farm: a quarter in own uts+ipc+net namespaces'
set xlabel 'processes in /proc (the farm, in a PID namespace of its own)'
set logscale x
set xrange [50:50000]
set key top left
set grid
set logscale y
set ylabel 'wall time (ms)'
set title 'time'
plot ${joined%, }
set ylabel 'wall time per process (us)'
set title 'time per process'
plot ${joined_per_process%, }
unset multiplot
EOF
fi

# The Markdown summary: machine, versions, one table of ratios.
ms() { awk -v u="$1" 'BEGIN { if (u == "") print "-"; else printf "%.2f", u / 1000 }'; }
{
    echo "Measured $(date -u -r "$raw" '+%F %H:%M') UTC by \`make bench\` ($(awk -F, 'NR == 2 { print $4 }' "$raw") rounds per case for run/unshare/enter/pin; list fewer at large sizes)."
    echo
    echo "| machine | |"
    echo "|---|---|"
    echo "| CPU | $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cores |"
    echo "| memory | $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo) |"
    echo "| kernel | $(uname -sr) |"
    echo "| util-linux | $(unshare --version | awk '{ print $NF }') |"
    echo "| iproute2 | $(ip -V | sed -n 's/.*iproute2-\([^ ,]*\).*/\1/p') |"
    echo "| nsctl | $("$nsctl" --version 2>/dev/null | awk '{ print $NF }') ($(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo unknown)) |"
    echo
    echo "Times are medians in ms. Ratios are medians over the rounds of the ratio of"
    echo "two contenders' times in the same round (the contenders run interleaved);"
    echo "\`results.csv\` also has the plain ratios of the medians. The peer is util-linux"
    echo "(\`unshare --fork\`, \`unshare\`, \`nsenter\`, \`lsns\`), or iproute2 \`ip netns\`"
    echo "for pins. Quartiles and min/max are in \`bench/results/raw.csv\`."
    echo
    echo "| what | case | bare | peer | nsctl | peer/bare | nsctl/bare | nsctl/peer | peak kB bare/peer/nsctl |"
    echo "|---|---|---:|---:|---:|---:|---:|---:|---|"
    tail -n +2 "$results/results.csv" | while IFS=, read -r group case peer b p s _ _ _ kb_b kb_p kb_s pb sb sp _; do
        nsctl_ms=$(ms "$s")
        [ -z "$s" ] && nsctl_ms="pending"
        kbs=
        [ "$group" = list ] && kbs="${kb_b:--} / ${kb_p:--} / ${kb_s:-pending}"
        echo "| $group | $case | $(ms "$b") | $(ms "$p") | $nsctl_ms | ${pb:--} | ${sb:--} | ${sp:--} | $kbs |"
    done
    echo
    echo "Against the targets of the issues (pending until that nsctl subcommand is built):"
    echo
    echo "| target | measured | verdict |"
    echo "|---|---|---|"
    awk -F, '
    NR == 1 { next }
    { k = $1 "," $2; sb[k] = $14; sp[k] = $15; s[k] = $6; kbs[k] = $12; kbp[k] = $11
      cpu_b[k] = $16; cpu_s[k] = $18 }
    # The time T (a column by case) per process at N processes over that at M (from the medians).
    function per(t, n, m) {
        if (t["list," n] == "" || t["list," m] == "" || t["list," m] <= 0) return ""
        return sprintf("%.3f", (t["list," n] / n) / (t["list," m] / m))
    }
    function or_dash(v) { return v == "" ? "-" : v }
    function row(what, value, limit, cmp) {
        if (value == "") { printf "| %s | - | pending |\n", what; return }
        ok = (cmp == "<=") ? value + 0 <= limit : (cmp == "<") ? value + 0 < limit : value + 0 >= limit
        printf "| %s | %s | %s |\n", what, value, ok ? "met" : "NOT met"
    }
    { order[++n_keys] = k }
    END {
        # Issue 35: every per-call case within 1.10 of its bare floor (the
        # vfork floor for run), and ahead of util-linux or ip netns on every case.
        for (i = 1; i <= n_keys; i++) {
            k = order[i]
            split(k, g, ",")
            if (g[1] == "run-vfork" || g[1] == "unshare" || g[1] == "enter" ||
                (g[1] == "pin" && g[2] ~ /^floor-/))
                row(g[1] " " g[2] ": nsctl/bare <= 1.10", sb[k], 1.10, "<=")
        }
        for (i = 1; i <= n_keys; i++) {
            k = order[i]
            split(k, g, ",")
            if (g[1] != "list" && sp[k] != "")
                row(g[1] " " g[2] ": nsctl/peer < 1", sp[k], 1, "<")
        }
        row("unshare --net=FILE: nsctl/ip netns add <= 1.0", sp["pin,add/unshare--net=FILE"], 1.0, "<=")
        row("list 10000: nsctl/lsns <= 0.167 (6x faster)", sp["list,10000"], 0.167, "<=")
        row("list 100: nsctl/bare <= 1.2", sb["list,100"], 1.2, "<=")
        row("list 1000: nsctl/bare <= 0.8", sb["list,1000"], 0.8, "<=")
        row("list 10000: nsctl/bare <= 1.0", sb["list,10000"], 1.0, "<=")
        row("list: cost per process at 10,000 over 1,000 <= 1.2 (flat)", per(s, 10000, 1000), 1.2, "<=")
        row("list: cost per process at 30,000 over 10,000 <= 1.2 (flat)", per(s, 30000, 10000), 1.2, "<=")
        mem = (kbs["list,10000"] != "" && kbp["list,10000"] != "") ? \
            sprintf("%.3f", kbs["list,10000"] / kbp["list,10000"]) : ""
        row("list 10000: peak memory nsctl/lsns < 1", mem, 1, "<")
        # The same growth in CPU time (user and system, every thread): the cost
        # itself, which a CPU that other processes of the machine take does not
        # change, as it changes wall time.
        if (cpu_s["list,10000"] == "") exit
        print ""
        printf "CPU time (user and system, every thread) per process, for comparison with the "
        printf "wall time above: nsctl list %s at 10,000 over 1,000, %s at 30,000 over 10,000; ", \
            or_dash(per(cpu_s, 10000, 1000)), or_dash(per(cpu_s, 30000, 10000))
        printf "the bare scan %s and %s.\n", or_dash(per(cpu_b, 10000, 1000)), or_dash(per(cpu_b, 30000, 10000))
    }' "$results/results.csv"
    echo
    sed 's/^/- /' "$results/notes.txt"
} >"$results/summary.md"

cat "$results/summary.md"

if [ -n "$docs" ]; then
    doc=$top/docs/PERFORMANCE.md
    # Replace what lies between the markers, and keep the prose around them.
    awk -v summary="$results/summary.md" '
        /^<!-- bench:begin -->/ { print; while ((getline line < summary) > 0) print line; skip = 1; next }
        /^<!-- bench:end -->/ { skip = 0 }
        !skip' "$doc" >"$doc.new" && mv "$doc.new" "$doc"
    [ -f "$plot" ] && cp "$plot" "$top/docs/list-scaling.png"
    echo "updated docs/PERFORMANCE.md and docs/list-scaling.png"
fi
