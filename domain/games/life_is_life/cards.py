"""The animal cards of Life is Life and the pure arithmetic of a phase's end."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import TypeVar

# Whoever holds the points (a seat; the rulebook's examples name players).
K = TypeVar("K", bound=Hashable)

# An animal's value equals its number of cards (RULES.md §1), highest first.
VALUES: dict[str, int] = {
    "giraffe": 9,
    "bear": 8,
    "mole": 7,
    "goat": 7,
    "sheep": 6,
    "dog": 6,
    "rabbit": 5,
    "pig": 5,
    "cat": 4,
    "mouse": 3,
}
SPECIES: tuple[str, ...] = tuple(VALUES)
DECK: tuple[str, ...] = tuple(name for name, count in VALUES.items() for _ in range(count))
HAND_SIZE = 10
ROW_SIZES = (1, 2, 3, 4)
START_LIVES = 5
SUDDEN_DEATH = ("cat", "rabbit", "pig")
ADVANCED_SUDDEN_DEATH = ("rabbit", "pig")


def sudden_death(hand: Iterable[str], advanced: bool) -> list[str]:
    """Return the species of which `hand` holds every card (the declarable combinations)."""
    counts = Counter(hand)
    combos = ADVANCED_SUDDEN_DEATH if advanced else SUDDEN_DEATH
    return [name for name in combos if counts[name] == VALUES[name]]


def majorities(hands: Mapping[int, Sequence[str]]) -> dict[str, int | None]:
    """Return, per species, the seat holding strictly more cards than every other seat."""
    counts = {seat: Counter(hand) for seat, hand in hands.items()}
    # With only two players left a single card never scores (RULES.md §1).
    least = 2 if len(hands) == 2 else 1
    out: dict[str, int | None] = {}
    for name in SPECIES:
        ranked = sorted(((c[name], seat) for seat, c in counts.items()), reverse=True)
        best, seat = ranked[0]
        alone = len(ranked) == 1 or ranked[1][0] < best
        out[name] = seat if alone and best >= least else None
    return out


def totals(hands: Mapping[int, Sequence[str]]) -> dict[int, int]:
    """Return each seat's points: the value of every species it holds the majority of."""
    points = {seat: 0 for seat in hands}
    for name, seat in majorities(hands).items():
        if seat is not None:
            points[seat] += VALUES[name]
    return points


def life_losses(points: Mapping[K, int]) -> dict[K, int]:
    """Return lives lost per seat: highest 0, lowest 2, others 1; all equal, nobody."""
    high, low = max(points.values()), min(points.values())
    if high == low:
        return {seat: 0 for seat in points}
    return {seat: 0 if p == high else 2 if p == low else 1 for seat, p in points.items()}
