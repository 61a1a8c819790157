"""A game's socket: `GET /games/{id}/socket`, one WebSocket a seat, served by the async front.

A seat's client sends its moves on it and is sent its own view after every
batch of the game's events (its own moves, the other seats', the bots', a
timeout), as `GET /games/{id}` would answer it then. Everything else is the
HTTP API's, and so is everything about a move: an `act` message is played by
`service.http.moves.play`, the same function `POST /games/{id}/actions` calls,
with the same tokens, body check, Idempotency-Key, errors and receipts, on the
app's threads but without a Flask request (an app context only). Its answer
is the HTTP answer's JSON, an error the HTTP error body, each with its status.
asyncapi.yaml documents the messages.

The seat's token comes in the upgrade's `Authorization: Bearer` header, or
(a browser cannot set one) in a first `hello` message; never in the URL,
where logs keep it. A token that does not hold the seat ends the socket after
its error; any other bad message is answered with its error and the socket
stays open.

Views come from the process's fan-out (service/http/fanout.py), as a live
stream's do: the socket follows the game like any watcher, through `Feeds.follow`.

Only the async front serves it (`menagerie serve` on one Redis). Elsewhere
(the embedded werkzeug server of `make run`, WSGI on a Redis Cluster) the
route is the app's and answers 426 with a JSON error saying so.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import orjson
from flask import Flask
from granian.rsgi import ProtocolClosed, Scope, WebsocketMessageType, WebsocketProtocol
from marshmallow import ValidationError
from werkzeug.exceptions import RequestEntityTooLarge

from domain.events import RecordedEvent
from domain.game import FINISHED, Game, replay
from domain.ids import is_game_id
from projections.game import game_view
from service.adapters.cache import AggregateCache, Bounded
from service.errors import GameNotFound, MalformedJson, MissingToken
from service.http import MAX_BODY_BYTES
from service.http.auth import seat_for
from service.http.errors import described, error_body, rate_limited
from service.http.json import encode
from service.http.limits import hit_socket_move
from service.http.moves import play
from service.http.requests import NOT_AN_OBJECT, bearer_of, parse_json, services
from service.http.streams import GAME_OVER
from service.http.subscriptions import Subscription
from service.http.views import view_after

if TYPE_CHECKING:
    from service.http.fanout import Feeds
    from service.http.front import Front

log = logging.getLogger(__name__)

PATH = re.compile(r"^/games/([^/]{1,64})/socket$")
# A message's own fields beside the HTTP body's (`action`, `expected_version`).
ENVELOPE = frozenset(("type", "idempotency_key", "ref", "view"))
# What a client may tag a message with to match its answer: a short string or a number.
_REF = re.compile(r"^[\x20-\x7e]{1,100}$")
# How long a socket opened without an Authorization header has to send its hello.
HELLO_S = 30.0
# How long a socket whose view feed ended (the store went away) waits before following the game again.
RESUME_S = 1.0
# How a view message begins: the view's JSON follows, then the message's closing brace.
VIEW_OPENS = b'{"type":"view","view":'
# Games folded on to a version, shared by the sockets of a game in this process (the seats fold each batch once).
_FOLDED = Bounded[tuple[str, int, int], Game](1024)


class _OverLimit(Exception):
    """A move over its client's rate limit: the limit and the seconds to wait."""

    def __init__(self, limit: str, wait: int) -> None:
        super().__init__(limit)
        self.limit, self.wait = limit, wait


