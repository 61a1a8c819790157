"""What each viewer sees of Zop Zoo: everything but the black deck's order (its size is public)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.events import Event
from domain.games.zop_zoo import board
from domain.games.zop_zoo.cards import CardSet
from domain.games.zop_zoo.hidden import HIDDEN
from domain.games.zop_zoo.state import Stack, State
from projections.concealment import conceal, dropped


def seat_view(state: State, seat: int | None) -> dict[str, Any]:
    """Return the table as any viewer sees it: every row, the discard pile, the deck's size."""
    cards = state.cards
    return {
        "round": state.round,
        "target": state.target,
        "phase": state.phase,
        "starter": state.starter,
        "turn": state.turn,
        "players": [_player(state, other) for other in range(state.seats)],
        "black_deck_size": len(state.deck),
        "discard_pile": [cards.describe(card) for card in state.discard],
        "spent": sorted(state.spent),
        "set_aside": list(state.set_aside),
        "pending": _pending(state),
        "results": [{"round": r.round, "winner": r.winner, "scores": list(r.scores)} for r in state.results],
    }


def open_view(state: State) -> dict[str, Any]:
    """Return the whole state, the black deck in order (top first)."""
    return {**seat_view(state, None), "black_deck": list(state.deck)}


def redact(event: Event, seat: int | None) -> Mapping[str, Any]:
    """Return the event's data with any black deck order replaced by its size (see `HIDDEN`)."""
    fields = HIDDEN.get(event.type)
    if not fields:
        return event.data
    return {**conceal(event, seat, fields, dropped), "deck_size": len(event.data["deck"])}


def _player(state: State, seat: int) -> dict[str, Any]:
    cards = state.cards
    as_winner, as_other = board.round_points(state, seat)
    return {
        "seat": seat,
        "row": [_stack(cards, stack) for stack in state.rows[seat]],
        "bonuses": [cards.describe(card) for card in state.bonuses[seat]],
        "round_points": {"as_winner": as_winner, "as_other": as_other},
        "total": state.totals[seat],
    }


def _stack(cards: CardSet, stack: Stack) -> dict[str, Any]:
    return {
        "card": stack.base,
        "base": cards.describe(stack.base),
        "cover": cards.describe(stack.cover) if stack.cover else None,
        "worth": board.worth(cards, stack),
        "category": board.category(cards, stack),
    }


def _pending(state: State) -> dict[str, Any] | None:
    now = board.pending(state)
    if now is None:
        return None
    out: dict[str, Any] = {
        "seat": state.turn,
        "decision": now.decision,
        "card": state.cards.describe(now.card) if now.card else None,
        "source": now.source,
    }
    if now.decision == board.MOLE:
        out["dig_finds"] = [dict(item) for item in board.mole_finds(state)]
    return out
