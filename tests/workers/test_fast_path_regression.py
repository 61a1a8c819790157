"""Speeding up the fast path changed nothing anyone can see: the same events, hashes and bot choices.

The digests below were taken on `main` before the fast path was tuned (commit
99e3634). A rule, the heuristic's choice or the draws a search takes that
changes on purpose changes them too: then update them, and say so in the commit.
The recorded games' last hashes changed once since, when GameCreated began to
record the game's event cap, and again when new games went to chain scheme 3
(a stand-in's action committed), and when the recorder took the service's form of
command ids (same events otherwise, same lengths and places).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping
from typing import Any

import pytest

from domain import simulate
from domain.canonical import canonical_json
from domain.chance import DrawnChance
from domain.events import Event
from domain.games import RULES, rules_for
from projections import projection_for
from projections.game import game_view, redact_log
from tests.support.tables import new_table, play_bots
from workers.bots import bot_for, bot_rng, random_bot

OPTIONS: dict[str, dict[str, Any]] = {
    "life-is-life": {"advanced": False},
    "animals-on-board": {"left_out": []},
    "bloede-kuh": {},
    "zop-zoo": {"target": 800, "card_set": None},
}
# The four games of the service by name (tests register a toy game in the registry too).
TABLES = [
    (game, seats) for game in sorted(OPTIONS) for seats in range(RULES[game].min_seats, RULES[game].max_seats + 1)
]


class _Recording:
    """A game's rules that note every event they decide (the fast path plays each exactly once)."""

    def __init__(self, game: str) -> None:
        self._rules = rules_for(game)
        self.events: list[Event] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._rules, name)

    def setup(self, *args: Any) -> list[Event]:
        return self._noted(self._rules.setup(*args))

    def decide(self, *args: Any) -> list[Event]:
        return self._noted(self._rules.decide(*args))

    def advance(self, *args: Any) -> list[Event]:
        return self._noted(self._rules.advance(*args))

    def _noted(self, events: list[Event]) -> list[Event]:
        self.events.extend(events)
        return events


def _digest(items: list[Any]) -> str:
    return hashlib.sha256(canonical_json(items).encode()).hexdigest()[:16]


def fast_path_game(game: str, seats: int, seed: int) -> tuple[str, tuple[int, ...]]:
    """Play a seeded heuristic-vs-random game on the fast path, as the bench does; digest its events."""
    rules, rng = _Recording(game), random.Random(seed)
    chance = DrawnChance(rng.randrange)
    projection, heuristic = projection_for(game), bot_for(game, "heuristic")

    def smart(state: Any, seat: int, legal: list[dict[str, Any]]) -> Mapping[str, Any]:
        return heuristic({"state": projection.seat_view(state, seat), "you": seat}, legal, rng)

    def blind(state: Any, seat: int, legal: list[dict[str, Any]]) -> Mapping[str, Any]:
        return random_bot({}, legal, rng)

    policies: dict[int, simulate.Policy] = {seat: smart if seat % 2 == 0 else blind for seat in range(seats)}
    state = simulate.start(rules, seats, OPTIONS[game], chance)  # type: ignore[arg-type]
    state, _ = simulate.play_out(rules, state, policies, chance)  # type: ignore[arg-type]
    result = simulate.outcome(rules, state)  # type: ignore[arg-type]
    assert result is not None
    return _digest([[e.type, e.actor, e.data] for e in rules.events]), result.places


def recorded_game(game: str, seats: int) -> tuple[str, int, tuple[int, ...]]:
    """Play a heuristic-vs-random game through the aggregate, recorded and sealed; return its last hash."""
    kinds = ["heuristic" if seat % 2 == 0 else "random" for seat in range(seats)]
    table = new_table(game, seats, OPTIONS[game], seed=f"regression-{game}-{seats}")
    table = play_bots(table, kinds, verbatim=False)  # a heuristic may fill in a template (a large split)
    assert table.game.result is not None
    return table.log[-1].hash[:16], len(table.log), tuple(table.game.result["places"])


def mcts_choices(game: str, seats: int, moves: int = 4, iterations: int = 12) -> str:
    """Let seat 0 search a few of its moves (the others play at random) and digest what it chose."""
    table, rng = new_table(game, seats, OPTIONS[game], seed=f"mcts-{game}-{seats}"), random.Random(seats)
    bot, chosen = bot_for(game, "mcts", iterations), []
    while len(chosen) < moves and table.game.status != "finished":
        current = table.game
        if current.system_due:
            table.advance()
            continue
        seat = min(current.to_act)
        legal = current.legal_actions(seat)
        if seat != 0 or len(legal) == 1:
            table.act(seat, rng.choice(legal))
            continue
        view = game_view(current, seat)
        view["log"] = redact_log(game, table.log, seat)
        action = bot(view, view["legal_actions"], bot_rng(current.id, current.version, seat))
        chosen.append(action)
        table.act(seat, action)
    return _digest(chosen)


