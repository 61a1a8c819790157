"""Blöde Kuh (Florian Racky, 2018), 3–6 players: shed your hand cards, pass the
Nobody-wants-it cards on, collect the fewest points over three rounds.

Events: CardsDealt, CardDiscarded, PairDiscarded, Passed, ChoiceAwaited,
DrawPileRefilled, CardTaken, HorseCardChosen, HorseCardsPassed, TurnEnded,
RoundScored. Piles keep their top card last.

Rulings where RULES.md §3 and the rulebook leave a case open:
- Who acts is a set: the turn's player; after a pig, only the left neighbour
  (it takes the top card of the draw or the discard pile); after a horse, every
  seat holding cards, each choosing in secret and in any order. The pass
  resolves in the batch of the last choice, everyone giving to the left.
- "The player whose turn it was" is the seat that discarded (or passed); a
  pig's take and a horse pass belong to that turn. The round ends when the turn
  is over and that player's hand is empty: a pig as the last card is still
  answered by the left neighbour, then the round ends; a cow as the last card
  draws a card, so the round goes on; a horse as the last card passes nothing
  and the round ends. A horse pass never empties a hand, since every seat that
  gives also receives; hands are counted once the pass has resolved.
- The draw pile is refilled from the whole discard pile (a recorded shuffle)
  at the moment a card must be drawn from it and it is empty; so drawing is
  possible while either pile holds a card. With both piles empty a take is
  skipped, and a pass is posted without "from".
- A pair moves this round's NWI card of its species to the left neighbour of
  its holder, even when that is the pair's player; if nobody holds it, to the
  left neighbour of the pair's player.
- A seat with no cards left never takes a minus card.
- Scoring is part of the action that ends a round (RoundScored); the next deal
  is a system step (`advance`), dealt by the player who ended the last round.
- Places: 1 + the number of seats with a strictly lower total.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.chance import Chance
from domain.errors import RuleError
from domain.events import SYSTEM, Event
from domain.games import register
from domain.games.bloede_kuh.cards import HAND_SIZE, full_deck
from domain.games.bloede_kuh.play import decide, legal_actions, to_act
from domain.games.bloede_kuh.state import BETWEEN, OVER, State, evolve
from domain.rules import Option, Result

GAME_ID = "bloede-kuh"


def deal(seats: int, round_: int, dealer: int, chance: Chance) -> Event:
    """Shuffle all 72 hand cards and deal 9 to each seat; the rest is the draw pile."""
    deck = chance.shuffle(full_deck())
    hands = [sorted(deck[seat * HAND_SIZE : (seat + 1) * HAND_SIZE]) for seat in range(seats)]
    draw = deck[seats * HAND_SIZE :]
    return Event("CardsDealt", {"round": round_, "dealer": dealer, "hands": hands, "draw": draw}, SYSTEM)


class BloedeKuh:
    """The rules of Blöde Kuh."""

    id = GAME_ID
    title = "Blöde Kuh"
    min_seats = 3
    max_seats = 6
    rules_version = "1"
    options: tuple[Option, ...] = ()

    def check_options(self, options: Mapping[str, Any], seats: int) -> None:
        """Accept: the game has no options, and the core checks the seat count."""

    def setup(self, seats: int, options: Mapping[str, Any], chance: Chance) -> list[Event]:
        """Draw the first dealer and deal round 1."""
        return [deal(seats, 1, chance.below(seats), chance)]

    def evolve(self, state: State | None, event: Event) -> State:
        """Apply one event."""
        return evolve(state, event)

    def to_act(self, state: State) -> frozenset[int]:
        """Return the seats that may act now."""
        return to_act(state)

    def system_due(self, state: State) -> bool:
        """Tell whether the next round must be dealt."""
        return state.phase == BETWEEN

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        """Return every action `seat` may post now."""
        return legal_actions(state, seat)

    def decide(self, state: State, seat: int, action: Mapping[str, Any], chance: Chance) -> list[Event]:
        """Validate a seat's action and return its events."""
        return decide(state, seat, action, chance)

    def advance(self, state: State, chance: Chance) -> list[Event]:
        """Deal the next round; the player who ended the last round deals."""
        if state.phase != BETWEEN:
            raise RuleError("no round is waiting to be dealt")
        return [deal(state.seats, state.round + 1, state.results[-1].ender, chance)]

    def result(self, state: State) -> Result | None:
        """Return places by lowest total once the third round is scored."""
        if state.phase != OVER:
            return None
        totals = state.totals()
        places = tuple(1 + sum(other < total for other in totals) for total in totals)
        return Result(
            places=places,
            detail={
                "totals": totals,
                "minus": list(state.minus),
                "nwi": [[card.to_dict() for card in state.nwi if card.holder == seat] for seat in range(state.seats)],
                "rounds": [result.to_dict() for result in state.results],
            },
        )


RULES = register(BloedeKuh())
