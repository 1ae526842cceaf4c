#!/usr/bin/env python3
"""Plays complete games through a real Hub client library against molkwar.

Usage: drive.py pydraughts|py-draughts ENGINE [--games N] [--max-plies P]

Each game is molkwar against molkwar (one engine process per side, as
lidraughts-bot does), in both variants, with the library's own board as
referee: every move the engine sends must be one of the board's legal
moves, every game must reach its end (or the ply cap, which is reported),
and no protocol error or unexpected line may appear. Exit status 0 only
when every game passed.
"""

import argparse
import logging
import os
import queue
import random
import stat
import sys
import tempfile
import threading
import time

FAILURES = []


def fail(msg):
    FAILURES.append(msg)
    print(f"FAIL: {msg}", flush=True)


class WarningCatcher(logging.Handler):
    """pydraughts reports protocol surprises as log warnings."""

    def emit(self, record):
        if record.levelno >= logging.WARNING:
            fail(f"pydraughts warning: {record.getMessage()}")


# ---------------------------------------------------------------- pydraughts

def run_pydraughts(engine_path, games, max_plies, rng):
    import draughts
    from draughts.engine import HubEngine, Limit

    logging.getLogger("pydraughts").addHandler(WarningCatcher())
    limits = [
        ("depth=4", lambda ply: Limit(depth=4)),
        ("move-time=0.05", lambda ply: Limit(movetime=0.05)),
        # Fischer clock as lidraughts-bot sends it: time-inc may be negative.
        ("time=0.5+0.1", lambda ply: Limit(time=0.5 if ply < 40 else 0.05, inc=0.1)),
    ]
    for variant in ("standard", "frisian"):
        for g in range(games):
            name, limit = limits[g % len(limits)]
            board = draughts.Board(variant=variant)
            # lidraughts-bot style launch: extra --name=value arguments.
            engines = [
                HubEngine([engine_path, "hub", "--threads=1", "--unknown-option=7"]),
                HubEngine([engine_path, "hub"]),
            ]
            for e in engines:
                e.configure({"initial-time": 60, "variant": variant, "threads": 1})
            # Every other game Black plays at a low strength level, as a
            # lidraughts bot offering levels does.
            weak = g % 2 == 1
            if weak:
                engines[1].configure({"level": "easy"})
            for e in engines:
                e.init()
            stuck = False
            plies, label = 0, f"pydraughts {variant} game {g + 1} ({name}{', Black at level easy' if weak else ''})"
            try:
                # Two random opening plies for variety.
                for _ in range(2):
                    board.push(rng.choice(board.legal_moves()))
                    plies += 1
                while not board.is_over() and plies < max_plies:
                    legal = {m.hub_move for m in board.legal_moves()}
                    if not legal:
                        # pydraughts 0.6.7's is_over() counts the pieces
                        # that can move and so misses its own Frisian rule
                        # (the same king may not make a fourth quiet move
                        # in a row, docs/rules.md §6): its board has no
                        # legal move, the side to move has lost, and an
                        # engine asked to move there can only answer with
                        # an error.
                        stuck = True
                        break
                    e = engines[0 if board.turn == draughts.WHITE else 1]
                    res = e.play(board, limit(plies), ponder=False)
                    mv = res.move.hub_move
                    if mv not in legal:
                        fail(f"{label}: illegal move {mv} at ply {plies} (legal: {sorted(legal)})")
                        break
                    board.push(res.move)
                    plies += 1
            except Exception as ex:  # noqa: BLE001 - report and go on
                fail(f"{label}: {type(ex).__name__}: {ex}")
            finally:
                for e in engines:
                    try:
                        e.quit()
                        e.p.wait(timeout=5)
                        e.p.stdin.close()
                        e.p.stdout.close()
                    except Exception as ex:  # noqa: BLE001
                        fail(f"{label}: engine did not quit: {ex}")
            winner = board.winner()
            if stuck:
                winner = "1-0 (Black has no legal move)" if board.turn == draughts.BLACK else "0-1 (White has no legal move)"
            report(label, board.is_over() or stuck, winner, plies, max_plies)


# --------------------------------------------------------------- py-draughts

