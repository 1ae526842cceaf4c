#!/usr/bin/env bash
# The clock matches of docs/time.md, each resumable:
#
#   scripts/clock-matches.sh TUNE_BINARY RELEASE_BINARY [MATCH...]
#
# TUNE_BINARY is a `--features tune` build, RELEASE_BINARY a plain one of
# the same commit. The matches, all of them by default, International, one
# thread a side, no adjudication (every game ends under the rules, so the
# endgame's many short moves are on the clock too):
#
#   tm25  Fischer 5 s + 0.05 s: 25 moves to go against the default 35,
#         shipped openings, books off; SPRT [0, 15], then on to 400 games
#   tm45  the same with 45 moves to go
#   mit   moves in time, 40 moves in 5 s repeating, from the start
#         position: book on against book off; SPRT [-20, 10], then on to
#         400 games
#
# An SPRT that decides before 400 games is continued without it (the same
# PDN, `match --resume`), its report in OUT/MATCH-400.txt, so every match
# has 400 games for the time-loss count and the time-use figures. One still
# undecided at 400 games goes on when run again with a larger GAMES.
#
# Environment [defaults]: OUT [clock], JOBS [2], GAMES [400].
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 TUNE_BINARY RELEASE_BINARY [tm25|tm45|mit]..." >&2; exit 2; }
tune=$(realpath "$1") release=$(realpath "$2")
shift 2
[ $# -gt 0 ] || set -- tm25 mit tm45
out=${OUT:-clock}
mkdir -p "$out"
start=$out/start.txt
echo "W:W31-50:B1-20" > "$start"
games=${GAMES:-400}
# Games of match $m already in its PDN.
played() { cat "$out/$m.pdn" 2>/dev/null | grep -c '^\[Result' || true; }
for m in "$@"; do
    case "$m" in
    tm25 | tm45)
        moves=${m#tm}
        args=(--engine1 "env MOLKWAR_TUNE_TM_MOVES=$moves $tune hub" --engine2 "$tune hub"
            --name1 "$m" --name2 tm35 --param1 book=false --param2 book=false
            --tc 5+0.05 --seed $((moves * 8)))
        sprt=(elo0=0 elo1=15 alpha=0.05 beta=0.05) ;;
    mit)
        args=(--engine1 "$release hub" --engine2 "$release hub" --name1 book --name2 nobook
            --param2 book=false --tc 40/5 --openings "$start" --seed 1)
        sprt=(elo0=-20 elo1=10 alpha=0.05 beta=0.05) ;;
    *) echo "error: unknown match $m" >&2; exit 2 ;;
    esac
    common=(--variant normal --concurrency "${JOBS:-2}" --pdn "$out/$m.pdn" --resume)
    echo "[$(date +%H:%M:%S)] $m" >&2
    if ! grep -q "^SPRT.*accepted" "$out/$m.txt" 2>/dev/null && [ "$(played)" -lt "$games" ]; then
        "$tune" match "${args[@]}" "${common[@]}" --games "$games" --sprt "${sprt[@]}" \
            >> "$out/$m.txt" 2>> "$out/$m.err"
    fi
    if [ "$(played)" -lt 400 ]; then
        "$tune" match "${args[@]}" "${common[@]}" --games 400 >> "$out/$m-400.txt" 2>> "$out/$m.err"
    fi
    grep -E "^(Score of|Elo difference|SPRT)" "$out/$m.txt" | tail -3 >&2
done
