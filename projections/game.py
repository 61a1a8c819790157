"""Views and event logs of a whole game: the core fields around a game's own projection."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from domain.commitments import FIRST_SEALED
from domain.events import RecordedEvent, sealed_of, was_lifted
from domain.game import CORE_EVENTS, FINISHED, Game, Seat
from domain.ratings import counts_for_ratings
from domain.sealing import CORE_HIDDEN, Sealer, declaration, hidden_in
from projections import projection_for
from projections.concealment import conceal, dropped


def game_view(
    game: Game, seat: int | None, *, open_view: bool = False, handles: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """Return what `seat` (None: spectator) sees of a game; `open_view` shows every card.

    `handles`: the handles of the accounts bound to seats, by id (the chain holds the ids): an account's seat is
    named by its handle, or by nothing where it is not given.
    """
    projection = projection_for(game.type)
    # `game` in the state tells typed clients which game's state it is; null until the game is set up.
    state: dict[str, Any] | None = None
    if game.rules_state is not None and open_view:
        state = {"game": game.type, **projection.open_view(game.rules_state)}
    elif game.rules_state is not None:
        state = {"game": game.type, **projection.seat_view(game.rules_state, seat)}
    return {
        "id": game.id,
        "game": game.type,
        "version": game.version,
        "status": game.status,
        "seats": [_seat_info(i, s, handles or {}) for i, s in enumerate(game.seats)],
        "to_act": sorted(game.to_act),
        "clock": dict(game.clock) if game.clock is not None else None,
        "mcts_iterations": game.mcts_iterations,
        "you": seat,
        "legal_actions": game.legal_actions(seat) if seat is not None else [],
        "state": state,
        "result": game.result,
        "dealing": game.disclosed_dealing,
        "rated": counts_for_ratings(game),
        "seed_commitment": game.seed_commitment,
        "seed": game.seed if game.status == FINISHED else None,
    }


def _seat_info(index: int, seat: Seat, handles: Mapping[str, str]) -> dict[str, Any]:
    name = handles.get(seat.player, seat.name) if seat.player is not None else seat.name
    return {"seat": index, "name": name, "bot": seat.bot, "filled": seat.filled, "player": seat.player}


def redact_event(
    game_type: str, event: RecordedEvent, seat: int | None, *, open_log: bool = False, seed: str | None = None
) -> dict[str, Any]:
    """Return one event as `seat` may see it; `open_log` shows everything (finished games).

    Under chain scheme 2 and later it also carries what the chain hashed (`commitments`,
    and `sealed` where that differs from what is shown), and, given the game's
    `seed`, the keys of the seat's own hidden values (`openings`).
    """
    out = event.to_dict()
    if open_log:
        if was_lifted(event):  # shown upcast, chained as stored: the reader needs the stored form to check it
            out["sealed"] = _sealed_shown(event, out)
        return out
    command = event.command
    if command is not None and not (seat is not None and command.get("kind") == "act" and command.get("seat") == seat):
        # A command can carry a private choice or token hashes; its public
        # effects are in the events themselves.
        out["command"] = {"kind": command.get("kind"), "seat": command.get("seat"), "redacted": True}
    # A recorded event is an event: the projections read only its type, actor and data.
    if event.type in CORE_EVENTS:
        out["data"] = dict(conceal(event, seat, CORE_HIDDEN.get(event.type), dropped))
    else:
        out["data"] = dict(projection_for(game_type).redact(event, seat))
    if event.chain >= FIRST_SEALED:
        _add_seal(game_type, event, seat, seed, out)
    return out


def _add_seal(game_type: str, event: RecordedEvent, seat: int | None, seed: str | None, out: dict[str, Any]) -> None:
    """Add what the seat needs to check the chain and its own commitments, and nothing it may not see."""
    shown = _sealed_shown(event, out)
    if shown:
        out["sealed"] = shown
    if not event.commitments or seat is None or seed is None:
        return
    values = {
        hidden.path: hidden.value
        for hidden in hidden_in(declaration(game_type), event.type, event.data, event.actor, event.command, event.chain)
        if seat in hidden.seers and hidden.path in event.commitments
    }
    if values:
        keys = Sealer(game_type, seed, event.chain).keys_for(event.seq, list(values))
        out["openings"] = {path: {"key": keys[path], "value": value} for path, value in values.items()}


def _sealed_shown(event: RecordedEvent, out: Mapping[str, Any]) -> dict[str, Any]:
    """Return each chained field whose sealed form differs from what `out` shows (the version too, when upcast)."""
    sealed = sealed_of(event)
    return {key: sealed[key] for key in ("v", "data", "command") if key in sealed and out.get(key) != sealed[key]}


def redact_log(
    game_type: str,
    events: Iterable[RecordedEvent],
    seat: int | None,
    *,
    open_log: bool = False,
    seed: str | None = None,
) -> list[dict[str, Any]]:
    """Return an event log as `seat` may see it (`seed`: add the seat's openings)."""
    return [redact_event(game_type, event, seat, open_log=open_log, seed=seed) for event in events]
