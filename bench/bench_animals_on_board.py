"""Bench: complete Animals on Board games per second, heuristic (seat 0) against random bots, in pure domain code."""

from __future__ import annotations

import random
import time
from functools import reduce

from domain.chance import Chance
from domain.games.animals_on_board import RULES
from projections import animals_on_board as projection
from workers.bots import random_bot
from workers.bots.animals_on_board import heuristic

SECONDS = 8.0


def play(seats: int, seed: str, rng: random.Random) -> tuple[int, ...]:
    """Play one game, heuristic in seat 0, random elsewhere; return the places."""
    state = reduce(RULES.evolve, RULES.setup(seats, {"left_out": []}, Chance(seed, 0)), None)
    version = 1
    while (result := RULES.result(state)) is None:
        version += 1
        if RULES.system_due(state):
            events = RULES.advance(state, Chance(seed, version))
        else:
            seat = min(RULES.to_act(state))
            legal = RULES.legal_actions(state, seat)
            if seat == 0:
                view = {"state": projection.seat_view(state, seat), "legal_actions": legal}
                action = heuristic(view, legal, rng)
            else:
                action = random_bot({}, legal, rng)
            events = RULES.decide(state, seat, action, Chance(seed, version))
        state = reduce(RULES.evolve, events, state)
    return result.places


def main() -> None:
    """Print games per second and the heuristic's win rate for 2 and 4 players."""
    for seats in (2, 4):
        rng = random.Random(seats)
        games = wins = 0
        start = time.perf_counter()
        while time.perf_counter() - start < SECONDS:
            places = play(seats, f"bench-{seats}-{games}", rng)
            games += 1
            wins += places[0] == 1
        elapsed = time.perf_counter() - start
        print(f"{seats} players: {games / elapsed:8.1f} games/s  heuristic wins {wins / games:.0%} of {games}")


if __name__ == "__main__":
    main()
