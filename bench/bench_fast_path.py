"""Print complete heuristic-vs-random games per second on the fast simulation path, per game and seat count.

Seats alternate heuristic, random, heuristic, ...; the heuristic reads its
seat's view (`bot_view`, each time it has a real choice: its parts are built
as the heuristic reads them), the random bot nothing.
Chance is a `DrawnChance` over `random.Random`, as in a search. `domain.simulate`
plays each game through its fast path where it has one (`domain.games.FAST_PATHS`). The machine
may be shared, so each figure is the best of N runs of a few seconds, printed
beside the old path's figure and issue 17's target.
Run: .venv/bin/python -m bench.bench_fast_path [seconds per run] [runs] [game ...]

On a busy machine count instructions instead, which do not depend on the load:
`PYTHONHASHSEED=0 valgrind --tool=callgrind .venv/bin/python -m bench.bench_fast_path play GAME SEATS N`
plays the games of seeds 0 to N-1 and nothing else (subtract a run with N = 0).
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

from domain import simulate
from domain.chance import DrawnChance
from domain.games import rules_for
from projections import projection_for
from workers.bots import bot_for

SEATS = {
    "life-is-life": (3, 4, 5),
    "animals-on-board": (2, 4),
    "bloede-kuh": (3, 4, 5, 6),
    "zop-zoo": (2, 4),
}
OPTIONS: dict[str, dict[str, Any]] = {
    "life-is-life": {"advanced": False},
    "animals-on-board": {"left_out": []},
    "bloede-kuh": {},
    "zop-zoo": {"target": 800, "card_set": None},
}
# Figures on the old path (SHA-256 chance, full decide/evolve) when this bench was written.
BEFORE = {
    ("life-is-life", 3): 29, ("life-is-life", 4): 26, ("life-is-life", 5): 18,
    ("animals-on-board", 2): 179, ("animals-on-board", 4): 114,
    ("bloede-kuh", 3): 316, ("bloede-kuh", 6): 173,
    ("zop-zoo", 2): 98, ("zop-zoo", 4): 62,
}  # fmt: skip
# Issue 17's targets: Life is Life with 4 players at least 100 games/s, every other table 3x its old figure.
TARGET = {("life-is-life", 4): 100, **{key: 3 * old for key, old in BEFORE.items() if key[0] != "life-is-life"}}


def policies(game: str, seats: int, rng: random.Random) -> dict[int, simulate.Policy]:
    """Return heuristic policies for even seats and random ones for odd seats."""
    projection = projection_for(game)
    heuristic, random_bot = bot_for(game, "heuristic"), bot_for(game, "random")

    def smart(state: Any, seat: int, legal: list[dict[str, Any]]) -> Any:
        return heuristic({"state": projection.bot_view(state, seat), "you": seat}, legal, rng)

    def blind(state: Any, seat: int, legal: list[dict[str, Any]]) -> Any:
        return random_bot({}, legal, rng)

    return {seat: smart if seat % 2 == 0 else blind for seat in range(seats)}


def play(game: str, seats: int, seed: int) -> tuple[int, ...]:
    """Play one game to the end on the fast path; return the places."""
    rules, rng = rules_for(game), random.Random(seed)
    chance = DrawnChance(rng.randrange)
    state = simulate.start(rules, seats, OPTIONS[game], chance)
    state, _ = simulate.play_out(rules, state, policies(game, seats, rng), chance)
    result = simulate.outcome(rules, state)
    assert result is not None
    return result.places


def rate(game: str, seats: int, seconds: float, first_seed: int) -> float:
    """Return games per second over one run of about `seconds`."""
    games, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        play(game, seats, first_seed + games)
        games += 1
    return games / elapsed


def main() -> None:
    """Print the best-of-N rate per game and seat count, with the old figure and the target beside it."""
    if sys.argv[1:2] == ["play"]:
        game, seats, count = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
        for seed in range(count):
            play(game, seats, seed)
        return
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    games = sys.argv[3:] or list(SEATS)
    print(
        f"{'game':18} {'seats':>5} {'games/s':>9} {'before':>7} {'x':>6} {'target':>7}   (best of {runs} x {seconds:g} s)"
    )
    for game in games:
        for seats in SEATS[game]:
            best = max(rate(game, seats, seconds, 1000 * run) for run in range(runs))
            before, target = BEFORE.get((game, seats)), TARGET.get((game, seats))
            ratio = f"{best / before:5.1f}x" if before else "     -"
            verdict = "" if target is None else "  met" if best >= target else f"  short by {target / best:.2f}x"
            print(
                f"{game:18} {seats:5d} {best:9.1f} {before or '-':>7} {ratio} {target or '-':>7}{verdict}", flush=True
            )


if __name__ == "__main__":
    main()