def patched_hub_engine():
    """py-draughts 1.10.1 select()s on the pipe and then readline()s from
    the buffered text stream: when the engine's lines arrive together, the
    later ones sit in Python's buffer while select() waits for more bytes,
    and start() times out. The workaround reads stdout on a thread."""
    from draughts.engines.hub import HubEngine

    class Patched(HubEngine):
        def start(self):
            self._lines = None
            super().start()

        def _read_line(self, timeout=1.0):
            if self.process is None:
                return None
            if getattr(self, "_lines", None) is None:
                self._lines = queue.Queue()
                out = self.process.stdout

                def pump(q=self._lines):
                    for line in out:
                        q.put(line.strip())
                    q.put(None)

                threading.Thread(target=pump, daemon=True).start()
            try:
                line = self._lines.get(timeout=timeout)
            except queue.Empty:
                return None
            if line is None:
                raise RuntimeError("engine closed its stdout")
            if line and line.split()[0] not in ("id", "param", "wait", "ready", "info", "done", "pong"):
                fail(f"py-draughts: unexpected engine line: {line}")
            return line

    return Patched


def run_py_draughts(engine_path, games, max_plies, rng):
    from draughts import FrisianBoard, StandardBoard
    from draughts.models import Color

    Patched = patched_hub_engine()
    tmp = tempfile.mkdtemp(prefix="molkwar-pyd-")
    for variant, board_cls in (("normal", StandardBoard), ("frisian", FrisianBoard)):
        # py-draughts never sends set-param: it launches [path, "hub"], so a
        # wrapper passes the variant as a command-line parameter.
        wrapper = os.path.join(tmp, f"molkwar-{variant}")
        with open(wrapper, "w") as f:
            f.write(f'#!/bin/sh\nexec "{engine_path}" hub --variant={variant} "$@"\n')
        os.chmod(wrapper, os.stat(wrapper).st_mode | stat.S_IEXEC)
        for g in range(games):
            kw = {"depth_limit": 4} if g % 2 == 0 else {"time_limit": 0.05}
            label = f"py-draughts {variant} game {g + 1} ({kw})"
            board = board_cls()
            engines = [Patched(wrapper, **kw), Patched(wrapper, **kw)]
            plies = 0
            try:
                t0 = time.time()
                for e in engines:
                    e.start()
                if time.time() - t0 > 5:
                    fail(f"{label}: start-up took {time.time() - t0:.1f} s")
                for _ in range(2):
                    board.push(rng.choice(list(board.legal_moves)))
                    plies += 1
                while not board.game_over and plies < max_plies:
                    legal = list(board.legal_moves)
                    e = engines[0 if board.turn == Color.WHITE else 1]
                    mv = e.get_best_move(board)  # raises if not among the legal moves
                    if mv not in legal:
                        fail(f"{label}: illegal move {mv} at ply {plies}")
                        break
                    board.push(mv)
                    plies += 1
            except Exception as ex:  # noqa: BLE001
                fail(f"{label}: {type(ex).__name__}: {ex}")
            finally:
                for e in engines:
                    proc = e.process
                    e.quit()
                    if proc is not None:
                        if proc.poll() is None:
                            fail(f"{label}: engine still running after quit")
                            proc.kill()
                        for pipe in (proc.stdin, proc.stdout, proc.stderr):
                            if pipe:
                                pipe.close()
            report(label, board.game_over, board.result, plies, max_plies)


def report(label, over, result, plies, max_plies):
    if over:
        print(f"ok: {label}: finished after {plies} plies, result {result}", flush=True)
    elif plies >= max_plies:
        print(f"ok: {label}: stopped by the cap of {max_plies} plies", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("library", choices=["pydraughts", "py-draughts"])
    ap.add_argument("engine")
    ap.add_argument("--games", type=int, default=3, help="games per variant")
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    engine = os.path.realpath(a.engine)
    rng = random.Random(a.seed)
    t0 = time.time()
    if a.library == "pydraughts":
        run_pydraughts(engine, a.games, a.max_plies, rng)
    else:
        run_py_draughts(engine, a.games, a.max_plies, rng)
    print(f"{a.library}: {len(FAILURES)} failure(s) in {time.time() - t0:.0f} s", flush=True)
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
