"""Blöde Kuh's system steps: the deal of each round, and the result."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.chance import Chance
from domain.errors import RuleError
from domain.events import SYSTEM, Event
from domain.games.bloede_kuh.cards import HAND_SIZE, full_deck
from domain.games.bloede_kuh.state import BETWEEN, OVER, RULES_VERSIONS, State
from domain.rules import Result


def check_options(options: Mapping[str, Any], seats: int) -> None:
    """Accept: the game has no options, and the core checks the seat count."""


def setup(seats: int, options: Mapping[str, Any], chance: Chance) -> list[Event]:
    """Draw the first dealer and deal round 1 (its event records the rules version)."""
    version = options.get("rules_version", RULES_VERSIONS[-1])
    return [deal(seats, 1, chance.below(seats), chance, version)]


def system_due(state: State) -> bool:
    """Tell whether the next round must be dealt."""
    return state.phase == BETWEEN


def advance(state: State, chance: Chance) -> list[Event]:
    """Deal the next round; the player who ended the last round deals."""
    if not system_due(state):
        raise RuleError("no round is waiting to be dealt")
    return [deal(state.seats, state.round + 1, state.results[-1].ender, chance, state.rules_version)]


def result(state: State) -> Result | None:
    """Return places by lowest total once the third round is scored."""
    if state.phase != OVER:
        return None
    return standing(state)


def standing(state: State) -> Result:
    """Rank by lowest total as the result does: the NWI and minus cards in front of each player now.

    A round in play adds no card-count penalty (it is not over), as a round not played adds none.
    """
    totals = state.totals()
    places = tuple(1 + sum(other < total for other in totals) for total in totals)
    return Result(
        places=places,
        detail={
            "totals": totals,
            "minus": list(state.minus),
            "nwi": [[card.to_dict() for card in state.nwi if card.holder == seat] for seat in range(state.seats)],
            "rounds": [result.to_dict() for result in state.results],
        },
    )


def deal(seats: int, round_: int, dealer: int, chance: Chance, rules_version: str) -> Event:
    """Shuffle all 72 hand cards and deal 9 to each seat; the rest is the draw pile."""
    deck = chance.shuffle(full_deck())
    hands = [sorted(deck[seat * HAND_SIZE : (seat + 1) * HAND_SIZE]) for seat in range(seats)]
    draw = deck[seats * HAND_SIZE :]
    data = {"round": round_, "dealer": dealer, "hands": hands, "draw": draw, "rules_version": rules_version}
    return Event("CardsDealt", data, SYSTEM)
