"""Live streams without a thread each: one blocking read a process, over every watched game, handed to each watcher.

A `Feeds` lives on a server process's event loop. It reads every game its
watchers follow with one `XREAD BLOCK` over all their streams, on one
connection (a second one wakes it, below): 10,000 streams on 10,000 games
cost a process two Redis connections, not 10,000. Every batch a game's
stream yields goes, as it is, into each of that game's watchers' inboxes.
A watcher is a coroutine, not a thread: 5,000 of them cost their inboxes
and sockets.

A game's first watcher adds its stream to the read: if the read is blocked
at that moment, `CLIENT UNBLOCK` (from the second connection) ends it at
once, as a timeout would, and the next read includes the new stream. A
game's last watcher to leave drops it from the next read; the last of all
ends the reading.

Nothing is lost or sent twice between a watcher's joining and the reader's
next batch: a watcher joins first and reads what it missed (`XRANGE` after its
cursor) second, so whatever the reader handed out before the join is in that
read, and whatever after it is in the inbox; its `Subscription` drops what it
has already sent. A batch that leaves a gap (which the order above rules out)
is read again from the store rather than sent.

A game quiet for `heartbeat_s` gets a heartbeat mark. An idle game's key is
looked at every `GONE_CHECK_S`: a finished game may be packed (its key
deleted) before the read reached its end, and its watchers then read the rest
where it went. If the store
stops answering (twice: the first failure may be a restart, answered on a new
connection), the reading ends: each watcher is told, ends its stream cleanly,
and its client resumes with `Last-Event-ID`.

One Redis only: a Redis Cluster refuses one read over keys of several slots
(CROSSSLOT), and `menagerie serve` streams there with a thread a stream
(service/cli/server.py).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, cast

import orjson
from redis.asyncio import Redis
from redis.asyncio.connection import AbstractConnection
from redis.exceptions import ResponseError

from domain.events import RecordedEvent
from service.adapters.connections import STORE_UNAVAILABLE
from service.adapters.slots import aggregate_key
from service.http.subscriptions import HEARTBEAT, MOVED, RETRY_HINT, STORE_LOST, Rendered, Subscription

log = logging.getLogger(__name__)

HEARTBEAT_S = 15.0
# What one blocking read takes at most; a longer backlog comes in several.
BATCH = 1000
# Encoded messages kept per game: a few batches' worth for each audience (spectators, each seat).
RENDERED_PER_GAME = 256
# How often at most a watched game's key is looked at, once its stream has been idle as long.
GONE_CHECK_S = 2.0
# How often, and how long apart, a new game's watcher tries to wake a read not yet blocked in Redis.
WAKE_TRIES, WAKE_RETRY_S = 200, 0.005


class _StoreLost:
    """What a reader puts in its watchers' inboxes when the store stopped answering."""


class _Quiet:
    """What a reader puts in its watchers' inboxes when a block found nothing new: time for a heartbeat."""


class _Gone:
    """What a reader puts in its watchers' inboxes when the stream's key went (a finished game packed, an archive)."""


STORE_LOST_MARK, QUIET, GONE = _StoreLost(), _Quiet(), _Gone()
Inbox = asyncio.Queue[list[RecordedEvent] | _StoreLost | _Quiet | _Gone]
# Reads the events after a version through the store's own reading (which knows where a finished game went).
ReadAfter = Callable[[str, int], Awaitable[list[RecordedEvent]]]


@dataclass
class Feed:
    """One watched game in this process: where the read is in its stream, and its watchers."""

    stream_id: str
    key: bytes
    cursor: int
    # When its watchers were last handed something (a batch or a heartbeat), on the loop's clock.
    handed_at: float
    inboxes: set[Inbox] = field(default_factory=set)
    rendered: Rendered = field(default_factory=lambda: Rendered(RENDERED_PER_GAME))
    # Its key and its cursor as arguments of the read, encoded once each (a read names every game).
    key_argument: bytes = b""
    cursor_argument: bytes = b""

    def __post_init__(self) -> None:
        self.key_argument = _argument(self.key)
        self.move_to(self.cursor)

    def move_to(self, cursor: int) -> None:
        """Set where the next read of its stream starts."""
        self.cursor = cursor
        self.cursor_argument = _argument(b"%d-0" % cursor)

    def hand(self, item: list[RecordedEvent] | _StoreLost | _Quiet | _Gone, now: float) -> None:
        """Put `item` in every watcher's inbox."""
        self.handed_at = now
        for inbox in self.inboxes:
            inbox.put_nowait(item)


