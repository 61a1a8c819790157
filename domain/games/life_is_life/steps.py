"""Life is Life's system steps: setup, the end of a phase (scoring, lives, the next deal) and the result."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.batch import Batch
from domain.chance import Chance
from domain.events import SYSTEM, Event
from domain.games.life_is_life.cards import DECK, HAND_SIZE, ROW_SIZES, START_LIVES, life_losses, majorities, totals
from domain.games.life_is_life.state import State, evolve
from domain.rules import Result


def check_options(options: Mapping[str, Any], seats: int) -> None:
    """Accept every combination: the only option is a free switch."""


def setup(seats: int, options: Mapping[str, Any], chance: Chance) -> list[Event]:
    """Set up lives, draw the first starter and deal the first phase."""
    advanced = bool(options.get("advanced", False))
    starter = chance.below(seats)
    set_up = Event("GameSetUp", {"players": seats, "advanced": advanced, "lives": START_LIVES}, SYSTEM)
    return [set_up, _deal(seats, tuple(range(seats)), 1, starter, chance)]


def system_due(state: State) -> bool:
    """Tell whether a finished phase waits to be scored and the next one dealt."""
    return state.phase_over and not state.over


def advance(state: State, chance: Chance) -> list[Event]:
    """Score the finished phase, take lives, put players out and deal the next phase."""
    if not system_due(state):
        return []
    batch = Batch(state, SYSTEM, evolve)
    lost, gained = _phase_end(batch)
    lives = [max(0, life - lost[s] + gained[s]) for s, life in enumerate(state.lives)]
    batch.emit("LivesLost", {"lost": lost, "gained": gained, "lives": lives})
    for seat in state.remaining:
        if lives[seat] == 0:
            batch.emit("PlayerEliminated", {"seat": seat, "phase": state.phase})
    survivors = batch.state.remaining
    if len(survivors) >= 2:
        # The starter's left neighbour starts, skipping anyone out (the starter may be out too).
        starter = next(
            (state.starter + step) % state.players
            for step in range(1, state.players + 1)
            if (state.starter + step) % state.players in survivors
        )
        batch.events.append(_deal(state.players, survivors, state.phase + 1, starter, chance))
    return batch.events


def result(state: State | None) -> Result | None:
    """Rank the last player in first, then by the phase each player went out."""
    if state is None or not state.over:
        return None
    return standing(state)


def standing(state: State) -> Result:
    """Rank as the result does, players still in by their lives: more lives, better place; equal lives share.

    Those still in rank above everyone out, and those out by the phase they went out in, later
    is better. The phase in play is not scored: it is not over.
    """
    # A player still in ranks after every phase; those out together share a place.
    reach = [(out, 0) if out is not None else (1 << 30, lives) for out, lives in zip(state.out_in_phase, state.lives)]
    places = tuple(1 + sum(other > mine for other in reach) for mine in reach)
    detail = {
        "lives": list(state.lives),
        "phases": state.phase,
        "out_in_phase": list(state.out_in_phase),
    }
    return Result(places=places, detail=detail)


def _phase_end(batch: Batch[State]) -> tuple[list[int], list[int]]:
    """Emit the phase's scoring (a normal end only) and return the lives lost and gained per seat."""
    state = batch.state
    lost = [0] * state.players
    gained = [0] * state.players
    if state.declared is not None:
        declarer = state.declared[0]
        for seat in state.remaining:
            lost[seat] = 0 if seat == declarer else 1
        if state.advanced:
            gained[declarer] = 1
        return lost, gained
    hands = {seat: state.hands[seat] for seat in state.remaining}
    points = totals(hands)
    for seat, loss in life_losses(points).items():
        lost[seat] = loss
    scored = {
        "phase": state.phase,
        "hands": [list(state.hands[s]) if s in hands else None for s in range(state.players)],
        "points": [points.get(s) for s in range(state.players)],
        "majorities": majorities(hands),
    }
    batch.emit("PhaseScored", scored)
    return lost, gained


def _deal(players: int, seats: tuple[int, ...], phase: int, starter: int, chance: Chance) -> Event:
    """Shuffle all 60 cards: 10 to each seat still in, the four rows, the rest set aside."""
    deck = chance.shuffle(DECK)
    hands: list[list[str]] = [[] for _ in range(players)]
    for index, seat in enumerate(seats):
        hands[seat] = sorted(deck[index * HAND_SIZE : (index + 1) * HAND_SIZE])
    position = len(seats) * HAND_SIZE
    rows = []
    for size in ROW_SIZES:
        rows.append(sorted(deck[position : position + size]))
        position += size
    data = {"phase": phase, "starter": starter, "hands": hands, "rows": rows, "set_aside": sorted(deck[position:])}
    return Event("PhaseDealt", data, SYSTEM)
