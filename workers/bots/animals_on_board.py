"""Animals on Board heuristic: values herds, shuns pairs at the end, saves crates for the group it wants.

It reads only its seat's view. Mid-game a pair is worth something (it may grow
into a herd); once someone has announced 10 tiles the round is the last, so a
pair is worth nothing and crates count as points.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from domain.games.animals_on_board.tiles import HERD_POINTS, HIDDEN, MAX_CRATES, TILE_KEY, value_of

PAIR_HOPE = 3.0  # a pair mid-game: worth a little, it may become a herd
HIDDEN_GUESS = 2.0  # the face-down tile: some unknown animal
CRATE = 1.0  # a crate is a point at the end and buys a tile
TAKE_AT = 5.0  # a group this good is taken now rather than risked


def heuristic(view: Mapping[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Choose one of the legal actions for the seat whose view this is."""
    state = view["state"]
    kinds = {a["type"] for a in legal}
    if kinds == {"keep"}:
        return max(legal, key=lambda a: value_of(a["tile"]))
    if kinds == {"forfeit"}:
        return legal[0]
    me = state["you"]
    last_round = any(p["announced"] for p in state["players"])
    ark = list(me["ark"])
    crates = me["crates"]
    centre = state["centre"]
    gain = _Gains(ark, last_round)
    takes = [a for a in legal if a["type"] == "take"]
    best_take = max(takes, key=lambda a: gain(centre[a["group"]]), default=None)
    take_gain = gain(centre[best_take["group"]]) if best_take else float("-inf")
    split, split_gain = _best_split(gain, crates, centre, legal)
    if split is None:
        return best_take  # type: ignore[return-value]
    crate_bonus = CRATE if crates < MAX_CRATES else 0.0
    if state["final_turn"]:
        return best_take if best_take and take_gain > crate_bonus else split
    if best_take and (take_gain >= TAKE_AT or take_gain > split_gain + crate_bonus):
        return best_take
    return split


@lru_cache(maxsize=1 << 14)
def _worth_of(tiles: tuple[str, ...], last_round: bool) -> float:
    """Estimate an ark's points (its tiles sorted): singles at face value, herds 5 each, pairs by hope."""
    # Every term is a whole number, so the sum is exact in any order.
    counts: dict[int, int] = {}
    best: dict[int, int] = {}
    hidden = 0
    for t in tiles:
        if t == HIDDEN:
            hidden += 1
            continue
        species, value = TILE_KEY[t]
        counts[species] = counts.get(species, 0) + 1
        if value > best.get(species, 0):
            best[species] = value
    total = HIDDEN_GUESS * hidden
    for species, n in counts.items():
        if n == 1:
            total += best[species]
        elif n == 2:
            total += 0.0 if last_round else PAIR_HOPE
        else:
            total += HERD_POINTS * n
    if len(tiles) > 10:  # room on the ark is short; extra tiles are trimmed
        total -= 2.0 * (len(tiles) - 10)
    return total


class _Gains:
    """What taking a group adds to one ark, net of the crates it costs (the ark's own worth weighed once)."""

    def __init__(self, ark: list[str], last_round: bool) -> None:
        self.ark = ark
        self.last_round = last_round
        self.now = _worth_of(tuple(sorted(ark)), last_round)

    def __call__(self, group: list[str]) -> float:
        # The order of the tiles does not matter, and a turn weighs the same arks many times.
        worth = _worth_of(tuple(sorted(self.ark + group)), self.last_round)
        return worth - self.now - CRATE * len(group)


def _best_split(
    gain: _Gains, crates: int, centre: list[list[str]], legal: list[dict[str, Any]]
) -> tuple[dict[str, Any] | None, float]:
    """Carve out of some group the tiles we want most, sized to what we can pay next turn."""
    splittable = sorted({a["group"] for a in legal if a["type"] == "split"})
    budget = crates + 1 if crates < MAX_CRATES else MAX_CRATES - 1
    best: tuple[dict[str, Any] | None, float] = (None, float("-inf"))
    for g in splittable:
        group = centre[g]
        for first in _candidates(gain, group, budget):
            rest = [t for t in group if t not in first]
            value = max((gain(part) for part in (first, rest) if len(part) <= budget), default=-1.0)
            if value > best[1]:
                best = ({"type": "split", "group": g, "first": first}, value)
    return best


def _candidates(gain: _Gains, group: list[str], budget: int) -> list[list[str]]:
    """Proper subsets worth trying: the best k tiles for us, and each species whole."""
    ranked = sorted(group, key=lambda t: gain([t]), reverse=True)
    out = [ranked[:k] for k in range(1, min(budget, len(group) - 1) + 1)]
    # In the group's order, not a set's: a set of strings iterates in an order that changes
    # from process to process, and ties between candidates went to whichever came first.
    for species in dict.fromkeys(t.rsplit("-", 1)[0] for t in group if t != HIDDEN):
        same = [t for t in group if t.startswith(species + "-")]
        if len(same) < len(group):
            out.append(same)
    return out
