"""Live streams: a game's or a tournament's events as Server-Sent Events, as they are appended.

`GET /games/{id}/stream` sends the caller's redacted events (a seat token, or
none for a spectator), each with its version as the SSE `id`, so a client
resumes with `Last-Event-ID` (or `?after=N`), and closes after `GameEnded`.
With `?view=true` the caller's view (what `GET /games/{id}` answers it) follows
each batch, as an `event: view` message without an id, and once at the start:
a bot waiting for its turn reads only this stream. `GET /tournaments/{id}/stream`
does the same for a tournament's rounds, tables and results, closing after
`TournamentFinished`. A heartbeat comment goes out every 15 s of quiet.

Two ways serve a stream, behind this one view (which checks the query,
authorises and fixes the redaction either way):

- under `menagerie serve` with granian (on one Redis or a cluster), the async
  front (service/http/front.py) serves it from its fan-out
  (service/http/fanout.py): no thread a stream, one subscribing connection a
  shard over every watched game there, a process;
- elsewhere (the embedded server, gunicorn, a test client) a stream holds a
  server thread and blocks on its own `XREAD BLOCK`. A process then holds at
  most `MAX_STREAMS` of them (`MENAGERIE_MAX_STREAMS`; half of gunicorn's
  threads under `menagerie serve --server gunicorn`): past that a new stream
  is a 503 `streams_full` with Retry-After, and the moves keep their threads
  however many spectators come.

Either way, a store that stops answering ends the stream cleanly (a comment
saying so, no traceback) and the client resumes with `Last-Event-ID`.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, current_app, request, stream_with_context
from flask.blueprints import BlueprintSetupState
from marshmallow import fields

from domain.events import RecordedEvent
from domain.tournament.state import FINISHED as TOURNAMENT_FINISHED
from projections.game import redact_event
from projections.tournament import public_event
from service.adapters.connections import STORE_UNAVAILABLE
from service.errors import SocketsUnsupported, StreamsFull, UpgradeRequired
from service.http.auth import caller_seat
from service.http.requests import query, services
from service.http.schemas import STREAM_QUERY, StreamQuerySchema
from service.http.subscriptions import HEARTBEAT, RETRY_HINT, STORE_LOST, Handoff, Subscription

log = logging.getLogger(__name__)
streams = Blueprint("streams", __name__)
# Set in a request's environ by the async front (service/http/front.py), which then serves the
# stream from its fan-out: the view here checks, authorises and redacts, and hands the subscription back there.
FANOUT = "menagerie.fanout"

HEARTBEAT_MS = 15_000
GAME_OVER, TOURNAMENT_OVER = "GameEnded", "TournamentFinished"
DEFAULT_MAX_STREAMS = 48
STREAMS_FULL_RETRY_S = 5
EXTENSION = "menagerie.streams"


def max_streams_default() -> int:
    """Return how many live streams a server process may hold, from the environment."""
    return int(os.environ.get("MENAGERIE_MAX_STREAMS", DEFAULT_MAX_STREAMS))


@streams.record_once
def _open_slots(state: BlueprintSetupState) -> None:
    # `create_app` sets MAX_STREAMS (from the environment unless its config says otherwise).
    state.app.extensions[EXTENSION] = threading.BoundedSemaphore(state.app.config["MAX_STREAMS"])


class _Slot:
    """One open stream's hold on its process's stream slots, given back once however it ends."""

    def __init__(self, slots: threading.BoundedSemaphore) -> None:
        if not slots.acquire(blocking=False):
            raise StreamsFull(
                "this server holds as many live streams as it may; retry shortly, or read the events instead",
                retry_after=STREAMS_FULL_RETRY_S,
            )
        self.slots, self.held = slots, True

    def release(self) -> None:
        if self.held:
            self.held = False
            self.slots.release()


class GameStreamQuerySchema(StreamQuerySchema):
    """`GET /games/{id}/stream` query: `after`, and whether the caller's view follows each batch."""

    view = fields.Boolean(load_default=False)


GAME_STREAM_QUERY = GameStreamQuerySchema()


