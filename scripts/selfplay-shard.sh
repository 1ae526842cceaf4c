#!/usr/bin/env bash
# One self-play shard of training data: `selfplay-shard.sh VARIANT SHARD OUTDIR [EVAL]`.
# Shard k plays GAMES games with seed k; its file OUTDIR/VARIANT-SHARD.txt
# appears only when the shard is complete (written as .part, then renamed),
# so re-running skips finished shards: a killed run resumes where it stopped.
# EVAL: "classic" (generation 0), a weight file, or empty for the embedded
# weights. Environment: MOLKWAR (binary), GAMES (2000), NODES (1000),
# SPREAD (0.5: each move's node limit is drawn from NODES · (1 ± SPREAD),
# without which large runs repeat the same games; docs/training.md).
set -euo pipefail
variant=$1 shard=$2 outdir=$3 eval=${4:-}
bin=${MOLKWAR:-molkwar}
out="$outdir/$variant-$shard.txt"
[ -s "$out" ] && { echo "shard $shard of $variant: done already"; exit 0; }
mkdir -p "$outdir"
args=(selfplay --variant "$variant" --games "${GAMES:-2000}" --nodes "${NODES:-1000}"
      --nodes-spread "${SPREAD:-0.5}"
      --seed "$shard" --concurrency 1 --out "$out")
case "$eval" in
  "") ;;
  classic) args+=(--eval classic) ;;
  *) args+=(--eval-file "$eval") ;;
esac
exec "$bin" "${args[@]}"
