"""Animals on Board heuristic: values herds, shuns pairs at the end, saves crates for the group it wants.

It reads only its seat's view. Mid-game a pair is worth something (it may grow
into a herd); once someone has announced 10 tiles the round is the last, so a
pair is worth nothing and crates count as points.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
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
    gain = Gains(ark, last_round)
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


def worth(tiles: list[str], last_round: bool) -> float:
    """Estimate an ark's points: singles at face value, herds 5 each, pairs by hope, the face-down tile a guess."""
    hidden, counts, best = _tally(tiles)
    return HIDDEN_GUESS * hidden + sum(_herd(n, best[s], last_round) for s, n in counts.items()) - _overflow(len(tiles))


def _tally(tiles: list[str]) -> tuple[int, dict[int, int], dict[int, int]]:
    """Return the face-down tiles' count, and each species' count and best value."""
    hidden = 0
    counts: dict[int, int] = {}
    best: dict[int, int] = {}
    for t in tiles:
        if t == HIDDEN:
            hidden += 1
            continue
        species, value = TILE_KEY[t]
        counts[species] = counts.get(species, 0) + 1
        if value > best.get(species, 0):
            best[species] = value
    return hidden, counts, best


def _herd(n: int, best: int, last_round: bool) -> float:
    """Return what `n` tiles of one species (the best worth `best`) are worth on an ark."""
    if n == 0:
        return 0.0
    if n == 1:
        return best
    if n == 2:
        return 0.0 if last_round else PAIR_HOPE
    return HERD_POINTS * n


def _overflow(size: int) -> float:
    """Room on the ark is short: tiles past the tenth are trimmed."""
    return 2.0 * (size - 10) if size > 10 else 0.0


class Gains:
    """What taking a group adds to one ark, net of the crates it costs: `worth(ark + group) - worth(ark) - crates`.

    A turn weighs many groups, often the same ones, against the same ark: the
    ark is tallied once, a group only changes the species it holds, and each
    group's gain is kept. Every term is a whole number, so the difference is
    exactly the one of the two worths.
    """

    def __init__(self, ark: list[str], last_round: bool) -> None:
        self.last_round = last_round
        self.size = len(ark)
        self.hidden, self.counts, self.best = _tally(ark)
        # What each species on the ark is worth now: a group's species not on it add their own worth.
        self._herds = {s: _herd(n, self.best[s], last_round) for s, n in self.counts.items()}
        self._known: dict[tuple[str, ...], float] = {}

    def __call__(self, group: list[str]) -> float:
        key = tuple(group)
        known = self._known.get(key)
        if known is None:
            known = self._known[key] = self._gain(group)
        return known

    def _gain(self, group: list[str]) -> float:
        hidden, counts, best = _tally(group)
        size, last_round, had_counts = self.size, self.last_round, self.counts
        gain = HIDDEN_GUESS * hidden - CRATE * len(group) - _overflow(size + len(group)) + _overflow(size)
        for species, n in counts.items():
            had = had_counts.get(species)
            if had is None:
                gain += _herd(n, best[species], last_round)
            else:
                had_best = self.best[species]
                now_best = best[species] if best[species] > had_best else had_best
                gain += _herd(had + n, now_best, last_round) - self._herds[species]
        return gain


def _best_split(
    gain: Gains, crates: int, centre: list[list[str]], legal: list[dict[str, Any]]
) -> tuple[dict[str, Any] | None, float]:
    """Carve out of some group the tiles we want most, sized to what we can pay next turn."""
    best: tuple[dict[str, Any] | None, float] = (None, float("-inf"))
    for g, first, value in rated_splits(gain, crates, centre, legal):
        if value > best[1]:
            best = ({"type": "split", "group": g, "first": first}, value)
    return best


def rated_splits(
    gain: Gains, crates: int, centre: list[list[str]], legal: list[dict[str, Any]]
) -> Iterator[tuple[int, list[str], float]]:
    """Yield each split worth trying, by group (`first` part), with the better of the parts we could pay for next turn.

    A part too big to pay for is worth nothing to us; a split with neither part affordable is worth -1.
    """
    budget = crates + 1 if crates < MAX_CRATES else MAX_CRATES - 1
    for g in sorted({a["group"] for a in legal if a["type"] == "split"}):
        group = centre[g]
        for first in split_candidates(gain, group, budget):
            # The rest is listed and weighed only when we could pay for it.
            value = gain(first) if len(first) <= budget else -1.0
            if len(group) - len(first) <= budget:
                rest = gain([t for t in group if t not in first])
                if len(first) > budget or rest > value:  # the max without a call to max()
                    value = rest
            yield g, first, value


def split_candidates(gain: Gains, group: list[str], budget: int) -> list[list[str]]:
    """Proper subsets worth trying: the best k tiles for us, and each species whole."""
    ranked = sorted(group, key=lambda t: gain([t]), reverse=True)
    out = [ranked[:k] for k in range(1, min(budget, len(group) - 1) + 1)]
    # Each species' tiles gathered in one pass, species in the group's order, not a set's: a set of
    # strings iterates in an order that changes from process to process, and ties between
    # candidates went to whichever came first.
    species: dict[int, list[str]] = {}
    for t in group:
        if t != HIDDEN:
            species.setdefault(TILE_KEY[t][0], []).append(t)
    out += [same for same in species.values() if len(same) < len(group)]
    return out
