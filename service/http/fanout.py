"""Live streams without a thread each: one reader a game a process, handing each batch to every watcher.

A `Feeds` lives on a server process's event loop. The first watcher of a
game starts that game's reader, one task blocked on one `XREAD BLOCK` of
the game's stream; every batch it reads goes, as it is, into each watcher's
inbox; the last watcher to leave stops it. A watcher is a coroutine, not a
thread: 5,000 of them cost their inboxes and sockets.

Nothing is lost or sent twice between a watcher's joining and the reader's
next batch: a watcher joins first and reads what it missed (`XRANGE` after its
cursor) second, so whatever the reader handed out before the join is in that
read, and whatever after it is in the inbox; its `Subscription` drops what it
has already sent. A batch that leaves a gap (which the order above rules out)
is read again from the store rather than sent.

If the store stops answering, the reader ends: each of its watchers is told,
ends its stream cleanly, and its client resumes with `Last-Event-ID`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, cast

import orjson
from redis.asyncio import Redis
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
    """One game's reader and its watchers in this process."""

    stream_id: str
    cursor: int
    inboxes: set[Inbox] = field(default_factory=set)
    rendered: Rendered = field(default_factory=lambda: Rendered(RENDERED_PER_GAME))
    reader: asyncio.Task[None] | None = None


class Feeds:
    """The live streams of one server process: a reader a watched game, shared by its watchers."""

    def __init__(self, redis: Redis, prefix: str, read_after: ReadAfter, heartbeat_s: float = HEARTBEAT_S) -> None:
        # `redis` blocks: a connection each watched game's reader holds. A watcher's catch-up
        # goes through `read_after`, the store's own read (stream or pack), off the event loop.
        self.redis = redis
        self.read_after = read_after
        self.prefix = prefix
        self.heartbeat_s = heartbeat_s
        self._feeds: dict[str, Feed] = {}

    @property
    def readers(self) -> int:
        """How many games are being read now (one blocking read each, however many watch them)."""
        return sum(1 for feed in self._feeds.values() if feed.reader is not None and not feed.reader.done())

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
        if feed is None:
            feed = self._feeds[subscription.stream_id] = Feed(subscription.stream_id, subscription.cursor)
            feed.reader = asyncio.get_running_loop().create_task(self._read(feed))
        inbox: Inbox = asyncio.Queue()
        feed.inboxes.add(inbox)
        return feed, inbox

    def _leave(self, feed: Feed, inbox: Inbox) -> None:
        feed.inboxes.discard(inbox)
        if not feed.inboxes and self._feeds.get(feed.stream_id) is feed:
            del self._feeds[feed.stream_id]
            if feed.reader is not None:
                feed.reader.cancel()

    async def _read(self, feed: Feed) -> None:
        """Read the game's stream as it grows, handing every batch to every watcher, until none is left."""
        key = self._key(feed.stream_id)
        block_ms = int(self.heartbeat_s * 1000)
        try:
            while True:
                reply = await self.redis.xread({key: f"{feed.cursor}-0"}, count=BATCH, block=block_ms)
                entries = [entry for _key, found in cast(list[Any], reply or []) for entry in found]
                batch = _events(entries)
                if batch:
                    feed.cursor = batch[-1].seq
                elif not await self.redis.exists(key):  # a quiet stream may be one whose key went
                    raise StreamGone(key)
                handed: list[RecordedEvent] | _Quiet = batch if batch else QUIET
                for inbox in feed.inboxes:
                    inbox.put_nowait(handed)
        except STORE_UNAVAILABLE as error:
            log.warning("live streams of %s ended: the store is unavailable (%s)", feed.stream_id, error)
        except (StreamGone, ResponseError) as error:
            # Redis unblocks a read whose key was deleted with an error (`UNBLOCKED`): the game was packed
            # or archived. Its watchers read what is left where it went.
            if isinstance(error, ResponseError) and not str(error).startswith("UNBLOCKED"):
                raise
            for inbox in feed.inboxes:
                inbox.put_nowait(GONE)
        finally:
            # Whatever stops the reader, the watchers it leaves end their streams (and resume), and the
            # next watcher starts a new reader. (Stopped by its last watcher leaving, it leaves none.)
            if self._feeds.get(feed.stream_id) is feed:
                del self._feeds[feed.stream_id]
            for inbox in feed.inboxes:
                inbox.put_nowait(STORE_LOST_MARK)

    def _key(self, stream_id: str) -> str:
        return aggregate_key(self.prefix, stream_id, "events")


class StreamGone(Exception):
    """The stream's key is gone."""


def _events(entries: list[Any]) -> list[RecordedEvent]:
    return [RecordedEvent.from_dict(orjson.loads(fields[b"e"])) for _id, fields in entries]
