"""Views and event logs of a whole game: the core fields around a game's own projection."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain.events import RecordedEvent
from domain.game import CORE_EVENTS, FINISHED, Game
from projections import projection_for


def game_view(game: Game, seat: int | None, *, open_view: bool = False) -> dict[str, Any]:
    """Return what `seat` (None: spectator) sees of a game; `open_view` shows every card."""
    projection = projection_for(game.type)
    if game.rules_state is None:
        state: dict[str, Any] = {}
    elif open_view:
        state = projection.open_view(game.rules_state)
    else:
        state = projection.seat_view(game.rules_state, seat)
    return {
        "id": game.id,
        "game": game.type,
        "version": game.version,
        "status": game.status,
        "seats": [{"seat": i, "name": s.name, "bot": s.bot, "filled": s.filled} for i, s in enumerate(game.seats)],
        "to_act": sorted(game.to_act),
        "clock": dict(game.clock) if game.clock is not None else None,
        "you": seat,
        "legal_actions": game.legal_actions(seat) if seat is not None else [],
        "state": state,
        "result": game.result,
        "seed_commitment": game.seed_commitment,
        "seed": game.seed if game.status == FINISHED else None,
    }


def redact_event(game_type: str, event: RecordedEvent, seat: int | None, *, open_log: bool = False) -> dict[str, Any]:
    """Return one event as `seat` may see it; `open_log` shows everything (finished games)."""
    out = event.to_dict()
    if open_log:
        return out
    command = event.command
    if command is not None and not (seat is not None and command.get("kind") == "act" and command.get("seat") == seat):
        # A command can carry a private choice or token hashes; its public
        # effects are in the events themselves.
        out["command"] = {"kind": command.get("kind"), "seat": command.get("seat"), "redacted": True}
    if event.type == "SeatTaken":
        out["data"] = {k: v for k, v in event.data.items() if k != "token_sha256"}
    elif event.type not in CORE_EVENTS:
        out["data"] = dict(projection_for(game_type).redact(event.event, seat))
    return out


def redact_log(
    game_type: str, events: Iterable[RecordedEvent], seat: int | None, *, open_log: bool = False
) -> list[dict[str, Any]]:
    """Return an event log as `seat` may see it."""
    return [redact_event(game_type, event, seat, open_log=open_log) for event in events]
