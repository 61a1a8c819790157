"""A finished game's stream packed into one compressed value: the same events, byte for byte, in less memory.

A stream entry costs Redis its payload plus the stream's own bookkeeping, and
most of a payload is what nothing can compress: each event's SHA-256 `hash`
and each hidden value's salted commitment (64 hex digits each). After the
end both are redundant: the hash is `chain_hash(previous hash, body)` and a
commitment is `commit(commitment_key(seed, seq, path), value)`, and the seed
is revealed. A pack keeps every event's stored bytes minus what the chain and
the seed recompute, zlib-compressed as one value:

- line 1: `{"format": "menagerie-pack/1", "seed": ...}`;
- then one line per event, its canonical JSON without `hash` and with `0` in
  place of each commitment, when (and only when) recomputing gives back the
  stored value; anything else is kept as stored.

Unpacking recomputes what was left out and re-encodes each event canonically,
which gives back the stored bytes exactly: `pack` keeps whole a game whose
stored bytes are not their own canonical encoding. So the hash chain, the
exports and the audits of a packed game are those of its stream.

zlib (standard library, on every host) over lzma: lzma packs Zop Zoo's
longest games 20% smaller but costs 6× the CPU to pack and 10× to read, and
zlib already meets the memory target (bench/bench_memory.py).
"""

from __future__ import annotations

import functools
import zlib
from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from domain.canonical import canonical_bytes
from domain.commitments import commit, commitment_key
from domain.events import chain_hash

FORMAT = "menagerie-pack/1"
FIRST_HASH = "0" * 64
# A left-out commitment: never a commitment itself (those are 64 hex digits).
DERIVED = 0


def pack(seed: str, payloads: Sequence[bytes]) -> bytes:
    """Return a finished game's stored events, packed (see the module's docstring)."""
    derive = all(canonical_bytes(orjson.loads(payload)) == payload for payload in payloads)
    lines = [canonical_bytes({"format": FORMAT, "seed": seed, "derived": derive})]
    previous = FIRST_HASH
    for payload in payloads:
        event = orjson.loads(payload)
        lines.append(canonical_bytes(_compact(event, seed, previous)) if derive else payload)
        previous = event.get("hash", "")
    return zlib.compress(b"\n".join(lines), 9)


def _compact(event: dict[str, Any], seed: str, previous: str) -> dict[str, Any]:
    body = {key: value for key, value in event.items() if key != "hash"}
    compact = dict(body)
    commitments = body.get("commitments")
    if isinstance(commitments, Mapping) and commitments:
        compact["commitments"] = {
            path: DERIVED if _recomputed(body, seed, path) == stored else stored for path, stored in commitments.items()
        }
    try:
        same = chain_hash(previous, body) == event.get("hash")
    except ValueError:  # a commitment naming a path the body lacks: keep the hash as stored
        same = False
    if not same:
        compact["hash"] = event.get("hash")
    return compact


@functools.lru_cache(maxsize=16)
def unpack(blob: bytes) -> tuple[bytes, ...]:
    """Return the stored bytes of every event of a pack, in order.

    Kept for the last few packs read (by content, so never stale): a client
    paging through a finished game's log unpacks it once, not once a page.
    """
    first, *lines = zlib.decompress(blob).split(b"\n")
    header = orjson.loads(first)
    if header.get("format") != FORMAT:
        raise ValueError(f"not a pack of format {FORMAT}")
    if not header["derived"]:
        return tuple(lines)
    payloads: list[bytes] = []
    previous = FIRST_HASH
    for line in lines:
        event = _expand(orjson.loads(line), header["seed"], previous)
        payloads.append(canonical_bytes(event))
        previous = event["hash"]
    return tuple(payloads)


def _expand(event: dict[str, Any], seed: str, previous: str) -> dict[str, Any]:
    commitments = event.get("commitments")
    if isinstance(commitments, Mapping) and commitments:
        event["commitments"] = {
            path: _recomputed(event, seed, path) if stored == DERIVED else stored
            for path, stored in commitments.items()
        }
    if "hash" not in event:
        event["hash"] = chain_hash(previous, event)
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