class SocketMove:
    """A move as an `act` message carries it: the HTTP body's fields, the key and the view's ask beside them.

    Without `"view": true` the answer holds no view: the view after the batch
    follows on the socket anyway. With it, the answer holds the mover's view
    (the session adds it, not `play`: usually the socket's feed has made it
    already), and no view message as old follows: one message a move to the
    mover instead of two.
    """

    def __init__(self, message: dict[str, Any]) -> None:
        self.message = message
        self.view = False  # whether the message asked for the view in its answer (once `play` checked it)

    def wants_view(self) -> bool:
        view = self.message.get("view", False)
        if type(view) is not bool:
            raise ValidationError({"view": ["view is true or false"]})
        self.view = view
        return False  # not `play`'s to make: see the class

    def idempotency_key(self) -> str | None:
        key: str | None = self.message.get("idempotency_key")
        return key

    def body(self) -> Any:
        return {name: value for name, value in self.message.items() if name not in ENVELOPE}


class SeatViews(Subscription):
    """A seat's socket as a watcher of its game: no event messages, its view as JSON after every batch."""

    view_kind = "socket-view"
    # The process's games as its moves left them (service.adapters.cache): a batch this process appended is
    # folded there already; one it did not is kept there once folded, so the seat's next move starts from it.
    games: AggregateCache[Game] | None = None

    @property
    def viewed_at(self) -> int:
        """The version of the last view made for the seat (-1 before the first)."""
        return self._viewed_at

    def viewed(self, version: int) -> None:
        """Note that the seat was sent its view at `version` (in a move's answer): no view as old is pushed after it."""
        self._viewed_at = max(self._viewed_at, version)

    def view_from_kept(self, version: int) -> tuple[int, bytes] | None:
        """Return the seat's view message at `version` or later from the game this process keeps, noted as shown.

        None if it keeps none that new (another process's move, since moved on here).
        """
        game = self._kept()
        if game is None or game.version < version:
            return None
        self.viewed(game.version)
        return game.version, self._view_message(game)

    def messages(self, batch: Sequence[RecordedEvent], rendered: Any = None) -> list[bytes]:
        """Return the seat's view after the batch's new events (none if it showed that version already)."""
        for event in batch:
            if self.ended or event.seq <= self.cursor:
                continue
            self.cursor = event.seq
            self.ended = event.type == self.last_type
        view = self._view(batch, rendered)
        return [] if view is None else [view]

    def _kept(self) -> Game | None:
        """Return the game as this process's moves and folds left it, if it keeps one."""
        return self.games.peek(self.stream_id) if self.games is not None else None

    def _view_message(self, game: Game) -> bytes:
        return VIEW_OPENS + encode(game_view(game, self.seat, handles=self.handles(game))) + b"}"

    def _folded(self, game: Game, events: Sequence[RecordedEvent]) -> Game:
        # Every seat's socket on this process folds the same batch onto the same version: once is enough.
        # A batch a move on this process appended was folded by that move: the game it kept is the same.
        version = events[-1].seq
        kept = self._kept()
        if kept is not None and kept.version == version:
            return kept
        key = (self.stream_id, game.version, version)
        folded = _FOLDED.get(key)
        if folded is None:
            folded = replay(events, game)
            _FOLDED.put(key, folded)
            if self.games is not None:
                self.games.keep(self.stream_id, folded)  # unless a newer one is kept already
        return folded


async def serve(front: Front, scope: Scope, proto: WebsocketProtocol, address: str) -> None:
    """Serve one WebSocket connection to the front: a game's socket, or a refusal before the upgrade."""
    match = PATH.match(scope.path)
    feeds = front.feeds
    if match is None or feeds is None:
        proto.close(404)  # no other route upgrades; the body-less 404 is what a refused upgrade gets
        return
    transport = await proto.accept()
    session = _Session(front.app, front.threads.run, feeds, match.group(1), address, transport)
    try:
        await session.run(bearer_of(scope.headers.get("authorization")))
    except ProtocolClosed:
        pass  # the client went away
    finally:
        proto.close(None)