FAST_PATH: dict[tuple[str, int], tuple[str, tuple[int, ...]]] = {
    ("animals-on-board", 2): ("fd197b9b8c14f2a7", (1, 2)),
    ("animals-on-board", 3): ("91cf1f06854bc8b4", (1, 3, 2)),
    ("animals-on-board", 4): ("c66443d07fa45381", (3, 4, 1, 2)),
    ("bloede-kuh", 3): ("ba043109849aca50", (1, 3, 2)),
    ("bloede-kuh", 4): ("70b5aca04d817e4b", (3, 1, 2, 4)),
    ("bloede-kuh", 5): ("a28a4e5031c51f5f", (1, 3, 3, 5, 2)),
    ("bloede-kuh", 6): ("681ccea50fdf0b60", (1, 5, 2, 2, 4, 6)),
    ("life-is-life", 3): ("494c1c6b35c4c634", (2, 3, 1)),
    ("life-is-life", 4): ("8ae81a371b9bf693", (2, 4, 3, 1)),
    ("life-is-life", 5): ("cceaab6a593930f7", (1, 5, 2, 2, 2)),
    ("zop-zoo", 2): ("141edf9e5b3bc0a9", (1, 2)),
    ("zop-zoo", 3): ("6fedbc021a99a149", (3, 2, 1)),
    ("zop-zoo", 4): ("9c0885da5f4974c6", (2, 4, 1, 3)),
    ("zop-zoo", 5): ("23b12d096e844026", (3, 5, 1, 4, 2)),
    ("zop-zoo", 6): ("e5a454bcd07b6c2f", (1, 3, 2, 6, 5, 4)),
}
RECORDED: dict[tuple[str, int], tuple[str, int, tuple[int, ...]]] = {
    ("animals-on-board", 2): ("09ef04f2d0db6292", 47, (1, 2)),
    ("animals-on-board", 3): ("93a434a7d20911aa", 68, (2, 3, 1)),
    ("animals-on-board", 4): ("84e0706ed53afdbf", 83, (1, 3, 2, 4)),
    ("bloede-kuh", 3): ("93e22882a15d995d", 152, (1, 3, 2)),
    ("bloede-kuh", 4): ("a84002190f7bf5a7", 225, (1, 3, 2, 4)),
    ("bloede-kuh", 5): ("21a81c71de50ed0f", 204, (3, 5, 2, 4, 1)),
    ("bloede-kuh", 6): ("cd647e124567b684", 255, (1, 5, 3, 4, 1, 6)),
    ("life-is-life", 3): ("3ba012e9ed311e1f", 53, (2, 3, 1)),
    ("life-is-life", 4): ("58f02317a97114ad", 64, (2, 3, 1, 3)),
    ("life-is-life", 5): ("ac1ad6b3071caec5", 76, (2, 4, 2, 4, 1)),
    ("zop-zoo", 2): ("19d6eab699bcfb77", 441, (1, 2)),
    ("zop-zoo", 3): ("bcdfa923b4a68c64", 1029, (2, 3, 1)),
    ("zop-zoo", 4): ("f9b1d3da05c422ae", 1262, (2, 3, 1, 4)),
    ("zop-zoo", 5): ("df2ff19363202214", 1828, (2, 5, 3, 4, 1)),
    ("zop-zoo", 6): ("dfa59d4f5a7ae198", 570, (1, 6, 2, 3, 4, 5)),
}
MCTS: dict[tuple[str, int], str] = {
    ("animals-on-board", 2): "0f9f9950796283be",
    ("animals-on-board", 3): "51f29da61acdbb46",
    ("animals-on-board", 4): "a18189df5cb92f81",
    ("bloede-kuh", 3): "3589f090ea9ec993",
    ("bloede-kuh", 4): "10879f679a534f2c",
    ("bloede-kuh", 5): "35e9cd5d44d6a5d9",
    ("bloede-kuh", 6): "8d404ba0d2690bfe",
    ("life-is-life", 3): "76ea670e1b210b96",
    ("life-is-life", 4): "5033dd728f155f8d",
    ("life-is-life", 5): "82c73d8338febb0f",
    ("zop-zoo", 2): "d9cc14ea2328aeed",
    ("zop-zoo", 3): "21c38a3f3773c9ed",
    ("zop-zoo", 4): "5bc5a740499fdeb4",
    ("zop-zoo", 5): "c5ae2b3c6b5609de",
    ("zop-zoo", 6): "d7efdb5eb82b5229",
}


@pytest.mark.parametrize(("game", "seats"), TABLES)
def test_a_seeded_heuristic_game_on_the_fast_path_plays_as_before(game: str, seats: int) -> None:
    assert fast_path_game(game, seats, seed=1000 + seats) == FAST_PATH[game, seats]


@pytest.mark.parametrize(("game", "seats"), TABLES)
def test_a_recorded_heuristic_game_keeps_its_events_and_hashes(game: str, seats: int) -> None:
    assert recorded_game(game, seats) == RECORDED[game, seats]


@pytest.mark.parametrize(("game", "seats"), TABLES)
def test_the_search_chooses_as_before(game: str, seats: int) -> None:
    assert mcts_choices(game, seats) == MCTS[game, seats]


if __name__ == "__main__":  # print the tables above from the code as it is
    import time

    for name, function in (("FAST_PATH", fast_path_game), ("RECORDED", recorded_game), ("MCTS", mcts_choices)):
        print(f"{name} = {{")
        for game, seats in TABLES:
            began = time.perf_counter()
            args = (game, seats, 1000 + seats) if function is fast_path_game else (game, seats)
            print(f"    ({game!r}, {seats}): {function(*args)!r},  # {time.perf_counter() - began:.2f} s")
        print("}")
