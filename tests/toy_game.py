"""A tiny game for testing the core without any real game's rules.

Two or three seats race to 10: on your turn add 1 or 2. Each seat holds one
secret card (dealt from the seed) that nobody else may see. After every 4th
move the system must "score" (a system step) before play goes on.

It is the template of a game's shape, in one module: where a real game has a
package (`domain/games/<game>/`), each section below is the module of the same
role: data (`cards.py`), `state.py`, `moves.py`, `steps.py`, then the rules
object and its registration last (`__init__.py`), and the game's projection
(`projections/<game>.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from domain.batch import ActionHandler, Batch
from domain.chance import Chance
from domain.errors import RuleError
from domain.events import SYSTEM, Event
from domain.rules import Option, Result
from domain.values import changed

GAME_ID = "toy"

# --- data (cards.py) -----------------------------------------------------------

CARDS = ("ant", "bee", "cat", "dog", "eel")

# --- state.py --------------------------------------------------------------------


@dataclass(frozen=True)
class State:
    """One toy race; each seat's secret is hidden by the projection."""

    seats: int
    secrets: tuple[str, ...]
    total: int = 0
    turn: int = 0
    moves: int = 0
    scored: int = 0
    last_mover: int = -1
    goal: int = 10


def evolve(state: State | None, event: Event) -> State:
    """Apply one event; never fails on a valid stream."""
    return _HANDLERS[event.type](state, event)


def _dealt(_: State | None, event: Event) -> State:
    secrets = event.data["secrets"]
    return State(seats=len(secrets), secrets=tuple(secrets), goal=event.data["goal"])


def _added(state: State, event: Event) -> State:
    return changed(
        state,
        total=state.total + event.data["n"],
        turn=(state.turn + 1) % state.seats,
        moves=state.moves + 1,
        last_mover=event.actor,
    )


def _scored(state: State, event: Event) -> State:
    return changed(state, scored=state.moves)


_HANDLERS: dict[str, Callable[[Any, Event], State]] = {"SecretsDealt": _dealt, "Added": _added, "Scored": _scored}

# --- moves.py --------------------------------------------------------------------


def to_act(state: State) -> frozenset[int]:
    """Return the seat whose turn it is (none while the system must score, or at the end)."""
    if system_due(state) or state.total >= state.goal:
        return frozenset()
    return frozenset({state.turn})


def legal_actions(state: State, seat: int) -> list[dict[str, Any]]:
    """Return the two additions."""
    return [{"type": "add", "n": 1}, {"type": "add", "n": 2}]


def decide(state: State, seat: int, action: Mapping[str, Any], chance: Chance) -> list[Event]:
    """Validate an action and return its events: checks that hold for every action, then its handler."""
    kind = action.get("type")
    handler = _ACTIONS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        raise RuleError("add 1 or 2")
    batch = Batch(state, seat, evolve)
    handler(batch, seat, action, chance)
    return batch.events


def _add(batch: Batch[State], seat: int, action: Mapping[str, Any], chance: Chance) -> None:
    """Add 1 or 2 to the total."""
    n = action.get("n")
    if n not in (1, 2) or isinstance(n, bool):
        raise RuleError("add 1 or 2")
    batch.emit("Added", {"n": n})


# One handler per action type: it validates the action, then emits its events in order.
_ACTIONS: dict[str, ActionHandler[State]] = {"add": _add}


# --- steps.py --------------------------------------------------------------------


def check_options(options: Mapping[str, Any], seats: int) -> None:
    """Accept: the goal's bounds are declared with the option."""


def setup(seats: int, options: Mapping[str, Any], chance: Chance) -> list[Event]:
    """Deal each seat a secret card."""
    cards = chance.shuffle(list(CARDS))[:seats]
    return [Event("SecretsDealt", {"secrets": cards, "goal": options["goal"]})]


def system_due(state: State) -> bool:
    """Tell whether every 4th move waits to be scored."""
    return state.total < state.goal and state.moves % 4 == 0 and state.moves > state.scored


def advance(state: State, chance: Chance) -> list[Event]:
    """Score."""
    return [Event("Scored", {"moves": state.moves}, SYSTEM)]


def result(state: State) -> Result | None:
    """The last mover wins once the goal is reached."""
    if state.total < state.goal:
        return None
    return Result(tuple(1 if s == state.last_mover else 2 for s in range(state.seats)), {"total": state.total})


def standing(state: State) -> Result:
    """A race stopped before its goal is a draw."""
    return Result((1,) * state.seats, {"total": state.total})


# --- __init__.py: the rules object, registration last ------------------------------


class ToyRules:
    """Toy race for 2 or 3 seats."""

    id = GAME_ID
    title = "Toy race"
    min_seats = 2
    max_seats = 3
    rules_version = "1"
    rules_versions = ("1",)
    event_caps = {2: 1000, 3: 1000}  # a race to at most 100 by ones: about 130 events
    options = (Option("goal", "int", 10, "total that ends the game", minimum=3, maximum=100),)
    bots = ("random",)
    actions = {"add": {"n": "int"}}

    check_options = staticmethod(check_options)
    setup = staticmethod(setup)
    evolve = staticmethod(evolve)
    to_act = staticmethod(to_act)
    legal_actions = staticmethod(legal_actions)
    decide = staticmethod(decide)
    system_due = staticmethod(system_due)
    advance = staticmethod(advance)
    result = staticmethod(result)
    standing = staticmethod(standing)


RULES = ToyRules()

# --- projections/<game>.py ---------------------------------------------------------


class ToyProjection:
    """What each viewer sees: the total, and only their own secret."""

    def seat_view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {"total": state.total, "your_secret": state.secrets[seat] if seat is not None else None}

    bot_view = seat_view

    def open_view(self, state: State) -> dict[str, Any]:
        return {"total": state.total, "secrets": list(state.secrets)}

    def redact(self, event: Event, seat: int | None) -> Mapping[str, Any]:
        if event.type == "SecretsDealt":
            return {
                "goal": event.data["goal"],
                "secrets": [c if i == seat else None for i, c in enumerate(event.data["secrets"])],
            }
        return event.data


def install() -> None:
    """Register the toy game's rules, projection and bot (idempotent); tests only."""
    import domain.games
    import projections
    import workers.bots

    domain.games.register(RULES)
    projections.register(GAME_ID, ToyProjection())
    workers.bots.BOTS[GAME_ID] = {"random": workers.bots.random_bot}
