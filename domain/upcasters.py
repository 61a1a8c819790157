"""Event schema versions and the upcasters that lift older stored forms to the current one.

Every event type starts at version 1. When its data changes shape, its
module registers one upcaster, a small function from the data of version n
to that of n + 1, beside the type's `evolve`:

    @upcaster("CardsDealt", 1)
    def _cards_dealt_v2(data):
        return {**data, "rules_version": "1"}

A type's current version is the last its chain reaches; `record` writes it on
every new event, and `RecordedEvent.from_dict` lifts an older one through the
chain, so the rules and projections only ever see the current form. What is
stored is never rewritten: hashes and commitments cover the stored bytes.

`check_upcasters` (run by the service at start and by the tests) fails on a
chain with a gap, a step registered twice or a step that does not go up.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from mypy_extensions import mypyc_attr

Upcaster = Callable[[Mapping[str, Any]], Mapping[str, Any]]


class UpcasterError(Exception):
    """A registry whose chains do not lead each type from version 1 to its current version, one step at a time.

    Not a DomainError: it is the code's mistake, found at start, never a request's (no HTTP status).
    """


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Step:
    """One upcaster: lifts `type`'s data from `version` to `to` (always `version + 1` when registered)."""

    type: str
    version: int
    lift: Upcaster
    to: int


class Upcasters:
    """The upcasters of every event type, and each type's current version."""

    def __init__(self, steps: Iterable[Step] = ()) -> None:
        self._steps: list[Step] = []
        self._next: dict[tuple[str, int], Step] = {}
        self._current: dict[str, int] = {}
        self.reset(steps)

    @property
    def steps(self) -> tuple[Step, ...]:
        """Return every step in the order registered (duplicates included: the check reports them)."""
        return tuple(self._steps)

    def register(self, type_: str, version: int, lift: Upcaster) -> None:
        """Declare how `type_`'s data of `version` becomes that of `version + 1`."""
        self._add(Step(type_, version, lift, version + 1))

    def upcaster(self, type_: str, version: int) -> Callable[[Upcaster], Upcaster]:
        """Register the decorated function as `type_`'s step from `version` to `version + 1`."""

        def registered(lift: Upcaster) -> Upcaster:
            self.register(type_, version, lift)
            return lift

        return registered

    def reset(self, steps: Iterable[Step]) -> None:
        """Hold exactly `steps` (a test restores what it changed)."""
        self._steps, self._next, self._current = [], {}, {}
        for step in steps:
            self._add(step)

    def current_version(self, type_: str) -> int:
        """Return the version new events of `type_` are recorded under."""
        return self._current.get(type_, 1)

    def types(self) -> list[str]:
        """Return every type with at least one step."""
        return sorted(self._current)

    def upcast(self, type_: str, v: int, data: Mapping[str, Any]) -> tuple[int, Mapping[str, Any]]:
        """Lift stored data of version `v` to the current version of its type; return that version and the data."""
        step = self._next.get((type_, v))
        while step is not None and step.to > v:  # a step that does not go up ends the walk (the check fails it)
            data, v = step.lift(data), step.to
            step = self._next.get((type_, v))
        return v, data

    def _add(self, step: Step) -> None:
        self._steps.append(step)
        self._next.setdefault((step.type, step.version), step)
        self._current[step.type] = max(self._current.get(step.type, 1), step.version + 1, step.to)


# The one registry the rules register into and every read goes through.
UPCASTERS = Upcasters()
upcaster = UPCASTERS.upcaster


def check_upcasters(registry: Upcasters = UPCASTERS) -> None:
    """Raise UpcasterError unless every type's chain runs 1, 2, … current with one step each, all going up by one."""
    problems = []
    for type_ in registry.types():
        own = [step for step in registry.steps if step.type == type_]
        seen: set[int] = set()
        for step in own:
            if step.version in seen:
                problems.append(f"{type_}: two upcasters from version {step.version}")
            seen.add(step.version)
            if step.to <= step.version:
                problems.append(f"{type_}: the upcaster from version {step.version} leads back to {step.to}, a cycle")
            elif step.to != step.version + 1:
                problems.append(f"{type_}: the upcaster from version {step.version} skips to {step.to}")
        current = registry.current_version(type_)
        missing = [v for v in range(1, current) if v not in seen]
        if missing:
            problems.append(f"{type_}: no upcaster from version {missing[0]} (a gap before version {current})")
        if any(step.version < 1 for step in own):
            problems.append(f"{type_}: an upcaster from version {min(s.version for s in own)}, below 1")
    if problems:
        raise UpcasterError("the event upcasters do not chain: " + "; ".join(problems))
