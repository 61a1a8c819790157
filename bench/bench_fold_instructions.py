"""Instructions to fold a 2,000-event game (`domain.game.replay`), counted by callgrind.

Plays `bench_core.long_game` (Life is Life, 4 seats, random trades) to 2,000
events on a fakeredis store, once, and keeps its recorded events in a file; then
runs `python -m bench.bench_fold_instructions fold FILE N` under
`valgrind --tool=callgrind` for N = 0 and N = --folds, and prints the difference
over N: the instructions of one fold alone (loading the file, the imports and the
interpreter's start cancel out). Instructions do not depend on the machine's
load, so this is the figure to compare the rules compiled and pure by
(`MENAGERIE_PURE=1` runs the Python source; `domain.compiled_rules`).

Figures (Debian's python3.11, 2,000 events): the source 73.3 M a fold (36.6 k an
event); compiled (mypyc, `make setup`) 51.9 M (26.0 k an event), 0.71 of it.

Needs valgrind (`apt-get install -y valgrind`).
Run: .venv/bin/python -m bench.bench_fold_instructions [--folds 5] [--events 2000]
"""

from __future__ import annotations

import argparse
import os
import pickle
import subprocess
import sys
import tempfile
from pathlib import Path

from fakeredis import FakeRedis

from bench.bench_core import long_game
from bench.bench_server_instructions import total_instructions
from domain import compiled_rules
from domain.game import replay
from service.bootstrap import build


def record_game(path: Path, events: int) -> None:
    services = build(FakeRedis(), "bench-fold", inline_jobs=True)
    game_id, _ = long_game(services, 4, events, seed="bench-fold")
    path.write_bytes(pickle.dumps(list(services.store.read(game_id))))


def fold(path: Path, times: int) -> None:
    events = pickle.loads(path.read_bytes())
    for _ in range(times):
        replay(events)


def instructions(path: Path, times: int, out: Path) -> int:
    command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, "-m", __spec__.name]
    subprocess.run([*command, "fold", str(path), str(times)], check=True, capture_output=True)
    return total_instructions(out)


def main() -> None:
    if sys.argv[1:2] == ["fold"]:
        fold(Path(sys.argv[2]), int(sys.argv[3]))
        return
    parser = argparse.ArgumentParser()
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--events", type=int, default=2000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "events.pickle"
        record_game(path, args.events)
        count = len(pickle.loads(path.read_bytes()))
        base = instructions(path, 0, Path(tmp) / "base.out")
        total = instructions(path, args.folds, Path(tmp) / "folds.out")
    per_fold = (total - base) / args.folds
    mode = compiled_rules.MODE if os.environ.get("MENAGERIE_PURE") != "1" else "pure (MENAGERIE_PURE=1)"
    print(f"rules: {mode}")
    print(f"fold of {count:,} events: {per_fold / 1e6:.1f} M instructions ({per_fold / count / 1e3:.1f} k an event)")


if __name__ == "__main__":
    main()