class Feeds:
    """The live streams of one server process: a reader a watched game, shared by its watchers."""

    def __init__(self, redis: Redis, prefix: str, read_after: ReadAfter, heartbeat_s: float = HEARTBEAT_S) -> None:
        # `redis`: its pool lends the one connection the read blocks on, for as long as any game is
        # watched, and another for the commands beside it (waking the read, a quiet game's key).
        # A watcher's catch-up goes through `read_after`, the store's own read (stream or pack), off the loop.
        self.redis = redis
        self.read_after = read_after
        self.prefix = prefix
        self.heartbeat_s = heartbeat_s
        self._feeds: dict[str, Feed] = {}
        self._by_key: dict[bytes, Feed] = {}
        self._reader: asyncio.Task[None] | None = None
        # The connection the reading blocks on (its id is for CLIENT UNBLOCK) and whether a read is blocked now.
        self._blocker: _Blocker | None = None
        self._blocked = False
        # Streams added since the read under way began: it must be woken to include them.
        self._unread: set[bytes] = set()
        self._waker: asyncio.Task[None] | None = None

    @property
    def readers(self) -> int:
        """How many games are being read now (however many watch them)."""
        return len(self._feeds)

    @property
    def connections(self) -> int:
        """How many connections this process's reading blocks on now: one while any game is watched, else none."""
        return int(self._reader is not None and not self._reader.done())

    def watchers(self, stream_id: str) -> int:
        """How many watchers of `stream_id` this process serves now."""
        feed = self._feeds.get(stream_id)
        return len(feed.inboxes) if feed else 0

    async def follow(self, subscription: Subscription) -> AsyncIterator[bytes]:
        """Yield one watcher's stream: what it missed, then each batch as it is read, until the end or an outage."""
        yield RETRY_HINT
        feed, inbox = self._join(subscription)
        try:
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
                # The reader's own block times the heartbeats: no timer a watcher.
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
        feed = self._feeds.get(subscription.stream_id)
        loop = asyncio.get_running_loop()
        if feed is None:
            key = aggregate_key(self.prefix, subscription.stream_id, "events").encode()
            feed = Feed(subscription.stream_id, key, subscription.cursor, loop.time())
            self._feeds[feed.stream_id] = self._by_key[key] = feed
            self._unread.add(key)
            if self._reader is None or self._reader.done():
                self._reader = loop.create_task(self._read())
                self._reader.add_done_callback(_log_failure)
            elif self._blocked and (self._waker is None or self._waker.done()):
                self._waker = loop.create_task(self._wake())
        inbox: Inbox = asyncio.Queue()
        feed.inboxes.add(inbox)
        return feed, inbox

    def _leave(self, feed: Feed, inbox: Inbox) -> None:
        feed.inboxes.discard(inbox)
        if not feed.inboxes and self._feeds.get(feed.stream_id) is feed:
            self._drop(feed)  # the next read leaves its stream out; the reading ends with the last game

    def _drop(self, feed: Feed) -> None:
        del self._feeds[feed.stream_id]
        if self._by_key.get(feed.key) is feed:
            del self._by_key[feed.key]
        self._unread.add(feed.key)  # the next read names the games left (no need to wake this one)

    async def _read(self) -> None:
        """Read every watched game's stream as it grows, handing each batch to its watchers, while any is watched."""
        loop = asyncio.get_running_loop()
        # A quarter of the heartbeat: a quiet game's heartbeat comes after 1 to 1.25 of it.
        tick_s = self.heartbeat_s / 4
        # A game finished and packed between two reads leaves its stream's key gone, unread to its end:
        # its idle feeds' keys are looked at this often, and their watchers read on where it went.
        check_s = min(tick_s, GONE_CHECK_S)
        read = _Read(tick_s)
        blocker = _Blocker(self.redis)  # one connection, held while the reading lasts
        failed, checked_at = False, loop.time()
        try:
            while self._feeds:
                try:
                    reply = await self._read_once(blocker, read)
                except STORE_UNAVAILABLE:
                    if failed:
                        raise
                    failed = True  # a restart, perhaps: once more, on a new connection
                    await blocker.reset()
                    continue
                except ResponseError as error:
                    # Redis ends a read with `UNBLOCKED` when one of its keys is deleted: a game packed or archived.
                    if not str(error).startswith("UNBLOCKED"):
                        raise
                    await self._hand_gone(list(self._feeds.values()), loop.time())
                    continue
                failed = False
                now = loop.time()
                for key, entries in _replies(reply):
                    feed = self._by_key.get(key)
                    batch = _events(entries)
                    if feed is not None and batch and batch[-1].seq > feed.cursor:
                        feed.move_to(batch[-1].seq)
                        feed.hand(batch, now)
                if now - checked_at >= check_s:  # not every read: a read may come a few milliseconds apart
                    checked_at = now
                    idle = [feed for feed in self._feeds.values() if now - feed.handed_at >= check_s]
                    if idle:
                        await self._hand_gone(idle, now)
        except STORE_UNAVAILABLE as error:
            log.warning("live streams of %d games ended: the store is unavailable (%s)", len(self._feeds), error)
        finally:
            # Whatever stops the reading, the watchers it leaves end their streams (and resume),
            # and the next watcher starts it again. (Ended by the last watcher leaving, it leaves none.)
            self._blocker, self._blocked = None, False
            if self._reader is asyncio.current_task():
                self._reader = None  # a watcher joining from here on starts the reading again
            for feed in list(self._feeds.values()):
                self._drop(feed)
                feed.hand(STORE_LOST_MARK, loop.time())
            await blocker.close()

    async def _read_once(self, blocker: _Blocker, read: _Read) -> Any:
        """Block until any watched stream grows past its cursor, or the tick passes, or a new game wakes it."""
        await blocker.open()
        self._blocker = blocker
        if self._unread:
            read.name(list(self._feeds.values()))
            self._unread.clear()
        self._blocked = True
        try:
            return await blocker.read(read.command(blocker.socket_timeout))
        finally:
            self._blocked = False

    async def _wake(self) -> None:
        """End the blocked read so that the next one includes the streams added since it began."""
        # The read may be on its way to Redis still: then the unblock finds nothing, and is tried again.
        for _ in range(WAKE_TRIES):
            blocker = self._blocker
            if not (self._blocked and self._unread) or blocker is None or blocker.id is None:
                return
            try:
                if await self.redis.client_unblock(blocker.id):
                    return
            except STORE_UNAVAILABLE:
                return  # the reading meets the outage itself
            await asyncio.sleep(WAKE_RETRY_S)

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


