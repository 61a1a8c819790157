"""The event store: one Redis stream per game, appended atomically by a Lua script.

Keys of one game share the hash tag `{<game_id>}` so that, on Redis Cluster,
they live on one shard and the script may touch them together:

- `<prefix>:{<id>}:events` — the stream; entry ids are `<seq>-0`, so the
  version is the last entry's id and never drifts from the stream itself;
- `<prefix>:{<id>}:idem:<sha256 of the key>` — an idempotency key's first
  result, kept for `IDEMPOTENCY_TTL_MS` (24 h);
- `<prefix>:{<id>}:seed` — the secret seed, until the game reveals it;
- `<prefix>:{<id>}:packed` — a finished game's stream once packed
  (`service.adapters.packing`): a hash of its `version`, `seed`, `ended` (the
  time of its last event) and `events` (the pack). Packing replaces the
  stream and the seed key in one script; every read falls back to the pack,
  so a reader never tells the two apart.
- `<prefix>:{<id>}:signature` — the house's signature of a finished game's
  (or tournament's) result (`domain.results`): the first one kept stays, so
  signing twice stores one. Packing leaves it; archiving moves it into the file.

An idempotent create's first record (the game's id, its tokens and seed) is
kept under `<prefix>:create:<sha256 of the key>` for as long: the game's id
is drawn at random, never derived from the key. Keys are looked up only by
their hash, so nothing stored names one, and a record dies with its TTL: a
key is a secret its sender keeps for the length of a retry, not for ever.

The due index (`service.adapters.due`) is not a game's key: an append that
says what the game waits on marks or unmarks the game there in the same
script, so no crash between the append and anything after it can lose a due
step. On a single Redis it is one key, `<prefix>:due`; on Redis Cluster it is
sharded so that each game's shard shares the game's slot
(`service.adapters.slots`), and the script still touches one slot.

The stream is never trimmed: trimming deletes history. Packing keeps all of it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

import orjson

from domain.canonical import canonical_bytes
from domain.events import RecordedEvent, stored_json
from service.adapters import packing
from service.adapters.connections import StoreRedis, is_cluster
from service.adapters.slots import DueKeys, aggregate_key
from service.errors import VersionConflict

# Every check happens before the first write: Redis does not roll a script back.
# KEYS: the stream, the idempotency record's key (the stream's again when the
# command has no key: the script then leaves it alone), and the due key only
# with a due mark (a tournament's or the ratings' appends name no key outside
# their own slot). ARGV: expected version, the record's lifetime in ms ('' for
# no idempotency key), the record, due mark, aggregate id, events. The due mark is '' (leave the index alone), '-' (nothing due: unmark)
# or a delay in ms after which anyone may take the game's next step; the
# server's clock (TIME) dates it, so the hosts' clocks never disagree on it.
# The events go out too, as a JSON array, on the shard channel named as the stream's key (in its
# slot): the server processes watching the game read them there (`service.http.fanout`).
_APPEND = """
local keyed = ARGV[2] ~= ''
if keyed then
  local prior = redis.call('GET', KEYS[2])
  if prior then return {'duplicate', prior} end
end
local version = 0
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
if #last > 0 then version = tonumber(string.match(last[1][1], '^(%d+)-')) end
if version ~= tonumber(ARGV[1]) then return {'conflict', tostring(version)} end
for i = 6, #ARGV do
  redis.call('XADD', KEYS[1], tostring(version + i - 5) .. '-0', 'e', ARGV[i])
end
if keyed then redis.call('SET', KEYS[2], ARGV[3], 'PX', ARGV[2]) end
if ARGV[4] == '-' then
  redis.call('ZREM', KEYS[3], ARGV[5])
elseif ARGV[4] ~= '' then
  local now = redis.call('TIME')
  redis.call('ZADD', KEYS[3], now[1] * 1000 + math.floor(now[2] / 1000) + tonumber(ARGV[4]), ARGV[5])
