"""Helpers shared by the Blöde Kuh test modules: positions built by hand, one move at a time."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.chance import Chance
from domain.events import Event
from domain.game import ACTIVE, Game, Seat
from domain.games.bloede_kuh import RULES
from domain.games.bloede_kuh.cards import SPECIES, hand_of
from domain.games.bloede_kuh.state import PLAY, NwiCard, State
from tests.support.rules import decide_and_apply


def position(
    *hands: str,
    draw: str = "",
    discard: str = "",
    turn: int = 0,
    round_: int = 1,
    nwi: tuple[NwiCard, ...] = (),
) -> State:
    """Build a state mid-round; each hand and pile is a space-separated card list, top card last."""
    seats = len(hands)
    return State(
        seats=seats,
        round=round_,
        dealer=(turn - 1) % seats,
        turn=turn,
        phase=PLAY,
        hands=tuple(hand_of(hand.split()) for hand in hands),
        draw=tuple(draw.split()),
        discard=tuple(discard.split()),
        choices=(None,) * seats,
        nwi=nwi,
        minus=(0,) * seats,
    )


def play(state: State, seat: int, action: Mapping[str, Any], seed: str = "t") -> tuple[list[Event], State]:
    """Decide one action and fold its events."""
    return decide_and_apply(RULES, state, Chance(seed, 0), seat, action)


def types(events: list[Event]) -> list[str]:
    """Return the events' types."""
    return [event.type for event in events]


def hand(state: State, seat: int) -> list[str]:
    """Return a seat's hand as a sorted card list."""
    return sorted(card for card, n in zip(SPECIES, state.hands[seat]) for _ in range(n))


def game_at(state: State) -> Game:
    """Wrap a rules state in an active game aggregate, to go through the core's decide."""
    return Game(
        id="g",
        type="bloede-kuh",
        status=ACTIVE,
        seats=tuple(Seat(name=f"p{i}") for i in range(state.seats)),
        rules_state=state,
    )


def cards_in_play(state: State) -> int:
    """Count every hand card: in hands, draw pile and discard pile."""
    return sum(map(sum, state.hands)) + len(state.draw) + len(state.discard)
