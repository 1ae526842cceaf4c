#!/usr/bin/env bash
# Probe cost of the endgame tables (docs/egdb.md, "Probe cost"): the same
# few-piece International positions searched to a fixed depth without
# tables and with the ≤ 3- and ≤ 4-piece tables of DIR; prints the summed
# nodes, time and nodes/s of each run. Each search runs three times and
# its shortest time counts (the node count is the same every time), which
# keeps a shared machine's noise out of most of the figure.
#   scripts/egdb-probe-cost.sh target/release/molkwar ~/.cache/molkwar/egdb [depth]
set -euo pipefail
bin=$1 dir=$2 depth=${3:-16}
fens=(
    "W:W28,33,39:B12,17,K46"
    "W:W27,32,38,K1:B13,19,24"
    "W:W36,37,46:B5,14,15"
    "W:W31,41,K48:B9,10,K3"
    "W:WK23,38:B4,9,K50"
    "W:W30,35,40:B6,11,16"
    "W:W32,43,K49:B8,18,K2"
    "W:W25,34,45:B7,13,26"
)
for tables in off 3 4; do
    nodes=0 time=0
    for f in "${fens[@]}"; do
        args=()
        [ "$tables" = off ] || args=(--egdb "$dir" --egdb-pieces "$tables")
        t=""
        for _ in 1 2 3; do
            line=$("$bin" analyze --fen "$f" --depth "$depth" --tt-size 20 "${args[@]}" 2>/dev/null | grep '^depth' | tail -1)
            n=$(sed 's/.*nodes *\([0-9]*\).*/\1/' <<<"$line")
            r=$(sed 's/.*time *\([0-9.]*\).*/\1/' <<<"$line")
            t=$(awk -v a="$t" -v b="$r" 'BEGIN { print (a == "" || b < a) ? b : a }')
        done
        nodes=$((nodes + n))
        time=$(awk -v a="$time" -v b="$t" 'BEGIN { print a + b }')
    done
    awk -v m="$tables" -v d="$depth" -v n="$nodes" -v t="$time" \
        'BEGIN { printf "tables=%s depth=%s nodes=%d time=%.3f nps=%.0f\n", m, d, n, t, n / t }'
done
