#!/usr/bin/env python3
"""How the endings of a `molkwar match` went, against the tables.

For every game of a match PDN that reaches at most PIECES pieces: replays
it (with `molkwar show`) to the first position with at most PIECES pieces
where the side to move has no capture, searches that position to depth 4
with a Hub engine that has the tables, and counts (table value for the
engine named NAME, NAME's result). A "win" that ends in a draw is a win the
engine failed to convert, or one the draw rules took away (docs/egdb.md,
"A match with and without tables").

usage: egdb-endings.py PDN MOLKWAR TABLE_DIR NAME PIECES [VARIANT]
"""
import collections
import re
import subprocess
import sys

pdn, binary, tabdir, name, pieces = sys.argv[1:6]
pieces = int(pieces)
variant = sys.argv[6] if len(sys.argv) > 6 else "frisian"

games = []
for block in re.split(r"\n(?=\[Event )", open(pdn).read().strip()):
    tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', block))
    body = re.sub(r"\[[^\]]*\]", "", block)
    moves = [t for t in body.split() if not re.fullmatch(r"\d+\.+|0-2|2-0|1-1|\*", t)]
    games.append((tags, moves))


def show(fen, moves):
    """(pieces on the board, side to move, the side to move has a capture)."""
    out = subprocess.run(
        [binary, "show", "--variant", variant, "--fen", fen, "--moves", " ".join(moves)],
        capture_output=True, text=True, check=True).stdout
    f = re.search(r"^fen: (\S+)", out, re.M).group(1)
    n = sum(len(p.split(",")) for p in re.findall(r"[WB]([^:]*)", f[2:]) if p)
    capture = "x" in re.search(r"^moves:(.*)$", out, re.M).group(1)
    return n, f[0], capture


engine = subprocess.Popen([binary, "hub"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          text=True, bufsize=1)


def send(line):
    engine.stdin.write(line + "\n")
    engine.stdin.flush()


def until(word):
    lines = []
    while True:
        line = engine.stdout.readline()
        if not line:
            sys.exit("the engine exited")
        lines.append(line.strip())
        if line.startswith(word) or line.startswith("error"):
            return lines


send("hub")
until("wait")
send(f"set-param name=variant value={variant}")
send(f"set-param name=egdb-path value={tabdir}")
send(f"set-param name=egdb-pieces value={pieces}")
send("init")
until("ready")
send("level depth=4")

counts = collections.Counter()
rounds = collections.defaultdict(list)
for tags, moves in games:
    fen = tags["FEN"]
    if show(fen, moves)[0] > pieces:
        continue
    lo, hi = 0, len(moves)  # the first prefix with at most `pieces` pieces
    while lo < hi:
        mid = (lo + hi) // 2
        if show(fen, moves[:mid])[0] <= pieces:
            hi = mid
        else:
            lo = mid + 1
    k = lo
    while k < len(moves) and show(fen, moves[:k])[2]:
        k += 1
    result = {"2-0": "W", "0-2": "B", "1-1": "D"}[tags["Result"]]
    white = tags["White"] == name
    outcome = "draw" if result == "D" else ("win" if (result == "W") == white else "loss")
    if k >= len(moves):
        key = ("game over", outcome)
    else:
        send(f'pos pos={fen} moves="{" ".join(moves[:k])}"')
        send("go think")
        scores = [float(s) for line in until("done") for s in re.findall(r" score=(-?[\d.]+)", line)]
        side = show(fen, moves[:k])[1]
        if not scores:
            value = "?"
        else:
            s = scores[-1] if (side == "W") == white else -scores[-1]
            value = "win" if s >= 50 else "loss" if s <= -50 else "draw" if s == 0 else "no table value"
        key = (value, outcome)
    counts[key] += 1
    rounds[key].append(f'{tags["Round"]}:{tags.get("Termination", "")}')
send("quit")

print(f"table value at the first quiet position of at most {pieces} pieces, for {name} -> {name}'s result")
for key in sorted(counts):
    print(f"{key[0]:>15} -> {key[1]:<5} {counts[key]:4}  rounds: {', '.join(rounds[key][:20])}")
