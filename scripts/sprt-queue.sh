#!/usr/bin/env bash
# A queue of search-parameter SPRTs, run one after another, each resumable:
#
#   scripts/sprt-queue.sh QUEUE
#
# QUEUE has one experiment a line, `NAME VARIANT SEED VAR=VALUE...` (`#`
# comments), e.g. `n-rfp40 normal 101 MOLKWAR_TUNE_RFP_MARGIN=40`. Each
# plays the candidate (the environment given) against the defaults with one
# binary built with `--features tune` (docs/search.md, "Experiments"),
# both sides with the weights WEIGHTS_<VARIANT> if set, books off, at TC,
# into OUT/NAME.pdn and OUT/NAME.txt. An experiment whose report has its
# SPRT line is skipped; a stopped one continues where it stopped
# (`match --resume`), so killing the queue and running it again loses
# only the games in progress.
#
# Environment [defaults]: MOLKWAR [target/release/molkwar, a tune build],
# OUT [sprt], TC [move-time=0.02], GAMES [1000], JOBS [2],
# SPRT ["elo0=0 elo1=15 alpha=0.05 beta=0.05"], WEIGHTS_NORMAL,
# WEIGHTS_FRISIAN.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 QUEUE" >&2; exit 2; }
queue=$1
bin=$(realpath "${MOLKWAR:-target/release/molkwar}")
out=${OUT:-sprt}
mkdir -p "$out"
# shellcheck disable=SC2206
sprt=(${SPRT:-elo0=0 elo1=15 alpha=0.05 beta=0.05})
while read -r name variant seed envs; do
    case "$name" in '' | '#'*) continue ;; esac
    report=$out/$name.txt
    if grep -q "^SPRT" "$report" 2>/dev/null; then continue; fi
    weights=()
    case "$variant" in
    normal) w=${WEIGHTS_NORMAL:-} ;;
    frisian) w=${WEIGHTS_FRISIAN:-} ;;
    *) echo "error: $name: variant must be normal or frisian" >&2; exit 2 ;;
    esac
    [ -z "$w" ] || weights=(--param1 "eval-file=$w" --param2 "eval-file=$w")
    echo "[$(date +%H:%M:%S)] $name: $variant, $envs" >&2
    "$bin" match --variant "$variant" --engine1 "env $envs $bin hub" --engine2 "$bin hub" \
        --name1 "$name" --name2 base "${weights[@]}" --param1 book=false --param2 book=false \
        --tc "${TC:-move-time=0.02}" --games "${GAMES:-1000}" --concurrency "${JOBS:-2}" \
        --seed "$seed" --sprt "${sprt[@]}" \
        --resign-score 3 --draw-score 0.05 --draw-moves 15 --draw-after 60 \
        --pdn "$out/$name.pdn" --resume >> "$report" 2>> "$out/$name.err"
    grep -E "^(Score of|Elo difference|SPRT)" "$report" | tail -3 >&2
done < "$queue"
