"""Print the core's figures on the real Redis at REDIS_URL (default redis://127.0.0.1:6379/0).

- appends/s through the store (one event per append, one client) as a ratio of raw XADD/s;
- replay (read + decode + fold) of stored events, events/s;
- time to serve a seat's view (GET /games/{id}) for a game at 100 vs 2,000 events.

Run: .venv/bin/python -m bench.bench_core   (keys go under a fresh prefix and are removed)
"""

from __future__ import annotations

import json
import os
import random
import time
import uuid

from redis import Redis

from domain.events import GENESIS_HASH, Event, record
from domain.game import replay
from service.bootstrap import build
from service.http import create_app
from tests.support.processes import remove_run

N_APPENDS = 5000


def append_ratio(redis: Redis, prefix: str) -> None:
    """Compare store appends with raw XADDs of the same payload size."""
    services = build(redis, prefix, inline_jobs=True)
    store = services.store
    previous, events = GENESIS_HASH, []
    for seq in range(1, N_APPENDS + 1):
        batch = record(
            [Event("Noted", {"i": seq, "cards": ["giraffe", "bear", "mole"]}, 0)],
            after_seq=seq - 1,
            previous_hash=previous,
            time="2026-01-01T00:00:00.000Z",
            command_id=uuid.uuid4().hex,
            command={"kind": "act", "seat": 0, "action": {"type": "trade", "row": 3}},
        )
        previous = batch[-1].hash
        events.append(batch)
    payload = json.dumps(events[0][0].to_dict())
    for _ in range(1000):  # warm the connection and the script cache
        redis.ping()
    raw_time = ours_time = 0.0
    # Interleave blocks of both so that load from elsewhere hits both alike.
    block = 500
    for first in range(0, N_APPENDS, block):
        start = time.perf_counter()
        for seq in range(first + 1, first + block + 1):
            redis.xadd(f"{prefix}:raw", {"e": payload}, id=f"{seq}-0")
        raw_time += time.perf_counter() - start
        start = time.perf_counter()
        for seq in range(first, first + block):
            store.append("bench-append", events[seq], expected_version=seq)
        ours_time += time.perf_counter() - start
    raw, ours = N_APPENDS / raw_time, N_APPENDS / ours_time
    print(
        f"append: {ours:,.0f} appends/s through the store vs {raw:,.0f} raw XADD/s -> ratio {ours / raw:.2f} (target >= 0.5)"
    )


def long_game(services, seats: int, target: int, seed: str) -> tuple[str, str]:
    """Play random trades (never a knock, so phases run long) until the game has `target` events."""
    while True:
        game, tokens = services.games.create("life-is-life", [{"name": f"p{i}"} for i in range(seats)], {}, seed=seed)
        rng = random.Random(seed)
        while True:
            game = services.repository.load(game.id)
            if game.status == "finished":
                seed += "+"
                break
            if game.version >= target:
                return game.id, tokens[0]["token"]
            seat = min(game.to_act)
            trades = [a for a in game.legal_actions(seat) if a["type"] == "trade"]
            services.games.act(game.id, seat, rng.choice(trades or game.legal_actions(seat)))


def replay_rate(services, game_id: str) -> None:
    """Read, decode and fold a stored game, repeatedly."""
    total = 0
    start = time.perf_counter()
    while time.perf_counter() - start < 3:
        events = services.store.read(game_id)
        replay(events)
        total += len(events)
    rate = total / (time.perf_counter() - start)
    events = services.store.read(game_id)
    start = time.perf_counter()
    for _ in range(20):
        replay(events)
    fold = 20 * len(events) / (time.perf_counter() - start)
    print(f"replay: {rate:,.0f} events/s read+decode+fold, {fold:,.0f} events/s fold alone (target >= 100,000)")


def view_time(client, game_id: str, token: str, repeats: int = 300) -> float:
    headers = {"Authorization": f"Bearer {token}"}
    assert client.get(f"/games/{game_id}", headers=headers).status_code == 200  # warm the cache
    start = time.perf_counter()
    for _ in range(repeats):
        client.get(f"/games/{game_id}", headers=headers)
    return (time.perf_counter() - start) / repeats


def view_ratio(redis: Redis, prefix: str) -> None:
    """Serve a seat's view of a 100-event and a 2,000-event game."""
    services = build(redis, prefix, inline_jobs=True)
    client = create_app(services, {"RATE_LIMITS_ENABLED": False}).test_client()
    timings = {}
    ids = {}
    for target in (100, 2000):
        ids[target], token = long_game(services, 4, target, seed=f"bench-{target}")
        timings[target] = view_time(client, ids[target], token)
    replay_rate(services, ids[2000])
    small, large = timings[100], timings[2000]
    print(
        f"view: {small * 1000:.2f} ms at 100 events, {large * 1000:.2f} ms at 2,000 events -> ratio {large / small:.2f} (target <= 1.5)"
    )


def main() -> None:
    redis = Redis.from_url(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    prefix = f"bench-{uuid.uuid4().hex[:8]}"
    try:
        append_ratio(redis, prefix)
        view_ratio(redis, prefix)
    finally:
        remove_run(redis, prefix)


if __name__ == "__main__":
    main()