@streams.get("/games/<game_id>/stream")
def game_stream(game_id: str) -> Response:
    """Stream the game's events as the caller may see them, from `Last-Event-ID` or `after` on."""
    args = query(GAME_STREAM_QUERY)
    game = services().repository.load(game_id)
    seat = caller_seat(game)
    open_log = game.status == "finished"
    # A seat's own hidden values come with the keys that open their commitments.
    seed = services().repository.seed(game_id) if seat is not None and not open_log else None

    def shown(event: RecordedEvent) -> dict[str, Any]:
        # Once GameEnded is out, the whole log is open to everyone anyway.
        return redact_event(game.type, event, seat, open_log=open_log or event.type == GAME_OVER, seed=seed)

    # Watchers who see the same share encoded messages: the spectators, each seat, or everyone once it is over.
    audience = ("open",) if open_log else ("seat", seat)
    viewed = game if args["view"] else None
    handles = services().players.at_seats
    subscription = Subscription(game_id, _resume_from(args["after"]), GAME_OVER, audience, shown, viewed, seat, handles)
    subscription.ended = open_log and subscription.cursor >= game.version  # resumed after its end: nothing comes
    return _sse(subscription)


@streams.get("/tournaments/<tournament_id>/stream")
def tournament_stream(tournament_id: str) -> Response:
    """Stream the tournament's events (registrations, rounds, tables, results), from `Last-Event-ID` or `after` on."""
    args = query(STREAM_QUERY)
    tournament = services().tournaments.load(tournament_id)
    after = _resume_from(args["after"])
    subscription = Subscription(tournament_id, after, TOURNAMENT_OVER, ("public",), public_event)
    # Resumed after its end: nothing comes.
    subscription.ended = tournament.status == TOURNAMENT_FINISHED and after >= tournament.version
    return _sse(subscription)


@streams.get("/games/<game_id>/socket")
def game_socket(game_id: str) -> Response:
    """A game's socket, asked for as plain HTTP: it needs the upgrade (service/http/sockets.py)."""
    raise UpgradeRequired("this is a WebSocket: connect with an Upgrade: websocket request", upgrade="websocket")


# werkzeug routes an upgrade only to a rule that takes WebSockets (else a 400): this one says why it cannot.
@streams.get("/games/<game_id>/socket", websocket=True, endpoint="game_socket_upgrade")
def game_socket_upgrade(game_id: str) -> Response:
    """A game's socket asked of a server that cannot serve one: the async front serves the upgrade itself."""
    raise SocketsUnsupported(
        "this server cannot serve WebSockets (the embedded server of `make run`, or WSGI on a Redis Cluster);"
        " `menagerie serve` on one Redis does. Play with POST /games/{id}/actions and GET /games/{id}/stream"
    )


def _resume_from(after: int) -> int:
    """Return where to resume: the client's `Last-Event-ID` (an event version), else `after`."""
    last = request.headers.get("Last-Event-ID", "")
    return int(last) if last.isdigit() and len(last) <= 10 else after


HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


def _sse(subscription: Subscription) -> Response:
    handoff = request.environ.get(FANOUT)
    if isinstance(handoff, Handoff):
        # Served by the async front: it takes the subscription and streams it from its fan-out.
        handoff.subscription = subscription
        return Response(status=200, mimetype="text/event-stream", headers=HEADERS)
    store = services().store

    def events() -> Iterator[bytes]:
        yield RETRY_HINT
        yield from subscription.messages([])  # the view at the start, when asked for and caught up
        while not subscription.ended:
            try:
                batch = store.wait(subscription.stream_id, subscription.cursor, HEARTBEAT_MS)
            except STORE_UNAVAILABLE as error:
                # The client resumes with Last-Event-ID; a traceback would tell the operator nothing more.
                log.warning("live stream of %s ended: the store is unavailable (%s)", subscription.stream_id, error)
                yield STORE_LOST
                return
            yield from subscription.messages(batch) if batch else (HEARTBEAT,)

    slot = _Slot(current_app.extensions[EXTENSION])
    response = Response(stream_with_context(events()), mimetype="text/event-stream", headers=HEADERS)
    # The server closes the response when the stream ends or its client goes away.
    response.call_on_close(slot.release)
    return response
