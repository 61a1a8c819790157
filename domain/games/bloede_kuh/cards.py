"""Blöde Kuh's cards: species, hands as counts, Nobody-wants-it values, minus points."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

SPECIES = ("sheep", "pig", "horse", "cow")
INDEX = {species: index for index, species in enumerate(SPECIES)}
PER_SPECIES = 18
DECK_SIZE = PER_SPECIES * len(SPECIES)
HAND_SIZE = 9
ROUNDS = 3
# Value of each species' Nobody-wants-it card in rounds 1, 2 and 3.
NWI_VALUES = {"sheep": (1, 2, 3), "pig": (2, 3, 4), "horse": (3, 4, 5), "cow": (4, 5, 6)}
MOST_POINTS, SECOND_POINTS = 4, 2

# Cards of one species are alike, so a hand is a count per species, in SPECIES order.
Hand = tuple[int, ...]


def full_deck() -> list[str]:
    """Return the 72 hand cards in a fixed order, ready to shuffle."""
    return [species for species in SPECIES for _ in range(PER_SPECIES)]


def hand_of(cards: Iterable[str]) -> Hand:
    """Count a list of cards into a hand."""
    counts = [0] * len(SPECIES)
    for card in cards:
        counts[INDEX[card]] += 1
    return tuple(counts)


def hand_cards(hand: Hand) -> list[str]:
    """List a hand's cards, sorted by species."""
    return [species for species, count in zip(SPECIES, hand) for _ in range(count)]


def change(hand: Hand, card: str, by: int) -> Hand:
    """Return the hand with `by` more (or fewer) cards of one species."""
    index = INDEX[card]
    return hand[:index] + (hand[index] + by,) + hand[index + 1 :]


def count(hand: Hand, card: str) -> int:
    """Return how many cards of a species a hand holds."""
    return hand[INDEX[card]]


def minus_points(cards_left: Sequence[int]) -> list[int]:
    """Return each seat's minus points for the cards left in its hand at the end of a round.

    Most cards: 4; second most: 2. Several tied for most: each 2, and nobody
    takes the second-place card. Several tied for second: each 2. A seat with
    no cards never takes a minus card.
    """
    levels = sorted({left for left in cards_left if left > 0}, reverse=True)
    points = [0] * len(cards_left)
    if not levels:
        return points
    most = [seat for seat, left in enumerate(cards_left) if left == levels[0]]
    if len(most) > 1:
        for seat in most:
            points[seat] = SECOND_POINTS
        return points
    points[most[0]] = MOST_POINTS
    if len(levels) > 1:
        for seat, left in enumerate(cards_left):
            if left == levels[1]:
                points[seat] = SECOND_POINTS
    return points
