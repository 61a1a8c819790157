"""Arranged Life is Life positions for the rule tests, and one move at a time on them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from domain.chance import Chance
from domain.events import Event
from domain.games.life_is_life import RULES
from domain.games.life_is_life.cards import DECK, HAND_SIZE, ROW_SIZES, START_LIVES
from domain.games.life_is_life.state import State
from tests.support.rules import decide_and_apply, fold


def arranged(
    hands: Sequence[Sequence[str] | None],
    rows: Sequence[Sequence[str]] | None = None,
    *,
    advanced: bool = False,
    lives: Sequence[int] | None = None,
    starter: int = 0,
    turn: int | None = None,
    traded: Iterable[int] = (),
    knocker: int | None = None,
    phase: int = 1,
) -> State:
    """Build a position: given cards per hand (None = out), topped up to 10 from the rest of the deck."""
    players = len(hands)
    spare = Counter(DECK)
    given = [Counter(hand or ()) for hand in hands] + [Counter(row) for row in rows or ()]
    for cards in given:
        assert not cards - spare, f"more cards than the deck holds: {cards - spare}"
        spare -= cards
    # Top up from the start of the deck order (giraffes first), far from any sudden death.
    pile = list(spare.elements())
    full_hands = []
    for hand in hands:
        if hand is None:
            full_hands.append(())
            continue
        extra = HAND_SIZE - len(hand)
        full_hands.append(tuple(sorted([*hand, *pile[:extra]])))
        pile = pile[extra:]
    if rows is None:
        rows = []
        for size in ROW_SIZES:
            rows.append(pile[:size])
            pile = pile[size:]
    out = tuple(None if hand is not None else 0 for hand in hands)
    return State(
        players=players,
        advanced=advanced,
        lives=tuple(lives or [START_LIVES if hand is not None else 0 for hand in hands]),
        out_in_phase=out,
        phase=phase,
        starter=starter,
        turn=starter if turn is None else turn,
        hands=tuple(full_hands),
        rows=tuple(tuple(sorted(row)) for row in rows),
        set_aside=tuple(sorted(pile)),
        known=((),) * players,
        traded=frozenset(traded),
        knocker=knocker,
        knocked=frozenset() if knocker is None else frozenset({knocker}),
    )


def cards_of(state: State) -> Counter[str]:
    """Count every card the state holds: hands, rows and set-aside cards."""
    total: Counter[str] = Counter(state.set_aside)
    for cards in (*state.hands, *state.rows):
        total.update(cards)
    return total


def apply(state: State, events: list[Event]) -> State:
    """Fold events into a state."""
    return fold(RULES, state, events)


def act(state: State, seat: int, action: dict[str, Any]) -> tuple[State, list[Event]]:
    """Decide and apply one seat's action."""
    events, state = decide_and_apply(RULES, state, Chance("fixture", 0), seat, action)
    return state, events


def step(state: State, seed: str = "fixture") -> tuple[State, list[Event]]:
    """Take and apply the system step."""
    events, state = decide_and_apply(RULES, state, Chance(seed, 0))
    return state, events


def types(events: list[Event]) -> list[str]:
    """Return the event types of a batch."""
    return [event.type for event in events]


def trade(row: int, *cards: str) -> dict[str, Any]:
    """Build a trade action."""
    return {"type": "trade", "row": row, "cards": sorted(cards)}


KNOCK = {"type": "knock"}
# The rows of the rulebook's example table: Sarah's is the second.
SARAHS_ROW = ["bear", "mole"]
ROWS = [["dog"], SARAHS_ROW, ["sheep"] * 3, ["goat"] * 4]
