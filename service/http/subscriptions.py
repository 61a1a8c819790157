"""One watcher's live stream: which events it has had, how each is shown to it, and its view after each batch.

A `Subscription` is what `GET /games/{id}/stream` (or a tournament's) decided
once, at the request: the stream, where the watcher resumes, how an event is
redacted for it, and, when it asked for views, the game at the version it was
read. Both ways of serving a stream (a thread reading for its own watcher,
or the fan-out reading once for every watcher of a game) hand it batches of
events; it keeps the watcher's cursor, so an event already sent is never sent
again and a batch that does not follow on from the cursor is told apart.

Watchers of one game who may see the same (the spectators; each seat) share
an `audience`, and so may share the encoded messages: the fan-out keeps them
per game, so a move is redacted and encoded once per audience, not per watcher.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from functools import partial
from typing import Any

import orjson

from domain.events import RecordedEvent
from domain.game import Game, replay
from projections.game import game_view
from service.adapters.cache import Bounded
from service.http.json import encode

RETRY_HINT = b"retry: 2000\n\n"
HEARTBEAT = b": heartbeat\n\n"
# Sent before a stream is ended because the store stopped answering: the client resumes with Last-Event-ID.
STORE_LOST = b": the event store is unavailable; reconnect with Last-Event-ID\n\n"
# Sent before a stream is ended because its events moved (a finished game packed or archived) before its end came.
MOVED = b": the stream moved; reconnect with Last-Event-ID\n\n"

Rendered = Bounded[tuple[Hashable, ...], bytes]


class Subscription:
    """One watcher's place in one stream, and how its messages are made."""

    def __init__(
        self,
        stream_id: str,
        after: int,
        last_type: str,
        audience: Hashable,
        shown: Callable[[RecordedEvent], dict[str, Any]],
        game: Game | None = None,
        seat: int | None = None,
        handles: Callable[[Game], Mapping[str, str]] = lambda game: {},
    ) -> None:
        self.stream_id = stream_id
        self.cursor = after
        self.last_type = last_type
        self.audience = audience
        self.shown = shown
        # Views are sent only when asked for: the game as read at the request, folded on as events come.
        self.game = game
        self.seat = seat
        self.handles = handles  # of the accounts at a game's seats, for its views (the chain holds their ids)
        self.ended = False
        self._viewed_at = -1

    def follows_on(self, batch: Sequence[RecordedEvent]) -> bool:
        """Tell whether `batch` leaves no gap after the cursor (what it repeats is dropped, not a gap)."""
        fresh = [event for event in batch if event.seq > self.cursor]
        return not fresh or fresh[0].seq == self.cursor + 1

    def messages(self, batch: Sequence[RecordedEvent], rendered: Rendered | None = None) -> list[bytes]:
        """Return the SSE messages of the batch's events not yet sent, then the view after them (if asked for).

        `rendered`: encoded messages shared by watchers of this stream; each is keyed
        by its audience, so no watcher is ever handed another audience's message.
        """
        out = []
        for event in batch:
            if self.ended or event.seq <= self.cursor:
                continue
            out.append(self._shared(("event", event.seq, self.audience), rendered, partial(self._event, event)))
            self.cursor = event.seq
            self.ended = event.type == self.last_type
        view = self._view(batch, rendered)
        if view is not None:
            out.append(view)
        return out

    def _event(self, event: RecordedEvent) -> bytes:
        return b"id: %d\nevent: %s\ndata: %s\n\n" % (event.seq, event.type.encode(), orjson.dumps(self.shown(event)))

    def _view(self, batch: Sequence[RecordedEvent], rendered: Rendered | None) -> bytes | None:
        """Return the view message at the cursor, once per version, when the game read for views has reached it."""
        if self.game is None:
            return None
        beyond = [event for event in batch if self.game.version < event.seq <= self.cursor]
        if beyond:
            self.game = self._folded(self.game, beyond)
        if self.cursor < self.game.version or self._viewed_at >= self.game.version:
            return None  # still catching up to the version the game was read at, or shown already (or a newer one)
        game, self._viewed_at = self.game, self.game.version
        # Keyed by seat, not audience: once a game is over everyone shares its events, never its views.
        # And by the kind of message: an SSE stream's and a socket's views of one version differ.
        key = (self.view_kind, game.version, self.seat)
        return self._shared(key, rendered, lambda: self._view_message(game))

    # What a view message is, for a subclass serving views in another form (service/http/sockets.py).
    view_kind = "view"

    def _view_message(self, game: Game) -> bytes:
        """Return the message of the seat's view of `game`: an SSE `view` event."""
        return b"event: view\ndata: %s\n\n" % encode(game_view(game, self.seat, handles=self.handles(game)))

    def _folded(self, game: Game, events: Sequence[RecordedEvent]) -> Game:
        """Return `game` with `events` (those after its version) folded in."""
        return replay(events, game)

    @staticmethod
    def _shared(key: tuple[Hashable, ...], rendered: Rendered | None, make: Callable[[], bytes]) -> bytes:
        if rendered is None:
            return make()
        message = rendered.get(key)
        if message is None:
            message = make()
            rendered.put(key, message)
        return message


class Handoff:
    """Where the app leaves a stream's subscription for the async front that asked it to (`streams.FANOUT`)."""

    def __init__(self) -> None:
        self.subscription: Subscription | None = None