class _Read:
    """The read of every watched game, encoded as Redis takes it (RESP), its games' part rebuilt only when they change.

    redis-py would encode every argument of every read again: over 500 games, about 1.2 ms a read
    on the event loop, and a read follows nearly every event. Here a game's key is encoded once,
    and its cursor when it moves.
    """

    def __init__(self, block_s: float) -> None:
        self.block_s = block_s
        self._feeds: list[Feed] = []
        self._keys = b""

    def name(self, feeds: list[Feed]) -> None:
        """Read `feeds` from now on."""
        self._feeds = feeds
        self._keys = b"".join([feed.key_argument for feed in feeds])

    def command(self, socket_timeout: float | None) -> bytes:
        """Return the read, each game from its cursor now, blocking well within the socket's timeout."""
        # A block that outlasted its socket's timeout (redis-py's default is 5 s) would read as an outage.
        block_s = min(self.block_s, socket_timeout / 2) if socket_timeout else self.block_s
        head = (b"XREAD", b"COUNT", b"%d" % BATCH, b"BLOCK", b"%d" % max(1, int(block_s * 1000)), b"STREAMS")
        count = b"*%d\r\n" % (len(head) + 2 * len(self._feeds))
        cursors = b"".join([feed.cursor_argument for feed in self._feeds])
        return b"".join([count, *map(_argument, head), self._keys, cursors])


class _Blocker:
    """The one connection the reading blocks on, taken from the pool for as long as the reading lasts."""

    def __init__(self, redis: Redis) -> None:
        self.pool = redis.connection_pool
        self.connection: AbstractConnection | None = None
        self.id: int | None = None

    async def open(self) -> None:
        """Take the connection (again, after a failure) and learn its id."""
        if self.connection is None:
            self.connection = await self.pool.get_connection()
        if self.id is None:
            await self.connection.send_command("CLIENT", "ID")
            self.id = int(await self.connection.read_response())

    @property
    def socket_timeout(self) -> float | None:
        """The connection's socket timeout: how long a read may go unanswered before it fails."""
        return self.connection.socket_timeout if self.connection is not None else None

    async def read(self, command: bytes) -> Any:
        """Send one encoded command and return its answer."""
        assert self.connection is not None
        await self.connection.send_packed_command(command, check_health=False)
        return await self.connection.read_response()

    async def reset(self) -> None:
        """Drop the connection: the next `open` makes a new one."""
        self.id = None
        if self.connection is not None:
            await self.connection.disconnect()

    async def close(self) -> None:
        """Give the connection back, closed (a cancelled read leaves it mid-answer)."""
        self.id = None
        if self.connection is not None:
            connection, self.connection = self.connection, None
            await connection.disconnect()
            await self.pool.release(connection)


def _log_failure(reader: asyncio.Task[None]) -> None:
    """Log what ended the reading, if it failed (its watchers have been told to resume)."""
    if not reader.cancelled() and reader.exception() is not None:
        log.error("live streams ended: the fan-out's read failed", exc_info=reader.exception())


def _argument(value: bytes) -> bytes:
    return b"$%d\r\n%s\r\n" % (len(value), value)


def _replies(reply: Any) -> list[tuple[bytes, list[Any]]]:
    """Return an XREAD reply's streams, each with its entries: a map in RESP3, pairs in RESP2."""
    if isinstance(reply, dict):
        return list(reply.items())
    return [(key, entries) for key, entries in cast(list[Any], reply or [])]


def _events(entries: list[Any]) -> list[RecordedEvent]:
    """Return the events of a read's raw entries (each an id and its fields, flat: name, value, ...)."""
    return [RecordedEvent.from_dict(orjson.loads(dict(zip(f[::2], f[1::2], strict=True))[b"e"])) for _id, f in entries]
