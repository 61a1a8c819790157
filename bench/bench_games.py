"""Print complete games per second through the rules, heuristic bots against random bots, in pure domain code.

Even seats play the heuristic, odd seats play at random; each bot reads its
seat's projected view, as a worker's would, and a forced move (one legal
action) is posted without asking a bot. For each game and seat count it prints
games a second, events a game, the replay speed (events folded a second, one
game's log folded again) and the heuristic seats' share of wins beside their
share of the seats.

Run: .venv/bin/python -m bench.bench_games [--game GAME ...] [--seconds S]
(every game by default, 5 s a seat count)

Last run (--seconds 2, the 2-core machine of docs/benchmarks.md), games a second:
Life is Life 109 / 88 / 72 (3 / 4 / 5 seats), Animals on Board 323 / 182 (2 / 4),
Blöde Kuh 518 / 318 / 320 / 265 (3 to 6), Zop Zoo 130 / 65 (2 / 4); replay 234,000 to
928,000 events a second; the heuristic seats won 70% to 100% of the games.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Mapping
from dataclasses import dataclass
from functools import reduce
from typing import Any

from domain.chance import Chance
from domain.events import Event
from domain.games import RULES
from projections import PROJECTIONS
from workers.bots import BOTS, random_bot


@dataclass(frozen=True)
class Table:
    """A game's options and the seat counts it is timed at."""

    options: Mapping[str, Any]
    seats: tuple[int, ...]


TABLES = {
    "life-is-life": Table({"advanced": False}, (3, 4, 5)),
    "animals-on-board": Table({"left_out": []}, (2, 4)),
    "bloede-kuh": Table({}, (3, 4, 5, 6)),
    # A target no game reaches early: full-length games.
    "zop-zoo": Table({"target": 800, "card_set": None}, (2, 4)),
}


@dataclass(frozen=True)
class Played:
    """One finished game: its places and its events."""

    places: tuple[int, ...]
    events: list[Event]


def play(game: str, seats: int, seed: str) -> Played:
    """Play one game to the end, heuristic in the even seats and random in the odd ones."""
    rules, seat_view, heuristic = RULES[game], PROJECTIONS[game].seat_view, BOTS[game]["heuristic"]
    rng = random.Random(seed)
    events = list(rules.setup(seats, dict(TABLES[game].options), Chance(seed, 0)))
    state = reduce(rules.evolve, events, None)
    while (result := rules.result(state)) is None:
        chance = Chance(seed, len(events))
        if rules.system_due(state):
            batch = rules.advance(state, chance)
        else:
            seat = min(rules.to_act(state))
            legal = rules.legal_actions(state, seat)
            if len(legal) == 1:
                action = legal[0]  # forced: either bot would post it without looking
            else:
                bot = heuristic if seat % 2 == 0 else random_bot
                action = bot({"state": seat_view(state, seat), "you": seat, "legal_actions": legal}, legal, rng)
            batch = rules.decide(state, seat, action, chance)
        state = reduce(rules.evolve, batch, state)
        events += batch
    return Played(tuple(result.places), events)


def fold_rate(game: str, events: list[Event]) -> float:
    """Return events folded a second when one game's log is replayed."""
    start = time.perf_counter()
    reduce(RULES[game].evolve, events, None)
    return len(events) / (time.perf_counter() - start)


def bench(game: str, seats: int, seconds: float) -> str:
    """Play games of one size for `seconds` and return the line of figures."""
    games = events = heuristic_wins = 0
    folds: list[float] = []
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        played = play(game, seats, f"bench-{seats}-{games}")
        games += 1
        events += len(played.events)
        heuristic_wins += any(place == 1 and seat % 2 == 0 for seat, place in enumerate(played.places))
        folds.append(fold_rate(game, played.events))
    elapsed = time.perf_counter() - start
    return (
        f"{game:16} {seats} seats: {games / elapsed:7.1f} games/s, {events / games:6.0f} events/game, "
        f"replay {sum(folds) / len(folds):9,.0f} events/s, "
        f"heuristic seats won {heuristic_wins / games:4.0%} (share of seats {(seats + 1) // 2 / seats:.0%})"
    )


def main() -> None:
    """Time each chosen game at each of its seat counts and print one line each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", choices=sorted(TABLES), help="a game to time (repeatable)")
    parser.add_argument("--seconds", type=float, default=5.0, help="time a seat count this long")
    args = parser.parse_args()
    for game in args.game or list(TABLES):
        for seats in TABLES[game].seats:
            print(bench(game, seats, args.seconds), flush=True)


if __name__ == "__main__":
    main()
