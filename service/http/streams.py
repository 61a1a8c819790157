"""Live streams: a game's or a tournament's events as Server-Sent Events, as they are appended.

`GET /games/{id}/stream` sends the caller's redacted events (a seat token, or
none for a spectator), each with its version as the SSE `id`, so a client
resumes with `Last-Event-ID` (or `?after=N`). The server blocks on the
stream (`XREAD BLOCK`, on a real Redis and on the embedded fakeredis alike:
no polling loop), sends a heartbeat comment every 15 s, and closes after
`GameEnded`. `GET /tournaments/{id}/stream` does the same for a tournament's
rounds, tables and results, closing after `TournamentFinished`.

A stream holds its server thread for as long as it is open, so a process
holds at most `MAX_STREAMS` of them (`MENAGERIE_MAX_STREAMS`; 48 of granian's
64 threads, half of gunicorn's under `menagerie serve --server gunicorn`):
past that a new stream is a 503 `streams_full` with Retry-After, and the
moves keep their threads however many spectators come. Under gunicorn, serve
with the `gthread` worker class (`menagerie serve` does).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from typing import Any

import orjson
from flask import Blueprint, Response, current_app, request, stream_with_context
from flask.blueprints import BlueprintSetupState

from domain.events import RecordedEvent
from projections.game import redact_event
from service.errors import StreamsFull
from service.http.auth import caller_seat
from service.http.requests import query, services
from service.http.schemas import STREAM_QUERY

streams = Blueprint("streams", __name__)

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


@streams.get("/games/<game_id>/stream")
def game_stream(game_id: str) -> Response:
    """Stream the game's events as the caller may see them, from `Last-Event-ID` or `after` on."""
    args = query(STREAM_QUERY)
    game = services().repository.load(game_id)
    seat = caller_seat(game)
    open_log = game.status == "finished"
    # A seat's own hidden values come with the keys that open their commitments.
    seed = services().repository.seed(game_id) if seat is not None and not open_log else None

    def shown(event: RecordedEvent) -> dict[str, Any]:
        # Once GameEnded is out, the whole log is open to everyone anyway.
        return redact_event(game.type, event, seat, open_log=open_log or event.type == GAME_OVER, seed=seed)

    return _sse(game_id, _resume_from(args["after"]), shown, GAME_OVER)


@streams.get("/tournaments/<tournament_id>/stream")
def tournament_stream(tournament_id: str) -> Response:
    """Stream the tournament's events (registrations, rounds, tables, results), from `Last-Event-ID` or `after` on."""
    args = query(STREAM_QUERY)
    services().tournaments.load(tournament_id)
    return _sse(tournament_id, _resume_from(args["after"]), _public_tournament_event, TOURNAMENT_OVER)


def _public_tournament_event(event: RecordedEvent) -> dict[str, Any]:
    """Everything of a tournament event but token hashes and the command (which may carry them)."""
    out = event.to_dict()
    out["data"] = {k: v for k, v in event.data.items() if not k.endswith("_sha256")}
    out.pop("command", None)
    return out


def _resume_from(after: int) -> int:
    """Return where to resume: the client's `Last-Event-ID` (an event version), else `after`."""
    last = request.headers.get("Last-Event-ID", "")
    return int(last) if last.isdigit() and len(last) <= 10 else after


def _sse(stream_id: str, after: int, shown: Callable[[RecordedEvent], dict[str, Any]], last_type: str) -> Response:
    store = services().store

    def events() -> Iterator[bytes]:
        version = after
        yield b"retry: 2000\n\n"
        while True:
            batch = store.wait(stream_id, version, HEARTBEAT_MS)
            if not batch:
                yield b": heartbeat\n\n"
                continue
            for event in batch:
                version = event.seq
                yield b"id: %d\nevent: %s\ndata: %s\n\n" % (event.seq, event.type.encode(), orjson.dumps(shown(event)))
                if event.type == last_type:
                    return

    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    slot = _Slot(current_app.extensions[EXTENSION])
    response = Response(stream_with_context(events()), mimetype="text/event-stream", headers=headers)
    # The server closes the response when the stream ends or its client goes away.
    response.call_on_close(slot.release)
    return response
