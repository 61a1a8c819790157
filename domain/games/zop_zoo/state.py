"""Zop Zoo state and `evolve`: the fold of the game's events (never fails, never draws)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from mypy_extensions import mypyc_attr

from domain.events import Event
from domain.games.zop_zoo.cards import CardSet, parse
from domain.upcasters import upcaster
from domain.values import changed, detached

# Versions of the rules (RULES.md §4). "1": a player other than the round's
# winner also scored a covered minus card at the value it showed; "2": only
# their uncovered minus cards count for them (negative), a covered one nothing.
RULES_VERSIONS = ("1", "2")


@upcaster("ZooSetUp", 1)
def _zoo_set_up_v2(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """Name the rules version, which v1 did not record: every such game was played under "1"."""
    return {**data, "rules_version": "1"}


MAX_SEATS = 6

# SET_UP: only between ZooSetUp and the first deal (a past view can stop there; no one acts).
SET_UP, PLAYING, ROUND_WON, OVER = "set_up", "playing", "round_won", "over"


class Stack(NamedTuple):
    """A starting card and what covers or connects to it (a black card, or None)."""

    # A named tuple: a stack is also the key of its worth and category in the card set's tables (`board.stack_facts`).

    base: str
    cover: str | None = None


Rows = tuple[tuple[Stack, ...], ...]  # per seat, left to right
Bonuses = tuple[tuple[str, ...], ...]  # per seat, the side bonus cards beside its row


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class RoundResult:
    """One finished round: its winner and what every seat scored."""

    round: int
    winner: int
    scores: tuple[int, ...]


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class State:
    """One game of Zop Zoo; the black deck's order (`deck`, top first) is its only secret."""

    cards: CardSet
    seats: int
    target: int
    totals: tuple[int, ...]
    rules_version: str = RULES_VERSIONS[-1]
    phase: str = SET_UP
    round: int = 0
    starter: int = 0
    turn: int = 0
    rows: Rows = ()
    bonuses: Bonuses = ()
    deck: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()  # bottom first; the top card is the last
    set_aside: tuple[str, ...] = ()
    drawn: str | None = None  # a drawn card waiting for its player's decision
    fresh: bool = True  # nothing done yet this turn: the discard pile's top is on offer
    spent: frozenset[str] = frozenset()
    results: tuple[RoundResult, ...] = ()

    @property
    def top(self) -> str | None:
        """Return the discard pile's top card."""
        return self.discard[-1] if self.discard else None


def evolve(state: State | None, event: Event) -> State:
    """Apply one event; never fails on a valid stream."""
    return _HANDLERS[event.type](state, event)


def _set_up(_: State | None, event: Event) -> State:
    data = event.data
    seats = data["seats"]
    empty = ((),) * seats
    # The first state of a game, which every later one copies (see `domain.values.detached`).
    state = State(
        cards=parse(data["card_set"]),
        seats=seats,
        target=data["target"],
        totals=(0,) * seats,
        rules_version=data["rules_version"],
        rows=empty,
        bonuses=empty,
    )
    return detached(state)


def _dealt(state: State, event: Event) -> State:
    data = event.data
    return changed(
        state,
        phase=PLAYING,
        round=data["round"],
        starter=data["starter"],
        turn=data["starter"],
        rows=tuple(tuple(Stack(card) for card in row) for row in data["rows"]),
        bonuses=((),) * state.seats,
        deck=tuple(data["deck"]),
        discard=(),
        set_aside=tuple(data["set_aside"]),
        drawn=None,
        fresh=True,
        spent=frozenset(),
    )


def _drawn(state: State, event: Event) -> State:
    data = event.data
    return changed(state, deck=state.deck[1:], drawn=data["card"], fresh=False)


def _refilled(state: State, event: Event) -> State:
    data = event.data
    return changed(state, deck=tuple(data["deck"]), discard=state.discard[-1:])


def _placed(state: State, event: Event) -> State:
    data = event.data
    rows = _cover(state.rows, data["seat"], data["onto"], data["card"])
    return changed(state, rows=rows, drawn=None)


def _bonus_taken(state: State, event: Event) -> State:
    data = event.data
    return changed(state, bonuses=_add_bonus(state.bonuses, data["seat"], data["card"]), drawn=None)


def _discarded(state: State, event: Event) -> State:
    data = event.data
    return changed(state, discard=state.discard + (data["card"],), drawn=None)


