"""A heuristic Zop Zoo bot: wild cards on its worst unmatched card, dig when the pile holds its matches, trade for points.

Most of a turn is forced (one legal action); the bot chooses only where a wild
card goes, whether to dig with a MOLE, and what to give, take or switch. It
reads the worth of every piece from its seat's view.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any


def heuristic(view: Mapping[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Pick the action that keeps the most points in this seat's row and the fewest in the leader's."""
    if len(legal) == 1:
        return legal[0]
    state, me = view["state"], view["you"]
    kind = legal[0]["type"]
    if kind == "place_wild":
        return min(legal, key=lambda action: _potential(state, me, action["card"]))
    if kind == "use_mole":
        wanted = bool((state.get("pending") or {}).get("dig_finds"))
        return next(action for action in legal if (action["type"] == "use_mole") == wanted)
    if kind in ("give", "take_card", "swap"):
        return ranked(view, legal)[0]
    return rng.choice(legal)


def ranked(view: Mapping[str, Any], legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Order a specialty's uses (give, take_card or swap) best first, as the heuristic rates them."""
    state = view["state"]
    worth = _worth(state)
    totals = [player["total"] for player in state["players"]]
    kind = legal[0]["type"]
    if kind == "give":
        # Shed the least valuable piece, preferably onto the leader.
        return sorted(legal, key=lambda action: (worth[action["card"]], -totals[action["to"]]))
    if kind == "take_card":
        # Take the most valuable piece, preferably from the leader.
        return sorted(legal, key=lambda action: (worth[action["card"]], totals[action["from"]]), reverse=True)
    # swap: gain the most worth, preferably from the leader.
    return sorted(
        legal, key=lambda action: (worth[action["for"]] - worth[action["card"]], totals[action["with"]]), reverse=True
    )


def _potential(state: Mapping[str, Any], me: int, card: str) -> tuple[bool, int]:
    """Rank a starting card for a wild: cards that still keep the row from winning first, least valuable first.

    An uncovered minus card already counts towards the round win; covering the
    cheapest card that does not wins more games than covering a minus card.
    """
    stack = next(stack for stack in state["players"][me]["row"] if stack["card"] == card)
    return stack["worth"] is not None, int(stack["base"]["value"])


def _worth(state: Mapping[str, Any]) -> dict[str, int]:
    """Map every piece worth points (by its id) to its worth."""
    out: dict[str, int] = {}
    for player in state["players"]:
        for stack in player["row"]:
            if stack["worth"] is not None:
                out[stack["card"]] = stack["worth"]
        for bonus in player["bonuses"]:
            out[bonus["id"]] = bonus["value"]
    return out
