"""Animals on Board on the bots' fast path: the rules, with a turn's state built once.

The rules (`moves._turn`) look at the board a turn leaves, to say who plays next,
then emit the turn's event, which folds the turn a second time. Here the board
is built once and the turn passed on in it (`state.flow`), as the turn's evolve
ends. Everything else is the rules' own. `tests/domain/test_fast_path_agrees.py`
checks that both give the same events and states on every move of random games.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain.batch import Folded
from domain.chance import Chance
from domain.events import SYSTEM, Event
from domain.games.animals_on_board import AnimalsOnBoard, moves
from domain.games.animals_on_board.state import PLAY, State, evolve, flow
from domain.games.animals_on_board.tiles import FULL_ARK

_Data = Callable[[State, int, Mapping[str, Any], Chance], dict[str, Any]]
_TURNS: dict[str, tuple[str, _Data]] = {
    "split": ("GroupSplit", moves.split),
    "take": ("GroupTaken", moves.take),
    "forfeit": ("TurnForfeited", moves.forfeit),
}


def decide(state: State, seat: int, action: Mapping[str, Any], chance: Chance) -> list[Event]:
    """Return the events of `moves.decide`, each turn's folded once."""
    turn = _TURNS.get(action["type"]) if state.phase == PLAY else None
    if turn is None:
        return moves.decide(state, seat, action, chance)
    type_, data_of = turn
    data = data_of(state, seat, action, chance)
    moved = evolve(state, Event(type_, {**data, "next": None, "final_turn": False}, seat))
    next_seat, final, reason = moves.after_turn(moved, seat, state.final_turn)
    played = Event(type_, {**data, "next": next_seat, "final_turn": final}, seat)
    events, after = [played], flow(moved, played.data)
    if reason is not None:
        counts = [len(p.tiles) for p in after.players]
        ended = {"round": state.round, "reason": reason, "tile_counts": counts, "game_over": max(counts) >= FULL_ARK}
        events.append(Event("RoundEnded", ended, SYSTEM))
        after = evolve(after, events[-1])
    return Folded.of(after, events)


class FastAnimalsOnBoard(AnimalsOnBoard):
    """The rules, deciding a turn with its state built once."""

    decide = staticmethod(decide)


FAST: FastAnimalsOnBoard = FastAnimalsOnBoard()