class _Session:
    """One socket: its seat, its moves one at a time, its views as they come."""

    def __init__(
        self, app: Flask, run: Callable[..., Any], feeds: Feeds, game_id: str, address: str, transport: Any
    ) -> None:
        self.app, self.call, self.feeds = app, run, feeds
        self.game_id, self.address, self.transport = game_id, address, transport
        self.token: str | None = None
        self.views: SeatViews | None = None
        # While a move that may ask for its view is played: the views made meanwhile wait (the newest, and its
        # version), for its answer to carry; whatever does not go in the answer is sent after it.
        self.holding = False
        self.held: tuple[int, bytes] | None = None

    async def run(self, token: str | None) -> None:
        if token is None:
            token = await self._hello()
            if token is None:
                return
        try:
            views = await self.call(self._open, token)
        except Exception as error:  # noqa: BLE001 - each is answered as HTTP answers it; then the socket ends
            await self._send_error(error, None)
            return
        self.token, self.views = token, views
        pushing = asyncio.ensure_future(self._push(views))
        try:
            while True:
                message = await self.transport.receive()
                if message.kind == WebsocketMessageType.close:
                    return
                await self._answer(message.data)
        finally:
            pushing.cancel()

    async def _hello(self) -> str | None:
        """Read the first message, which must be `hello` with the seat's token; None (said, and the socket ends) if not."""
        try:
            message = await asyncio.wait_for(self.transport.receive(), HELLO_S)
        except TimeoutError:
            message = None  # a socket that never says who it is holds nothing for long
        if message is None or message.kind == WebsocketMessageType.close:
            if message is None:
                await self._send_error(MissingToken(f"no hello with the seat token came within {HELLO_S:g} s"), None)
            return None
        try:
            hello = _message(message.data)
        except Exception as error:  # noqa: BLE001 - a malformed first message is answered, then the socket ends
            await self._send_error(error, None)
            return None
        token = hello.get("token")
        if hello.get("type") != "hello" or type(token) is not str:
            missing = MissingToken(
                "this socket needs the seat token: an Authorization: Bearer header on the upgrade,"
                ' or a first message {"type": "hello", "token": "<seat token>"}'
            )
            await self._send_error(missing, None)
            return None
        return token

    def _open(self, token: str) -> SeatViews:
        """Return the seat's view feed, its token checked (on the app's threads)."""
        if not is_game_id(self.game_id):
            raise GameNotFound(self.game_id)  # as the HTTP routes answer an id not of the form, before any read
        with self.app.app_context():
            s = services()
            game = s.repository.load(self.game_id)
            seat = seat_for(game, token)
            views = SeatViews(self.game_id, game.version, GAME_OVER, ("seat", seat), _no_event, game, seat)
            views.handles = s.players.at_seats
            views.games = s.repository.games
            views.ended = game.status == FINISHED  # its last view is all there is to send
            return views

    async def _push(self, views: SeatViews) -> None:
        """Send the seat's view now and after every batch; follow the game again if its feed ended before its end."""
        try:
            while True:
                async for chunk in self.feeds.follow(views):
                    if chunk[:1] != b"{":
                        continue  # the stream's comments (a retry hint, a heartbeat) are not for a socket
                    if self.holding:
                        self.held = (views.viewed_at, chunk)  # a chunk is one view message, newer than any held
                    else:
                        await self.transport.send_str(chunk.decode())
                if views.ended:
                    return
                await asyncio.sleep(RESUME_S)
        except ProtocolClosed:
            pass  # the client went away
        except Exception:
            # Nobody awaits this task: what ended it is logged here (the socket's moves go on being answered).
            log.exception("the views of a socket on game %s failed", self.game_id)

    async def _answer(self, data: bytes | str) -> None:
        """Play one message's move and send its answer, or its error; either way the socket stays open.

        A move that asks for its view (which a glance at the message tells, before it is parsed) holds the
        views made while it is played: the feed usually makes the mover's own before the move's answer is
        back, and it goes in the answer instead of in a message of its own.
        """
        self.holding = (b'"view"' in data) if isinstance(data, bytes) else ('"view"' in data)
        try:
            ref, answer, wants_view = await self.call(self._handle, data)
            if not isinstance(answer, Exception) and wants_view:
                await self._add_view(answer)
        finally:
            held, self.held, self.holding = self.held, None, False
        if isinstance(answer, Exception):
            await self._send_error(answer, ref)
        else:
            out = {"type": "answer", "status": 200, "answer": answer} | ({} if ref is None else {"ref": ref})
            await self.transport.send_str(encode(out).decode())
        if held is not None and (self.views is None or held[0] > self.views.viewed_at - (not wants_view)):
            await self.transport.send_str(held[1].decode())

    async def _add_view(self, answer: dict[str, Any]) -> None:
        """Put the mover's view, at the answer's version or newer, in its answer: the feed's, or one made now."""
        assert self.views is not None
        version = answer["version"]
        if self.held is not None and self.held[0] >= version:
            _, message = self.held
        else:
            made = self.views.view_from_kept(version)
            if made is None:
                answer["view"] = await self.call(self._view_after, version)
                self.views.viewed(version)
                return
            _, message = made
        answer["view"] = orjson.Fragment(message[len(VIEW_OPENS) : -1])

    def _view_after(self, version: int) -> orjson.Fragment:
        """Return the seat's view at `version` as an HTTP answer holds it (on the app's threads)."""
        assert self.views is not None and self.views.seat is not None
        with self.app.app_context():
            return view_after(self.game_id, version, self.views.seat)

    def _handle(self, data: bytes | str) -> tuple[str | int | None, dict[str, Any] | Exception, bool]:
        """Play a message's move (on the app's threads); return its `ref`, its answer or what refused it, and
        whether it asked for its view.

        As over HTTP, every message counts on its client's rate limit for moves first, whatever it holds.
        """
        ref: str | int | None = None
        try:
            with self.app.app_context():
                over = hit_socket_move(self.app, self.address)
                if over is not None:
                    raise _OverLimit(*over)
                if len(data) > MAX_BODY_BYTES:
                    raise RequestEntityTooLarge()
                message = _message(data)
                ref = _ref(message)
                if message.get("type") != "act":
                    raise ValidationError({"type": ['a message on this socket is {"type": "act", ...}']})
                move = SocketMove(message)
                return ref, play(self.game_id, self.token, move), move.view
        except Exception as error:  # noqa: BLE001 - each is answered as HTTP answers it
            return ref, error, False

    async def _send_error(self, error: Exception, ref: str | int | None) -> None:
        if isinstance(error, _OverLimit):
            status, code, text, details = rate_limited(error.limit, error.wait)
        elif isinstance(error, RequestEntityTooLarge):
            status, code, text, details = 413, "request_entity_too_large", str(error.description), None
        else:
            status, code, text, details = described(error)
        out = {"type": "error", "status": status, **error_body(code, text, details)}
        if ref is not None:
            out["ref"] = ref
        await self.transport.send_str(encode(out).decode())


def _message(data: bytes | str) -> dict[str, Any]:
    """Return a message parsed as strict JSON, as an HTTP body is (400 if it is not JSON or not an object)."""
    parsed = parse_json(data.encode() if isinstance(data, str) else data)
    if not isinstance(parsed, dict):
        raise MalformedJson(NOT_AN_OBJECT)  # a message is the move's body (and its envelope): told as HTTP tells it
    return parsed


def _ref(message: dict[str, Any]) -> str | int | None:
    """Return the message's `ref` to echo in its answer (400 if it is neither a short string nor an integer)."""
    ref = message.get("ref")
    if ref is None or (type(ref) is int) or (type(ref) is str and _REF.match(ref)):
        return ref
    raise ValidationError({"ref": ["a ref is a string of 1 to 100 printable ASCII characters, or an integer"]})


def _no_event(event: RecordedEvent) -> dict[str, Any]:  # pragma: no cover - a socket sends views, never events
    return {}
