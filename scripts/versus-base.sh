#!/usr/bin/env bash
# The benchmark matches of a build against a base build, each resumable:
#
#   scripts/versus-base.sh NEW OLD [MATCH...]
#
# NEW and OLD are molkwar binaries (NEW plays with its book off; a base
# from before the book has none). The matches, all of them by default:
#
#   n01  International, 0.1 s a move, 400 games
#   f01  Frisian,       0.1 s a move, 400 games
#   n1   International, 1 s a move,   200 games
#
# Each plays the shipped openings from SEED, both colours, 1 thread a
# side, adjudicated as the generation gates, into OUT/MATCH.pdn with the
# report appended to OUT/MATCH.txt (stderr to OUT/MATCH.err). A killed
# match continues where it stopped when the same command runs again
# (`match --resume`); a finished one just prints its report again.
#
# ROUNDS=FIRST-LAST plays only those rounds (`match --rounds`): a match
# longer than a session, such as n1, can be split between sessions or
# machines; concatenated, the slices' PDN files resume as the whole match.
#
# Environment [defaults]: OUT [versus], JOBS [2], SEED [100], ROUNDS [all].
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 NEW OLD [n01|f01|n1]..." >&2; exit 2; }
new=$(realpath "$1") old=$(realpath "$2")
shift 2
[ $# -gt 0 ] || set -- n01 f01 n1
out=${OUT:-versus}
mkdir -p "$out"
for m in "$@"; do
    case "$m" in
    n01) variant=normal tc=move-time=0.1 games=400 ;;
    f01) variant=frisian tc=move-time=0.1 games=400 ;;
    n1) variant=normal tc=move-time=1 games=200 ;;
    *) echo "error: unknown match '$m' (n01, f01 or n1)" >&2; exit 2 ;;
    esac
    echo "[$(date +%H:%M:%S)] $m: $variant, $tc, $games games" >&2
    "$new" match --variant "$variant" --engine1 "$new hub" --engine2 "$old hub" \
        --name1 new --name2 base --param1 book=false \
        --tc "$tc" --games "$games" --concurrency "${JOBS:-2}" --seed "${SEED:-100}" \
        --resign-score 3 --draw-score 0.05 --draw-moves 15 --draw-after 60 \
        ${ROUNDS:+--rounds "$ROUNDS"} \
        --pdn "$out/$m.pdn" --resume >> "$out/$m.txt" 2>> "$out/$m.err"
    grep -E "^(Score of|Elo difference)" "$out/$m.txt" | tail -2 >&2
done
