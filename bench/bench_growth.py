"""Cost as work grows: a view and a move at ~100 vs ~10,000 events; the lobby and a leaderboard among 100,000 games.

On the Redis at REDIS_URL, under a key prefix of its own (removed at the end),
through the Flask app (test client, in process: no HTTP server in the figures).

- Events: two Zop Zoo games for two human seats with the largest target allowed
  (1,000 points), played through the game service (the first legal action
  each turn but a mole's dig, see `pick`; the system's steps run in process)
  to ~100 and ~10,000 events. Since targets are bounded, a game of 10,000
  events is a rare one (the longest heuristic games end near 2,000,
  `bench/game_lengths.py`) and may end before it: then ask for fewer `--events`.
  Then, on a warm app, a GET of the acting seat's view and a POST of its first
  legal action, many times each, in one game then the other (so a change in
  the machine's load falls on both alike): median CPU (this thread's clock) and
  wall time a request at each size, and their ratio (target <= 1.2). The first view
  in a fresh process (a replay of the whole stream) is printed beside them.
- Listing: `--games` (100,000) games created through the store (waiting games:
  each its GameCreated, appended by the store's script, and listed in the
  directory through a pipeline), then `GET /games` pages (the first, one deep
  in the index) and `GET /leaderboards/<game>` with `--rated` (10,000) rated
  games (`GameRated` appended through the ratings' command path), warm, cold (from
  the ratings' snapshot and the events after it) and cold without the snapshot.
  Takes a few minutes.

Run: REDIS_URL=redis://127.0.0.1:6379/0 .venv/bin/python -m bench.bench_growth [--games 100000] [--events 10000] [--rated 10000]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from functools import partial
from typing import Any

from redis import Redis

from domain.chance import seed_commitment
from domain.game import Game, decide
from domain.ratings import aggregate_id
from domain.ratings import decide as rate
from domain.sealing import Sealer
from service.adapters.indexes import Directory
from service.application.commands import Decision
from service.bootstrap import Services, build
from service.http import create_app
from tests.support.processes import remove_run

TARGET = {"target": 1000}  # the largest the option allows: the longest games
REPEATS = 100
WARMUP = 10


def grow(services: Services, events: int) -> tuple[str, dict[int, str]]:
    """Return a two-seat Zop Zoo game played to at least `events` events, and its seat tokens."""
    game, tokens = services.games.create("zop-zoo", [{"name": "ann"}, {"name": "bob"}], TARGET, seed=f"grow-{events}")
    while game.version < events:
        seat = min(game.to_act)
        services.games.act(game.id, seat, pick(game.legal_actions(seat)))
        game = services.repository.load(game.id)
    return game.id, {t["seat"]: t["token"] for t in tokens}


def pick(actions: list[dict[str, Any]]) -> dict[str, Any]:
    """Return the first legal action that does not dig with a mole (else the first).

    The first legal action alone uses the mole turn after turn, forever in
    round 1: a long game of that kind is one endless round. Declining the mole
    plays rounds (about one every 150 events), as a long real game does, so the
    view's list of round results grows with the game.
    """
    return next((action for action in actions if action["type"] != "use_mole"), actions[0])


def timed(call: Callable[[], Any]) -> tuple[float, float, Any]:
    """Return the CPU and wall milliseconds of one call, and its result."""
    cpu, wall = time.thread_time(), time.perf_counter()
    result = call()
    return 1000 * (time.thread_time() - cpu), 1000 * (time.perf_counter() - wall), result


class Player:
    """Both seats of one game, played through the app: a GET of the acting seat's view, then a POST of its `pick`."""

    def __init__(self, client: Any, game_id: str, tokens: dict[int, str]) -> None:
        self.client, self.game_id, self.tokens, self.seat = client, game_id, tokens, 0
        self.gets: list[tuple[float, float]] = []
        self.posts: list[tuple[float, float]] = []
        self.sizes: list[int] = []
        self.batches: list[int] = []
        self.view: dict[str, Any] = {}

    def move(self) -> None:
        """Time one GET and one POST of the seat to act (untimed GETs find that seat)."""
        while True:
            headers = {"Authorization": f"Bearer {self.tokens[self.seat]}"}
            cpu, wall, response = timed(partial(self.client.get, f"/games/{self.game_id}", headers=headers))
            self.view = response.json
            if self.seat in self.view["to_act"]:
                break
            self.seat = self.view["to_act"][0]
        self.gets.append((cpu, wall))
        self.sizes.append(len(response.data))
        body = {"action": pick(self.view["legal_actions"]), "expected_version": self.view["version"]}
        path = f"/games/{self.game_id}/actions"
        cpu, wall, response = timed(partial(self.client.post, path, json=body, headers=headers))
        assert response.status_code == 200, response.json
        self.posts.append((cpu, wall))
        self.batches.append(len(response.json["events"]))
        self.seat = 1 - self.seat

    def figures(self) -> dict[str, float]:
        """Return the median CPU and wall ms of a view GET and an action POST, the view's size and round."""
        return {
            "get_cpu": statistics.median(c for c, _ in self.gets),
            "get_wall": statistics.median(w for _, w in self.gets),
            "post_cpu": statistics.median(c for c, _ in self.posts),
            "post_wall": statistics.median(w for _, w in self.posts),
            "view_bytes": statistics.median(self.sizes),
            "events_a_move": statistics.mean(self.batches),
            "round": self.view["state"]["round"],
            "results": len(self.view["state"]["results"]),
        }


