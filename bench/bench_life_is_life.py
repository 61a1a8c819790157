"""Print complete Life is Life games per second, heuristic bots against random bots, in pure domain code.

Seats alternate heuristic, random, heuristic, ...; the heuristic's share of wins is printed too.
Run: .venv/bin/python -m bench.bench_life_is_life [seconds per seat count]
"""

from __future__ import annotations

import random
import sys
import time

from domain.chance import Chance
from domain.games.life_is_life import RULES
from projections.life_is_life import seat_view
from workers.bots import random_bot
from workers.bots.life_is_life import heuristic


def play(seats: int, seed: str) -> tuple[int, int]:
    """Play one game to the end; return the winner and the number of events."""
    rng = random.Random(seed)
    events = RULES.setup(seats, {"advanced": False}, Chance(seed, 0))
    state = None
    for event in events:
        state = RULES.evolve(state, event)
    version = len(events)
    while RULES.result(state) is None:
        if RULES.system_due(state):
            batch = RULES.advance(state, Chance(seed, version))
        else:
            seat = min(RULES.to_act(state))
            legal = RULES.legal_actions(state, seat)
            bot = heuristic if seat % 2 == 0 else random_bot
            action = bot({"state": seat_view(state, seat), "you": seat}, legal, rng)
            batch = RULES.decide(state, seat, action, Chance(seed, version))
        for event in batch:
            state = RULES.evolve(state, event)
        version += len(batch)
    return RULES.result(state).places.index(1), version


def main() -> None:
    """Run each seat count for a few seconds and print the rate."""
    budget = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
    for seats in (3, 4, 5):
        games = events = heuristic_wins = 0
        start = time.perf_counter()
        while time.perf_counter() - start < budget:
            winner, count = play(seats, f"bench-{seats}-{games}")
            games += 1
            events += count
            heuristic_wins += winner % 2 == 0
        elapsed = time.perf_counter() - start
        share = (seats + 1) // 2
        print(
            f"{seats} players: {games / elapsed:7.1f} games/s, {events / games:6.0f} events/game, "
            f"heuristic seats ({share} of {seats}) won {heuristic_wins / games:.0%}"
        )


if __name__ == "__main__":
    main()
