"""What each viewer sees of Zop Zoo: everything but the black deck's order (its size is public)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.events import Event
from domain.games.zop_zoo import board
from domain.games.zop_zoo.cards import CardSet
from domain.games.zop_zoo.hidden import HIDDEN
from domain.games.zop_zoo.state import State
from domain.values import FrozenDict, remembered
from projections.concealment import conceal, dropped


def seat_view(state: State, seat: int | None) -> dict[str, Any]:
    """Return the table as any viewer sees it: every row, the discard pile, the deck's size."""
    cards = state.cards
    described, stacks = cards.described, remembered(cards, "stack_views", _StackViews)
    return {
        "round": state.round,
        "target": state.target,
        "phase": state.phase,
        "starter": state.starter,
        "turn": state.turn,
        "players": [_player(state, other, described, stacks) for other in range(state.seats)],
        "black_deck_size": len(state.deck),
        "discard_pile": [described[card] for card in state.discard],
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


def _player(
    state: State, seat: int, described: Mapping[str, FrozenDict], stacks: Mapping[tuple[str, str | None], FrozenDict]
) -> dict[str, Any]:
    as_winner, as_other = board.round_points(state, seat)
    return {
        "seat": seat,
        "row": [stacks[stack] for stack in state.rows[seat]],
        "bonuses": [described[card] for card in state.bonuses[seat]],
        "round_points": {"as_winner": as_winner, "as_other": as_other},
        "total": state.totals[seat],
    }


class _StackViews(dict[tuple[str, "str | None"], FrozenDict]):
    """A card set's stacks as a view shows them, by (base, cover): each built once, read-only, shared by every view.

    A view shows every stack of every row each time a seat looks, and rows change a stack at a time.
    """

    def __init__(self, cards: CardSet) -> None:
        super().__init__()
        self.cards = cards

    def __missing__(self, key: tuple[str, str | None]) -> FrozenDict:
        base, cover = key
        described = self.cards.described
        facts = board.stack_facts(self.cards)[key]
        shown = FrozenDict(
            card=base,
            base=described[base],
            cover=described[cover] if cover else None,
            worth=facts.worth,
            category=facts.category,
        )
        self[key] = shown
        return shown


def _pending(state: State) -> dict[str, Any] | None:
    now = board.pending(state)
    if now is None:
        return None
    out: dict[str, Any] = {
        "seat": state.turn,
        "decision": now.decision,
        "card": state.cards.described[now.card] if now.card else None,
        "source": now.source,
    }
    if now.decision == board.MOLE:
        out["dig_finds"] = [dict(item) for item in board.mole_finds(state)]
    return out
