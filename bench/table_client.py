"""Load clients that play every seat of a game the way a seat's own client should: one request a move, or a socket a seat.

The action's answer holds the mover's view after the move, so a seat never
reads the game after its own move. It reads its view only when it is to act
and the view it holds is older than the game: the wait for its turn, which a
stream that delivers views will make a push instead of a request.
"""

from __future__ import annotations

import time
from typing import Any

import orjson
import websocket

from bench.bench_http import Client


class TableClient(Client):
    """One keep-alive connection playing every seat of whole games, a seat reading its view only to act."""

    def play(self, game: str, seats: int, deadline: float, moves: int | None = None) -> None:
        """Play a new game until it ends, the deadline passes or this client has posted `moves` moves."""
        table = self.new_table(game, seats)
        if table is None:
            return
        game_id, tokens = table
        known: dict[int, dict[str, Any]] = {}  # each seat's latest view: from its last answer or read
        latest = 0  # the newest version any seat's view showed
        seat = 0
        while time.monotonic() < deadline and (moves is None or len(self.posts) < moves):
            view = known.get(seat)
            if view is None or view["version"] < latest or not view["legal_actions"]:
                # The wait for this seat's turn: a read (a stream that brings views would make it a push).
                view = self.read_view(game_id, tokens[seat])
                known[seat], latest = view, max(latest, view.get("version", 0))
                if view.get("status") == "finished":
                    return
                if not view.get("to_act"):
                    time.sleep(0.005)  # the worker is taking a system step
                    continue
                if seat not in view["to_act"] or not view.get("legal_actions"):
                    seat = view["to_act"][0]
                    continue
            status, answer = self.post_first_legal(game_id, tokens[seat], view, query="?view=true")
            if status != 200:
                known.pop(seat, None)
                continue
            after = answer["view"]
            known[seat], latest = after, max(latest, after["version"])
            if after["status"] == "finished":
                return
            # Who acts next is in the mover's view; no one (a system step is due) means this seat looks again.
            seat = after["to_act"][0] if after["to_act"] else seat


class SocketTableClient(Client):
    """Plays every seat of whole games as boardgame.io's load client does: a socket a seat (`GET /games/{id}/socket`).

    A move goes as an `act` message on the mover's socket; every seat's socket
    is sent its view after every batch, as boardgame.io sends each seat its
    state after every move, so no view is ever read with a GET; the mover's
    comes in its move's answer (`"view": true`), not as a message of its own. A
    move is timed from its message to the mover's socket holding the view after
    it: until the mover knows what happened, as
    boardgame.io's client times it. The game is created over HTTP and its four
    sockets opened inside the window (Menagerie's sockets are a game's, where
    boardgame.io's are reused from game to game).
    """

    def play(self, game: str, seats: int, deadline: float, moves: int | None = None) -> None:
        # The HTTP connection sat idle through the last game (its moves went on the sockets): the server may
        # have closed it since, so the create goes on a new one.
        self.conn.close()
        table = self.new_table(game, seats)
        if table is None:
            return
        game_id, tokens = table
        url = f"ws://127.0.0.1:{self.conn.port}/games/{game_id}/socket"
        sockets = [_SeatSocket(url, token) for token in tokens]
        try:
            latest = sockets[0].view_after(-1)
            while time.monotonic() < deadline and (moves is None or len(self.posts) < moves):
                if latest["status"] == "finished":
                    return
                if not latest["to_act"]:
                    latest = sockets[0].view_after(latest["version"])  # the worker is taking a system step
                    continue
                seat = latest["to_act"][0]
                own = sockets[seat].view_at(latest["version"])
                if own["version"] > latest["version"] or not own["legal_actions"]:
                    latest = own if own["version"] >= latest["version"] else latest
                    continue
                start = time.perf_counter()
                answer = sockets[seat].act(own["legal_actions"][0], own["version"])
                if answer["type"] != "answer":
                    self.errors += answer["status"] >= 500
                    latest = sockets[seat].view_after(own["version"])
                    continue
                latest = sockets[seat].view_at(answer["answer"]["version"])
                self.posts.append(time.perf_counter() - start)
        finally:
            for socket in sockets:
                socket.close()


class _SeatSocket:
    """One seat's socket: the views it was sent, read in order, and its moves' answers."""

    def __init__(self, url: str, token: str) -> None:
        # The load generator shares the cores with the servers measured: websocket-client's own UTF-8 check
        # of every frame (pure Python) is skipped, and the messages are parsed by orjson, not the standard library.
        self.ws = websocket.create_connection(
            url, header=[f"Authorization: Bearer {token}"], timeout=30, skip_utf8_validation=True
        )
        self.latest: dict[str, Any] | None = None

    def _next(self) -> dict[str, Any]:
        message: dict[str, Any] = orjson.loads(self.ws.recv())
        if message["type"] == "view":
            self._keep(message["view"])
        elif message["type"] == "answer" and "view" in message["answer"]:
            self._keep(message["answer"]["view"])
        return message

    def _keep(self, view: dict[str, Any]) -> None:
        # A move's answer holds the view at the move's version: a view pushed before it may be newer.
        if self.latest is None or view["version"] >= self.latest["version"]:
            self.latest = view

    def view_at(self, version: int) -> dict[str, Any]:
        """Return the seat's view at `version` or later (reading on through older ones)."""
        while self.latest is None or self.latest["version"] < version:
            self._next()
        return self.latest

    def view_after(self, version: int) -> dict[str, Any]:
        """Return the seat's first view newer than `version`."""
        return self.view_at(version + 1)

    def act(self, action: dict[str, Any], version: int) -> dict[str, Any]:
        """Send a move; return its answer (holding the mover's view after it) or error (the views before it are kept)."""
        move = {"type": "act", "action": action, "expected_version": version, "view": True}
        self.ws.send(orjson.dumps(move).decode())
        while (message := self._next())["type"] == "view":
            pass
        return message

    def close(self) -> None:
        self.ws.close()
