"""Events: immutable past-tense facts, their canonical JSON and the hash chain.

An `Event` is what the rules decide: a type, who caused it and JSON-native data
(dicts with string keys, lists, strings, numbers, booleans, None — never tuples,
so that an event read back from the store equals the one decided).

A `RecordedEvent` is an event as stored: with its position in the stream
(`seq`, from 1), server time, the id of the command that caused it, the
command itself on the first event of a batch (so an audit can re-execute it),
the schema version of its type (`v`, see `domain.upcasters`), the chain scheme (`chain`), the
commitments to its hidden values (`commitments`, see `domain.commitments`) and
`hash`, the SHA-256 of the previous event's hash and this event's sealed form.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from mypy_extensions import mypyc_attr

from domain.canonical import canonical_bytes, plain_bytes, written_alike
from domain.canonical import canonical_json as canonical_json  # re-exported: the one encoder
from domain.commitments import CHAIN_VERSION, FIRST_SEALED, hash_sealed, hash_sealed_json, seal_body, sealed_form
from domain.upcasters import UPCASTERS
from domain.values import MEMO, new_value, remembered

GENESIS_HASH = "0" * 64
SYSTEM = "system"


@mypyc_attr(native_class=False)
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


@mypyc_attr(native_class=False)
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
    # Scheme 1 (no field when stored) chained every value in the clear; scheme 2 on commits hidden ones.
    chain: int = 1
    commitments: Mapping[str, str] | None = None

    @property
    def event(self) -> Event:
        """Return the bare decided event."""
        return new_value(Event, type=self.type, data=self.data, actor=self.actor)

    def body(self) -> dict[str, Any]:
        """Return every field but the hash: what the hash covers."""
        body = _unsealed(
            self.seq, self.type, self.actor, self.data, self.time, self.command_id, self.v, self.command, self.chain
        )
        if self.commitments:
            body["commitments"] = self.commitments
        return body

    def to_dict(self) -> dict[str, Any]:
        """Return the event as stored and exported."""
        stored = self.body()  # a dict of its own: the hash goes last, as stored
        stored["hash"] = self.hash
        return stored

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> RecordedEvent:
        """Read a stored event, upcasting an older schema version."""
        stored_v = raw.get("v", 1)
        v, data = UPCASTERS.upcast(raw["type"], stored_v, raw["data"])
        # Lifted: the chain still covers the stored form, so that is the sealed form a published log carries.
        memo: dict[str, Any] = {}
        if v != stored_v:
            memo = {SEALED: sealed_form({key: raw[key] for key in raw if key != "hash"}), LIFTED: True}
        return new_value(
            cls,
            seq=raw["seq"],
            type=raw["type"],
            actor=raw["actor"],
            data=data,
            time=raw["time"],
            command_id=raw["command_id"],
            v=v,
            hash=raw["hash"],
            command=raw.get("command"),
            chain=raw.get("chain", 1),
            commitments=raw.get("commitments"),
            **{MEMO: memo},
        )


# Every field a stored event may have: `body()`'s and the hash.
STORED_KEYS = frozenset(
    {"seq", "type", "actor", "data", "time", "command_id", "v", "command", "chain", "commitments", "hash"}
)


# The forms the service records: a command id is 32 lowercase hex digits (a random UUID's, or the digest
# a tournament step's id is derived from), and a time is RFC 3339 in UTC (the service writes milliseconds; any precision reads).
COMMAND_ID = re.compile(r"[0-9a-f]{32}")
_TIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z")


def is_command_id(value: Any) -> bool:
    """Tell whether `value` is a command id of the service's form."""
    return isinstance(value, str) and COMMAND_ID.fullmatch(value) is not None


def is_time(value: Any) -> bool:
    """Tell whether `value` is an RFC 3339 time in UTC (`Z`), as events record it (fractional seconds optional)."""
    if not isinstance(value, str) or _TIME.fullmatch(value) is None:
        return False
    try:
        datetime.fromisoformat(value)
    except ValueError:  # a well-formed string naming no time: month 13, February 30
        return False
    return True


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
    if chain < FIRST_SEALED:
        seal = None
    recorded = []
    for offset, event in enumerate(events):
        seq = after_seq + offset + 1
        carried = command if offset == 0 else None
        v = UPCASTERS.current_version(event.type)
        commitments = seal(seq, event, carried) or None if seal is not None else None
        unsealed = _unsealed(seq, event.type, event.actor, event.data, time, command_id, v, carried, chain)
        stored = {**unsealed, "commitments": commitments} if commitments else dict(unsealed)
        # The sealed form and the stored event are made of the stored body's parts: one check of it does for both.
        encode = plain_bytes if written_alike(stored) else canonical_bytes
        sealed = seal_body(unsealed, commitments)
        previous_hash = hash_sealed_json(previous_hash, encode(sealed))
        stored["hash"] = previous_hash
        # Remembered with it: the store appends these bytes, and a log shown right away (the mover's) this sealed form.
        memo = {SEALED: sealed, STORED: encode(stored)}
        recorded.append(
            new_value(
                RecordedEvent,
                seq=seq,
                type=event.type,
                actor=event.actor,
                data=event.data,
                time=time,
                command_id=command_id,
                v=v,
                hash=previous_hash,
                command=carried,
                chain=chain,
                commitments=commitments,
                **{MEMO: memo},
            )
        )
    return recorded


def _unsealed(
    seq: int,
    type_: str,
    actor: int | str,
    data: Mapping[str, Any],
    time: str,
    command_id: str,
    v: int,
    command: Mapping[str, Any] | None,
    chain: int,
) -> dict[str, Any]:
    """Return an event's body without its commitments (`RecordedEvent.body`'s fields but those)."""
    body = {"seq": seq, "type": type_, "actor": actor, "data": data, "time": time, "command_id": command_id, "v": v}
    if command is not None:
        body["command"] = command
    if chain != 1:
        body["chain"] = chain
    return body


# The keys of what a recorded event remembers: its sealed form and its canonical JSON as stored, and
# whether it was read in an older version of its type (its sealed form is then the stored one's).
SEALED, STORED, LIFTED = "sealed", "stored", "lifted"


def was_lifted(event: RecordedEvent) -> bool:
    """Tell whether the event was read in an older version of its type and upcast: the chain covers another form."""
    return LIFTED in event.__dict__.get(MEMO, ())


def stored_json(event: RecordedEvent) -> bytes:
    """Return the event as the store keeps it: the canonical JSON of `to_dict()`, built once."""
    return remembered(event, STORED, _stored_json)


def _stored_json(event: RecordedEvent) -> bytes:
    return canonical_bytes(event.to_dict())


def sealed_of(event: RecordedEvent) -> dict[str, Any]:
    """Return the sealed form of a recorded event (`domain.commitments.sealed_form` of its body), built once.

    For an event read in an older version and upcast, the body as stored: what the chain hashed.

    Shared: never change it. Raises UnknownPath as `sealed_form` does.
    """
    return remembered(event, SEALED, _sealed_body)


def _sealed_body(event: RecordedEvent) -> dict[str, Any]:
    return sealed_form(event.body())
