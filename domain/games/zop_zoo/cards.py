"""The Zop Zoo deck as data: read a card set (the bundled `cards.json` or a game's own) and check its form.

A card set is a JSON object: `categories` (name and value), `connect_value`,
and the `white` and `black` card lists. A black card matches the white card of
the same animal: category to category, upper half to lower half (connect),
ANTI-minus to minus. Side bonus values come from their category.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, TypeGuard

from mypy_extensions import mypyc_attr

from domain.errors import OptionsError
from domain.values import FrozenDict, detached, remembered

# Found through the package, not this file: compiled (`domain.compiled_rules`), this module lives elsewhere.
BUNDLED = resources.files("domain.games.zop_zoo").joinpath("cards.json")
STARTING_CARDS = 6
SPECIALTIES = ("hyena", "raccoon", "earthworm")
WHITE_KINDS = ("category", "lower", "minus")
BLACK_KINDS = ("category", "upper", "anti_minus", "wild", "mole", "side_bonus") + SPECIALTIES
# The white kind each matching black kind covers or connects.
PAIRS = {"category": "category", "upper": "lower", "anti_minus": "minus"}


class CardSetError(OptionsError):
    """A card set that is not of the Zop Zoo form."""

    code = "invalid_card_set"


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Card:
    """One card; `value` is what it is worth where it counts (0 for MOLE and specialties)."""

    id: str
    deck: str
    kind: str
    animal: str | None = None
    category: str | None = None
    value: int = 0
    name: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Describe the card for a view."""
        return {
            "id": self.id,
            "deck": self.deck,
            "kind": self.kind,
            "animal": self.animal,
            "category": self.category,
            "value": self.value,
            "name": self.name,
        }


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class CardSet:
    """A checked card set with its lookups (read-only mappings)."""

    cards: Mapping[str, Card]
    white: tuple[str, ...]
    black: tuple[str, ...]
    matches: Mapping[str, str]  # black card id -> the white card id it covers or connects
    categories: Mapping[str, int]
    connect_value: int

    def __getitem__(self, card_id: str) -> Card:
        return self.cards[card_id]

    def describe(self, card_id: str) -> dict[str, Any]:
        """Return `Card.to_dict` of a card (a fresh dict each time)."""
        return self.described[card_id].copy()

    @property
    def described(self) -> Mapping[str, FrozenDict]:
        """Return every card as `describe` shows it, built once per set and read-only: views share them."""
        return remembered(self, "described", _described)

    @property
    def size(self) -> int:
        """Count every card of both decks."""
        return len(self.white) + len(self.black)


def _described(cards: CardSet) -> dict[str, FrozenDict]:
    return {card_id: FrozenDict(card.to_dict()) for card_id, card in cards.cards.items()}


def bundled() -> dict[str, Any]:
    """Return the bundled card set as JSON data (a fresh copy)."""
    # Its lists hold flat objects of strings and numbers: copying two levels deep copies it all.
    raw, _ = _bundled_set()
    return {key: [dict(item) for item in value] if isinstance(value, list) else value for key, value in raw.items()}


@cache
def _bundled_set() -> tuple[dict[str, Any], CardSet]:
    raw = json.loads(BUNDLED.read_text(encoding="utf-8"))
    return raw, _parsed(raw)


def parse(raw: Any) -> CardSet:
    """Check a card set's form and build its lookups, or raise CardSetError saying what is wrong."""
    # Nearly every game plays the bundled set, and each one's setup reads it: check it once.
    known, card_set = _bundled_set()
    return card_set if raw == known else _parsed(raw)


def _parsed(raw: Any) -> CardSet:
    if not isinstance(raw, Mapping):
        raise CardSetError("a card set is a JSON object")
    categories = _categories(raw.get("categories"))
    connect = raw.get("connect_value")
    if not _is_int(connect):
        raise CardSetError(f"card set: connect_value must be an integer within ±{POINTS_LIMIT}")
    cards: dict[str, Card] = {}
    white = _deck(raw, "white", WHITE_KINDS, categories, connect, cards)
    black = _deck(raw, "black", BLACK_KINDS, categories, connect, cards)
    # Detached: the rules read a card set's lookups on every move, and `remembered` keeps facts beside them.
    return detached(CardSet(cards, white, black, _matches(cards, white, black), categories, connect))


def check_fits(cards: CardSet, seats: int) -> None:
    """Raise CardSetError where the set cannot deal or refill for this many seats."""
    if len(cards.white) < STARTING_CARDS * seats:
        raise CardSetError(f"card set: {seats} seats need at least {STARTING_CARDS * seats} white cards")
    bonuses = sum(1 for card_id in cards.black if cards[card_id].kind == "side_bonus")
    # Every white card holds at most one cover, so this many black cards always
    # stay in the deck or the discard pile: two are needed to refill a deck.
    if len(cards.black) - STARTING_CARDS * seats - bonuses < 2:
        raise CardSetError(f"card set: the black deck is too small for {seats} seats")


# Points on a card, a category or a connection; the bundled deck's are in the hundreds.
POINTS_LIMIT = 1_000_000


