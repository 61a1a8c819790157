"""Print the figures of a tournament's audit: bundle size, export and offline audit times, and the audit route's
time to answer, in the request (all sizes audited inline) against a job (202, polled to its result).

Runs a Swiss Blöde Kuh bot tournament in-process (fakeredis, in-process jobs), exports its
bundle and audits it as `menagerie audit-tournament` does; then asks `GET /tournaments/{id}/audit`
of a server that audits it in the request, and of one that runs it as a job on the embedded
server's audit thread (polled every 0.25 s), and asks once more for the kept result.
Run: .venv/bin/python bench/bench_tournament_audit.py [players] [rounds]

On the 2-core machine shared with other work, `bench/bench_tournament_audit.py 200 5` (twice):
    bloede-kuh swiss, 200 players, 5 rounds: played in 90.4 s
    bundle: 170 games, 61,025 lines, 25.6 MB, exported in 3.26 s
    offline audit: PASS in 10.66 s
    in the request: 200 after 14.30 s                       (the other run: 12.41 s)
    as a job: 202 after 0.074 s; done after 17.17 s (polled 59 times; 170 of 170 games)
                                                             (the other run: 0.048 s; 13.23 s)
    asked again: 200 (kept) after 0.010 s                   (the other run: 0.001 s)
The request answers in tens of milliseconds instead of 12-14 s; the audit itself takes as long
as it did (what it costs moved to the audit thread, sharing the process with the polls).
"""

from __future__ import annotations

import logging
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import fakeredis  # noqa: E402

from domain.tournament.audit import audit_bundle  # noqa: E402
from domain.tournament.bundle import read_bundle  # noqa: E402
from service.bootstrap import Services, build  # noqa: E402
from service.cli.tournament import run_tournament  # noqa: E402
from service.http import create_app  # noqa: E402

PREFIX = "bench"


def server(redis: fakeredis.FakeRedis, inline_games: int | None = None) -> Services:
    """Build a server's services on the bench's store: audits inline up to `inline_games`, or the default."""
    if inline_games is not None:
        os.environ["MENAGERIE_AUDIT_INLINE_GAMES"] = str(inline_games)
    try:
        return build(redis, PREFIX, inline_jobs=True, embedded=True, background_jobs=True)
    finally:
        os.environ.pop("MENAGERIE_AUDIT_INLINE_GAMES", None)


def main(players: int = 24, rounds: int = 5) -> None:
    """Run, export and audit one tournament offline and through the route; print the figures."""
    logging.getLogger().setLevel(logging.WARNING)
    redis = fakeredis.FakeRedis()
    services = build(redis, PREFIX, inline_jobs=True, embedded=True)
    start = time.perf_counter()
    view = run_tournament(
        services, "bloede-kuh", players, rounds, ["heuristic", "random"], seed="bench", out=open("/dev/null", "w")
    )
    played = time.perf_counter() - start
    start = time.perf_counter()
    lines = list(services.tournament_files.export(view["id"]))
    exported = time.perf_counter() - start
    size = sum(len(line.encode()) for line in lines)
    start = time.perf_counter()
    report = audit_bundle(read_bundle(lines))
    audited = time.perf_counter() - start
    print(f"bloede-kuh swiss, {players} players, {rounds} rounds: played in {played:.1f} s")
    print(f"bundle: {report.games} games, {len(lines):,} lines, {size / 1e6:.1f} MB, exported in {exported:.2f} s")
    print(f"offline audit: {'PASS' if report.ok else 'FAIL ' + str(report.reason)} in {audited:.2f} s")

    path = f"/tournaments/{view['id']}/audit"
    inline = create_app(server(redis, inline_games=10**9)).test_client()
    start = time.perf_counter()
    response = inline.get(path)
    print(f"in the request: {response.status_code} after {time.perf_counter() - start:.2f} s")

    client = create_app(server(redis)).test_client()
    start = time.perf_counter()
    response = client.get(path)
    answered = time.perf_counter() - start
    location, polls, job = response.headers.get("Location"), 0, response.json
    while job.get("status") in ("queued", "running"):
        time.sleep(0.25)
        job, polls = client.get(location).json, polls + 1
    total = time.perf_counter() - start
    progress = job.get("progress", {})
    print(
        f"as a job: {response.status_code} after {answered:.3f} s; {job.get('status')} after {total:.2f} s"
        f" (polled {polls} times; {progress.get('done')} of {progress.get('total')} {progress.get('unit')})"
    )
    start = time.perf_counter()
    again = client.get(path)
    kept = "(kept)" if "Content-Location" in again.headers else ""
    print(f"asked again: {again.status_code} {kept} after {time.perf_counter() - start:.3f} s")


if __name__ == "__main__":
    main(*(int(arg) for arg in sys.argv[1:3]))
