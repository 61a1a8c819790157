"""One decision's events, each folded into a working state as it is made.

A decision that emits several events often needs the state after the first
to choose the next (a cow's draw after its discard, a deal after a reveal).
`Batch` keeps that state and the events in order, so the decision reads as a
sequence of `emit` calls and the fold is the game's own `evolve`. Its events
remember that state (`Folded`), so the fast path (`domain.simulate`) takes it
instead of folding the same events a second time.

An `InPlaceBatch` (for a game whose decisions emit several events each) folds
its second and later events into the state its first event led to, in place:
a decision copies its state once, not once an event.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Generic, TypeVar

from domain.events import Event
from domain.values import DRAFT

S = TypeVar("S")


class Folded(list[Event]):
    """A batch's events, with the state they lead to once `folded` of them are folded in.

    An event appended by hand (not emitted) is not folded: then `folded` is
    short of the length, and a reader folds the events itself.
    """

    __slots__ = ("state", "folded")

    def __init__(self, state: Any, events: Iterable[Event] = ()) -> None:
        """Start from `state`, the state after `events` (none: a batch about to emit)."""
        self.extend(events)
        self.state = state
        self.folded = len(self)

    def after(self) -> Any:
        """Return the state after every event, or None if some event was appended without being folded."""
        return self.state if self.folded == len(self) else None


class Batch(Generic[S]):
    """The events of one decision so far, and the state they lead to."""

    __slots__ = ("state", "actor", "events", "_evolve", "_own")

    def __init__(self, state: S, actor: int | str, evolve: Callable[[S, Event], S]) -> None:
        self.state = state
        self.actor = actor
        # An empty `Folded` made without its Python __init__ (one frame less for every decision).
        events = self.events = Folded.__new__(Folded)
        events.state, events.folded = state, 0
        self._evolve = evolve
        # An `InPlaceBatch`'s: the state its events built and it alone holds. Set here, not in an
        # `__init__` of its own: that call (with super()) cost Zop Zoo 4 seats 1.5% of its fast path.
        self._own: S | None = None

    def emit(self, type_: str, data: Mapping[str, Any]) -> Event:
        """Decide one event by the batch's actor and fold it into the working state."""
        event = Event(type_, data, self.actor)
        events = self.events
        events.append(event)
        self.state = events.state = self._evolve(self.state, event)
        events.folded += 1
        return event


class InPlaceBatch(Batch[S]):
    """A `Batch` that folds its events after the first into the state the first led to, in place.

    That state is one the batch's `evolve` has just built (a pure fold of frozen
    values returns its input or a value it has built): no one else holds it until
    the decision returns its events, so changing it (the game's `evolve` changes
    its states with `domain.values.amended`, which changes a value marked `DRAFT`
    in place) is not seen from outside, and each state the decision returns is
    frozen from then on.
    """

    __slots__ = ()

    def emit(self, type_: str, data: Mapping[str, Any]) -> Event:
        """Decide one event by the batch's actor and fold it into the working state (in place after the first)."""
        event = Event(type_, data, self.actor)
        events = self.events
        events.append(event)
        own = self._own
        if own is None:
            before = self.state
            state = self._evolve(before, event)
            if state is not before:
                self._own = state
        else:
            fields = own.__dict__
            fields[DRAFT] = True
            try:
                state = self._evolve(own, event)
            finally:
                del fields[DRAFT]
            if state is not own:
                self._own = state
        self.state = events.state = state
        events.folded += 1
        return event