def _is_int(value: Any) -> TypeGuard[int]:
    """Whether `value` is a whole number of points within ±POINTS_LIMIT (openapi.yaml says the same)."""
    return isinstance(value, int) and not isinstance(value, bool) and -POINTS_LIMIT <= value <= POINTS_LIMIT


def _categories(raw: Any) -> dict[str, int]:
    if not isinstance(raw, list) or not raw:
        raise CardSetError("card set: categories must be a non-empty list")
    out: dict[str, int] = {}
    for item in raw:
        if not isinstance(item, Mapping) or not isinstance(item.get("name"), str) or not _is_int(item.get("value")):
            raise CardSetError("card set: each category needs a name (string) and a value (integer)")
        if item["name"] in out:
            raise CardSetError(f"card set: category {item['name']} appears twice")
        out[item["name"]] = item["value"]
    return out


def _deck(
    raw: Mapping[str, Any],
    deck: str,
    kinds: tuple[str, ...],
    categories: Mapping[str, int],
    connect: int,
    cards: dict[str, Card],
) -> tuple[str, ...]:
    items = raw.get(deck)
    if not isinstance(items, list) or not items:
        raise CardSetError(f"card set: {deck} must be a non-empty list of cards")
    ids = []
    for item in items:
        card = _card(item, deck, kinds, categories, connect)
        if card.id in cards:
            raise CardSetError(f"card set: card id {card.id} appears twice")
        cards[card.id] = card
        ids.append(card.id)
    return tuple(ids)


def _card(item: Any, deck: str, kinds: tuple[str, ...], categories: Mapping[str, int], connect: int) -> Card:
    if not isinstance(item, Mapping) or not isinstance(item.get("id"), str) or not item["id"]:
        raise CardSetError(f"card set: every {deck} card needs a string id")
    card_id, kind = item["id"], item.get("kind")
    if kind not in kinds:
        raise CardSetError(f"card set: {deck} card {card_id} has kind {kind!r}; allowed: {', '.join(kinds)}")
    animal = item.get("animal")
    if animal is not None and not isinstance(animal, str):
        raise CardSetError(f"card set: card {card_id} has an animal that is not a string")
    if kind in ("category", "lower", "minus", "upper", "anti_minus") and not (isinstance(animal, str) and animal):
        raise CardSetError(f"card set: card {card_id} needs an animal")
    category = item.get("category")
    if kind in ("category", "upper", "side_bonus") and not (isinstance(category, str) and category in categories):
        raise CardSetError(f"card set: card {card_id} needs one of the set's categories, not {category!r}")
    if kind in ("minus", "anti_minus", "wild") and not _is_int(item.get("value")):
        raise CardSetError(f"card set: card {card_id} needs an integer value")
    name = item.get("name")
    if name is not None and not isinstance(name, str):
        raise CardSetError(f"card set: card {card_id} has a name that is not a string")
    if kind in ("category", "side_bonus"):
        value = categories[str(category)]
    elif kind in ("lower", "upper"):
        value = connect
    elif kind in ("minus", "anti_minus", "wild"):
        value = item["value"]
    else:
        value = 0
    # A kind that shows no category ignores whatever its data gives for one.
    kept = category if kind in ("category", "upper", "side_bonus") else None
    return Card(card_id, deck, kind, animal, kept, value, name or _label(kind, animal, kept))


def _label(kind: str, animal: str | None, category: str | None) -> str:
    """Name a card that its data does not name."""
    if kind == "category":
        return str(animal)
    if kind == "side_bonus":
        return f"{category} side bonus"
    if animal is not None:
        return f"{animal} ({_KIND_LABELS[kind]})"
    return kind.upper()


_KIND_LABELS = {"lower": "lower half", "upper": "upper half", "minus": "minus", "anti_minus": "ANTI-minus"}


def _matches(cards: Mapping[str, Card], white: tuple[str, ...], black: tuple[str, ...]) -> dict[str, str]:
    by_animal: dict[str, str] = {}
    for card_id in white:
        animal = cards[card_id].animal
        if animal is None:  # cannot happen: _card gives every white kind an animal
            raise CardSetError(f"card set: white card {card_id} shows no animal")
        if animal in by_animal:
            raise CardSetError(f"card set: two white cards show the animal {animal}")
        by_animal[animal] = card_id
    matches: dict[str, str] = {}
    matched: set[str] = set()
    for card_id in black:
        card = cards[card_id]
        if card.kind not in PAIRS:
            continue
        target = by_animal.get(card.animal or "")
        if target is None or cards[target].kind != PAIRS[card.kind]:
            raise CardSetError(f"card set: black card {card_id} matches no {PAIRS[card.kind]} white card of its animal")
        if card.kind == "category" and cards[target].category != card.category:
            raise CardSetError(f"card set: black card {card_id} and white card {target} differ in category")
        if target in matched:
            raise CardSetError(f"card set: white card {target} has more than one black match")
        matches[card_id] = target
        matched.add(target)
    unmatched = sorted(set(white) - matched)
    if unmatched:
        raise CardSetError(f"card set: white card(s) without a black match: {', '.join(unmatched)}")
    return matches
