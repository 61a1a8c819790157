"""Play a game's rules directly, as the core would: decide, read the events back through JSON, fold."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from domain.chance import Chance
from domain.events import Event
from domain.rules import Rules


def fold(rules: Rules, state: Any, events: Iterable[Event]) -> Any:
    """Fold events into a rules state."""
    for event in events:
        state = rules.evolve(state, event)
    return state


def decide_and_apply(
    rules: Rules, state: Any, chance: Chance, seat: int | None = None, action: Any = None
) -> tuple[list[Event], Any]:
    """Decide a seat's action (with no seat: the system step) and fold its events, read back as the store would."""
    # The action goes as given: rule tests send malformed ones on purpose.
    events = rules.advance(state, chance) if seat is None else rules.decide(state, seat, action, chance)
    # The store keeps event data as JSON: fold what comes back, so tuples and lists cannot differ unnoticed.
    stored = [Event(e.type, json.loads(json.dumps(e.data)), e.actor) for e in events]
    return stored, fold(rules, state, stored)
