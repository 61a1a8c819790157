"""Print complete Zop Zoo games per second, a heuristic bot against random bots, in pure domain code.

Seats alternate heuristic, random, ...; the heuristic seats' share of wins and
the replay speed (events folded per second) are printed too.
Run: .venv/bin/python -m bench.bench_zop_zoo [seconds per seat count]
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

from domain.chance import Chance
from domain.events import Event
from domain.games.zop_zoo import RULES
from domain.games.zop_zoo.state import State
from projections.zop_zoo import seat_view
from workers.bots import random_bot
from workers.bots.zop_zoo import heuristic

OPTIONS: dict[str, Any] = {"target": 800, "card_set": None}


def play(seats: int, seed: str) -> tuple[tuple[int, ...], list[Event]]:
    """Play one game to the end; return the places and the events."""
    rng = random.Random(seed)
    events = RULES.setup(seats, OPTIONS, Chance(seed, 0))
    state = RULES.evolve(None, events[0])
    for event in events[1:]:
        state = RULES.evolve(state, event)
    while (result := RULES.result(state)) is None:
        if RULES.system_due(state):
            batch = RULES.advance(state, Chance(seed, len(events)))
        else:
            (seat,) = RULES.to_act(state)
            legal = RULES.legal_actions(state, seat)
            if len(legal) == 1:
                action = legal[0]  # forced: either bot would post it without looking
            else:
                bot = heuristic if seat % 2 == 0 else random_bot
                action = bot({"state": seat_view(state, seat), "you": seat}, legal, rng)
            batch = RULES.decide(state, seat, action, Chance(seed, len(events)))
        for event in batch:
            state = RULES.evolve(state, event)
        events += batch
    return result.places, events


def fold_rate(events: list[Event]) -> float:
    """Return events folded per second when replaying one game."""
    start = time.perf_counter()
    state: State | None = None
    for event in events:
        state = RULES.evolve(state, event)
    return len(events) / (time.perf_counter() - start)


def main() -> None:
    """Run each seat count for a few seconds and print the rates."""
    budget = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
    for seats in (2, 4):
        games = events = heuristic_wins = 0
        folds = []
        start = time.perf_counter()
        while time.perf_counter() - start < budget:
            places, log = play(seats, f"bench-{seats}-{games}")
            games += 1
            events += len(log)
            heuristic_wins += any(place == 1 and seat % 2 == 0 for seat, place in enumerate(places))
            folds.append(fold_rate(log))
        elapsed = time.perf_counter() - start
        print(
            f"{seats} players: {games / elapsed:7.1f} games/s, {events / games:6.0f} events/game, "
            f"replay {sum(folds) / len(folds):9.0f} events/s, "
            f"heuristic seats win {heuristic_wins / games:5.1%} of games (share of seats {(seats + 1) // 2 / seats:.0%})"
        )


if __name__ == "__main__":
    main()
