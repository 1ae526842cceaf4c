#!/usr/bin/env bash
# Real Hub clients against the release binary: installs pydraughts and
# py-draughts from PyPI into two virtual environments (both install a
# module called `draughts`) and plays complete games through their
# HubEngine classes (tests/clients/drive.py), then through pydraughts' DXP
# client against `molkwar dxp --listen` (tests/clients/dxp.py). Any
# failure, including a failed install, fails the run: nothing is skipped.
set -euo pipefail
cd "$(dirname "$0")/../.."
GAMES="${HUB_CLIENT_GAMES:-3}"
target="${CARGO_TARGET_DIR:-target}"
cargo build --release --locked
engine="$(realpath "$target/release/molkwar")"
venvs="$(mktemp -d "${TMPDIR:-/tmp}/molkwar-clients.XXXXXX")"
trap 'rm -rf "$venvs"' EXIT
# Endgame tables built on first use (docs/egdb.md) go here, not to $HOME.
export MOLKWAR_EGDB="$venvs/egdb"
for lib in pydraughts==0.6.7 py-draughts==1.10.1; do
    name="${lib%%==*}"
    python3 -m venv "$venvs/$name"
    "$venvs/$name/bin/pip" install --quiet --disable-pip-version-check "$lib"
done
status=0
"$venvs/pydraughts/bin/python" tests/clients/drive.py pydraughts "$engine" --games "$GAMES" || status=1
"$venvs/py-draughts/bin/python" tests/clients/drive.py py-draughts "$engine" --games "$GAMES" || status=1
# pydraughts' DXP client (a DXP initiator) against `molkwar dxp --listen`.
"$venvs/pydraughts/bin/python" tests/clients/dxp.py "$engine" --games "$GAMES" || status=1
exit $status