def play(players: list[Player], repeats: int) -> list[dict[str, float]]:
    """Move in each game in turn, `repeats` times: the machine's load drifts over all of them alike."""
    for _ in range(repeats):
        for player in players:
            player.move()
    return [player.figures() for player in players]


def fill_games(services: Services, redis: Redis, count: int) -> None:
    """Create `count` waiting games (GameCreated only) through the store; list them through a pipeline."""
    pipe = redis.pipeline(transaction=False)
    listed = Directory(pipe, services.prefix)  # type: ignore[arg-type]
    now = time.time()
    for n in range(count):
        game_id = f"g{n:015x}"
        seed = f"fill-{n}"
        command = {
            "kind": "create",
            "id": game_id,
            "game": "bloede-kuh",
            "seats": [None, None, None],
            "options": {},
            "seed_commitment": seed_commitment(seed),
        }
        services.games.commands.create(
            game_id, Game(id=game_id), Decision(command, decide(Game(), command, seed), Sealer("bloede-kuh", seed))
        )
        listed.add_game(game_id, now + n / 1000)
        if n % 5000 == 4999:
            pipe.execute()
    pipe.execute()


def fill_ratings(services: Services, count: int, players: int = 500) -> None:
    """Rate `count` games of Blöde Kuh among `players` names, each appended through the ratings' command path."""
    stream = aggregate_id("bloede-kuh")
    for n in range(count):
        seated = [f"p{(n * 7 + k * 13) % players}" for k in range(3)]
        places = [1 + (n + k) % 3 for k in range(3)]
        services.ratings.commands.run(
            stream,
            lambda table, g=f"r{n}", s=seated, p=places: Decision(
                {"kind": "rate", "game_id": g}, [rate(table, g, s, p)]
            ),
            optimistic=True,
        )


