"""What the rows and the discard pile allow: card worth, where a card fits, what is pending, scores."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from domain.games.zop_zoo.cards import PAIRS, SPECIALTIES, CardSet
from domain.games.zop_zoo.state import PLAYING, Stack, State
from domain.values import remembered

BESIDE = "beside"  # where a side bonus card goes: beside the row, not onto a starting card

# Pending decisions of the player to act.
DRAW, TAKE, WILD, MOLE, SPECIALTY = "draw", "take_discard", "place_wild", "mole", "specialty"
# What each specialty card lets its player do, as an action type.
SPECIALTY_ACTIONS = {"hyena": "give", "raccoon": "take_card", "earthworm": "swap"}


class Pending(NamedTuple):
    """The decision the player to act faces; `card` is the card on offer, `source` where it lies."""

    decision: str
    card: str | None = None
    source: str | None = None  # "deck" (just drawn) or "discard" (the discard pile's top)


def worth(cards: CardSet, stack: Stack) -> int | None:
    """Return what a stack is worth, or None while it is not worth points."""
    base = cards.cards[stack.base]
    if stack.cover is None:
        return base.value if base.kind == "minus" else None
    cover = cards.cards[stack.cover]
    if cover.kind == "wild":
        return cover.value
    return cover.value if base.kind == "minus" else base.value


def category(cards: CardSet, stack: Stack) -> str | None:
    """Return a stack's category: a category card's own (even under a wild), a lower half's once connected."""
    base = cards.cards[stack.base]
    if base.kind == "category":
        return base.category
    if base.kind == "lower" and stack.cover is not None and (cover := cards.cards[stack.cover]).kind == "upper":
        return cover.category
    return None


class StackFacts(NamedTuple):
    """What a stack shows: its worth (`worth`) and its category (`category`)."""

    worth: int | None
    category: str | None


class _PerStack(dict[tuple[str, "str | None"], StackFacts]):
    """A card set's `StackFacts` by (base, cover), each derived on first asking: a hit is one dict lookup."""

    def __init__(self, cards: CardSet) -> None:
        super().__init__()
        self.cards = cards

    def __missing__(self, key: tuple[str, str | None]) -> StackFacts:
        stack = Stack(*key)
        facts = self[key] = StackFacts(worth(self.cards, stack), category(self.cards, stack))
        return facts


def stack_facts(cards: CardSet) -> Mapping[tuple[str, str | None], StackFacts]:
    """Return every stack's `worth` and `category` by stack (a (base, cover) tuple), derived once per card set.

    Rows change a stack at a time, and the checks for a win, the scores and the
    views ask about every stack of every row: a lookup here is far cheaper.
    """
    return remembered(cards, "stack_facts", _PerStack)


def categories(state: State, seat: int) -> set[str]:
    """Return the categories a seat's row shows, for side bonus cards."""
    facts = stack_facts(state.cards)
    found = (facts[stack].category for stack in state.rows[seat])
    return {name for name in found if name is not None}


def place_for(state: State, seat: int, card: str) -> str | None:
    """Return where a black card goes in a seat's row (a starting card's id, or BESIDE), or None."""
    info = state.cards.cards[card]
    kind = info.kind
    if kind in PAIRS:
        target = state.cards.matches[card]
        for stack in state.rows[seat]:
            if stack.base == target:
                return target if stack.cover is None else None
        return None
    if kind == "side_bonus" and info.category in categories(state, seat):
        return BESIDE
    return None


def uncovered(state: State, seat: int) -> list[str]:
    """Return the seat's uncovered starting cards, where a wild card may go."""
    return [stack.base for stack in state.rows[seat] if stack.cover is None]


def owner(state: State, card: str) -> int | None:
    """Return the seat whose row holds a piece (a stack by its starting card, or a side bonus)."""
    for seat in range(state.seats):
        if card in state.bonuses[seat] or any(stack.base == card for stack in state.rows[seat]):
            return seat
    return None


def piece_worth(state: State, seat: int, card: str) -> int | None:
    """Return what a seat's piece is worth (None: not worth points)."""
    if card in state.bonuses[seat]:
        return state.cards[card].value
    stack = next(stack for stack in state.rows[seat] if stack.base == card)
    return stack_facts(state.cards)[stack].worth


def worth_pieces(state: State, seat: int) -> list[str]:
    """Return the seat's pieces worth points: stacks by starting card, then side bonuses."""
    facts = stack_facts(state.cards)
    stacks = [stack.base for stack in state.rows[seat] if facts[stack].worth is not None]
    return stacks + list(state.bonuses[seat])


def has_won(state: State, seat: int) -> bool:
    """Tell whether every starting card in the seat's row is worth points."""
    return row_won(stack_facts(state.cards), state.rows[seat])


def row_won(facts: Mapping[tuple[str, str | None], StackFacts], row: tuple[Stack, ...]) -> bool:
    """Tell whether every stack of a row is worth points (`has_won`, given the card set's `stack_facts`)."""
    for stack in row:
        if facts[stack].worth is None:
            return False
    return True


def dig_finds(state: State, seat: int, pile: Iterable[str]) -> list[dict[str, Any]]:
    """Return what a MOLE dig in `pile` takes: every card that covers, connects or sits beside the row.

    A connected upper half brings its category, which can let a side bonus in too.
    The finds are in the pile's order (bottom first).
    """
    # Asked of each uncovered card (its one black match) rather than of each card in the
    # pile, which is long: a pair card fits only the white card it matches.
    cards = state.cards
    lookup, (match_of, bonuses) = cards.cards, _dig_index(cards)
    in_pile = set(pile)
    shown = categories(state, seat)
    taken: list[dict[str, Any]] = []
    for white in uncovered(state, seat):
        black = match_of[white]
        if black in in_pile:
            taken.append({"card": black, "onto": white})
            info = lookup[black]
            if info.kind == "upper" and info.category is not None:
                shown.add(info.category)
    for card in in_pile & bonuses:
        if lookup[card].category in shown:
            taken.append({"card": card, "onto": None})
    return sorted(taken, key=lambda item: _position(state, item["card"]))


