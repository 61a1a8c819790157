"""Animals on Board: what each seat sees of the state and of the event log.

Hidden: a seat's setup hand and kept tile, and any face-down tile it took,
are its own; the face-down tile in the centre is nobody's ("hidden"); the
draw pile shows only its size. Everything else is public.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.events import Event
from domain.games.animals_on_board.hidden import HIDDEN as SECRET
from domain.games.animals_on_board.state import KEEP, State, public_group
from domain.games.animals_on_board.tiles import HIDDEN, ordered
from projections.concealment import conceal


def seat_view(state: State, seat: int | None) -> dict[str, Any]:
    """Return what `seat` (None: a spectator) sees."""
    view = _public(state)
    if seat is not None:
        player = state.players[seat]
        view["you"] = {
            "seat": seat,
            "ark": list(player.tiles),
            "hidden": list(ordered(player.hidden)),
            "crates": player.crates,
            "hand": list(state.hands[seat]) if state.phase == KEEP else [],
            "kept": state.kept[seat],
        }
    return view


# A bot reads the whole view (`Projection.bot_view`).
bot_view = seat_view


def open_view(state: State) -> dict[str, Any]:
    """Return the whole state, every hidden tile shown."""
    view = _public(state)
    view["centre_face_down"] = state.face_down
    view["draw_pile_tiles"] = list(ordered(state.bag))
    for seat, row in enumerate(view["players"]):
        player = state.players[seat]
        row["ark"] = list(player.tiles)
        row["hidden"] = list(ordered(player.hidden))
        row["hand"] = list(state.hands[seat]) if state.phase == KEEP else []
        row["kept"] = state.kept[seat]
    return view


def _public(state: State) -> dict[str, Any]:
    departures = [d.to_dict() for d in state.departures] or None
    return {
        "phase": state.phase,
        "round": state.round,
        "species": list(state.species),
        "left_out": list(state.left_out),
        "centre": [public_group(state, group) for group in state.centre],
        "current": state.current,
        "final_turn": state.final_turn,
        "start_flag": state.starter,
        "supply": state.supply,
        "draw_pile": len(state.bag),
        "players": [
            {
                "seat": seat,
                "crates": player.crates,
                "tile_count": len(player.tiles),
                "face_up": [t for t in player.tiles if t not in player.hidden],
                "hidden_count": len(player.hidden),
                "dropped_out": seat in state.dropped,
                "start_flag": seat == state.starter,
                "announced": seat in state.announced,
                "chosen": state.kept[seat] is not None if state.phase == KEEP else True,
            }
            for seat, player in enumerate(state.players)
        ],
        "departure": departures,
    }


def redact(event: Event, seat: int | None) -> Mapping[str, Any]:
    """Return the event's data as `seat` may see it: each hidden tile named "hidden" (see `SECRET`)."""
    return conceal(event, seat, SECRET.get(event.type), _as_hidden)


def _as_hidden(value: Any) -> Any:
    # A hidden hand keeps its size: how many tiles a seat holds is public.
    return [HIDDEN] * len(value) if isinstance(value, list) else HIDDEN
