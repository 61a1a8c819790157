"""One decision's events, each folded into a working state as it is made.

A decision that emits several events often needs the state after the first
to choose the next (a cow's draw after its discard, a deal after a reveal).
`Batch` keeps that state and the events in order, so the decision reads as a
sequence of `emit` calls and the fold is the game's own `evolve`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar

from domain.events import Event

S = TypeVar("S")


class Batch(Generic[S]):
    """The events of one decision so far, and the state they lead to."""

    __slots__ = ("state", "actor", "events", "_evolve")

    def __init__(self, state: S, actor: int | str, evolve: Callable[[S, Event], S]) -> None:
        self.state = state
        self.actor = actor
        self.events: list[Event] = []
        self._evolve = evolve

    def emit(self, type_: str, data: Mapping[str, Any]) -> Event:
        """Decide one event by the batch's actor and fold it into the working state."""
        event = Event(type_, data, self.actor)
        self.events.append(event)
        self.state = self._evolve(self.state, event)
        return event
