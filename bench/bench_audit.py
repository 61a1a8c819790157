"""Print audit times (one finished game of each type, and a 10,000-event log) and import throughput.

Run: .venv/bin/python -m bench.bench_audit   (import uses REDIS_URL, default redis://127.0.0.1:6379/0)
"""

from __future__ import annotations

import os
import random
import time
import uuid

from redis import Redis

from domain.audit import audit
from domain.export import export_lines, header
from service.bootstrap import build
from tests.support.processes import remove_run
from tests.support.tables import new_table, play_randomly

GAMES = {"life-is-life": 4, "animals-on-board": 4, "bloede-kuh": 4, "zop-zoo": 4}


def long_life_is_life(target: int) -> list[dict]:
    """A finished Life is Life game of at least `target` events: trades only until then, then random play."""
    table = new_table("life-is-life", 5, seed="long")
    rng = random.Random(1)
    while table.game.version < target:
        game = table.game
        if game.system_due:
            table.advance()
            continue
        seat = min(game.to_act)
        trades = [a for a in game.legal_actions(seat) if a["type"] == "trade"]
        table.act(seat, rng.choice(trades))
    play_randomly(table, rng)
    return [event.to_dict() for event in table.log]


def timed_audit(events: list[dict]) -> float:
    start = time.perf_counter()
    report = audit(events)
    elapsed = time.perf_counter() - start
    assert report.ok, report
    return elapsed


def main() -> None:
    logs = {}
    for game_type, seats in GAMES.items():
        table = play_randomly(new_table(game_type, seats, seed=f"bench-{game_type}"), random.Random(3))
        logs[game_type] = [event.to_dict() for event in table.log]
        elapsed = timed_audit(logs[game_type])
        n = len(logs[game_type])
        print(f"audit {game_type:16} {n:6} events: {elapsed * 1000:8.1f} ms ({n / elapsed:,.0f} events/s)")
    # Long, but under the 5-seat game's event cap (6,000), where a game of nothing but trades would end.
    long = long_life_is_life(5_000)
    elapsed = timed_audit(long)
    print(f"audit life-is-life (long) {len(long):6} events: {elapsed:6.2f} s ({len(long) / elapsed:,.0f} events/s)")

    redis = Redis.from_url(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    prefix = f"bench-{uuid.uuid4().hex[:8]}"
    services = build(redis, prefix, inline_jobs=False)
    try:
        from domain.events import RecordedEvent
        from domain.game import replay

        game = replay(RecordedEvent.from_dict(e) for e in long)
        lines = list(export_lines(header(game, redacted=False), long))
        start = time.perf_counter()
        services.archive.import_lines(lines)
        elapsed = time.perf_counter() - start
        print(f"import (audit included) {len(long)} events: {elapsed:.2f} s ({len(long) / elapsed:,.0f} events/s)")
    finally:
        remove_run(redis, prefix)


if __name__ == "__main__":
    main()
