"""The state of a game of Life is Life and `evolve`, the fold of its events."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mypy_extensions import mypyc_attr

from domain.events import Event
from domain.games.life_is_life.cards import SPECIES, START_LIVES
from domain.values import changed, detached


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Scoring:
    """How the last finished phase ended: a normal scoring or a sudden death."""

    phase: int
    lost: tuple[int, ...]
    gained: tuple[int, ...]
    declarer: int | None = None
    combinations: tuple[str, ...] = ()
    hands: tuple[tuple[str, ...] | None, ...] = ()
    points: tuple[int | None, ...] = ()
    majorities: tuple[tuple[str, int | None], ...] = ()


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class State:
    """Everything about one game; hands and set-aside cards are hidden by the projection."""

    players: int
    advanced: bool
    lives: tuple[int, ...]
    out_in_phase: tuple[int | None, ...]
    phase: int = 0
    starter: int = 0
    turn: int | None = None
    hands: tuple[tuple[str, ...], ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()
    set_aside: tuple[str, ...] = ()
    # Public memory: cards each seat took from the tableau and has not laid down since.
    known: tuple[tuple[str, ...], ...] = ()
    traded: frozenset[int] = frozenset()
    knocker: int | None = None
    knocked: frozenset[int] = frozenset()
    turns: int = 0
    phase_over: bool = False
    declared: tuple[int, tuple[str, ...]] | None = None
    pending: Scoring | None = None
    last_scoring: Scoring | None = None

    @property
    def remaining(self) -> tuple[int, ...]:
        """Seats still in the game, in seat order."""
        return tuple(seat for seat, out in enumerate(self.out_in_phase) if out is None)

    @property
    def over(self) -> bool:
        """Whether only one player is left."""
        return len(self.remaining) <= 1

    def left_of(self, seat: int) -> int:
        """Return the next seat clockwise from `seat` that is still in the game."""
        for step in range(1, self.players + 1):
            candidate = (seat + step) % self.players
            if self.out_in_phase[candidate] is None:
                return candidate
        return seat


def evolve(state: State | None, event: Event) -> State:
    """Apply one event; never fails on a valid stream."""
    return _HANDLERS[event.type](state, event)


def _set_up(state: State | None, event: Event) -> State:
    data = event.data
    players = data["players"]
    lives = data.get("lives", START_LIVES)
    # The first state of a game, which every later one copies (see `domain.values.detached`).
    return detached(
        State(
            players=players,
            advanced=bool(data["advanced"]),
            lives=(lives,) * players,
            out_in_phase=(None,) * players,
        )
    )


def _dealt(state: State, event: Event) -> State:
    data = event.data
    return changed(
        state,
        phase=data["phase"],
        starter=data["starter"],
        turn=data["starter"],
        hands=tuple(tuple(hand) for hand in data["hands"]),
        rows=tuple(tuple(row) for row in data["rows"]),
        set_aside=tuple(data["set_aside"]),
        known=((),) * state.players,
        traded=frozenset(),
        knocker=None,
        knocked=frozenset(),
        turns=0,
        phase_over=False,
        declared=None,
        pending=None,
    )


def _next_turn(state: State, seat: int, knocker: int | None) -> tuple[int | None, bool]:
    """Return who plays next; in the last round the phase ends when the turn would reach the knocker."""
    following = state.left_of(seat)
    if knocker is not None and following == knocker:
        return None, True
    return following, False


def swapped(cards: tuple[str, ...], laid: list[str], taken: list[str], strict: bool = True) -> tuple[str, ...]:
    """Return `cards` without `laid` (those present, unless strict) and with `taken`, sorted."""
    out = list(cards)
    for card in laid:
        if strict or card in out:
            out.remove(card)
    out += taken
    out.sort()
    return tuple(out)


def _traded(state: State, event: Event) -> State:
    data = event.data
    seat, index, laid, taken = data["seat"], data["row"] - 1, data["laid"], data["taken"]
    hands, rows, known = list(state.hands), list(state.rows), list(state.known)
    hands[seat] = swapped(hands[seat], laid, taken)
    rows[index] = tuple(sorted(laid))
    known[seat] = swapped(known[seat], laid, taken, strict=False)
    turn, over = _next_turn(state, seat, state.knocker)
    return changed(
        state,
        hands=tuple(hands),
        rows=tuple(rows),
        known=tuple(known),
        traded=state.traded | {seat},
        turns=state.turns + 1,
        turn=turn,
        phase_over=over,
    )


def _knocked(state: State, event: Event) -> State:
    data = event.data
    seat = data["seat"]
    knocker = seat if state.knocker is None else state.knocker
    turn, over = _next_turn(state, seat, knocker)
    return changed(
        state, knocker=knocker, knocked=state.knocked | {seat}, turns=state.turns + 1, turn=turn, phase_over=over
    )


def _declared(state: State, event: Event) -> State:
    data = event.data
    return changed(state, turn=None, phase_over=True, declared=(data["seat"], tuple(data["species"])))


def _scored(state: State, event: Event) -> State:
    data = event.data
    pending = Scoring(
        phase=data["phase"],
        lost=(),
        gained=(),
        hands=tuple(None if hand is None else tuple(hand) for hand in data["hands"]),
        points=tuple(data["points"]),
        # A store may sort JSON keys, so the order comes from the species, not the data.
        majorities=tuple((name, data["majorities"].get(name)) for name in SPECIES),
    )
    return changed(state, pending=pending)


def _lives_lost(state: State, event: Event) -> State:
    data = event.data
    lost, gained = tuple(data["lost"]), tuple(data["gained"])
    if state.declared is not None:
        seat, combos = state.declared
        scoring = Scoring(phase=state.phase, lost=lost, gained=gained, declarer=seat, combinations=combos)
    else:
        scoring = changed(state.pending or Scoring(phase=state.phase, lost=(), gained=()), lost=lost, gained=gained)
    return changed(state, lives=tuple(data["lives"]), last_scoring=scoring, pending=None)


def _eliminated(state: State, event: Event) -> State:
    data = event.data
    out = list(state.out_in_phase)
    out[data["seat"]] = data["phase"]
    return changed(state, out_in_phase=tuple(out))


_HANDLERS: dict[str, Callable[[Any, Event], State]] = {
    "GameSetUp": _set_up,
    "PhaseDealt": _dealt,
    "RowTraded": _traded,
    "Knocked": _knocked,
    "SuddenDeathDeclared": _declared,
    "PhaseScored": _scored,
    "LivesLost": _lives_lost,
    "PlayerEliminated": _eliminated,
}
