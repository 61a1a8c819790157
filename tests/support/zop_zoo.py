"""Builders for the Zop Zoo tests (no tests here): tables set mid-round, stacked chance, one action."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from domain.chance import Chance
from domain.events import Event
from domain.game import rules_for
from domain.games.zop_zoo.cards import bundled
from domain.games.zop_zoo.state import Stack
from domain.games.zop_zoo.state import State as ZooState
from tests.support.rules import decide_and_apply

RULES = rules_for("zop-zoo")


def fresh(seats: int = 2, target: int = 800, card_set: Mapping[str, Any] | None = None) -> ZooState:
    """Return a game just set up (no round dealt yet)."""
    data = {
        "seats": seats,
        "target": target,
        "card_set": dict(card_set or bundled()),
        "rules_version": RULES.rules_version,
    }
    return RULES.evolve(None, Event("ZooSetUp", data))


def table(
    rows: Sequence[Iterable[str]],
    *,
    deck: Iterable[str] = (),
    discard: Iterable[str] = (),
    bonuses: Sequence[Iterable[str]] | None = None,
    turn: int = 0,
    spent: Iterable[str] = (),
    drawn: str | None = None,
    totals: Sequence[int] | None = None,
    target: int = 800,
) -> ZooState:
    """Return a state in the middle of round 1; a row item is "w:lion" or "w:lion/b:lion" (covered)."""
    seats = len(rows)
    stacks = tuple(tuple(Stack(*item.split("/")) if "/" in item else Stack(item) for item in row) for row in rows)
    return replace(
        fresh(seats, target),
        phase="playing",
        round=1,
        turn=turn,
        rows=stacks,
        bonuses=tuple(tuple(b) for b in (bonuses or [()] * seats)),
        deck=tuple(deck),
        discard=tuple(discard),
        spent=frozenset(spent),
        drawn=drawn,
        fresh=drawn is None,
        totals=tuple(totals or [0] * seats),
    )


class StackedChance(Chance):
    """Chance whose shuffles return given orders in turn (then shuffle for real), to stage a deal."""

    def __init__(self, *orders: Sequence[str]) -> None:
        super().__init__("stacked", 0)
        self._orders = [list(order) for order in orders]

    def shuffle(self, items: Sequence[Any]) -> list[Any]:
        if self._orders:
            order = self._orders.pop(0)
            assert Counter(order) == Counter(items), "a stacked order must hold the shuffled cards"
            return order
        return super().shuffle(items)


def act(state: ZooState, action: Mapping[str, Any], chance: Chance | None = None) -> tuple[list[Event], ZooState]:
    """Play the player to act's action; return its events (read back through JSON) and the new state."""
    return decide_and_apply(RULES, state, chance or Chance("test", state.round), state.turn, dict(action))


def types(events: Iterable[Event]) -> list[str]:
    """Return the events' types, in order."""
    return [event.type for event in events]


def row(state: ZooState, seat: int) -> list[str]:
    """Return a seat's row in the builder's notation."""
    return [f"{s.base}/{s.cover}" if s.cover else s.base for s in state.rows[seat]]


def every_card(state: ZooState) -> Counter[str]:
    """Count every card wherever it lies: decks, discard pile, hand, rows, beside rows, set aside."""
    found: Counter[str] = Counter(state.deck) + Counter(state.discard) + Counter(state.set_aside)
    if state.drawn is not None:
        found[state.drawn] += 1
    for seat in range(state.seats):
        for stack in state.rows[seat]:
            found[stack.base] += 1
            if stack.cover is not None:
                found[stack.cover] += 1
        found.update(state.bonuses[seat])
    return found
