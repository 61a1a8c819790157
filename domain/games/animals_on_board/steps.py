"""Animals on Board's system steps: setup, revealing the setup, setting out a round, departure; and the result."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.batch import Batch
from domain.chance import Chance
from domain.errors import OptionsError
from domain.events import SYSTEM, Event
from domain.games.animals_on_board.state import BETWEEN, KEEP, OVER, State, evolve
from domain.games.animals_on_board.tiles import (
    CRATES,
    DEALT,
    FACE_UP,
    SPECIES,
    SPECIES_IN_PLAY,
    START_CRATES,
    Departure,
    depart,
    ordered,
    tiles_of,
)  # fmt: skip
from domain.rules import Result


def check_options(options: Mapping[str, Any], seats: int) -> None:
    """Raise OptionsError unless `left_out` names none, or exactly the species this seat count leaves out."""
    left_out = options.get("left_out") or []
    wanted = len(SPECIES) - SPECIES_IN_PLAY.get(seats, len(SPECIES))
    if len(set(left_out)) != len(left_out):
        raise OptionsError("option left_out names a species twice", option="left_out")
    if left_out and len(left_out) != wanted:
        raise OptionsError(
            f"option left_out must name exactly {wanted} species for {seats} players (or none, to draw them)",
            option="left_out",
        )


def setup(seats: int, options: Mapping[str, Any], chance: Chance) -> list[Event]:
    """Leave species out, draw 3 tiles per player and the starting player."""
    left_out = list(options.get("left_out") or [])
    drawn = not left_out and seats < 4
    if drawn:
        left_out = chance.shuffle(SPECIES)[: len(SPECIES) - SPECIES_IN_PLAY[seats]]
    species = [s for s in SPECIES if s not in left_out]
    pool = chance.shuffle(tiles_of(species))
    hands = [list(ordered(pool[DEALT * i : DEALT * (i + 1)])) for i in range(seats)]
    data = {
        "seats": seats,
        "species": species,
        "left_out": [s for s in SPECIES if s in left_out],
        "left_out_drawn": drawn,
        "hands": hands,
        "crates": [START_CRATES] * seats,
        "supply": CRATES - START_CRATES * seats,
        "starting_player": chance.below(seats),
    }
    return [Event("GameSetUp", data)]


def system_due(state: State) -> bool:
    """Tell whether the system must step: reveal the setup, set out a round, or depart."""
    if state.phase == KEEP:
        return all(tile is not None for tile in state.kept)
    return state.phase == BETWEEN


def advance(state: State, chance: Chance) -> list[Event]:
    """Return the events of the step that is due."""
    if state.phase == KEEP:
        batch = Batch(state, SYSTEM, evolve)
        batch.emit(
            "SetupTilesRevealed",
            {"tiles": [[t for t in hand if t != kept] for hand, kept in zip(state.hands, state.kept)]},
        )
        batch.events.append(_round_started(batch.state, chance))
        return batch.events
    if state.phase != BETWEEN:
        return []
    if state.game_over:
        return [_departed(state)]
    return [_round_started(state, chance)]


def _round_started(state: State, chance: Chance) -> Event:
    """Merge the centre into one group and fill it up; never a second face-down tile."""
    in_centre = sum(len(g) for g in state.centre)
    face_up = in_centre - (state.face_down is not None)
    pool = chance.shuffle(ordered(state.bag))
    need = max(0, FACE_UP[state.seats] - face_up)
    drawn, pool = pool[:need], pool[need:]
    face_down = pool[0] if state.face_down is None and pool else None
    return Event(
        "RoundStarted",
        {
            "round": state.round + 1,
            "starter": state.starter,
            "drawn": list(ordered(drawn)),
            "face_down": face_down,
            "face_down_carried_over": state.face_down is not None,
        },
    )


def standing(state: State) -> Result:
    """Rank the arks as if they departed now: every ark prepared and scored as at the game's end."""
    return _ranked([depart(player.tiles, player.crates) for player in state.players])


def _departed(state: State) -> Event:
    """Prepare every ark for departure and score it."""
    arks = []
    for seat, player in enumerate(state.players):
        departure = depart(player.tiles, player.crates)
        arks.append({"seat": seat, "owned": list(player.tiles), **departure.to_dict()})
    places = _places([Departure.from_dict(a) for a in arks])
    return Event("ArksDeparted", {"arks": arks, "places": places})


def _places(departures: list[Departure]) -> list[int]:
    keys = [(d.total, d.species) for d in departures]
    return [1 + sum(other > key for other in keys) for key in keys]


def result(state: State) -> Result | None:
    """Return places (most points, then most species; else shared) once the arks departed."""
    if state.phase != OVER:
        return None
    return _ranked(list(state.departures))


def _ranked(departures: list[Departure]) -> Result:
    """Return the arks' places (most points, then most species; else shared) with each ark's score."""
    return Result(
        places=tuple(_places(departures)),
        detail={
            "scores": [d.total for d in departures],
            "species": [d.species for d in departures],
            "breakdown": [d.to_dict() for d in departures],
        },
    )
