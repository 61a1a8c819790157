"""Blöde Kuh's state as a frozen value, and `evolve`, the fold of its events."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from mypy_extensions import mypyc_attr

from domain.events import Event
from domain.games.bloede_kuh.cards import NWI_VALUES, ROUNDS, SPECIES, Hand, change, hand_of
from domain.upcasters import upcaster
from domain.values import changed, detached

# Versions of the rules (RULES.md §3). "1": an empty draw pile was refilled
# lazily, when a card had to be drawn from it; "2": it is refilled as soon as
# it becomes empty, before anyone acts again.
RULES_VERSIONS = ("1", "2")


@upcaster("CardsDealt", 1)
def _cards_dealt_v2(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """Name the rules version, which v1 did not record: every such game was played under "1"."""
    return {**data, "rules_version": "1"}


MAX_SEATS = 6
PLAY, BETWEEN, OVER = "play", "between", "over"
PIG, HORSE = "pig", "horse"


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class NwiCard:
    """A Nobody-wants-it card lying in front of a player."""

    species: str
    round: int
    holder: int
    # What the card is worth: its species' value in the round it was taken, set when the card is made.
    value: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "value", NWI_VALUES[self.species][self.round - 1])

    def to_dict(self) -> dict[str, Any]:
        return {"species": self.species, "round": self.round, "value": self.value}


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class RoundResult:
    """How one round ended: who ended it, cards left, minus points, NWI cards removed."""

    round: int
    ender: int
    cards_left: tuple[int, ...]
    minus: tuple[int, ...]
    nwi_removed: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "ender": self.ender,
            "cards_left": list(self.cards_left),
            "minus": list(self.minus),
            "nwi_removed": list(self.nwi_removed),
        }


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class State:
    """One game of Blöde Kuh. Piles are tuples with the top card last."""

    seats: int
    rules_version: str = RULES_VERSIONS[-1]
    round: int = 0
    dealer: int = 0
    turn: int = 0
    phase: str = PLAY
    hands: tuple[Hand, ...] = ()
    draw: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    awaiting: str | None = None  # PIG or HORSE while a choice is open
    waiting: frozenset[int] = frozenset()  # seats whose choice is still awaited
    choices: tuple[str | None, ...] = ()  # horse choices made so far, per seat (hidden)
    nwi: tuple[NwiCard, ...] = ()
    minus: tuple[int, ...] = ()
    results: tuple[RoundResult, ...] = ()

    def left_of(self, seat: int) -> int:
        """Return a seat's left neighbour (the next seat clockwise)."""
        return (seat + 1) % self.seats

    def holder_of(self, species: str) -> int | None:
        """Return who holds this round's NWI card of a species, if anyone."""
        return self.holders()[species]

    def holders(self) -> dict[str, int | None]:
        """Return, per species, who holds this round's NWI card (None: nobody)."""
        out: dict[str, int | None] = dict.fromkeys(SPECIES)
        for card in self.nwi:
            if card.round == self.round and out[card.species] is None:
                out[card.species] = card.holder
        return out

    def totals(self) -> list[int]:
        """Return each seat's points so far: NWI cards plus minus points."""
        totals = list(self.minus)
        for card in self.nwi:
            totals[card.holder] += card.value
        return totals


def evolve(state: State | None, event: Event) -> State:
    """Apply one event; lists in the data become tuples, so a JSON round-trip folds the same."""
    return _HANDLERS[event.type](state, event)


def _dealt(state: State | None, event: Event) -> State:
    data = event.data
    hands = tuple(hand_of(cards) for cards in data["hands"])
    if state is None:
        # The first state of a game, which every later one copies (see `domain.values.detached`).
        state = detached(State(seats=len(hands), minus=(0,) * len(hands)))
    return changed(
        state,
        rules_version=data["rules_version"],
        round=data["round"],
        dealer=data["dealer"],
        turn=(data["dealer"] + 1) % state.seats,
        phase=PLAY,
        hands=hands,
        draw=tuple(data["draw"]),
        discard=(),
        awaiting=None,
        waiting=frozenset(),
        choices=(None,) * state.seats,
    )


def _with_hand(state: State, seat: int, hand: Hand) -> tuple[Hand, ...]:
    return state.hands[:seat] + (hand,) + state.hands[seat + 1 :]


def _discarded(state: State, event: Event) -> State:
    data = event.data
    seat, card = data["seat"], data["card"]
    hand = change(state.hands[seat], card, -1)
    return changed(state, hands=_with_hand(state, seat, hand), discard=state.discard + (card,))


def _pair_discarded(state: State, event: Event) -> State:
    data = event.data
    seat, card = data["seat"], data["card"]
    hand = change(state.hands[seat], card, -2)
    others = tuple(c for c in state.nwi if not (c.species == card and c.round == state.round))
    return changed(
        state,
        hands=_with_hand(state, seat, hand),
        discard=state.discard + (card, card),
        nwi=others + (NwiCard(card, state.round, data["nwi_to"]),),
    )


def _choice_awaited(state: State, event: Event) -> State:
    data = event.data
    return changed(state, awaiting=data["choice"], waiting=frozenset(data["seats"]))


def _refilled(state: State, event: Event) -> State:
    data = event.data
    return changed(state, draw=tuple(data["draw"]), discard=())


def _taken(state: State, event: Event) -> State:
    data = event.data
    seat, card = data["seat"], data["card"]
    hands = _with_hand(state, seat, change(state.hands[seat], card, 1))
    if data["from"] == "draw":
        return changed(state, hands=hands, draw=state.draw[:-1])
    return changed(state, hands=hands, discard=state.discard[:-1])


def _horse_chosen(state: State, event: Event) -> State:
    data = event.data
    seat = data["seat"]
    choices = state.choices[:seat] + (data["card"],) + state.choices[seat + 1 :]
    return changed(state, choices=choices, waiting=state.waiting - {seat})


def _horse_passed(state: State, event: Event) -> State:
    data = event.data
    hands = list(state.hands)
    for seat, card in enumerate(data["cards"]):
        if card is not None:
            hands[seat] = change(hands[seat], card, -1)
            left = state.left_of(seat)
            hands[left] = change(hands[left], card, 1)
    return changed(state, hands=tuple(hands), awaiting=None, waiting=frozenset(), choices=(None,) * state.seats)


def _turn_ended(state: State, event: Event) -> State:
    data = event.data
    return changed(state, turn=data["next"], awaiting=None, waiting=frozenset())


def _round_scored(state: State, event: Event) -> State:
    data = event.data
    result = RoundResult(
        round=data["round"],
        ender=data["ender"],
        cards_left=tuple(data["cards_left"]),
        minus=tuple(data["minus"]),
        nwi_removed=tuple(data["nwi_removed"]),
    )
    return changed(
        state,
        phase=OVER if result.round >= ROUNDS else BETWEEN,
        awaiting=None,
        waiting=frozenset(),
        minus=tuple(total + points for total, points in zip(state.minus, result.minus)),
        results=state.results + (result,),
    )


def _unchanged(state: State, event: Event) -> State:
    return state


_HANDLERS: dict[str, Callable[[Any, Event], State]] = {
    "CardsDealt": _dealt,
    "CardDiscarded": _discarded,
    "PairDiscarded": _pair_discarded,
    "Passed": _unchanged,
    "ChoiceAwaited": _choice_awaited,
    "DrawPileRefilled": _refilled,
    "CardTaken": _taken,
    "HorseCardChosen": _horse_chosen,
    "HorseCardsPassed": _horse_passed,
    "TurnEnded": _turn_ended,
    "RoundScored": _round_scored,
}
