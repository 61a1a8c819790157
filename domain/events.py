"""Events: immutable past-tense facts, their canonical JSON and the hash chain.

An `Event` is what the rules decide: a type, who caused it and JSON-native data
(dicts with string keys, lists, strings, numbers, booleans, None — never tuples,
so that an event read back from the store equals the one decided).

A `RecordedEvent` is an event as stored: with its position in the stream
(`seq`, from 1), server time, the id of the command that caused it, the
command itself on the first event of a batch (so an audit can re-execute it),
the schema version of its type (`v`), the chain scheme (`chain`), the
commitments to its hidden values (`commitments`, see `domain.commitments`) and
`hash`, the SHA-256 of the previous event's hash and this event's sealed form.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from domain.canonical import canonical_json as canonical_json  # re-exported: the one encoder
from domain.commitments import CHAIN_VERSION, hash_sealed, sealed_form
from domain.values import new_value

GENESIS_HASH = "0" * 64
SYSTEM = "system"


@dataclass(frozen=True, init=False)
class Event:
    """A decided fact, not yet stored."""

    type: str
    data: Mapping[str, Any] = field(default_factory=dict)
    actor: int | str = SYSTEM

    def __init__(self, type: str, data: Mapping[str, Any] | None = None, actor: int | str = SYSTEM) -> None:
        # A frozen dataclass's own __init__ sets each field through object.__setattr__;
        # every decision builds events (a simulation thousands), so fill the dict at once.
        fields = self.__dict__
        fields["type"] = type
        fields["data"] = {} if data is None else data
        fields["actor"] = actor


@dataclass(frozen=True, kw_only=True)
class RecordedEvent(Event):
    """An event with its place in a game's stream.

    It is an `Event` too, so a replay hands it to the rules as it is.
    """

    seq: int
    time: str
    command_id: str
    v: int
    hash: str
    command: Mapping[str, Any] | None = None
    # Scheme 1 (no field when stored) chained every value in the clear; scheme 2 commits hidden ones.
    chain: int = 1
    commitments: Mapping[str, str] | None = None

    @property
    def event(self) -> Event:
        """Return the bare decided event."""
        return new_value(Event, type=self.type, data=self.data, actor=self.actor)

    def body(self) -> dict[str, Any]:
        """Return every field but the hash: what the hash covers."""
        body = {
            "seq": self.seq,
            "type": self.type,
            "actor": self.actor,
            "data": self.data,
            "time": self.time,
            "command_id": self.command_id,
            "v": self.v,
        }
        if self.command is not None:
            body["command"] = self.command
        if self.chain != 1:
            body["chain"] = self.chain
        if self.commitments:
            body["commitments"] = self.commitments
        return body

    def to_dict(self) -> dict[str, Any]:
        """Return the event as stored and exported."""
        return {**self.body(), "hash": self.hash}

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> RecordedEvent:
        """Read a stored event, upcasting an older schema version."""
        type_, v, data = upcast(raw["type"], raw.get("v", 1), raw["data"])
        return new_value(
            cls,
            seq=raw["seq"],
            type=type_,
            actor=raw["actor"],
            data=data,
            time=raw["time"],
            command_id=raw["command_id"],
            v=v,
            hash=raw["hash"],
            command=raw.get("command"),
            chain=raw.get("chain", 1),
            commitments=raw.get("commitments"),
        )


# Every field a stored event may have: `body()`'s and the hash.
STORED_KEYS = frozenset(
    {"seq", "type", "actor", "data", "time", "command_id", "v", "command", "chain", "commitments", "hash"}
)


def chain_hash(previous_hash: str, body: Mapping[str, Any]) -> str:
    """Hash one event's body (as stored, without its hash) onto the chain: its sealed form, not its secrets."""
    return hash_sealed(previous_hash, sealed_form(body))


# What seals one event: its commitments, given its position, the event and the
# command it carries (None but on the first event of a batch).
Seal = Callable[[int, Event, Mapping[str, Any] | None], dict[str, str]]


def record(
    events: list[Event],
    *,
    after_seq: int,
    previous_hash: str,
    time: str,
    command_id: str,
    command: Mapping[str, Any] | None,
    seal: Seal | None = None,
    chain: int = CHAIN_VERSION,
) -> list[RecordedEvent]:
    """Give a decided batch its positions, commitments and hashes; the command rides on the first.

    `seal` commits the hidden values (a game's `domain.sealing.Sealer`); an
    aggregate with nothing hidden (tournaments, ratings) passes none. A game
    created under scheme 1 stays on it (`chain=1`: nothing committed).
    """
    if chain < CHAIN_VERSION:
        seal = None
    recorded = []
    for offset, event in enumerate(events):
        seq = after_seq + offset + 1
        carried = command if offset == 0 else None
        body = RecordedEvent(
            seq=seq,
            type=event.type,
            actor=event.actor,
            data=event.data,
            time=time,
            command_id=command_id,
            v=CURRENT_VERSIONS.get(event.type, 1),
            hash="",
            command=carried,
            chain=chain,
            commitments=seal(seq, event, carried) or None if seal is not None else None,
        )
        previous_hash = chain_hash(previous_hash, body.body())
        recorded.append(_with_hash(body, previous_hash))
    return recorded


def _with_hash(event: RecordedEvent, hash_: str) -> RecordedEvent:
    return new_value(RecordedEvent, **{**event.__dict__, "hash": hash_})


# Schema evolution. When an event type's data changes shape, bump its version
# in CURRENT_VERSIONS and register an upcaster from the old version; streams
# written before stay readable because every read upcasts.
Upcaster = Callable[[Mapping[str, Any]], Mapping[str, Any]]
CURRENT_VERSIONS: dict[str, int] = {}
_UPCASTERS: dict[tuple[str, int], Upcaster] = {}


def register_upcaster(type_: str, from_version: int, upcaster: Upcaster) -> None:
    """Declare how to lift `type_` data from `from_version` to the next version."""
    _UPCASTERS[(type_, from_version)] = upcaster
    CURRENT_VERSIONS[type_] = max(CURRENT_VERSIONS.get(type_, 1), from_version + 1)


def upcast(type_: str, v: int, data: Mapping[str, Any]) -> tuple[str, int, Mapping[str, Any]]:
    """Lift event data to the current version of its type."""
    while (type_, v) in _UPCASTERS:
        data = _UPCASTERS[(type_, v)](data)
        v += 1
    return type_, v, data
