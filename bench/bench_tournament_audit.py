"""Print the figures of a tournament bundle: size, export time, offline audit time, ratings rebuild time.

Runs a 24-player, 5-round Swiss Blöde Kuh bot tournament in-process (fakeredis,
inline jobs), exports its bundle and audits it as `menagerie audit-tournament` does.
Run: .venv/bin/python bench/bench_tournament_audit.py [players] [rounds]
"""

from __future__ import annotations

import logging
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import fakeredis  # noqa: E402

from domain.tournament.audit import audit_bundle  # noqa: E402
from domain.tournament.bundle import read_bundle  # noqa: E402
from service.bootstrap import build  # noqa: E402
from service.cli.tournament import run_tournament  # noqa: E402


def main(players: int = 24, rounds: int = 5) -> None:
    """Run, export and audit one tournament; print the figures."""
    logging.getLogger().setLevel(logging.WARNING)
    services = build(fakeredis.FakeRedis(), "bench", inline_jobs=True, embedded=True)
    start = time.perf_counter()
    view = run_tournament(
        services, "bloede-kuh", players, rounds, ["heuristic", "random"], seed="bench", out=open("/dev/null", "w")
    )
    played = time.perf_counter() - start
    start = time.perf_counter()
    lines = list(services.tournament_files().export(view["id"]))
    exported = time.perf_counter() - start
    size = sum(len(line.encode()) for line in lines)
    start = time.perf_counter()
    report = audit_bundle(read_bundle(lines))
    audited = time.perf_counter() - start
    print(f"bloede-kuh swiss, {players} players, {rounds} rounds: played in {played:.2f} s")
    print(f"bundle: {report.games} games, {len(lines)} lines, {size / 1e6:.2f} MB, exported in {exported:.2f} s")
    print(f"offline audit: {'PASS' if report.ok else 'FAIL ' + str(report.reason)} in {audited:.2f} s")


if __name__ == "__main__":
    main(*(int(arg) for arg in sys.argv[1:3]))