def _turn_ended(state: State, event: Event) -> State:
    data = event.data
    return changed(state, turn=data["next"], fresh=True)


def _discard_taken(state: State, event: Event) -> State:
    data = event.data
    state = changed(state, discard=state.discard[:-1], fresh=False)
    return _take(state, data["seat"], data["card"], data["onto"])


def _dug(state: State, event: Event) -> State:
    data = event.data
    taken = {item["card"] for item in data["taken"]}
    discard = tuple(card for card in state.discard if card not in taken)
    if data["source"] == "deck":
        discard += (data["mole"],)
    state = changed(state, discard=discard, drawn=None, fresh=False)
    for item in data["taken"]:
        state = _take(state, data["seat"], item["card"], item["onto"])
    return state


def _specialty_used(state: State, event: Event) -> State:
    data = event.data
    rows, bonuses = state.rows, state.bonuses
    pieces = []
    # Lift every moved piece before dropping any, so a swap moves the two at once.
    for move in data["moves"]:
        rows, bonuses, piece = _lift(rows, bonuses, move["from"], move["card"])
        pieces.append(piece)
    for move, piece in zip(data["moves"], pieces):
        rows, bonuses = _drop(rows, bonuses, move["to"], piece)
    discard = state.discard + (data["specialty"],) if data["source"] == "deck" else state.discard
    spent = state.spent | {data["specialty"]}
    return changed(state, rows=rows, bonuses=bonuses, discard=discard, drawn=None, fresh=False, spent=spent)


def _round_won(state: State, event: Event) -> State:
    data = event.data
    result = RoundResult(data["round"], data["winner"], tuple(data["scores"]))
    return changed(
        state,
        phase=OVER if data["game_over"] else ROUND_WON,
        totals=tuple(data["totals"]),
        results=state.results + (result,),
    )


# --- row surgery --------------------------------------------------------------


def _cover(rows: Rows, seat: int, onto: str, card: str) -> Rows:
    row = tuple(Stack(s.base, card) if s.base == onto else s for s in rows[seat])
    return rows[:seat] + (row,) + rows[seat + 1 :]


def _add_bonus(bonuses: Bonuses, seat: int, card: str) -> Bonuses:
    return bonuses[:seat] + (bonuses[seat] + (card,),) + bonuses[seat + 1 :]


def _take(state: State, seat: int, card: str, onto: str | None) -> State:
    """Place a card taken from the discard pile: on its starting card, or beside the row."""
    if onto is None:
        return changed(state, bonuses=_add_bonus(state.bonuses, seat, card))
    return changed(state, rows=_cover(state.rows, seat, onto, card))


def _lift(rows: Rows, bonuses: Bonuses, seat: int, card: str) -> tuple[Rows, Bonuses, Stack | str]:
    """Remove a piece (a stack by its starting card, or a side bonus) from a seat."""
    if card in bonuses[seat]:
        kept = tuple(b for b in bonuses[seat] if b != card)
        return rows, bonuses[:seat] + (kept,) + bonuses[seat + 1 :], card
    stack = next(s for s in rows[seat] if s.base == card)
    kept_row = tuple(s for s in rows[seat] if s.base != card)
    return rows[:seat] + (kept_row,) + rows[seat + 1 :], bonuses, stack


def _drop(rows: Rows, bonuses: Bonuses, seat: int, piece: Stack | str) -> tuple[Rows, Bonuses]:
    """Add a piece at the end of a seat's row (a stack) or beside it (a side bonus)."""
    if isinstance(piece, str):
        return rows, _add_bonus(bonuses, seat, piece)
    return rows[:seat] + (rows[seat] + (piece,),) + rows[seat + 1 :], bonuses


_HANDLERS: dict[str, Callable[[Any, Event], State]] = {
    "ZooSetUp": _set_up,
    "RoundDealt": _dealt,
    "CardDrawn": _drawn,
    "BlackDeckRefilled": _refilled,
    "CardMatched": _placed,
    "WildPlaced": _placed,
    "SideBonusTaken": _bonus_taken,
    "CardDiscarded": _discarded,
    "TurnEnded": _turn_ended,
    "DiscardTaken": _discard_taken,
    "DiscardPileDug": _dug,
    "SpecialtyUsed": _specialty_used,
    "RoundWon": _round_won,
}
