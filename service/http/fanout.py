"""Live streams without a thread each: one subscription connection a process per shard, handed to each watcher.

Every append publishes its events as well as adding them to the game's stream:
the append script ends with `SPUBLISH <stream key> [events]` (a shard channel
named as the stream's key, so in its slot on a Redis Cluster). A `Feeds` lives
on a server process's event loop. It subscribes to the channel of every game
its watchers follow, on one connection a shard: on a single Redis one
connection, on a Redis Cluster one a master (the node serving the game's slot;
one connection may hold channels of any of its node's slots, each subscribed
by a command of its own). 10,000 streams on 10,000 games cost a process a
connection a shard, not 10,000, and each event is received once, by the
processes that watch its game, with its events in the message: nothing names
every watched game again (an `XREAD` over all of them did, and its cost grew
with games watched times events a second). Every batch goes, as it is, into
each of that game's watchers' inboxes. A watcher is a coroutine, not a thread:
5,000 of them cost their inboxes and sockets.

A game's first watcher subscribes to its channel and waits for Redis to
confirm; a game's last watcher to leave unsubscribes; a shard's last game
closes its connection.

Nothing is lost or sent twice between a watcher's joining and the next
message: a watcher joins (its game's channel subscribed) first and reads what
it missed (`XRANGE` after its cursor) second, so whatever was published before
the subscription is in that read, and whatever after it is in the inbox; its
`Subscription` drops what it has already sent. A batch that leaves a gap (a
game's first message, naming events after some the watcher's read has not
reached) is read again from the store rather than sent.

A game quiet for `heartbeat_s` gets a heartbeat mark. An idle game's key is
looked at every `GONE_CHECK_S`: a finished game may be packed (its key
deleted) before its watchers read its end, and they then read the rest where
it went. Each shard's connection is pinged as often, so a silent one is told
from a dead one. If a shard's connection fails, the streams of its games end:
each watcher is told, ends its stream cleanly, and its client resumes with
`Last-Event-ID` (on a cluster, after the slot map is read again: a promoted
replica serves its games then); the other shards' streams go on.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import orjson
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.connection import AbstractConnection
from redis.crc import key_slot
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from domain.events import RecordedEvent
from service.adapters.connections import STORE_UNAVAILABLE
from service.adapters.slots import aggregate_key
from service.http.subscriptions import HEARTBEAT, MOVED, RETRY_HINT, STORE_LOST, Rendered, Subscription

log = logging.getLogger(__name__)

HEARTBEAT_S = 15.0
# Encoded messages kept per game: a few batches' worth for each audience (spectators, each seat).
RENDERED_PER_GAME = 256
# How often at most a watched game's key is looked at, once its stream has been idle as long;
# each shard's connection is pinged as often.
GONE_CHECK_S = 2.0
# How long a shard's connection may be silent (its pings unanswered) before it is failed, when its
# client states no socket timeout.
SILENCE_S = 20.0
# What a failed subscription (or a shard's connection that failed) means to its watchers.
SUBSCRIPTION_FAILED: tuple[type[Exception], ...] = (*STORE_UNAVAILABLE, ResponseError)
AsyncStore = Redis | RedisCluster


class _StoreLost:
    """What a reader puts in its watchers' inboxes when the store stopped answering."""


class _Quiet:
    """What a reader puts in its watchers' inboxes when its game was quiet for a heartbeat."""


class _Gone:
    """What a reader puts in its watchers' inboxes when the stream's key went (a finished game packed, an archive)."""


STORE_LOST_MARK, QUIET, GONE = _StoreLost(), _Quiet(), _Gone()
Inbox = asyncio.Queue[list[RecordedEvent] | _StoreLost | _Quiet | _Gone]
# Reads the events after a version through the store's own reading (which knows where a finished game went).
ReadAfter = Callable[[str, int], Awaitable[list[RecordedEvent]]]


@dataclass(eq=False)
class Feed:
    """One watched game in this process: the last event handed out, its shard's connection, and its watchers."""

    stream_id: str
    key: bytes
    cursor: int
    # When its watchers were last handed something (a batch or a heartbeat), on the loop's clock.
    handed_at: float
    inboxes: set[Inbox] = field(default_factory=set)
    rendered: Rendered = field(default_factory=lambda: Rendered(RENDERED_PER_GAME))
    # Its channel's subscription: done once Redis confirmed it (or failed).
    ready: asyncio.Task[None] | None = None
    shard: _Shard | None = None

    def hand(self, item: list[RecordedEvent] | _StoreLost | _Quiet | _Gone, now: float) -> None:
        """Put `item` in every watcher's inbox."""
        self.handed_at = now
        for inbox in self.inboxes:
            inbox.put_nowait(item)


