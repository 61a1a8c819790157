"""The strength ladder: mcts vs heuristic vs random in every game, with 95% intervals and openskill ratings.

Each game seats the three kinds in turn (seat s plays kind (s + g) mod 3 in
game g), so every kind sits in every seat equally often. Games run on the
fast path; each bot gets what the service would hand it: its seat's view and
(for mcts) its seat's redacted event log. Per kind: mean place and win rate
(place 1, ties included) with 95% normal intervals over its seats, and the
openskill (Plackett-Luce) rating the games produce, as `domain.ratings` rates
a finished game (each kind once per game, at its best place).
Run: .venv/bin/python -m bench.bench_bots [games per table] [mcts iterations, 0 = default] [game:seats ...]
[kinds=mcts,heuristic,heuristic]: another rotation, e.g. one mcts seat against heuristics (kinds absent sit out).
"""

from __future__ import annotations

import math
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

from domain import ratings
from domain.chance import DrawnChance
from domain.events import Event
from domain.games import rules_for
from projections import projection_for
from workers.bots import BOTS, SEARCH, bot_rng
from workers.bots.mcts import bot as mcts_bot

KINDS = ("mcts", "heuristic", "random")
TABLES = ["life-is-life:3", "life-is-life:4", "animals-on-board:2", "animals-on-board:4", "bloede-kuh:3",
          "bloede-kuh:5", "zop-zoo:2", "zop-zoo:4"]  # fmt: skip
OPTIONS: dict[str, dict[str, Any]] = {
    "life-is-life": {"advanced": False},
    "animals-on-board": {"left_out": []},
    "bloede-kuh": {},
    "zop-zoo": {"target": 800, "card_set": None},
}


def play(
    game: str, seats: int, number: int, bots: dict[str, Any], rotation: Sequence[str] = KINDS
) -> tuple[list[str], tuple[int, ...]]:
    """Play one game; return the kind in each seat and the places."""
    rules, projection = rules_for(game), projection_for(game)
    kinds = [rotation[(seat + number) % len(rotation)] for seat in range(seats)]
    chance = DrawnChance(random.Random(f"{game}:{seats}:{number}").randrange)
    events: list[Event] = list(rules.setup(seats, OPTIONS[game], chance))
    state = None
    for event in events:
        state = rules.evolve(state, event)
    logs: list[list[dict[str, Any]]] = [[] for _ in range(seats)]
    step = 0
    while rules.result(state) is None:
        step += 1
        if rules.system_due(state):
            batch = rules.advance(state, chance)
        else:
            seat = min(rules.to_act(state))
            legal = rules.legal_actions(state, seat)
            if len(legal) == 1:
                action = legal[0]
            else:
                view: dict[str, Any] = {"state": projection.seat_view(state, seat), "you": seat}
                if kinds[seat] == "mcts":
                    log = logs[seat]
                    log += [
                        {"type": e.type, "actor": e.actor, "data": projection.redact(e, seat)}
                        for e in events[len(log) :]
                    ]
                    view["log"] = log
                action = bots[kinds[seat]](view, legal, bot_rng(f"{game}-{number}", step, seat))
            batch = rules.decide(state, seat, action, chance)
        for event in batch:
            state = rules.evolve(state, event)
        events += batch
    return kinds, rules.result(state).places


def interval(samples: list[float]) -> str:
    """Return mean ± the 95% normal half-width."""
    n = len(samples)
    mean = sum(samples) / n
    var = sum((x - mean) ** 2 for x in samples) / max(n - 1, 1)
    return f"{mean:5.2f} ± {1.96 * math.sqrt(var / n):4.2f}"


def main() -> None:
    """Play each table and print the ladder as a Markdown table."""
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    iterations = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    rotation = next((arg[6:].split(",") for arg in sys.argv[3:] if arg.startswith("kinds=")), list(KINDS))
    tables = [arg for arg in sys.argv[3:] if not arg.startswith("kinds=")] or TABLES
    kinds = list(dict.fromkeys(rotation))
    print(f"games per table: {games}; mcts iterations: {iterations or 'default'}; seats rotate {','.join(rotation)}")
    print("| game | seats | bot | mean place | win rate | openskill mu ± sigma | s/game |")
    print("|---|---|---|---|---|---|---|")
    for table in tables:
        game, seats = table.split(":")[0], int(table.split(":")[1])
        bots = dict(BOTS[game])
        if iterations:
            bots["mcts"] = mcts_bot(SEARCH[game], iterations)
        places: dict[str, list[float]] = {kind: [] for kind in kinds}
        wins: dict[str, list[float]] = {kind: [] for kind in kinds}
        rating = ratings.RatingTable(game=game)
        start = time.perf_counter()
        for number in range(games):
            seated, result = play(game, seats, number, bots, rotation)
            for kind, place in zip(seated, result):
                places[kind].append(place)
                wins[kind].append(1.0 if place == 1 else 0.0)
            identities = [f"bot:{kind}" for kind in seated]
            rating = ratings.apply(rating, ratings.decide(rating, f"g{number}", identities, list(result)))
        per_game = (time.perf_counter() - start) / games
        for kind in kinds:
            r = rating.get(f"bot:{kind}")
            print(
                f"| {game} | {seats} | {kind} | {interval(places[kind])} | {interval(wins[kind])} "
                f"| {r.mu:5.1f} ± {r.sigma:3.1f} | {per_game:.1f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
