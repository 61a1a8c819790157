"""What each viewer sees of Zop Zoo: everything but the black deck's order (its size is public)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
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
    # Written out rather than built from `_BOT_PARTS`: a call per part would cost the service's views a quarter more.
    return {
        "round": state.round,
        "target": state.target,
        "phase": state.phase,
        "starter": state.starter,
        "turn": state.turn,
        "players": [_player(state, other) for other in range(state.seats)],
        "black_deck_size": len(state.deck),
        "discard_pile": _discard_pile(state),
        "spent": sorted(state.spent),
        "set_aside": list(state.set_aside),
        "pending": _pending(state),
        "results": _results(state),
    }


def bot_view(state: State, seat: int | None) -> Mapping[str, Any]:
    """Return `seat_view`, each part (and each player's) built when a bot first reads it.

    A bot asks for a view at each of its choices and reads a few parts of it (the
    heuristic: rows, side bonuses, totals and the MOLE's finds); the rest, built
    each time, cost more than the whole of a game's moves. The parts are built by
    the functions `seat_view` calls (tests compare the two over whole games), so the
    bot reads exactly what its seat may see.
    """
    return Lazy(_BOT_PARTS, state)


class Lazy(Mapping[str, Any]):
    """A view (`seat_view`, or one player's part of it) whose parts are built when first read, by `parts[key](*args)`."""

    __slots__ = ("_parts", "_args", "_built")

    def __init__(self, parts: Mapping[str, Callable[..., Any]], *args: Any) -> None:
        self._parts, self._args = parts, args
        self._built: dict[str, Any] = {}

    def __getitem__(self, key: str) -> Any:
        built = self._built
        if key in built:
            return built[key]
        value = built[key] = self._parts[key](*self._args)
        return value

    def __iter__(self) -> Iterator[str]:
        return iter(self._parts)

    def __len__(self) -> int:
        return len(self._parts)


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
    return {
        "seat": seat,
        "row": _row(state, seat),
        "bonuses": _bonuses(state, seat),
        "round_points": _round_points(state, seat),
        "total": state.totals[seat],
    }


def _row(state: State, seat: int) -> list[FrozenDict]:
    stacks = remembered(state.cards, "stack_views", _StackViews)
    return [stacks[stack] for stack in state.rows[seat]]


def _bonuses(state: State, seat: int) -> list[FrozenDict]:
    described = state.cards.described
    return [described[card] for card in state.bonuses[seat]]


def _round_points(state: State, seat: int) -> dict[str, int]:
    as_winner, as_other = board.round_points(state, seat)
    return {"as_winner": as_winner, "as_other": as_other}


# One player's part of a view (`_player`), by key, in the view's order.
_PLAYER_PARTS: dict[str, Callable[[State, int], Any]] = {
    "seat": lambda state, seat: seat,
    "row": _row,
    "bonuses": _bonuses,
    "round_points": _round_points,
    "total": lambda state, seat: state.totals[seat],
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


def _discard_pile(state: State) -> list[FrozenDict]:
    described = state.cards.described
    return [described[card] for card in state.discard]


def _results(state: State) -> list[dict[str, Any]]:
    return [{"round": r.round, "winner": r.winner, "scores": list(r.scores)} for r in state.results]


# A bot's view (`bot_view`) by key, in the order of `seat_view`, each player a `Lazy` view of its own.
_BOT_PARTS: dict[str, Callable[[State], Any]] = {
    "round": lambda state: state.round,
    "target": lambda state: state.target,
    "phase": lambda state: state.phase,
    "starter": lambda state: state.starter,
    "turn": lambda state: state.turn,
    "players": lambda state: [Lazy(_PLAYER_PARTS, state, seat) for seat in range(state.seats)],
    "black_deck_size": lambda state: len(state.deck),
    "discard_pile": _discard_pile,
    "spent": lambda state: sorted(state.spent),
    "set_aside": lambda state: list(state.set_aside),
    "pending": _pending,
    "results": _results,
}
