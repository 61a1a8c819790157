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
- **Schemes**: scheme 2 commits the hidden values of events, of create and
  join commands (token hashes) and of a seat's move (`act`); scheme 3 also
  commits the action a stand-in plays for a seat whose clock ran out
  (`timeout`), which scheme 2 chained in the clear. `domain.sealing` holds the
  table of each. A game keeps the scheme it was created under to its end.
- **Stored event**: the clear values, plus `"chain": <scheme>` and `"commitments":
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

import functools
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from mypy_extensions import mypyc_attr

from domain.canonical import canonical_bytes

# The scheme new games are created under; the first that commits; every scheme an audit reads.
CHAIN_VERSION = 3
FIRST_SEALED = 2
CHAIN_SCHEMES = (1, 2, 3)

# Who may see a hidden value, besides auditors after the end.
NOBODY = "nobody"  # no seat (the draw pile's order, a face-down tile)
OWNER = "owner"  # the seat numbered by the path's `*` index (hands)
OWNER_AND_NEXT = "owner-and-next"  # that seat and the next one (a card passed on)
ACTOR = "actor"  # the seat that caused the event
SEAT = "seat"  # the seat named by the record's own "seat" field


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Hidden:
    """One hidden field of an event type: its path, who may see it, and when it is hidden.

    `when=(field, value)` hides it only while `data[field] == value`.
    """

    path: str
    seen_by: str
    when: tuple[str, Any] | None = None


Declaration = Mapping[str, tuple[Hidden, ...]]


class HiddenValue(NamedTuple):
    """One concrete hidden value in a record: its full path, the value, and the seats that may see it."""

    path: str
    value: Any
    seers: frozenset[int]


def hidden_values(prefix: str, fields: tuple[Hidden, ...], record: Mapping[str, Any], actor: Any) -> list[HiddenValue]:
    """Return every hidden value of one record (an event's data or a command) under `prefix`, in declared order."""
    found: list[HiddenValue] = []
    for hidden in fields:
        if hidden.when is not None and record.get(hidden.when[0]) != hidden.when[1]:
            continue
        matches: list[_Found] = []
        _expand(record, _pattern(hidden.path), 0, prefix, None, 0, matches)
        for path, value, seat, seats in matches:
            if value is not None:
                seers = _seers(hidden.seen_by, seat, seats, record, actor)
                found.append(HiddenValue(path, value, seers))
    return found


@functools.cache
def _pattern(path: str) -> tuple[str, ...]:
    """Return a declared path's parts (the declarations are a few dozen paths)."""
    return tuple(path.split("."))


# (full path, value, index under `*`, length of that list)
_Found = tuple[str, Any, int | None, int]


def _expand(
    value: Any, pattern: tuple[str, ...], at: int, path: str, seat: int | None, seats: int, found: list[_Found]
) -> None:
    """Add to `found` each match of `pattern[at:]` in `value`, whose path so far is `path`."""
    for position in range(at, len(pattern)):
        head = pattern[position]
        if head == "*":
            if isinstance(value, list):
                for i, item in enumerate(value):
                    _expand(item, pattern, position + 1, f"{path}.{i}", i, len(value), found)
            return
        # Records are dicts; any other mapping is looked into alike.
        if not ((type(value) is dict or isinstance(value, Mapping)) and head in value):
            return
        value = value[head]
        path = f"{path}.{head}"
    found.append((path, value, seat, seats))


def _seers(seen_by: str, seat: int | None, seats: int, record: Mapping[str, Any], actor: Any) -> frozenset[int]:
    if seat is not None:
        if seen_by == OWNER:
            return frozenset((seat,))
        if seen_by == OWNER_AND_NEXT:
            return frozenset((seat, (seat + 1) % seats))
    if seen_by == SEAT:
        named = record.get("seat")
        return frozenset((named,)) if isinstance(named, int) else _NOBODY
    if seen_by == ACTOR and isinstance(actor, int) and not isinstance(actor, bool):
        return frozenset((actor,))
    return _NOBODY


_NOBODY: frozenset[int] = frozenset()


# Kept for the last few thousand values committed: the mover's log opens the values its move just committed.
@functools.lru_cache(maxsize=4096)
def commitment_key(seed: str, seq: int, path: str) -> bytes:
    """Derive the key of the commitment at `path` of event `seq` from the game's seed."""
    inner, outer = _keyed(seed)
    inner = inner.copy()
    inner.update(f"{seq}:{path}".encode("ascii"))
    outer = outer.copy()
    outer.update(inner.digest())
    key: bytes = outer.digest()
    return key


# HMAC (RFC 2104) is SHA-256(key ^ opad || SHA-256(key ^ ipad || msg)), the key
# zero-padded to SHA-256's 64-byte block (hashed first if longer). The two
# padded keys hashed once per seed leave two short hashes a commitment key,
# under half of `hmac.digest`'s instructions (every hidden value of every append, every opening).
_BLOCK = 64
_IPAD = bytes(byte ^ 0x36 for byte in range(256))
_OPAD = bytes(byte ^ 0x5C for byte in range(256))


@functools.lru_cache(maxsize=1024)
def _keyed(seed: str) -> tuple[Any, Any]:
    """Return SHA-256 after the inner and after the outer padded key of HMAC under a seed, to copy on from."""
    key = seed.encode("utf-8")
    if len(key) > _BLOCK:
        key = hashlib.sha256(key).digest()
    key = key.ljust(_BLOCK, b"\0")
    return hashlib.sha256(key.translate(_IPAD)), hashlib.sha256(key.translate(_OPAD))


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
    unsealed = {key: value for key, value in body.items() if key != "commitments"}
    return seal_body(unsealed, body.get("commitments"))


def seal_body(unsealed: dict[str, Any], commitments: Mapping[str, str] | None) -> dict[str, Any]:
    """Return `sealed_form` of a body given apart from its commitments: `unsealed`, changed in place, and returned.

    Only `unsealed` itself is changed: every container below it on a committed
    path is copied first. Raises UnknownPath as `sealed_form` does.
    """
    if commitments:
        for path, commitment in commitments.items():
            _replace(unsealed, path.split("."), commitment)
    return unsealed


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
    return hash_sealed_json(previous_hash, canonical_bytes(sealed))


def hash_sealed_json(previous_hash: str, sealed_json: bytes) -> str:
    """Hash an event's sealed form onto the chain, given its canonical JSON (`hash_sealed` when it is at hand)."""
    return hashlib.sha256(previous_hash.encode("ascii") + sealed_json).hexdigest()


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
