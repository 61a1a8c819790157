"""What each viewer sees of Life is Life: a hand only to its owner, set-aside cards to nobody."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.events import Event
from domain.games.life_is_life.cards import VALUES
from domain.games.life_is_life.hidden import HIDDEN
from domain.games.life_is_life.moves import may_knock
from domain.games.life_is_life.state import Scoring, State
from projections.concealment import conceal


def seat_view(state: State, seat: int | None) -> dict[str, Any]:
    """Return what `seat` (None: a spectator) sees: own hand, everything public, counts of the rest."""
    view = _public(state)
    view["hand"], view["may_knock"] = None, False
    if seat is not None and 0 <= seat < state.players:
        view["hand"] = list(state.hands[seat]) if state.hands else None
        view["may_knock"] = state.turn == seat and not state.phase_over and may_knock(state, seat)
    return view


# A bot reads the whole view (`Projection.bot_view`).
bot_view = seat_view


def open_view(state: State) -> dict[str, Any]:
    """Return the whole state with every hand and the set-aside cards shown."""
    view = _public(state)
    view["hands"] = [list(hand) for hand in state.hands]
    view["set_aside"] = list(state.set_aside)
    return view


def redact(event: Event, seat: int | None) -> Mapping[str, Any]:
    """Return an event's data as `seat` may see it; only a deal carries hidden cards (see `HIDDEN`)."""
    data = conceal(event, seat, HIDDEN.get(event.type))
    if event.type != "PhaseDealt":
        return data
    # How many cards each holds is public; which is not.
    return {
        **data,
        "hand_counts": [len(hand) for hand in event.data["hands"]],
        "set_aside_count": len(event.data["set_aside"]),
    }


def _public(state: State) -> dict[str, Any]:
    """Return everything every viewer may see."""
    return {
        "phase": state.phase,
        "players": state.players,
        "advanced": state.advanced,
        "values": dict(VALUES),
        "lives": list(state.lives),
        "out": [out is not None for out in state.out_in_phase],
        "out_in_phase": list(state.out_in_phase),
        "starter": state.starter,
        "turn": state.turn,
        "rows": [list(row) for row in state.rows],
        "hand_counts": [len(hand) for hand in state.hands],
        "set_aside_count": len(state.set_aside),
        "known": [list(cards) for cards in state.known],
        "traded": [seat in state.traded for seat in range(state.players)],
        "knocker": state.knocker,
        "knocked": [seat in state.knocked for seat in range(state.players)],
        "last_round": state.knocker is not None,
        "turns": state.turns,
        "phase_over": state.phase_over,
        "sudden_death": None if state.declared is None else _declaration(*state.declared),
        "last_scoring": None if state.last_scoring is None else _scoring(state.last_scoring),
    }


def _declaration(seat: int, species: tuple[str, ...]) -> dict[str, Any]:
    return {"seat": seat, "species": list(species)}


def _scoring(scoring: Scoring) -> dict[str, Any]:
    """Show how the last phase ended; a sudden death shows the declarer's combination only."""
    out: dict[str, Any] = {"phase": scoring.phase, "lost": list(scoring.lost), "gained": list(scoring.gained)}
    if scoring.declarer is not None:
        out.update(kind="sudden_death", declarer=scoring.declarer, species=list(scoring.combinations))
    else:
        out.update(
            kind="majority",
            hands=[None if hand is None else list(hand) for hand in scoring.hands],
            points=list(scoring.points),
            majorities=dict(scoring.majorities),
        )
    return out
