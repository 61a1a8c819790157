"""Salted commitments to hidden values: the hash chain proves everything after the end, nothing before.

A hash over a hidden value from a small domain (a card, a tile) is that value:
anyone can try every candidate. So in chain scheme 2 every value some viewer
may not see is chained only as a commitment, written out here so that anyone
can re-implement the check (as `domain.chance` does for shuffles):

- **What is hidden** is declared once, as data: `Hidden(path, seen_by, when)`
  per event type (each game's `hidden.py`; core events and commands in
  `domain.sealing`). A path is dot-separated keys into the event's `data` (or
  its `command`); `*` stands for every index of a list, and that index is the
  seat the value belongs to. A null value is never hidden (absence is public).
- **Keys**: `k = HMAC-SHA-256(key=seed as UTF-8, msg=f"{seq}:{path}" as ASCII)`,
  where `seq` is the event's position and `path` the full concrete path, e.g.
  `data.hands.2` or `command.action`.
- **Commitment**: `C = SHA-256(k || canonical_json(value))`, as lowercase hex
  (`domain.canonical` defines the encoding).
- **Stored event**: the clear values, plus `"chain": 2` and `"commitments":
  {path: C}`. **Sealed form**: the stored event without `hash` and
  `commitments`, with the value at each committed path replaced by its `C`.
  **Hash**: `SHA-256(previous_hash || canonical_json(sealed form))`, from
  `"0" * 64`. An event of scheme 1 (no `chain` field, written before
  commitments existed) is its own sealed form.

During play a seat's log carries, for every event, the sealed form where it
differs from what the seat is shown (`sealed`), the commitments, and for the
seat's own hidden values their keys (`openings`), so it can check the chain and
its own commitments at once. After the end the revealed seed gives every key.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from domain.canonical import canonical_bytes, canonical_json

CHAIN_VERSION = 2

# Who may see a hidden value, besides auditors after the end.
NOBODY = "nobody"  # no seat (the draw pile's order, a face-down tile)
OWNER = "owner"  # the seat numbered by the path's `*` index (hands)
OWNER_AND_NEXT = "owner-and-next"  # that seat and the next one (a card passed on)
ACTOR = "actor"  # the seat that caused the event
SEAT = "seat"  # the seat named by the record's own "seat" field


@dataclass(frozen=True)
class Hidden:
    """One hidden field of an event type: its path, who may see it, and when it is hidden.

    `when=(field, value)` hides it only while `data[field] == value`.
    """

    path: str
    seen_by: str
    when: tuple[str, Any] | None = None


Declaration = Mapping[str, tuple[Hidden, ...]]


@dataclass(frozen=True)
class HiddenValue:
    """One concrete hidden value in a record: its full path, the value, and the seats that may see it."""

    path: str
    value: Any
    seers: frozenset[int]


def hidden_values(
    prefix: str, fields: tuple[Hidden, ...], record: Mapping[str, Any], actor: Any
) -> Iterator[HiddenValue]:
    """Yield every hidden value of one record (an event's data or a command) under `prefix`."""
    for hidden in fields:
        if hidden.when is not None and record.get(hidden.when[0]) != hidden.when[1]:
            continue
        for parts, value, seat, seats in _expand(record, hidden.path.split("."), (), None, 0):
            if value is not None:
                seers = _seers(hidden.seen_by, seat, seats, record, actor)
                yield HiddenValue(f"{prefix}.{'.'.join(parts)}", value, seers)


_Found = tuple[tuple[str, ...], Any, int | None, int]


def _expand(value: Any, pattern: list[str], done: tuple[str, ...], seat: int | None, seats: int) -> Iterator[_Found]:
    """Yield (path parts, value, index under `*`, length of that list) for each match of a path pattern."""
    if not pattern:
        yield done, value, seat, seats
        return
    head, rest = pattern[0], pattern[1:]
    if head == "*":
        if isinstance(value, list):
            for i, item in enumerate(value):
                yield from _expand(item, rest, (*done, str(i)), i, len(value))
    elif isinstance(value, Mapping) and head in value:
        yield from _expand(value[head], rest, (*done, head), seat, seats)


def _seers(seen_by: str, seat: int | None, seats: int, record: Mapping[str, Any], actor: Any) -> frozenset[int]:
    if seen_by == OWNER and seat is not None:
        return frozenset({seat})
    if seen_by == OWNER_AND_NEXT and seat is not None:
        return frozenset({seat, (seat + 1) % seats})
    if seen_by == ACTOR and isinstance(actor, int) and not isinstance(actor, bool):
        return frozenset({actor})
    if seen_by == SEAT and isinstance(record.get("seat"), int):
        return frozenset({record["seat"]})
    return frozenset()


def commitment_key(seed: str, seq: int, path: str) -> bytes:
    """Derive the key of the commitment at `path` of event `seq` from the game's seed."""
    # hmac.digest: hmac.new(...).digest() in one call to OpenSSL (every hidden value of every append).
    return hmac.digest(seed.encode("utf-8"), f"{seq}:{path}".encode("ascii"), "sha256")


def commit(key: bytes, value: Any) -> str:
    """Return the commitment to a value under a key: SHA-256(key || canonical JSON), hex."""
    return hashlib.sha256(key + canonical_bytes(value)).hexdigest()


def opens(commitment: str, key: bytes, value: Any) -> bool:
    """Tell whether a value and key open a commitment."""
    # Nothing secret is compared here (an audit, or a seat's own value), so plain equality does.
    return commit(key, value) == commitment


class UnknownPath(ValueError):
    """A commitment names a path the event does not have."""


def sealed_form(body: Mapping[str, Any]) -> dict[str, Any]:
    """Return what the chain hashes of an event body: each committed value replaced by its commitment.

    Raises UnknownPath when a commitment names a path the body does not have.
    """
    commitments = body.get("commitments")
    sealed = {key: value for key, value in body.items() if key != "commitments"}
    if not commitments:
        return sealed
    for path, commitment in commitments.items():
        _replace(sealed, path.split("."), commitment)
    return sealed


def _replace(container: Any, parts: list[str], commitment: str) -> None:
    # Copy every container on the way down: the body's own data must stay as it is.
    for position, part in enumerate(parts):
        try:
            key: Any = int(part) if isinstance(container, list) else part
            if isinstance(container, list) and not 0 <= key < len(container):
                raise IndexError(key)
            if position == len(parts) - 1:
                container[key] = commitment
                return
            inner = container[key]
        except (KeyError, IndexError, ValueError, TypeError):
            raise UnknownPath(".".join(parts)) from None
        if not isinstance(inner, dict | list):
            raise UnknownPath(".".join(parts))
        inner = dict(inner) if isinstance(inner, dict) else list(inner)
        container[key] = inner
        container = inner


def hash_sealed(previous_hash: str, sealed: Mapping[str, Any]) -> str:
    """Hash an event's sealed form onto the chain: SHA-256 of the previous hash and its canonical JSON."""
    return hashlib.sha256((previous_hash + canonical_json(sealed)).encode("ascii")).hexdigest()


def published_sealed_form(event: Mapping[str, Any]) -> dict[str, Any]:
    """Return the sealed form of an event as published (a seat's redacted log, or the open log)."""
    body = {key: value for key, value in event.items() if key not in ("hash", "sealed", "openings")}
    body.update(event.get("sealed") or {})
    return sealed_form(body)


def verify_published(events: list[Mapping[str, Any]], previous_hash: str = "0" * 64) -> int | None:
    """Check a published log's chain and every opening it carries; return the first bad seq, or None.

    A seat can run this on its own log during play: it proves that the
    commitments it holds are the ones chained, and that its own values open
    theirs. `previous_hash` is the hash of the event before the first given.
    """
    for event in events:
        try:
            sealed = published_sealed_form(event)
        except UnknownPath:
            return event.get("seq")
        if hash_sealed(previous_hash, sealed) != event.get("hash"):
            return event.get("seq")
        commitments = event.get("commitments") or {}
        for path, opening in (event.get("openings") or {}).items():
            if not opens(commitments.get(path, ""), bytes.fromhex(opening["key"]), opening["value"]):
                return event.get("seq")
        previous_hash = event["hash"]
    return None
