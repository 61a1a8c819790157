"""The one command path: load → decide → chain → fold → due mark → append → keep.

Every command on every aggregate (games, tournaments, ratings) comes through
`CommandPath.run`, each step once, in `_save`:

1. load: the cached aggregate when the caller says which version it expects,
   or asks to be optimistic, and the cache has it (no read at all), else the
   aggregate caught up from its stream (one read);
2. decide: the caller's function returns the command and its events;
3. chain: the events are recorded after the version decided on (`domain.events.record`);
4. fold: the recorded batch onto the aggregate decided on;
5. due mark: what the aggregate after the batch waits on, for the due index;
6. append: one `EVALSHA` at the version decided on, with the due mark and any
   idempotency record (the store only appends and reads);
7. keep: the folded aggregate goes into the cache, so nothing re-reads what it
   just wrote.

A conflict means someone else appended first: catch up and decide again, up
to `MAX_ATTEMPTS` times, unless the caller pinned the version it expects.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from domain.commitments import CHAIN_VERSION
from domain.events import Event, RecordedEvent, Seal, record
from service.adapters.cache import AggregateCache
from service.adapters.snapshots import Chained
from service.adapters.store import DueMark, EventStore
from service.errors import VersionConflict

# Conflicts happen only under contention (many rating jobs of one game type at
# once, say); each attempt catches up first, so a few suffice.
MAX_ATTEMPTS = 20


A = TypeVar("A", bound=Chained)


@dataclass(frozen=True)
class Decision:
    """What a command decided: the command as recorded on its first event, the events, and their seal.

    `seal` commits the hidden values (a game's `domain.sealing.Sealer`); None
    for aggregates with nothing hidden.
    """

    command: Mapping[str, Any]
    events: Sequence[Event]
    seal: Seal | None = None
    chain: int = CHAIN_VERSION


@dataclass(frozen=True)
class Outcome(Generic[A]):
    """What a command did: the aggregate before and after, and the events appended.

    `prior` is the first run's record when this was a retry of an idempotent
    command (nothing was appended).
    """

    before: A
    after: A
    events: Sequence[RecordedEvent]
    prior: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class Idempotency:
    """An idempotency key and what to record under it, given the version the batch starts after."""

    key: str
    record: Callable[[int, int], Mapping[str, Any]]


class CommandPath(Generic[A]):
    """Run commands on one kind of aggregate."""

    def __init__(
        self,
        store: EventStore,
        cache: AggregateCache[A],
        clock: Callable[[], str],
        due: Callable[[A], DueMark] | None = None,
    ) -> None:
        self.store = store
        self.cache = cache
        self.clock = clock
        # What the aggregate waits on after a batch, marked in the due index by
        # the same script that appends the batch (None: this kind has no steps).
        self.due = due

    def run(
        self,
        aggregate_id: str,
        decide: Callable[[A], Decision],
        *,
        expected_version: int | None = None,
        optimistic: bool = False,
        idempotency: Idempotency | None = None,
        command_id: Callable[[A, Decision], str] | None = None,
    ) -> Outcome[A]:
        """Decide on the aggregate and save the decision; see the module docstring.

        `expected_version` pins the version the caller saw (a conflict is the
        caller's, never retried); `optimistic` decides on the cached aggregate
        without reading first (the append's version check catches a stale one).
        """
        current = self._start(aggregate_id, expected_version, optimistic)
        for attempt in range(MAX_ATTEMPTS):
            if expected_version is not None and current.version != expected_version:
                raise VersionConflict(expected_version, current.version)
            decision = decide(current)
            if not decision.events:
                return Outcome(current, current, ())
            try:
                identity = command_id(current, decision) if command_id else uuid.uuid4().hex
                return self._save(aggregate_id, current, decision, identity, idempotency)
            except VersionConflict:
                current = self.cache.load(aggregate_id)
                if expected_version is not None or attempt == MAX_ATTEMPTS - 1:
                    raise VersionConflict(expected_version or current.version, current.version) from None
        raise VersionConflict(current.version, current.version)  # pragma: no cover - the loop returns or raises

    def create(self, aggregate_id: str, empty: A, decision: Decision) -> Outcome[A]:
        """Save the first batch of a new aggregate (a conflict means the id is taken)."""
        return self._save(aggregate_id, empty, decision, uuid.uuid4().hex)

    def run_chain(
        self,
        aggregate_id: str,
        decide: Callable[[A], Decision],
        *,
        expected_version: int,
        more: Callable[[A], bool],
    ) -> Outcome[A]:
        """Decide commands one after another, each on what the last left, while `more(after)`; append them as one batch.

        The batch is all or nothing at the version the first was decided on,
        with the due mark of the last: a crash before the append loses only
        what nobody was told, and a second run of the same chain is a conflict.
        """
        before = self._start(aggregate_id, expected_version, optimistic=False)
        if before.version != expected_version:
            raise VersionConflict(expected_version, before.version)
        after, recorded = before, []
        while True:
            decision = decide(after)
            if not decision.events:
                break
            batch = self._record(after, decision, uuid.uuid4().hex)
            after = self.cache.fold(after, batch, decision.events)
            recorded += batch
            if not more(after):
                break
        if not recorded:
            return Outcome(before, before, ())
        try:
            self.store.append(
                aggregate_id, recorded, expected_version=before.version, due=self.due(after) if self.due else None
            )
        except VersionConflict:
            # Someone appended first: catch up, so the caller sees (and schedules) where the stream is.
            current = self.cache.load(aggregate_id)
            raise VersionConflict(expected_version, current.version) from None
        return Outcome(before, self.cache.keep(aggregate_id, after), recorded)

    def _record(self, before: A, decision: Decision, command_id: str) -> list[RecordedEvent]:
        """Chain a decision's events after the aggregate they were decided on."""
        return record(
            list(decision.events),
            after_seq=before.version,
            previous_hash=before.last_hash,
            time=self.clock(),
            command_id=command_id,
            command=decision.command,
            seal=decision.seal,
            chain=decision.chain,
        )

    def _save(
        self, aggregate_id: str, before: A, decision: Decision, command_id: str, idempotency: Idempotency | None = None
    ) -> Outcome[A]:
        """Chain the decided events, fold them, mark what is due, append at the version decided on; keep the result."""
        recorded = self._record(before, decision, command_id)
        after = self.cache.fold(before, recorded, decision.events)
        appended = self.store.append(
            aggregate_id,
            recorded,
            expected_version=before.version,
            idempotency_key=idempotency.key if idempotency else None,
            idempotency_record=idempotency.record(recorded[0].seq, recorded[-1].seq) if idempotency else None,
            due=self.due(after) if self.due is not None else None,
        )
        if appended.duplicate:
            return Outcome(before, before, (), appended.prior)
        return Outcome(before, self.cache.keep(aggregate_id, after), recorded)

    def _start(self, aggregate_id: str, expected_version: int | None, optimistic: bool) -> A:
        """Return the aggregate to decide on: the cached one when it can tell, else one caught up."""
        cached = self.cache.peek(aggregate_id)
        if cached is not None and (optimistic or (expected_version is not None and cached.version >= expected_version)):
            # Versions only grow: a cached version past the expected one is a conflict already.
            return cached
        return self.cache.load(aggregate_id)
