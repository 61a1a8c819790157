"""Benchmark Blöde Kuh: complete heuristic-vs-random games per second, in pure domain code.

Run: .venv/bin/python -m bench.bench_bloede_kuh [seconds per seat count]
Even seats play the heuristic, odd seats play at random; each bot reads its
seat's projected view, as a worker's would.
"""

from __future__ import annotations

import random
import sys
import time
from functools import reduce

from domain.chance import Chance
from domain.events import Event
from domain.games.bloede_kuh import RULES
from projections.bloede_kuh import seat_view
from workers.bots import random_bot
from workers.bots.bloede_kuh import heuristic


def play_one(seats: int, seed: str) -> list[Event]:
    """Play one game to the end; return its events."""
    version = 0
    log = RULES.setup(seats, {}, Chance(seed, version))
    state = reduce(RULES.evolve, log, None)
    rng = random.Random(seed)
    while RULES.result(state) is None:
        version += 1
        chance = Chance(seed, version)
        if RULES.system_due(state):
            events = RULES.advance(state, chance)
        else:
            seat = min(RULES.to_act(state))
            legal = RULES.legal_actions(state, seat)
            bot = heuristic if seat % 2 == 0 else random_bot
            events = RULES.decide(state, seat, bot({"you": seat, "state": seat_view(state, seat)}, legal, rng), chance)
        state = reduce(RULES.evolve, events, state)
        log += events
    return log


def main() -> None:
    """Print games and events per second for 3 to 6 seats, then the speed of the fold alone."""
    budget = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    for seats in range(3, 7):
        games = events = 0
        start = time.perf_counter()
        while time.perf_counter() - start < budget:
            events += len(play_one(seats, f"bench-{seats}-{games}"))
            games += 1
        elapsed = time.perf_counter() - start
        print(
            f"{seats} seats: {games / elapsed:7.1f} games/s  ({events / games:5.0f} events/game, {events / elapsed:8.0f} events/s)"
        )
    log = play_one(4, "fold")
    folds, start = 0, time.perf_counter()
    while time.perf_counter() - start < budget:
        reduce(RULES.evolve, log, None)
        folds += 1
    print(f"evolve alone: {folds * len(log) / (time.perf_counter() - start):,.0f} events/s folded")


if __name__ == "__main__":
    main()