def median_ms(call: Callable[[], Any], repeats: int = 20) -> tuple[float, float]:
    """Return the median CPU and wall ms of a call."""
    runs = [timed(call)[:2] for _ in range(repeats)]
    return statistics.median(c for c, _ in runs), statistics.median(w for _, w in runs)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--events", type=int, default=10_000)
    # Rating appends one event a game through the command path (a few ms each): fewer than the games, by default.
    parser.add_argument("--rated", type=int, default=10_000)
    args = parser.parse_args()
    url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    redis = Redis.from_url(url)
    prefix = f"bench-growth-{uuid.uuid4().hex[:8]}"
    no_limits = {"RATE_LIMITS_ENABLED": False}
    try:
        services = build(redis, prefix, inline_jobs=True)
        started = time.perf_counter()
        small, large = grow(services, 100), grow(services, args.events)
        grown = time.perf_counter() - started
        print(f"Redis {url}, prefix {prefix}; games grown to 100 and {args.events} events in {grown:.0f} s")
        labels, players, colds = ("~100", f"~{args.events}"), [], []
        for game_id, tokens in (small, large):
            # A fresh app in a fresh process would replay the whole stream once: its first view.
            cold = create_app(build(redis, prefix, inline_jobs=True), no_limits).test_client()
            first_view = partial(cold.get, f"/games/{game_id}", headers={"Authorization": f"Bearer {tokens[0]}"})
            colds.append(timed(first_view)[:2])
            players.append(Player(cold, game_id, tokens))
        play(players, WARMUP)
        figures = dict(zip(labels, play([Player(p.client, p.game_id, p.tokens) for p in players], REPEATS)))
        for label, (game_id, _), (cold_cpu, cold_wall) in zip(labels, (small, large), colds):
            version = services.repository.load(game_id).version
            f = figures[label]
            print(
                f"{label:>7} events (now {version}): view GET {f['get_cpu']:.2f} ms CPU / {f['get_wall']:.2f} ms wall,"
                f" action POST {f['post_cpu']:.2f} / {f['post_wall']:.2f} ms; first view in a fresh process"
                f" {cold_cpu:.0f} / {cold_wall:.0f} ms; a view {f['view_bytes']:.0f} bytes (round {f['round']},"
                f" {f['results']} results), {f['events_a_move']:.1f} events a move"
            )
        a, b = figures["~100"], figures[f"~{args.events}"]
        print(
            f"ratio {args.events} / 100 (CPU): view {b['get_cpu'] / a['get_cpu']:.2f}, action {b['post_cpu'] / a['post_cpu']:.2f}"
            f" (wall: {b['get_wall'] / a['get_wall']:.2f}, {b['post_wall'] / a['post_wall']:.2f}); target <= 1.2"
        )

        started = time.perf_counter()
        fill_games(services, redis, args.games)
        print(f"filled {args.games} games in {time.perf_counter() - started:.0f} s")
        started = time.perf_counter()
        fill_ratings(services, args.rated)
        print(f"rated {args.rated} games in {time.perf_counter() - started:.0f} s")
        client = create_app(build(redis, prefix, inline_jobs=True), no_limits).test_client()
        first = timed(lambda: client.get("/games"))
        deep = args.games // 2  # a cursor counts the older games still to come: a page from the middle
        for label, path in (("GET /games", "/games"), (f"GET /games?cursor={deep}", f"/games?cursor={deep}&limit=50")):
            response = client.get(path)
            assert response.status_code == 200 and len(response.json["games"]) == 50, response.json
            cpu, wall = median_ms(partial(client.get, path))
            print(f"{label:>28}: {cpu:.1f} ms CPU / {wall:.1f} ms wall a page of 50 (warm)")
        print(
            f"{'GET /games, first in a process':>28}: {first[0]:.0f} ms CPU / {first[1]:.0f} ms wall (cold: 50 streams replayed)"
        )
        board = "/leaderboards/bloede-kuh?limit=100"
        cold_cpu, cold_wall, response = timed(lambda: client.get(board))
        assert response.status_code == 200 and response.json["rated_games"] == args.rated, response.json
        cpu, wall = median_ms(lambda: client.get(board))
        stream = aggregate_id("bloede-kuh")
        snapshot = services.ratings.snapshots.load(stream)
        behind = args.rated - (snapshot.version if snapshot else 0)
        print(
            f"{'GET ' + board:>28}: {cpu:.1f} ms CPU / {wall:.1f} ms wall (warm); first in a process {cold_cpu:.0f} / {cold_wall:.0f} ms"
            f" (its snapshot, {behind} events after it)"
        )
        # Without its snapshot, a fresh process replays the whole ratings stream (and writes the snapshot again).
        redis.delete(services.ratings.snapshots.key(stream))
        replaying = create_app(build(redis, prefix, inline_jobs=True), no_limits).test_client()
        cold_cpu, cold_wall, response = timed(lambda: replaying.get(board))
        assert response.status_code == 200 and response.json["rated_games"] == args.rated, response.json
        print(f"{'the same without its snapshot':>28}: {cold_cpu:.0f} ms CPU / {cold_wall:.0f} ms wall (a full replay)")
    finally:
        remove_run(redis, prefix)
    return 0


if __name__ == "__main__":
    sys.exit(main())
