"""One decision's events, each folded into a working state as it is made.

A decision that emits several events often needs the state after the first
to choose the next (a cow's draw after its discard, a deal after a reveal).
`Batch` keeps that state and the events in order, so the decision reads as a
sequence of `emit` calls and the fold is the game's own `evolve`: every game's
`decide` and `advance` are written this way (docs/contributors.md, "One way to
decide").

The events a batch returns remember the state they lead to (`Folded`), so the
fast path (`domain.simulate`) takes that state instead of folding the same
events a second time; `tests/domain/test_fast_path_agrees.py` checks it equals
the fold.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Generic, TypeVar

from mypy_extensions import mypyc_attr

from domain.chance import Chance
from domain.events import Event

S = TypeVar("S")


@mypyc_attr(native_class=False)
class Folded(list[Event]):
    """A batch's events, with the state they lead to once `folded` of them are folded in.

    An event appended by hand (not emitted) is not folded: then `folded` is
    short of the length, and a reader folds the events itself.
    """

    __slots__ = ("state", "folded")
    state: Any
    folded: int

    @classmethod
    def of(cls, state: Any, events: Iterable[Event] = ()) -> Folded:
        """Return `events`, which lead to `state` (none: a batch about to emit from `state`)."""
        folded = cls(events)
        folded.state, folded.folded = state, len(folded)
        return folded

    def after(self) -> Any:
        """Return the state after every event, or None if some event was appended without being folded."""
        return self.state if self.folded == len(self) else None


class Batch(Generic[S]):
    """The events of one decision so far, and the state they lead to."""

    __slots__ = ("state", "actor", "events", "_evolve")

    def __init__(self, state: S, actor: int | str, evolve: Callable[[S, Event], S]) -> None:
        self.state = state
        self.actor = actor
        events = self.events = Folded()
        events.state, events.folded = state, 0
        self._evolve = evolve

    def emit(self, type_: str, data: Mapping[str, Any], actor: int | str | None = None) -> Event:
        """Decide one event, by the batch's actor unless another is named, and fold it into the working state."""
        event = Event(type_, data, self.actor if actor is None else actor)
        self.events.append(event)
        self.state = self.events.state = self._evolve(self.state, event)
        self.events.folded += 1
        return event


# What a game's table of actions holds (`_ACTIONS`): for one action type, the handler that checks
# the action and emits its events on the batch, given the seat, the action and the chance.
ActionHandler = Callable[[Batch[S], int, Mapping[str, Any], Chance], None]
