"""The fast simulation path: a game's own rules played in memory, nothing recorded.

A search or a benchmark plays many games that nobody will ever read back, so
this path skips everything that makes a game auditable: no `RecordedEvent`,
no hash chain, no JSON, no views, no `Game` aggregate. It plays the game's
rules, or where a game has one its `simulation.FAST` (`domain.games.FAST_PATHS`):
the same rules with a move's states built fewer times, proved equal move by
move in `tests/domain/test_fast_path_agrees.py`. The state is a frozen value,
so "copying" it is free and a search may branch from any state it holds. A
decision made with a `Batch` has folded its events already (`Folded`): its
state is taken rather than folded again.

Chance is handed in (a `DrawnChance` over a cheap generator, usually); a
simultaneous choice is made one seat at a time, lowest seat first, as the
rules accept them in any order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain.batch import Folded
from domain.chance import Chance
from domain.events import Event
from domain.games import fast_path_for
from domain.rules import Result, Rules

# A policy picks one of the legal actions for a seat from the whole state; a
# policy that must not peek (a bot) is wrapped by its caller around a view.
Policy = Callable[[Any, int, list[dict[str, Any]]], Mapping[str, Any]]


def start(rules: Rules, seats: int, options: Mapping[str, Any], chance: Chance) -> Any:
    """Return the rules state of a freshly set-up game."""
    rules = fast_path_for(rules)
    state = None
    for event in rules.setup(seats, options, chance):
        state = rules.evolve(state, event)
    return state


def apply(rules: Rules, state: Any, seat: int, action: Mapping[str, Any], chance: Chance) -> Any:
    """Return the state after `seat` plays `action` (RuleError if it may not)."""
    rules = fast_path_for(rules)
    return fold(rules, state, rules.decide(state, seat, action, chance))


def settle(rules: Rules, state: Any, chance: Chance) -> Any:
    """Take every system step that is due (deals, scoring) and return the state a seat acts in, or the end."""
    rules = fast_path_for(rules)
    while rules.system_due(state) and rules.result(state) is None:
        state = fold(rules, state, rules.advance(state, chance))
    return state


def fold(rules: Rules, state: Any, events: list[Event]) -> Any:
    """Return the state after `events`: the one their batch folded already, else the fold."""
    if type(events) is Folded and (after := events.after()) is not None:
        return after
    evolve = rules.evolve
    for event in events:
        state = evolve(state, event)
    return state


def play_out(
    rules: Rules, state: Any, policies: Mapping[int, Policy] | Policy, chance: Chance, max_moves: int = 100_000
) -> tuple[Any, int]:
    """Play from `state` to the end (or `max_moves` seat moves); return the last state and the moves played."""
    rules = fast_path_for(rules)
    pick = policies if callable(policies) else None
    # The rules' functions looked up once: this loop runs once a move of every simulated game.
    system_due, to_act, legal_actions, decide = rules.system_due, rules.to_act, rules.legal_actions, rules.decide
    moves = 0
    while moves < max_moves:
        if system_due(state):
            state = settle(rules, state, chance)
        seats = to_act(state)
        if not seats:
            break
        seat = min(seats)
        legal = legal_actions(state, seat)
        action = legal[0] if len(legal) == 1 else (pick or policies[seat])(state, seat, legal)  # type: ignore[index]
        events = decide(state, seat, action, chance)
        # `fold` written out: a batch that folded all its events hands over its state.
        if type(events) is Folded and events.folded == len(events):
            state = events.state
        else:
            state = fold(rules, state, events)
        moves += 1
    return state, moves


def outcome(rules: Rules, state: Any) -> Result | None:
    """Return the result of a finished game, else None."""
    return rules.result(state)
