"""Rounds: the deal, the round win (checked after every change) and its scoring, the next round."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.chance import Chance
from domain.events import SYSTEM, Event
from domain.games.zop_zoo.board import has_won, round_points
from domain.games.zop_zoo.cards import STARTING_CARDS
from domain.games.zop_zoo.state import ROUND_WON, ZooState, evolve


class Batch:
    """The events of one decision, folded in as they are made so that each step sees the one before."""

    def __init__(self, state: ZooState | None, actor: int | str) -> None:
        self.state = state
        self.actor = actor
        self.events: list[Event] = []

    @property
    def now(self) -> ZooState:
        """Return the state after the events so far."""
        assert self.state is not None, "no event has set the game up yet"
        return self.state

    def emit(self, type_: str, **data: Any) -> None:
        """Decide one event and apply it."""
        event = Event(type_, data, self.actor)
        self.events.append(event)
        self.state = evolve(self.state, event)


def set_up(seats: int, options: Mapping[str, Any], card_set: Mapping[str, Any], chance: Chance) -> list[Event]:
    """Record the card set and target, draw the first starter and deal round 1."""
    batch = Batch(None, SYSTEM)
    batch.emit("ZooSetUp", seats=seats, target=options["target"], card_set=dict(card_set))
    deal(batch, chance, round_=1, starter=chance.below(seats))
    return batch.events


def next_round(state: ZooState, chance: Chance) -> list[Event]:
    """Deal the next round; the last round's winner is dealt first and starts."""
    assert state.phase == ROUND_WON
    batch = Batch(state, SYSTEM)
    deal(batch, chance, round_=state.round + 1, starter=state.results[-1].winner)
    return batch.events


def deal(batch: Batch, chance: Chance, round_: int, starter: int) -> None:
    """Shuffle both decks, deal six starting cards each one at a time from the starter, then check for a win."""
    state = batch.now
    white = chance.shuffle(state.cards.white)
    dealt = STARTING_CARDS * state.seats
    rows: list[list[str]] = [[] for _ in range(state.seats)]
    for index, card in enumerate(white[:dealt]):
        rows[(starter + index) % state.seats].append(card)
    batch.emit(
        "RoundDealt",
        round=round_,
        starter=starter,
        rows=rows,
        set_aside=white[dealt:],
        deck=chance.shuffle(state.cards.black),
    )
    check_win(batch)


def check_win(batch: Batch) -> bool:
    """End the round if a seat has all its starting cards worth points (from the player to act on)."""
    state = batch.now
    for offset in range(state.seats):
        seat = (state.turn + offset) % state.seats
        if has_won(state, seat):
            scores = [score(state, other, other == seat) for other in range(state.seats)]
            totals = [total + gained for total, gained in zip(state.totals, scores)]
            batch.emit(
                "RoundWon",
                round=state.round,
                winner=seat,
                scores=scores,
                totals=totals,
                game_over=max(totals) >= state.target,
            )
            return True
    return False


def score(state: ZooState, seat: int, winner: bool) -> int:
    """Score a seat's round: every card for the winner; minus cards and side bonuses for the others."""
    as_winner, as_other = round_points(state, seat)
    return as_winner if winner else as_other
