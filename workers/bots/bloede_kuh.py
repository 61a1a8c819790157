"""A Blöde Kuh bot that sheds cards fast, keeps pairs to pass NWI cards on and
passes its worst card on a horse. It reads only its seat's view."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

# How much a single card is worth keeping: a pig sheds a card and burdens the
# left neighbour, a sheep or horse sheds one, a cow only swaps (you draw again).
_KEEP = {"pig": 3, "sheep": 2, "horse": 2, "cow": 0}
# NWI values grow in this order, so a pair of cows moves the dearest card.
_NWI_RANK = {"sheep": 0, "pig": 1, "horse": 2, "cow": 3}


def heuristic(view: Mapping[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Choose an action for the seat whose view this is."""
    state = view["state"]
    kind = legal[0]["type"]
    if kind == "pass_card":
        return _worst_card(legal, state["hand"])
    if kind == "take":
        return _take(legal, state)
    seat, hand = view["you"], state["hand"]
    left, seats = sum(hand.values()), len(state["hand_counts"])
    scored = [(_score(action, seat, state, left, seats), rng.random(), index) for index, action in enumerate(legal)]
    return legal[max(scored)[2]]


def _worst_card(legal: list[dict[str, Any]], hand: Mapping[str, int]) -> dict[str, Any]:
    # Give away a card that does not break a pair, the least useful first.
    def badness(action: dict[str, Any]) -> tuple[int, int]:
        card = action["card"]
        return (hand[card] % 2, -_KEEP[card])

    return max(legal, key=badness)


def _take(legal: list[dict[str, Any]], state: Mapping[str, Any]) -> dict[str, Any]:
    top = state["discard_top"]
    for action in legal:
        if action["from"] == "discard" and top != "cow" and state["hand"].get(top, 0) % 2 == 1:
            return action  # completes a pair
    return next((action for action in legal if action["from"] == "draw"), legal[0])


def _score(action: Mapping[str, Any], seat: int, state: Mapping[str, Any], left: int, seats: int) -> float:
    """Score one action; `left` is the cards in the seat's hand, `seats` the table's size (the same for every action)."""
    hand = state["hand"]
    if action["type"] == "discard_pair":
        card = action["cards"][0]
        if left == 2:
            return 100.0  # ends the round
        holder = state["nwi_holders"][card]
        receiver = (seat if holder is None else holder) + 1
        if receiver % seats == seat:
            return -5.0  # the NWI card would come to us
        return 4.0 + (3.0 if holder == seat else 0.0) + _NWI_RANK[card] / 10
    if action["type"] == "discard":
        card = action["card"]
        if left == 1 and card != "cow":
            return 100.0  # ends the round
        breaks_pair = hand[card] % 2 == 0
        return 1.0 + _KEEP[card] / 2 - (2.5 if breaks_pair else 0.0)
    return -3.0  # a pass adds a card