class _DigIndex(NamedTuple):
    """A card set's black match of each white card, and its side bonus cards: what a dig looks for."""

    match_of: Mapping[str, str]
    side_bonuses: frozenset[str]


def _dig_index(cards: CardSet) -> _DigIndex:
    return remembered(cards, "dig_index", _index_for_digs)


def _index_for_digs(cards: CardSet) -> _DigIndex:
    match_of = {white: black for black, white in cards.matches.items()}
    bonuses = frozenset(card for card, info in cards.cards.items() if info.kind == "side_bonus")
    return _DigIndex(match_of, bonuses)


def mole_finds(state: State) -> list[dict[str, Any]]:
    """Return what the MOLE on offer digs for the player to act (`dig_finds`).

    The view shows it and the dig takes it; a drawn MOLE digs the whole pile, one
    on the discard pile the cards beneath it.
    """
    now = pending(state)
    pile = state.discard if now is not None and now.source == "deck" else state.discard[:-1]
    return dig_finds(state, state.turn, pile)


def _position(state: State, card: str) -> int:
    return state.discard.index(card)


def can_use(state: State, seat: int, specialty: str) -> bool:
    """Tell whether the seat can use a HYENA (it has a piece worth points to give), a RACCOON (another
    seat has one to take) or an EARTHWORM (both): whether `specialty_moves` lists any use."""
    kind = state.cards.cards[specialty].kind
    if kind != "raccoon" and not has_worth(state, seat):
        return False
    return kind == "hyena" or any(has_worth(state, other) for other in range(state.seats) if other != seat)


def has_worth(state: State, seat: int) -> bool:
    """Tell whether the seat has a piece worth points: a side bonus, or a stack worth points."""
    facts = stack_facts(state.cards)
    return bool(state.bonuses[seat]) or any(facts[stack].worth is not None for stack in state.rows[seat])


def specialty_moves(state: State, seat: int, specialty: str) -> list[dict[str, Any]]:
    """Return every use of a HYENA, RACCOON or EARTHWORM card open to the seat (empty: it cannot be used)."""
    kind = state.cards.cards[specialty].kind
    mine = worth_pieces(state, seat)
    others = [(other, worth_pieces(state, other)) for other in range(state.seats) if other != seat]
    if kind == "hyena":
        return [{"type": "give", "card": card, "to": other} for card in mine for other, _ in others]
    if kind == "raccoon":
        return [{"type": "take_card", "card": card, "from": other} for other, theirs in others for card in theirs]
    return [
        {"type": "swap", "card": card, "with": other, "for": their}
        for card in mine
        for other, theirs in others
        for their in theirs
    ]


def pending(state: State) -> Pending | None:
    """Return the decision the player to act faces (None when no one acts)."""
    if state.phase != PLAYING:
        return None
    if state.drawn is not None:
        kind = state.cards.cards[state.drawn].kind
        return Pending(SPECIALTY if kind in SPECIALTIES else WILD if kind == "wild" else MOLE, state.drawn, "deck")
    top = state.top
    if state.fresh and top is not None:
        kind = state.cards.cards[top].kind
        if place_for(state, state.turn, top) is not None:
            return Pending(TAKE, top, "discard")
        if kind == "mole":
            return Pending(MOLE, top, "discard")
        if kind in SPECIALTIES and top not in state.spent and can_use(state, state.turn, top):
            return Pending(SPECIALTY, top, "discard")
    return _DRAW


def round_points(state: State, seat: int) -> tuple[int, int]:
    """Return what the seat would score now: as the round's winner, and as another player."""
    lookup, points = state.cards.cards, stack_points(state.cards)[state.rules_version]
    bonus = 0
    for card in state.bonuses[seat]:
        bonus += lookup[card].value
    as_winner = as_other = bonus
    for stack in state.rows[seat]:
        winner, other = points[stack]
        as_winner += winner
        as_other += other
    return as_winner, as_other


def stack_points(cards: CardSet) -> Mapping[str, Mapping[tuple[str, str | None], tuple[int, int]]]:
    """Return what each stack scores by rules version, then by (base, cover): as the round's winner, as another player.

    Derived once per card set, as `stack_facts`: every view scores every row.
    """
    return remembered(cards, "stack_points", _PointsByVersion)


class _PointsByVersion(dict[str, "_Points"]):
    def __init__(self, cards: CardSet) -> None:
        super().__init__()
        self.cards = cards

    def __missing__(self, rules_version: str) -> _Points:
        points = self[rules_version] = _Points(self.cards, rules_version)
        return points


class _Points(dict[tuple[str, "str | None"], tuple[int, int]]):
    """A card set's stack scores under one rules version, each derived on first asking."""

    def __init__(self, cards: CardSet, rules_version: str) -> None:
        super().__init__()
        self.cards = cards
        self.old_rules = rules_version == "1"

    def __missing__(self, key: tuple[str, str | None]) -> tuple[int, int]:
        stack = Stack(*key)
        value = stack_facts(self.cards)[stack].worth
        base = self.cards.cards[stack.base]
        as_other = 0
        if base.kind == "minus":
            if self.old_rules:
                # Rules 1 let a non-winner score a covered minus card at the value it shows.
                as_other = value or 0
            elif stack.cover is None:
                # Covering a minus card only avoids the loss: it scores nothing for a non-winner.
                as_other = base.value
        points = self[key] = (value or 0, as_other)
        return points


_DRAW = Pending(DRAW)