end
if #ARGV > 5 then redis.call('SPUBLISH', KEYS[1], '[' .. table.concat(ARGV, ',', 6) .. ']') end
return {'ok', tostring(version + #ARGV - 5)}
"""

# Replace a finished game's stream and seed with its pack, if the stream is still at the version packed.
# KEYS: the stream, the pack, then the keys a packed game no longer needs. ARGV: version, seed, ended, pack.
_PACK = """
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
if #last == 0 then return 'missing' end
if tonumber(string.match(last[1][1], '^(%d+)-')) ~= tonumber(ARGV[1]) then return 'moved' end
redis.call('HSET', KEYS[2], 'version', ARGV[1], 'seed', ARGV[2], 'ended', ARGV[3], 'events', ARGV[4])
for i = 3, #KEYS do redis.call('DEL', KEYS[i]) end
redis.call('DEL', KEYS[1])
return 'packed'
"""
# What packing removes beside the stream: the seed (in the pack now), a snapshot, the keys of older versions.
_UNPACKED = ("seed", "snapshot", "idem", "created")

# A due mark: nothing is due (unmark the game), or a delay in ms after which
# the game's next step is overdue. None leaves the due index alone.
NOT_DUE = -1
# How long an idempotency key's first result is kept: a retry within a day gets it.
IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000
# The longest a `wait` may block; the blocking client's socket timeout outlasts it.
MAX_BLOCK_MS = 30_000
DueMark = int | None


@dataclass(frozen=True)
class Appended:
    """The outcome of an append: the new version, or the first run's record for a retry."""

    version: int
    duplicate: bool = False
    prior: Mapping[str, Any] | None = None


class EventStore:
    """Append and read game streams."""

    def __init__(self, redis: StoreRedis, prefix: str = "menagerie", blocking: StoreRedis | None = None) -> None:
        self.redis = redis
        # `wait` blocks on its own client, whose socket timeout outlasts the longest block
        # (`connections.timeouts`); the embedded fakeredis has no sockets and serves both.
        self.blocking = redis if blocking is None else blocking
        self.prefix = prefix
        # The due index: game id -> the time (ms) after which its next step is overdue.
        self.due_keys = DueKeys(prefix, sharded=is_cluster(redis))
        self._append = redis.register_script(_APPEND)
        self._pack = redis.register_script(_PACK)

    def _key(self, game_id: str, name: str) -> str:
        return aggregate_key(self.prefix, game_id, name)

    def new_id(self, candidates: Iterable[str]) -> str:
        """Return the first candidate id a game may take: on a cluster, one whose slot holds a due shard."""
        return self.due_keys.first_placeable(candidates)

    def append(
        self,
        game_id: str,
        events: list[RecordedEvent],
        *,
        expected_version: int,
        idempotency_key: str | None = None,
        idempotency_record: Mapping[str, Any] | None = None,
        due: DueMark = None,
    ) -> Appended:
        """Append a batch if the stream is at `expected_version`; all or nothing, with its due mark."""
        if events and events[0].seq != expected_version + 1:
            raise ValueError("a batch must start right after the expected version")
        # The canonical encoder, the one the hashes are taken with: what is stored is what was hashed.
        payloads = [stored_json(event) for event in events]
        return self._append_payloads(game_id, payloads, expected_version, idempotency_key, idempotency_record, due)

    def append_raw(self, game_id: str, events: Sequence[Mapping[str, Any]], *, expected_version: int) -> Appended:
        """Append events exactly as given (an import keeps every byte its hashes cover)."""
        payloads = [canonical_bytes(event) for event in events]
        return self._append_payloads(game_id, payloads, expected_version, None, None, None)

    def _append_payloads(
        self,
        game_id: str,
        payloads: list[bytes],
        expected_version: int,
        idempotency_key: str | None,
        idempotency_record: Mapping[str, Any] | None,
        due: DueMark,
    ) -> Appended:
        mark = "" if due is None else "-" if due == NOT_DUE else str(max(0, due))
        events_key = self._key(game_id, "events")
        keys = [events_key, self._idempotency_key(game_id, idempotency_key) if idempotency_key else events_key]
        if mark:
            keys.append(self._due_key(game_id))
        status, value = self._append(
            keys=keys,
            args=[
                expected_version,
                IDEMPOTENCY_TTL_MS if idempotency_key else "",
                json.dumps(idempotency_record or {}),
                mark,
                game_id,
                *payloads,
            ],
        )
        status, value = text(status), text(value)
        if status == "duplicate":
            prior = json.loads(value)
            return Appended(version=prior.get("version", 0), duplicate=True, prior=prior)
        if status == "conflict":
            raise VersionConflict(expected_version, int(value))
        return Appended(version=int(value))

    def read(self, game_id: str, after: int = 0, upto: int | None = None) -> list[RecordedEvent]:
        """Return the events after version `after` (up to `upto`, inclusive), in order."""
        return [RecordedEvent.from_dict(orjson.loads(payload)) for payload in self._payloads(game_id, after, upto)]

    def read_since(self, game_id: str, version: int) -> list[RecordedEvent] | None:
        """Return the events after `version` (at least 1), or None if the stream no longer holds event `version`.

        The range starts at the event the caller already has, so the same one
        `XRANGE` that catches a cache up also tells a live stream from a removed one.
        """
        entries = self._xrange(game_id, f"{version}-0", "+")
        if entries:
            if text(entries[0][0]) != f"{version}-0":
                return None
            return [RecordedEvent.from_dict(orjson.loads(fields[b"e"])) for _id, fields in entries[1:]]
        packed = self.redis.hget(self._key(game_id, "packed"), "version")
        if packed is None or int(packed) < version:
            return None
        return self.read(game_id, after=version) if int(packed) > version else []

    def wait(self, game_id: str, after: int, block_ms: int) -> list[RecordedEvent]:
        """Return the events after version `after`, blocking up to `block_ms` for the first to come (XREAD)."""
        if not 0 <= block_ms <= MAX_BLOCK_MS:
            raise ValueError(f"a wait blocks for 0 to {MAX_BLOCK_MS} ms")
        if self.redis.exists(self._key(game_id, "packed")):
            # A packed game has no stream to block on, and nothing more to come.
            return self.read(game_id, after=after)[:1000]
        reply = self.blocking.xread({self._key(game_id, "events"): f"{after}-0"}, count=1000, block=block_ms)
        entries = cast(list[tuple[Any, list[tuple[bytes, dict[bytes, bytes]]]]], reply or [])
        return [RecordedEvent.from_dict(orjson.loads(fields[b"e"])) for _key, found in entries for _id, fields in found]

    def read_raw(self, game_id: str) -> list[dict[str, Any]]:
        """Return every event exactly as stored, before any upcasting (for audits)."""
        return [orjson.loads(payload) for payload in self._payloads(game_id, 0, None)]

    def _payloads(self, game_id: str, after: int, upto: int | None) -> list[bytes]:
        """Return the stored bytes of the events after `after` (up to `upto`), from the stream or else the pack."""
        entries = self._xrange(game_id, f"({after}-0" if after else "-", f"{upto}-0" if upto is not None else "+")
        if entries:
            return [fields[b"e"] for _id, fields in entries]
        blob = self.redis.hget(self._key(game_id, "packed"), "events")
        if blob is None:
            return []
        return list(packing.unpack(blob)[after:upto])

    def _xrange(self, game_id: str, start: str, end: str) -> list[tuple[bytes, dict[bytes, bytes]]]:
        return cast(list[tuple[bytes, dict[bytes, bytes]]], self.redis.xrange(self._key(game_id, "events"), start, end))

    def version(self, game_id: str) -> int:
        """Return the game's version (0 if it has no stream)."""
        last = self.redis.xrevrange(self._key(game_id, "events"), count=1)
        if last:
            return int(text(last[0][0]).split("-")[0])
        packed = self.redis.hget(self._key(game_id, "packed"), "version")
        return int(packed) if packed is not None else 0

    def exists(self, game_id: str) -> bool:
        """Tell whether the game has a stream (or its pack)."""
        return bool(self.redis.exists(self._key(game_id, "events"), self._key(game_id, "packed")))

    def pack(self, game_id: str, version: int, seed: str, ended: str) -> str:
        """Replace a finished game's stream and seed with its pack: "packed", or "moved"/"missing" (nothing done).

        `version` is the last event's (the game's end); `ended` its time, which the archiver reads.
        """
        payloads = [fields[b"e"] for _id, fields in self._xrange(game_id, "-", f"{version}-0")]
        if len(payloads) != version:
            return "missing" if not payloads else "moved"
        keys = [self._key(game_id, name) for name in ("events", "packed", *_UNPACKED)]
        return text(self._pack(keys=keys, args=[version, seed, ended, packing.pack(seed, payloads)]))

    def aggregates(self, name: str = "events") -> Iterator[str]:
        """Yield the id of every aggregate with a key `name` (events, packed, archived), by SCAN: each at least once.

        SCAN may yield a key twice, and one created or removed meanwhile or not;
        a caller that must see every aggregate stored before it began has it.
        """
        head = f"{self.prefix}:{{"
        for key in self.redis.scan_iter(match=f"{self.prefix}:{{*}}:{name}", count=1000):
            tagged = text(key).removeprefix(head)
            yield tagged[: tagged.index("}")]

    def is_packed(self, game_id: str) -> bool:
        """Tell whether the game's stream was packed."""
        return bool(self.redis.exists(self._key(game_id, "packed")))

    def ended(self, game_ids: Sequence[str]) -> list[str | None]:
        """Return, for each game, the time of its end; "" for a game in the store still in play, None for one not in it.

        One round trip for the lot (a pipeline; on a cluster, one per node).
        """
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.hget(self._key(game_id, "packed"), "ended")
            pipe.xrevrange(self._key(game_id, "events"), count=1)
        replies = pipe.execute()
        times: list[str | None] = []
        for packed, last in zip(replies[::2], replies[1::2]):
            if packed is not None:
                times.append(text(packed))
                continue
            event = orjson.loads(last[0][1][b"e"]) if last else None
            times.append(None if event is None else event["time"] if event.get("type") == "GameEnded" else "")
        return times

    def prior_result(self, game_id: str, idempotency_key: str) -> Mapping[str, Any] | None:
        """Return the recorded result of an idempotency key's first run, if any."""
        raw = self.redis.get(self._idempotency_key(game_id, idempotency_key))
        return json.loads(raw) if raw else None

    def claim_creation(self, idempotency_key: str, record: Mapping[str, Any]) -> Mapping[str, Any]:
        """Keep the first record of an idempotent create (its game id, tokens and seed); return whichever came first."""
        key = f"{self.prefix}:create:{_digest(idempotency_key)}"
        self.redis.set(key, json.dumps(record), nx=True, px=IDEMPOTENCY_TTL_MS)
        raw = self.redis.get(key)
        return cast(Mapping[str, Any], json.loads(raw)) if raw else record

    def creation(self, idempotency_key: str) -> Mapping[str, Any] | None:
        """Return the kept record of an idempotent create, if its key was used (and has not expired)."""
        raw = self.redis.get(f"{self.prefix}:create:{_digest(idempotency_key)}")
        return cast(Mapping[str, Any], json.loads(raw)) if raw else None

    def _idempotency_key(self, game_id: str, idempotency_key: str) -> str:
        return self._key(game_id, f"idem:{_digest(idempotency_key)}")

    def save_seed(self, game_id: str, seed: str) -> None:
        """Keep a game's secret seed beside its stream."""
        self.redis.set(self._key(game_id, "seed"), seed)

    def load_seed(self, game_id: str) -> str | None:
        """Return a game's secret seed."""
        raw = self.redis.get(self._key(game_id, "seed"))
        if raw is None:
            raw = self.redis.hget(self._key(game_id, "packed"), "seed")
        return text(raw) if raw is not None else None

    def keep_signature(self, subject_id: str, record: Mapping[str, Any], *, overwrite: bool = False) -> dict[str, Any]:
        """Keep a result's signature unless one is kept already (or `overwrite`); return the one kept."""
        key = self._key(subject_id, "signature")
        self.redis.set(key, orjson.dumps(record, option=orjson.OPT_SORT_KEYS), nx=not overwrite)
        return self.signature(subject_id) or dict(record)

    def signature(self, subject_id: str) -> dict[str, Any] | None:
        """Return the signature kept of a finished game's or tournament's result, if any."""
        raw = self.redis.get(self._key(subject_id, "signature"))
        return cast(dict[str, Any], orjson.loads(raw)) if raw is not None else None

    def mark_archived(self, game_id: str, where: Mapping[str, Any], listing: Mapping[str, Any] | None = None) -> None:
        """Leave a tombstone saying where the game went (and its lobby line); written before its keys are deleted."""
        self.redis.set(self._key(game_id, "archived"), orjson.dumps({**where, "listing": listing or {}}))

    def archived(self, game_id: str) -> dict[str, Any] | None:
        """Return where the game went, if it was archived (read only once its stream is found missing)."""
        tombstone = self._tombstone(game_id)
        return {k: v for k, v in tombstone.items() if k != "listing"} if tombstone is not None else None

    def archived_listing(self, game_id: str) -> dict[str, Any] | None:
        """Return an archived game's line in the lobby, as it was when archived (None if not archived)."""
        tombstone = self._tombstone(game_id)
        return cast(dict[str, Any], tombstone.get("listing") or {}) if tombstone is not None else None

    def _tombstone(self, game_id: str) -> dict[str, Any] | None:
        raw = self.redis.get(self._key(game_id, "archived"))
        return cast(dict[str, Any], orjson.loads(raw)) if raw is not None else None

    def unmark_archived(self, game_id: str) -> None:
        """Remove the game's tombstone (its stream was imported again)."""
        self.redis.delete(self._key(game_id, "archived"))

    def delete(self, game_id: str) -> None:
        """Remove every key of a game (after it has been archived)."""
        # Idempotency records expire by themselves; `idem` and `created` are where games stored them before.
        # The signature went into the archive's file with the events.
        self.redis.delete(*(self._key(game_id, name) for name in ("events", "packed", "signature", *_UNPACKED)))
        due_key = self.due_keys.of(game_id)
        if due_key is not None:
            self.redis.zrem(due_key, game_id)

    def _due_key(self, game_id: str) -> str:
        due_key = self.due_keys.of(game_id)
        if due_key is None:
            # Only ids drawn by `new_id` are marked; an imported game is finished and never is.
            raise ValueError(f"game {game_id} has no due shard in its Cluster slot: its id was not drawn by new_id")
        return due_key


def text(value: Any) -> str:
    """Return a Redis reply as text (bytes or str, by the connection's decoding)."""
    return value.decode() if isinstance(value, bytes) else str(value)


def _digest(idempotency_key: str) -> str:
    """Return the name an idempotency key is stored under: its SHA-256, so no stored name reveals a key."""
    return hashlib.sha256(idempotency_key.encode()).hexdigest()
