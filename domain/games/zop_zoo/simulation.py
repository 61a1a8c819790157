"""Zop Zoo on the bots' fast path: the rules, with the commonest move's states built once.

Most moves of a game are a draw of a card that cannot be used: the rules emit
it drawn, discarded and the turn ended, and fold each event in turn. Here the
three events are made as the rules make them and the state after them built in
one step. Every other move is the rules' own. `tests/domain/test_fast_path_agrees.py`
checks that both give the same events and states on every move of random games.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.batch import Folded
from domain.chance import Chance
from domain.events import Event
from domain.games.zop_zoo import ZopZoo, board, moves
from domain.games.zop_zoo.state import PLAYING, State
from domain.values import changed


def decide(state: State, seat: int, action: Mapping[str, Any], chance: Chance) -> list[Event]:
    """Return the events of `moves.decide`; a drawn card that is discarded at once, with its state built in one step."""
    if action.get("type") == "draw" and state.phase == PLAYING and state.deck:
        now = board.pending(state)
        card = state.deck[0]
        # The draw changes only the deck: what the row can take of the card is the same before it.
        if now is not None and moves.may_draw(now) and moves.drawn_fate(state, state.turn, card).discarded:
            return _drawn_and_discarded(state, seat, card)
    return moves.decide(state, seat, action, chance)


def _drawn_and_discarded(state: State, seat: int, card: str) -> Folded:
    following = (state.turn + 1) % state.seats
    events = [
        Event("CardDrawn", {"seat": seat, "card": card}, seat),
        Event("CardDiscarded", {"seat": state.turn, "card": card}, seat),
        Event("TurnEnded", {"next": following}, seat),
    ]
    after = changed(state, deck=state.deck[1:], discard=state.discard + (card,), drawn=None, turn=following, fresh=True)
    return Folded.of(after, events)


class FastZopZoo(ZopZoo):
    """The rules, with an unusable drawn card discarded in one step."""

    decide = staticmethod(decide)


FAST: FastZopZoo = FastZopZoo()
