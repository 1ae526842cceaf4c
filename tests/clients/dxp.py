#!/usr/bin/env python3
"""Plays games through pydraughts' DXP client against `molkwar dxp --listen`.

Usage: dxp.py ENGINE [--games N] [--max-plies P]

pydraughts' DXPEngine is a DXP initiator written by other people: it sends
GAMEREQ, MOVE and GAMEEND and reads molkwar's answers. Each game is played
on a new connection: pydraughts plays random legal moves for White, molkwar
answers for Black, and pydraughts' board is the referee (every move molkwar
sends must be legal there). The game ends when the board says so or at the
ply cap; pydraughts then ends it with GAMEEND. molkwar (--connections N)
must print one line per game and exit with status 0. Exit status 0 only
when every game passed.
"""

import argparse
import random
import subprocess
import sys
import threading

import draughts
from draughts.engine import DXPEngine


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--max-plies", type=int, default=200)
    a = ap.parse_args()
    proc = subprocess.Popen(
        [a.engine, "dxp", "--listen", "127.0.0.1:0", "--connections", str(a.games),
         "--nodes", "2000"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # A failure guard: a stuck run is killed instead of hanging CI.
    timer = threading.Timer(600, proc.kill)
    timer.start()
    first = proc.stdout.readline()
    if "listening on" not in first:
        print(f"FAIL: no 'listening on' line: {first!r}")
        proc.kill()
        return 1
    port = first.rsplit(":", 1)[1].strip()
    failures = []
    rng = random.Random(11)
    for g in range(a.games):
        board = draughts.Board(variant="standard")
        eng = DXPEngine(options={"engine-opened": True, "ip": "127.0.0.1", "port": port},
                        initial_time=60)
        plies = 0
        while not board.is_over() and plies < a.max_plies:
            if board.turn == draughts.WHITE:
                board.push(rng.choice(board.legal_moves()))
            else:
                r = eng.play(board)
                legal = [m.pdn_move for m in board.legal_moves()]
                if r.move is None or r.move.pdn_move not in legal:
                    failures.append(f"game {g + 1}: molkwar sent {r.move} (legal: {legal})")
                    break
                board.push(r.move)
            plies += 1
        eng.quit()
        print(f"dxp game {g + 1}: {plies} plies, over={board.is_over()}, "
              f"engine {eng.id.get('name')!r}", flush=True)
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        failures.append("molkwar did not exit after its connections")
    timer.cancel()
    lines = [l for l in out.splitlines() if l.startswith("game ")]
    print("\n".join(lines))
    if proc.returncode != 0:
        failures.append(f"molkwar exited with {proc.returncode}: {err}")
    if len(lines) != a.games:
        failures.append(f"molkwar reported {len(lines)} games, expected {a.games}")
    if "panicked" in err:
        failures.append(f"molkwar panicked: {err}")
    for f in failures:
        print(f"FAIL: {f}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
