"""The bots' fast path (`domain.simulate`) plays exactly the rules: on every move of many random games
it lists the same legal actions, decides the same events and reaches the state those events fold to."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest

from domain import simulate
from domain.chance import DrawnChance
from domain.events import Event
from domain.games import fast_path_for, rules_for
from domain.rules import Rules

# Every game at its smallest and largest table, with its usual options.
TABLES: list[tuple[str, int, Mapping[str, Any]]] = [
    ("life-is-life", 3, {"advanced": False}),
    ("life-is-life", 5, {"advanced": True}),
    ("animals-on-board", 2, {"left_out": []}),
    ("animals-on-board", 4, {"left_out": []}),
    ("bloede-kuh", 3, {}),
    ("bloede-kuh", 6, {}),
    ("zop-zoo", 2, {"target": 300, "card_set": None}),
    ("zop-zoo", 4, {"target": 300, "card_set": None}),
]
GAMES = 6


class _Twins:
    """Two chances that draw the same numbers: one for the fast path, one for the rules."""

    def __init__(self, seed: int) -> None:
        self._fast, self._rules = random.Random(seed), random.Random(seed)
        self.fast, self.rules = DrawnChance(self._fast.randrange), DrawnChance(self._rules.randrange)

    def in_step(self) -> bool:
        return self._fast.getstate() == self._rules.getstate()


def _fold(rules: Rules, state: Any, events: list[Event]) -> Any:
    for event in events:
        state = rules.evolve(state, event)
    return state


def _same_events(fast: list[Event], ruled: list[Event]) -> bool:
    return [(e.type, e.data, e.actor) for e in fast] == [(e.type, e.data, e.actor) for e in ruled]


def _play_both_ways(rules: Rules, seats: int, options: Mapping[str, Any], seed: int) -> int:
    """Play one random game on both paths side by side; return the moves checked."""
    fast, twins, pick = fast_path_for(rules), _Twins(seed), random.Random(-seed)
    quick = simulate.start(rules, seats, options, twins.fast)
    ruled = _fold(rules, None, rules.setup(seats, options, twins.rules))
    assert quick == ruled
    checked = 0
    while rules.result(ruled) is None and checked < 3000:
        if rules.system_due(ruled):
            quick = simulate.settle(rules, quick, twins.fast)
            while rules.system_due(ruled) and rules.result(ruled) is None:
                ruled = _fold(rules, ruled, rules.advance(ruled, twins.rules))
            assert quick == ruled and twins.in_step()
            continue
        seat = min(rules.to_act(ruled))
        assert fast.to_act(quick) == rules.to_act(ruled)
        legal = rules.legal_actions(ruled, seat)
        assert fast.legal_actions(quick, seat) == legal
        action = pick.choice(legal)
        decided, events = fast.decide(quick, seat, action, twins.fast), rules.decide(ruled, seat, action, twins.rules)
        assert _same_events(decided, events)
        quick, ruled = simulate.fold(fast, quick, decided), _fold(rules, ruled, events)
        assert quick == ruled and twins.in_step()
        checked += 1
    assert rules.result(ruled) == fast.result(quick)
    return checked


@pytest.mark.parametrize(("game", "seats", "options"), TABLES, ids=[f"{g}-{s}" for g, s, _ in TABLES])
def test_the_fast_path_agrees_with_the_rules_on_every_move(game: str, seats: int, options: Mapping[str, Any]) -> None:
    rules = rules_for(game)
    moves = sum(_play_both_ways(rules, seats, options, seed) for seed in range(GAMES))
    assert moves >= 10 * GAMES