class Feeds:
    """The live streams of one server process: a feed a watched game, shared by its watchers."""

    def __init__(self, redis: AsyncStore, prefix: str, read_after: ReadAfter, heartbeat_s: float = HEARTBEAT_S) -> None:
        # `redis`: a shard's subscription connection is its own (on a single Redis, from its pool);
        # the commands beside them (a quiet game's key) go through it. A watcher's catch-up goes
        # through `read_after`, the store's own read (stream or pack), off the loop.
        self.redis = redis
        self.read_after = read_after
        self.prefix = prefix
        self.heartbeat_s = heartbeat_s
        self._feeds: dict[str, Feed] = {}
        self._by_key: dict[bytes, Feed] = {}
        self._shards: dict[str, _Shard] = {}
        self._ticker: asyncio.Task[None] | None = None
        # A shard's connection failed, or Redis moved a channel: on a cluster, the slot map is read again.
        self._stale_slots = False

    @property
    def readers(self) -> int:
        """How many games are being read now (however many watch them)."""
        return len(self._feeds)

    @property
    def connections(self) -> int:
        """How many subscription connections this process holds now: one a shard with a watched game."""
        return sum(1 for shard in self._shards.values() if shard.open)

    def watchers(self, stream_id: str) -> int:
        """How many watchers of `stream_id` this process serves now."""
        feed = self._feeds.get(stream_id)
        return len(feed.inboxes) if feed else 0

    async def follow(self, subscription: Subscription) -> AsyncIterator[bytes]:
        """Yield one watcher's stream: what it missed, then each batch as it is read, until the end or an outage."""
        yield RETRY_HINT
        feed, inbox = self._join(subscription)
        try:
            try:
                assert feed.ready is not None
                await asyncio.shield(feed.ready)
            except SUBSCRIPTION_FAILED as error:
                log.warning("live stream of %s ended: its subscription failed (%s)", subscription.stream_id, error)
                self._forget_slots()  # on a cluster, MOVED: the slot's master is another node now
                yield STORE_LOST
                return
            pending: list[RecordedEvent] | _StoreLost | _Quiet | _Gone = await self._missed(subscription)
            while True:
                if isinstance(pending, _Gone):
                    # Read where the store keeps it now; what it ends with ends the stream, else the client resumes.
                    pending = await self._missed(subscription)
                    if isinstance(pending, list):
                        messages = subscription.messages(pending, feed.rendered)
                        if messages:
                            yield b"".join(messages)
                    if not subscription.ended:
                        yield STORE_LOST if isinstance(pending, _StoreLost) else MOVED
                    return
                if isinstance(pending, _StoreLost):
                    yield STORE_LOST
                    return
                if isinstance(pending, _Quiet):
                    yield HEARTBEAT
                elif not subscription.follows_on(pending):
                    pending = await self._missed(subscription)
                    continue
                else:
                    messages = subscription.messages(pending, feed.rendered)
                    if messages:
                        yield b"".join(messages)
                    if subscription.ended:
                        return
                # The feed's ticker times the heartbeats: no timer a watcher.
                pending = await inbox.get()
                # A watcher that fell behind takes every batch waiting for it at once: one write, not many.
                while not inbox.empty() and isinstance(pending, list):
                    more = inbox.get_nowait()
                    if isinstance(more, list):
                        pending = pending + more
                    elif isinstance(more, (_StoreLost, _Gone)):
                        pending = more  # the stream ends; its client resumes after what it had
        finally:
            self._leave(feed, inbox)

    async def _missed(self, subscription: Subscription) -> list[RecordedEvent] | _StoreLost:
        """Read from the store what the watcher has not had yet."""
        try:
            return await self.read_after(subscription.stream_id, subscription.cursor)
        except STORE_UNAVAILABLE as error:
            log.warning("live stream of %s ended: the store is unavailable (%s)", subscription.stream_id, error)
            return STORE_LOST_MARK

    def _join(self, subscription: Subscription) -> tuple[Feed, Inbox]:
        """Add a watcher (its inbox first: nothing handed from the subscription on is missed) to its game's feed."""
        feed = self._feeds.get(subscription.stream_id)
        loop = asyncio.get_running_loop()
        if feed is None:
            key = aggregate_key(self.prefix, subscription.stream_id, "events").encode()
            feed = Feed(subscription.stream_id, key, subscription.cursor, loop.time())
            self._feeds[feed.stream_id] = self._by_key[key] = feed
            feed.ready = loop.create_task(self._subscribe(feed))
            feed.ready.add_done_callback(_retrieve)
            if self._ticker is None or self._ticker.done():
                self._ticker = loop.create_task(self._tick())
                self._ticker.add_done_callback(_log_failure)
        inbox: Inbox = asyncio.Queue()
        feed.inboxes.add(inbox)
        return feed, inbox

    def _leave(self, feed: Feed, inbox: Inbox) -> None:
        feed.inboxes.discard(inbox)
        if not feed.inboxes and self._feeds.get(feed.stream_id) is feed:
            self._drop(feed)

    def _drop(self, feed: Feed) -> None:
        """Forget a feed: its channel is unsubscribed, and a shard left without games closes its connection."""
        del self._feeds[feed.stream_id]
        if self._by_key.get(feed.key) is feed:
            del self._by_key[feed.key]
        shard, feed.shard = feed.shard, None
        if shard is None:
            return
        shard.feeds.discard(feed)
        if not shard.feeds:
            if self._shards.get(shard.name) is shard:
                del self._shards[shard.name]
            shard.close()
        elif feed.ready is not None and feed.ready.done() and not feed.ready.exception():
            shard.unsubscribe(feed.key)

    async def _subscribe(self, feed: Feed) -> None:
        """Subscribe to a new feed's channel on its shard's connection (opened if it is the shard's first game)."""
        shard = await self._shard_of(feed.key)
        if self._feeds.get(feed.stream_id) is not feed:
            return  # every watcher left meanwhile
        feed.shard = shard
        shard.feeds.add(feed)
        await shard.subscribe(feed.key)
        if self._feeds.get(feed.stream_id) is not feed and feed.key not in self._by_key:
            shard.unsubscribe(feed.key)  # every watcher left while Redis confirmed it, and none came since

    async def _shard_of(self, key: bytes) -> _Shard:
        """Return the shard serving `key`'s slot (on a single Redis, the one shard), making it if it is new."""
        if isinstance(self.redis, RedisCluster):
            if not self.redis.nodes_manager.slots_cache:
                await self.redis.initialize()
            elif self._stale_slots:
                self._stale_slots = False
                await self.redis.nodes_manager.initialize()
            node = self.redis.nodes_manager.get_node_from_slot(key_slot(key))
            name = node.name

            async def connect() -> AbstractConnection:
                # A connection of the node's own settings (credentials, TLS, timeouts), not from its pool.
                connection: AbstractConnection = node.connection_class(**node.connection_kwargs)
                await connection.connect()
                return connection

            async def release(connection: AbstractConnection) -> None:
                await connection.disconnect()

        else:
            name, pool = "store", self.redis.connection_pool

            async def connect() -> AbstractConnection:
                connection: AbstractConnection = await pool.get_connection()
                return connection

            async def release(connection: AbstractConnection) -> None:
                await connection.disconnect()  # it is subscribed, or mid-answer
                await pool.release(connection)

        shard = self._shards.get(name)
        if shard is None or shard.failed:
            shard = self._shards[name] = _Shard(name, connect, release, self._batch, self._lost, self._dropped)
        return shard

    def _batch(self, channel: bytes, payload: bytes) -> None:
        """Hand a published batch to its game's watchers, unless they have had it already."""
        feed = self._by_key.get(channel)
        if feed is None:
            return  # a game left between its last message and its unsubscription
        batch = [RecordedEvent.from_dict(event) for event in orjson.loads(payload)]
        if batch and batch[-1].seq > feed.cursor:
            feed.cursor = batch[-1].seq
            feed.hand(batch, asyncio.get_running_loop().time())

    def _lost(self, shard: _Shard, error: BaseException) -> None:
        """End the streams of a shard whose connection failed (their clients resume); the others go on."""
        if self._shards.get(shard.name) is shard:
            del self._shards[shard.name]
        lost = [feed for feed in self._feeds.values() if feed.shard is shard]
        if lost:
            log.warning("live streams of %d games ended: the store is unavailable (%s)", len(lost), error)
        now = asyncio.get_running_loop().time()
        for feed in lost:
            feed.shard = None
            self._drop(feed)
            feed.hand(STORE_LOST_MARK, now)
        self._forget_slots()  # a replica may serve these slots now

    def _forget_slots(self) -> None:
        """On a cluster, have the next game's subscription read the slot map again."""
        self._stale_slots = True

    def _dropped(self, channel: bytes) -> None:
        """End the streams of a game whose channel Redis dropped (its slot moved): they resume where it went."""
        feed = self._by_key.get(channel)
        if feed is None:
            return
        log.warning("live streams of %s ended: its slot moved to another node", feed.stream_id)
        self._drop(feed)
        feed.hand(STORE_LOST_MARK, asyncio.get_running_loop().time())
        self._forget_slots()

    async def _tick(self) -> None:
        """While any game is watched: ping each shard, give quiet games a heartbeat, notice keys that went."""
        loop = asyncio.get_running_loop()
        # A quarter of the heartbeat: a quiet game's heartbeat comes after 1 to 1.25 of it. A game
        # finished and packed leaves its stream's key gone: its idle feeds' keys are looked at this often.
        check_s = min(self.heartbeat_s / 4, GONE_CHECK_S)
        while self._feeds:
            await asyncio.sleep(check_s)
            for shard in list(self._shards.values()):
                shard.ping()
            now = loop.time()
            idle = [
                feed
                for feed in self._feeds.values()
                if now - feed.handed_at >= check_s and feed.ready is not None and feed.ready.done()
            ]
            if idle:
                try:
                    await self._hand_gone(idle, now)
                except STORE_UNAVAILABLE:
                    pass  # each shard's connection tells its own watchers

    async def _hand_gone(self, feeds: list[Feed], now: float) -> None:
        """Hand GONE to the watchers of each of `feeds` whose key went (and drop it); a heartbeat to those quiet long."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for feed in feeds:
                pipe.exists(feed.key)
            found = await pipe.execute()
        for feed, exists in zip(feeds, found, strict=True):
            if not exists:
                # Its watchers read what is left where it went.
                if self._feeds.get(feed.stream_id) is feed:
                    self._drop(feed)
                feed.hand(GONE, now)
            elif now - feed.handed_at >= self.heartbeat_s:
                feed.hand(QUIET, now)


class _Shard:
    """One connection subscribed to the channels of the watched games of one shard, and what it reads.

    Commands go out in order, and Redis confirms each (un)subscription in that
    order: `_asked` pairs each confirmation with the command, and a
    subscription's waiter learns it is in place (or failed: an error answers
    the oldest command unconfirmed).
    """

    def __init__(
        self,
        name: str,
        connect: Callable[[], Awaitable[AbstractConnection]],
        release: Callable[[AbstractConnection], Awaitable[None]],
        on_batch: Callable[[bytes, bytes], None],
        on_lost: Callable[[_Shard, BaseException], None],
        on_dropped: Callable[[bytes], None],
    ) -> None:
        self.name, self.connect, self.release = name, connect, release
        self.on_batch, self.on_lost, self.on_dropped = on_batch, on_lost, on_dropped
        self.feeds: set[Feed] = set()
        self.connection: AbstractConnection | None = None
        self.failed = False
        self._asked: deque[tuple[bytes, bytes, asyncio.Future[None] | None]] = deque()
        self._opening: asyncio.Task[None] | None = None
        self._reader: asyncio.Task[None] | None = None
        self._sends: asyncio.Lock = asyncio.Lock()
        # When the connection last answered (on the loop's clock), and how long a silence fails it: its
        # socket's timeout. The pings keep a live one answering; no timer a message is armed for it.
        self.heard_at = 0.0
        self.silence_s = SILENCE_S

    @property
    def open(self) -> bool:
        """Whether its connection is open and read."""
        return self._reader is not None and not self._reader.done()

    async def subscribe(self, channel: bytes) -> None:
        """Subscribe to `channel`; return once Redis confirmed it (raise what it answered instead)."""
        if self._opening is None:
            self._opening = asyncio.get_running_loop().create_task(self._open())
        await asyncio.shield(self._opening)
        confirmed = asyncio.get_running_loop().create_future()
        await self._send(b"ssubscribe", channel, confirmed)
        await confirmed

    def unsubscribe(self, channel: bytes) -> None:
        """Unsubscribe from `channel` (in order with the rest; nothing waits for it)."""
        if self.open:
            asyncio.get_running_loop().create_task(self._send(b"sunsubscribe", channel, None)).add_done_callback(
                _retrieve
            )

    def ping(self) -> None:
        """Ping the connection: its answer keeps it within its socket's timeout; one silent that long fails."""
        if not self.open:
            return
        loop = asyncio.get_running_loop()
        if loop.time() - self.heard_at > self.silence_s:
            reader = self._reader
            self._end(RedisTimeoutError(f"the shard's connection was silent for {self.silence_s:g} s"))
            if reader is not None:
                reader.cancel()
            return
        loop.create_task(self._send(b"ping", b"", None)).add_done_callback(_retrieve)

    def close(self) -> None:
        """Close the connection (its subscriptions go with it); what waited on it fails."""
        self.failed = True
        if self._reader is not None:
            self._reader.cancel()
        self._fail_asked(RedisConnectionError("the shard's subscriptions were closed"))
        connection, self.connection = self.connection, None
        if connection is not None:
            asyncio.get_running_loop().create_task(self._give_back(connection)).add_done_callback(_retrieve)

    async def _open(self) -> None:
        self.connection = await self.connect()
        self.heard_at = asyncio.get_running_loop().time()
        self.silence_s = getattr(self.connection, "socket_timeout", None) or SILENCE_S
        # redis-py's own handler of a pushed message formats the whole message for a debug log line, kept or not:
        # the batches' messages are taken as they are.
        setter = getattr(getattr(self.connection, "_parser", None), "set_pubsub_push_handler", None)
        if setter is not None:
            setter(_as_pushed)
        self._reader = asyncio.get_running_loop().create_task(self._read())
        self._reader.add_done_callback(_log_failure)

    async def _send(self, kind: bytes, channel: bytes, confirmed: asyncio.Future[None] | None) -> None:
        async with self._sends:  # the commands' order is the confirmations'
            connection = self.connection
            if connection is None or self.failed:
                raise RedisConnectionError("the shard's subscriptions were closed")
            self._asked.append((kind, channel, confirmed))
            command = connection.pack_command(kind.upper(), channel) if channel else connection.pack_command("PING")
            await connection.send_packed_command(command, check_health=False)

    async def _read(self) -> None:
        connection = self.connection
        assert connection is not None
        loop = asyncio.get_running_loop()
        try:
            while True:
                try:
                    # RESP3 (redis-py's default) pushes the messages and confirmations: take them here. No
                    # timeout a read (a timer each message): `ping` fails a connection silent too long.
                    reply = await connection.read_response(timeout=math.inf, push_request=True)
                except ResponseError as error:  # the oldest command unconfirmed was refused (on a cluster, MOVED)
                    self.heard_at = loop.time()
                    self._confirm(None, None, error)
                    continue
                self.heard_at = loop.time()
                if not isinstance(reply, list):
                    self._confirm(b"ping", b"", None)  # RESP3's PONG (RESP2's is a list: `pong` and nothing)
                    continue
                kind = bytes(reply[0]).lower()
                if kind == b"smessage":
                    self.on_batch(reply[1], reply[2])
                else:
                    self._confirm(kind, reply[1], None)
        except asyncio.CancelledError:
            raise
        except Exception as error:  # noqa: BLE001 — whatever ended the read, its watchers are told and resume
            self._end(error)

    def _end(self, error: BaseException) -> None:
        """Fail the shard: what waited on it fails, its watchers are told (and resume), its connection goes."""
        self.failed = True
        self._fail_asked(error)
        self.on_lost(self, error)
        connection, self.connection = self.connection, None
        if connection is not None:
            asyncio.get_running_loop().create_task(self._give_back(connection)).add_done_callback(_retrieve)

    def _confirm(self, kind: bytes | None, channel: bytes | None, error: ResponseError | None) -> None:
        """Pair an answer with the oldest command unconfirmed; an unasked `sunsubscribe` (a slot moved) fails its game."""
        asked = (b"ping" if kind == b"pong" else kind, channel or b"")
        if self._asked and (error is not None or (self._asked[0][0], self._asked[0][1]) == asked):
            _, _, confirmed = self._asked.popleft()
            if confirmed is not None and not confirmed.done():
                if error is None:
                    confirmed.set_result(None)
                else:
                    confirmed.set_exception(error)
            return
        if kind == b"sunsubscribe" and channel is not None:
            # Redis dropped it: its slot moved to another node. Its watchers resume, and subscribe there.
            self.on_dropped(channel)

    def _fail_asked(self, error: BaseException) -> None:
        while self._asked:
            _, _, confirmed = self._asked.popleft()
            if confirmed is not None and not confirmed.done():
                # As the store's outage, whatever it was: its watchers end their streams and resume.
                confirmed.set_exception(RedisConnectionError(str(error)))

    async def _give_back(self, connection: AbstractConnection) -> None:
        """Close the connection (it is subscribed, or mid-answer) and let it go."""
        await self.release(connection)


async def _as_pushed(response: Any) -> Any:
    return response


def _retrieve(task: asyncio.Future[Any]) -> None:
    """Take a background task's failure (each of its waiters has it too) so that asyncio does not log it."""
    if not task.cancelled():
        task.exception()


def _log_failure(task: asyncio.Task[None]) -> None:
    """Log what ended a task of the fan-out, if it failed (its watchers have been told to resume)."""
    if not task.cancelled() and task.exception() is not None:
        log.error("live streams: the fan-out's reading failed", exc_info=task.exception())
