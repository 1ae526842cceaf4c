#!/usr/bin/env bash
# One generation of the trained evaluation, start to end, resumable:
#
#   scripts/generation.sh VARIANT GEN
#
# makes generation GEN's weights for VARIANT (normal or frisian) in three
# stages, each skipped when its output already exists, so a killed run
# resumes by running the same command again:
#
#   1. selfplay  generation GEN-1 (the weights in PREV, default the
#                binary's embedded ones) plays SHARDS shards of GAMES games
#                at NODES nodes a move (spread by SPREAD, 0.5, see
#                selfplay-shard.sh), JOBS shards at a time, into
#                DATA/g(GEN-1)/VARIANT-SEED.txt, seeds GEN-1 * 1000 + 1..SHARDS
#                (scripts/selfplay-shard.sh; the Slurm array of
#                scripts/slurm/ writes the same files: run it with
#                OUTDIR=DATA/g(GEN-1), GAMES, NODES and those seeds as the
#                array indices, then this script to train and gate);
#   2. train     `molkwar train` on TRAIN_DATA (default: every shard of
#                DATA/g(GEN-1)) into DATA/gGEN-VARIANT.mkw, log beside it;
#   3. gate      `molkwar match` of the new weights against PREV (or the
#                embedded weights), GATE_GAMES games at GATE_TC, into
#                DATA/gGEN-VARIANT-gate.txt.
#
# Environment (defaults in brackets): MOLKWAR [target/release/molkwar],
# DATA [data], PREV [embedded], SHARDS [50], GAMES [2000], NODES [1000],
# JOBS [nproc], TRAIN_DATA [DATA/g(GEN-1)/VARIANT-*.txt],
# TRAIN_ARGS [--epochs 30 --lr 2 --seed 1], FEATURES [2], GATE_GAMES [400],
# GATE_TC [move-time=0.02], GATE_ARGS [adjudication, see below],
# STAGES ["selfplay train gate"]. docs/training.md has the commands and
# figures of every committed generation.
set -euo pipefail

[ $# -eq 2 ] || { echo "usage: $0 VARIANT GEN" >&2; exit 2; }
variant=$1 gen=$2
case "$variant" in normal | frisian) ;; *) echo "error: variant must be normal or frisian" >&2; exit 2 ;; esac
case "$gen" in '' | *[!0-9]*) echo "error: GEN must be a number ≥ 1" >&2; exit 2 ;; esac
[ "$gen" -ge 1 ] || { echo "error: GEN must be ≥ 1" >&2; exit 2; }

here=$(cd "$(dirname "$0")" && pwd)
bin=${MOLKWAR:-target/release/molkwar}
data=${DATA:-data}
prev=${PREV:-}
shards=${SHARDS:-50}
jobs=${JOBS:-$(nproc)}
stages=${STAGES:-selfplay train gate}
parent=$((gen - 1))
playdir=$data/g$parent
weights=$data/g$gen-$variant.mkw
gate=$data/g$gen-$variant-gate.txt
[ -x "$bin" ] || { echo "error: $bin is not an executable (set MOLKWAR)" >&2; exit 2; }
export MOLKWAR=$bin GAMES=${GAMES:-2000} NODES=${NODES:-1000}
mkdir -p "$playdir"
say() { echo "generation.sh [$(date +%H:%M:%S)] $variant g$gen: $*" >&2; }

for stage in $stages; do
    case "$stage" in
    selfplay)
        first=$((parent * 1000 + 1)) last=$((parent * 1000 + shards))
        say "selfplay: shards $first..$last into $playdir ($GAMES games, $NODES nodes, $jobs at a time, eval ${prev:-embedded})"
        start=$SECONDS
        seq "$first" "$last" |
            xargs -P "$jobs" -I{} bash "$here/selfplay-shard.sh" "$variant" {} "$playdir" "$prev" 2>&1 |
            grep -v '^selfplay: [0-9]*/' >&2 || true
        missing=0
        for s in $(seq "$first" "$last"); do [ -s "$playdir/$variant-$s.txt" ] || missing=$((missing + 1)); done
        [ "$missing" -eq 0 ] || { say "selfplay: $missing shards missing; run again to resume"; exit 1; }
        say "selfplay: done, $(cat "$playdir/$variant"-*.txt | wc -l) positions, $((SECONDS - start)) s"
        ;;
    train)
        if [ -s "$weights" ]; then say "train: $weights exists"; continue; fi
        # shellcheck disable=SC2206
        files=(${TRAIN_DATA:-$playdir/$variant-*.txt})
        # shellcheck disable=SC2206
        targs=(${TRAIN_ARGS:---epochs 30 --lr 2 --seed 1})
        say "train: ${#files[@]} files into $weights"
        start=$SECONDS
        "$bin" train --variant "$variant" --features "${FEATURES:-2}" --threads "$jobs" \
            --data "${files[@]}" --out "$weights.part" "${targs[@]}" 2>&1 | tee "$weights.log" >&2
        mv "$weights.part" "$weights"
        say "train: done in $((SECONDS - start)) s"
        ;;
    gate)
        if [ -s "$gate" ]; then say "gate: $gate exists"; grep -E "^(Score of|Elo difference)" "$gate" >&2 || true; continue; fi
        [ -s "$weights" ] || { say "gate: no $weights (run the train stage)"; exit 1; }
        opp=()
        [ -z "$prev" ] || opp=(--param2 "eval-file=$prev")
        # shellcheck disable=SC2206
        gargs=(${GATE_ARGS:---resign-score 3 --draw-score 0.05 --draw-moves 15 --draw-after 60})
        say "gate: $weights against ${prev:-the embedded weights}, ${GATE_GAMES:-400} games at ${GATE_TC:-move-time=0.02}"
        start=$SECONDS
        # Books off: the gate measures the evaluation (docs/book.md).
        "$bin" match --variant "$variant" --param1 "eval-file=$weights" "${opp[@]}" \
            --param1 book=false --param2 book=false \
            --tc "${GATE_TC:-move-time=0.02}" --games "${GATE_GAMES:-400}" --concurrency "$jobs" \
            --seed "$gen" --pdn "$gate.pdn" "${gargs[@]}" > "$gate.part"
        mv "$gate.part" "$gate"
        say "gate: done in $((SECONDS - start)) s"
        grep -E "^(Score of|Elo difference)" "$gate" >&2 || true
        ;;
    *) echo "error: unknown stage '$stage' (selfplay, train, gate)" >&2; exit 2 ;;
    esac
done
