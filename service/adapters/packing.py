"""A finished game's stream packed into one compressed value: the same events, byte for byte, in less memory.

A stream entry costs Redis its payload plus the stream's bookkeeping, and
most of what a game's events repeat is what compresses worst event by event:
each event's SHA-256 `hash`, each hidden value's salted commitment (64 hex
digits each), the id of the command that caused it (32 random hex digits,
the same on every event of one command), its time and its position. After
the end all but the command ids are redundant: a hash is `chain_hash(previous
hash, body)`, a commitment is `commit(commitment_key(seed, seq, path),
value)` with the revealed seed, a position is the event's place in the
stream. A pack (`menagerie-pack/1`) is one zlib-compressed JSON document:

- `format`, `seed`, `count`, and `columns`: for each field of the events, its
  values down the stream (`{"rows": [...], "values": [...]}` where only some
  events have it), so that like values sit together;
- `hash` holds only the hashes recomputing does not give (null elsewhere),
  each commitment is `0` where recomputing gives it, `seq` is left out when
  it is the position, `time` is each event's milliseconds after the one
  before, `command_id` an index into `command_ids`, the distinct ids in order.

Unpacking recomputes what was left out and re-encodes each event
canonically, which gives back the stored bytes; `pack` checks that it does
before it returns, and packs the stored bytes as they are (`raw`) for any
game where they would not come back exactly. So the hash chain, the exports
and the audits of a packed game are those of its stream.

zlib (standard library, on every host) over lzma: lzma packs Zop Zoo 20%
smaller but costs 6× the CPU to pack and 10× to read, and the columns already
bring a game of the mix under the memory target (bench/bench_memory.py).
"""

from __future__ import annotations

import functools
import re
import zlib
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import orjson

from domain.canonical import canonical_bytes
from domain.commitments import commit, commitment_key
from domain.events import COMMAND_ID, chain_hash

FORMAT = "menagerie-pack/1"
FIRST_HASH = "0" * 64
# A left-out commitment: never a commitment itself (those are 64 hex digits).
DERIVED = 0
_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


class PackError(ValueError):
    """A pack that does not give back what it packed (never stored: the stream stays)."""


def pack(seed: str, payloads: Sequence[bytes]) -> bytes:
    """Return a finished game's stored events, packed (see the module's docstring)."""
    try:
        blob = _compress({"format": FORMAT, "seed": seed, "count": len(payloads), **_columns(seed, payloads)})
        if unpack(blob) == tuple(payloads):
            return blob
    except (ValueError, KeyError, TypeError):  # anything unusual in the events: keep them as stored
        pass
    return _compress({"format": FORMAT, "seed": seed, "raw": [payload.decode() for payload in payloads]})


def _compress(document: Mapping[str, Any]) -> bytes:
    return zlib.compress(canonical_bytes(document), 9)


def _columns(seed: str, payloads: Sequence[bytes]) -> dict[str, Any]:
    events = [orjson.loads(payload) for payload in payloads]
    previous = FIRST_HASH
    for position, event in enumerate(events, start=1):
        stored = event.pop("hash")
        commitments = event.get("commitments")
        if commitments:
            event["commitments"] = {
                path: DERIVED if _recomputed(event, seed, path) == value else value
                for path, value in commitments.items()
            }
        event["hash"] = None if chain_hash(previous, _restored(event, seed)) == stored else stored
        previous = stored
        if event.get("seq") == position:
            del event["seq"]
    ids = list(dict.fromkeys(e["command_id"] for e in events if COMMAND_ID.fullmatch(str(e.get("command_id")))))
    index = {command_id: n for n, command_id in enumerate(ids)}
    before = 0
    for event in events:
        if event.get("command_id") in index:
            event["command_id"] = index[event["command_id"]]
        if isinstance(event.get("time"), str) and _TIME.fullmatch(event["time"]):
            at = _milliseconds(event["time"])
            event["time"], before = at - before, at
    fields = sorted({key for event in events for key in event})
    columns: dict[str, Any] = {}
    for key in fields:
        rows = [n for n, event in enumerate(events) if key in event]
        values = [events[n][key] for n in rows]
        columns[key] = {"values": values} if len(rows) == len(events) else {"rows": rows, "values": values}
    return {"columns": columns, "command_ids": ids}


@functools.lru_cache(maxsize=16)
def unpack(blob: bytes) -> tuple[bytes, ...]:
    """Return the stored bytes of every event of a pack, in order.

    Kept for the last few packs read (by content, so never stale): a client
    paging through a finished game's log unpacks it once, not once a page.
    """
    document = orjson.loads(zlib.decompress(blob))
    if document.get("format") != FORMAT:
        raise PackError(f"not a pack of format {FORMAT}")
    if "raw" in document:
        return tuple(payload.encode() for payload in document["raw"])
    seed, ids = document["seed"], document["command_ids"]
    events: list[dict[str, Any]] = [{} for _ in range(document["count"])]
    for key, column in document["columns"].items():
        for row, value in zip(column.get("rows", range(len(events))), column["values"]):
            events[row][key] = value
    payloads: list[bytes] = []
    previous, at = FIRST_HASH, 0
    for position, event in enumerate(events, start=1):
        event.setdefault("seq", position)
        if isinstance(event.get("command_id"), int):
            event["command_id"] = ids[event["command_id"]]
        if isinstance(event.get("time"), int):
            at += event["time"]
            event["time"] = _timestamp(at)
        stored = event.pop("hash")
        event = _restored(event, seed)
        event["hash"] = stored if stored is not None else chain_hash(previous, event)
        previous = event["hash"]
        payloads.append(canonical_bytes(event))
    return tuple(payloads)


def _restored(event: dict[str, Any], seed: str) -> dict[str, Any]:
    """Return the event with every left-out commitment recomputed."""
    commitments = event.get("commitments")
    if commitments and DERIVED in commitments.values():
        event = {
            **event,
            "commitments": {
                path: _recomputed(event, seed, path) if value == DERIVED else value
                for path, value in commitments.items()
            },
        }
    return event


def _recomputed(body: Mapping[str, Any], seed: str, path: str) -> str | None:
    """Return the commitment to the value at `path` under the seed's key, or None if there is no such value."""
    value: Any = body
    for part in path.split("."):
        if isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        elif isinstance(value, Mapping) and part in value:
            value = value[part]
        else:
            return None
    return commit(commitment_key(seed, int(body["seq"]), path), value)


def _milliseconds(time: str) -> int:
    return (datetime.fromisoformat(time.replace("Z", "+00:00")) - _EPOCH) // timedelta(milliseconds=1)


def _timestamp(milliseconds: int) -> str:
    return (_EPOCH + timedelta(milliseconds=milliseconds)).isoformat(timespec="milliseconds").replace("+00:00", "Z")
