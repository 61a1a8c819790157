"""Helpers for the Animals on Board tests: build a mid-game state and play on it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from domain.chance import Chance
from domain.events import Event
from domain.games.animals_on_board import RULES
from domain.games.animals_on_board.state import PLAY, Player, State
from domain.games.animals_on_board.tiles import SPECIES, SPECIES_IN_PLAY, ordered, tiles_of
from tests.support.rules import decide_and_apply


def make_state(
    centre: Iterable[Iterable[str]],
    arks: Iterable[Iterable[str]] = ((), ()),
    crates: Iterable[int] | None = None,
    *,
    face_down: str | None = None,
    current: int = 0,
    dropped: Iterable[int] = (),
    final_turn: bool = False,
    phase: str = PLAY,
    starter: int = 0,
    **extra: Any,
) -> State:
    """Return a state in the middle of a round, with the given centre groups and arks."""
    arks = [ordered(a) for a in arks]
    seats = len(arks)
    crates = list(crates) if crates is not None else [1] * seats
    species = SPECIES[: SPECIES_IN_PLAY[seats]]
    groups = tuple(ordered(g) for g in centre)
    used = {t for g in groups for t in g} | {t for a in arks for t in a}
    return State(
        seats=seats,
        species=species,
        left_out=SPECIES[len(species) :],
        bag=frozenset(tiles_of(species)) - used,
        players=tuple(Player(tiles=a, hidden=frozenset(a[:1]), crates=c) for a, c in zip(arks, crates)),
        hands=(),
        kept=tuple(a[0] if a else None for a in arks),
        phase=phase,
        centre=groups,
        face_down=face_down,
        round=1,
        starter=starter,
        current=current,
        final_turn=final_turn,
        dropped=frozenset(dropped),
        **extra,
    )


def play(state: State, seat: int, action: Mapping[str, Any]) -> tuple[State, list[Event]]:
    """Decide one action and apply its events."""
    events, state = decide_and_apply(RULES, state, Chance("unit", 0), seat, action)
    return state, events


def step(state: State) -> tuple[State, list[Event]]:
    """Take one system step and apply its events."""
    events, state = decide_and_apply(RULES, state, Chance("unit", 0))
    return state, events
