"""A game's socket as `menagerie serve` serves it (granian, the async front): moves in, the seat's views out.

A real server process and a worker on a redis-server of the test's own. Every
refusal on the socket is held to the HTTP API's answer to the same request,
status and body, and leaves the game where it was. Nothing sleeps and hopes:
every read has a deadline (the socket's timeout).
"""

from __future__ import annotations

import json
import shutil
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import websocket

from tests.support.processes import OwnRedis, Processes, free_port, http, wait_for

pytestmark = [
    pytest.mark.redis,
    pytest.mark.skipif(shutil.which("redis-server") is None, reason="SKIPPED: no redis-server on PATH"),
]

PREFIX = "sockets"
TIMEOUT_S = 20


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`menagerie serve` (one server process) and one worker on the module's own Redis; the base URL."""
    directory = tmp_path_factory.mktemp("socket")
    own_redis = OwnRedis(directory)
    own_redis.start()
    processes = Processes(directory, step_timeout_s=3)
    port = free_port()
    processes.menagerie("api", ["serve", "--port", str(port), "--workers", "1"], own_redis.url, PREFIX)
    processes.menagerie("worker", ["worker"], own_redis.url, PREFIX)
    url = f"http://127.0.0.1:{port}"
    wait_for(lambda: http("GET", f"{url}/health")[0] == 200, 30, "the API to answer")
    yield url
    processes.stop_all()
    assert "Traceback" not in processes.log("api")
    own_redis.kill()


class Socket:
    """One game socket, read message by message."""

    def __init__(self, url: str, game_id: str, token: str | None) -> None:
        headers = [f"Authorization: Bearer {token}"] if token is not None else []
        self.ws = websocket.create_connection(
            url.replace("http://", "ws://") + f"/games/{game_id}/socket", header=headers, timeout=TIMEOUT_S
        )
        self.views: list[dict[str, Any]] = []
        # Each view the socket brought, a view message's or an answer's, in the order they came.
        self.arrived: list[tuple[str, dict[str, Any]]] = []

    def send(self, message: Any) -> None:
        self.ws.send(message if isinstance(message, str) else json.dumps(message))

    def next(self) -> dict[str, Any] | None:
        """Return the next message (None once the server closed the socket)."""
        try:
            text = self.ws.recv()
        except websocket.WebSocketConnectionClosedException:
            return None
        if not text:
            return None  # the close frame
        message: dict[str, Any] = json.loads(text)
        if message["type"] == "view":
            self.views.append(message["view"])
            self.arrived.append(("view", message["view"]))
        elif message["type"] == "answer" and "view" in message["answer"]:
            self.arrived.append(("answer", message["answer"]["view"]))
        return message

    def newest(self) -> dict[str, Any]:
        """Return the newest view the socket brought (a view message's or an answer's)."""
        return max((view for _, view in self.arrived), key=lambda view: view["version"])

    def reply(self) -> dict[str, Any]:
        """Return the next answer or error, keeping the views that come before it."""
        while (message := self.next()) is not None:
            if message["type"] != "view":
                return message
        raise AssertionError("the socket closed before its answer")

    def view_at_least(self, version: int) -> dict[str, Any]:
        """Return the first view at `version` or later (one already received, or the next ones)."""
        while not self.views or self.views[-1]["version"] < version:
            message = self.next()
            assert message is not None, "the socket closed"
            assert message["type"] == "view", message
        return self.views[-1]

    def close(self) -> None:
        self.ws.close()


def new_game(url: str, seats: list[dict[str, Any]]) -> tuple[str, list[str]]:
    status, game = http("POST", f"{url}/games", {"game": "bloede-kuh", "seats": seats})
    assert status == 201, game
    return game["id"], [seat.get("token") for seat in game["seats"]]


def view_of(url: str, game_id: str, token: str, at: int | None = None) -> dict[str, Any]:
    status, view = http("GET", f"{url}/games/{game_id}" + (f"?at={at}" if at else ""), headers=bearer(token))
    assert status == 200, view
    return view


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def to_act_view(url: str, game_id: str, tokens: list[str]) -> tuple[int, dict[str, Any]]:
    """Wait until a seat may act (the dealing steps are the worker's); return it and its view."""
    view = wait_for(lambda: (v := view_of(url, game_id, tokens[0]))["to_act"] and v, 30, "a seat to act")
    seat = view["to_act"][0]
    return seat, view_of(url, game_id, tokens[seat])


def test_a_seat_plays_a_whole_game_on_its_socket_against_bots_seeing_only_its_own_hand(api):
    game_id, tokens = new_game(api, [{"name": "ann"}, {"bot": "heuristic"}, {"bot": "heuristic"}])
    socket = Socket(api, game_id, tokens[0])
    moves, receipts, seen = 0, [], 0
    try:
        while True:
            # The views not looked at yet: some may have come before the last answer did.
            if seen == len(socket.views):
                message = socket.next()
                assert message is not None and message["type"] == "view", message
            view, seen = socket.views[seen], seen + 1
            if view["status"] == "finished":
                break
            if 0 not in view["to_act"] or not view["legal_actions"] or seen < len(socket.views):
                continue  # a bot's turn, a deal, or a newer view waiting: the next view comes with the next batch
            act = {"type": "act", "action": view["legal_actions"][0], "expected_version": view["version"]}
            socket.send({**act, "idempotency_key": str(uuid.uuid4()), "ref": moves})
            answer = socket.reply()
            if answer.get("status") == 409:
                # Another seat may act at the same time (a reaction to a discard): it was first; the view after it comes.
                assert answer["error"]["code"] == "version_conflict" and answer["ref"] == moves, answer
                continue
            assert answer["type"] == "answer" and answer["status"] == 200 and answer["ref"] == moves, answer
            assert answer["answer"]["version"] > view["version"]
            receipts += answer["answer"]["events"]
            moves += 1
    finally:
        socket.close()
    assert moves > 3
    final = view_of(api, game_id, tokens[0])
    assert final["status"] == "finished" and socket.views[-1] == final
    # The receipts are the published log's events: the same hashes at the same places.
    status, exported = http("GET", f"{api}/games/{game_id}/export")
    published = {event["seq"]: event["hash"] for event in exported["events"]}
    assert receipts and all(published[event["seq"]] == event["hash"] for event in receipts)
    # Each view was the seat's own, as GET /games/{id} showed it at that version: its hand, the others' counts.
    versions = sorted({view["version"] for view in socket.views})
    assert len(versions) == len(socket.views)  # one view a version
    for view in socket.views[:-1][::4]:  # a sample: each is a request
        assert view["you"] == 0
        past = view_of(api, game_id, tokens[0], at=view["version"])
        assert {**view, "legal_actions": []} == past


def test_a_move_that_asks_for_its_view_gets_it_in_its_answer_and_no_view_as_old_after_it(api):
    game_id, tokens = new_game(api, [{"name": "ann"}, {"bot": "heuristic"}, {"bot": "heuristic"}])
    socket = Socket(api, game_id, tokens[0])
    answers: list[dict[str, Any]] = []
    try:
        # A view asked for with anything but a boolean is a body the schema refuses; the socket stays open.
        socket.send({"type": "act", "action": {"type": "knock"}, "view": "yes", "ref": "ask"})
        refused = socket.reply()
        assert refused["status"] == 400 and refused["ref"] == "ask", refused
        assert refused["error"]["code"] == "invalid_request" and "view" in json.dumps(refused["error"])
        socket.view_at_least(1)
        while (latest := socket.newest())["status"] != "finished":
            if 0 not in latest["to_act"] or not latest["legal_actions"]:
                message = socket.next()  # a bot's turn or a deal: the view after it comes
                assert message is not None and message["type"] == "view", message
                continue
            act = {"type": "act", "action": latest["legal_actions"][0], "expected_version": latest["version"]}
            socket.send({**act, "view": True})
            answer = socket.reply()
            if answer.get("status") == 409:
                # Another seat reacted first: the view after its move comes (unless it came already).
                assert answer["error"]["code"] == "version_conflict", answer
                if socket.newest()["version"] == latest["version"]:
                    socket.next()
                continue
            assert answer["type"] == "answer" and answer["status"] == 200, answer
            # The mover's view at the move's version, or a newer one when the bots moved on before the answer went.
            assert answer["answer"]["view"]["version"] >= answer["answer"]["version"] > latest["version"]
            assert answer["answer"]["view"]["you"] == 0
            answers.append(answer["answer"])
    finally:
        socket.close()
    assert len(answers) > 3
    # No view message of a version an answer held, or an older one, came after that answer.
    for index, (kind, view) in enumerate(socket.arrived):
        if kind == "answer":
            later = [other["version"] for how, other in socket.arrived[index + 1 :] if how == "view"]
            assert all(version > view["version"] for version in later), (view["version"], later)
    versions = [view["version"] for kind, view in socket.arrived if kind == "view"]
    assert versions == sorted(set(versions))  # the view messages never went back, nor came twice
    # Each answer's view is the seat's own, as GET /games/{id} showed it at that version.
    for answered in answers[::3]:  # a sample: each is a request
        past = view_of(api, game_id, tokens[0], at=answered["view"]["version"])
        assert {**answered["view"], "legal_actions": []} == past
    assert socket.newest() == view_of(api, game_id, tokens[0])


def test_a_move_refused_on_the_socket_is_refused_as_over_http_and_nothing_changes(api):
    game_id, tokens = new_game(api, [{"name": "ann"}, {"name": "bob"}, {"name": "cy"}])
    seat, view = to_act_view(api, game_id, tokens)
    other = (seat + 1) % 3
    socket = Socket(api, game_id, tokens[seat])
    socket.view_at_least(view["version"])
    legal = view["legal_actions"][0]
    version = view["version"]
    headers = {**bearer(tokens[seat]), "Content-Type": "application/json"}
    cases: list[tuple[str, Any, dict[str, str]]] = [
        ("stale version", {"action": legal, "expected_version": version - 1}, {}),
        ("illegal move", {"action": {"type": "play", "animal": "unicorn"}, "expected_version": version}, {}),
        ("another game's move", {"action": {"type": "knock"}}, {}),
        ("unknown field", {"action": legal, "expected_version": version, "extra": 1}, {}),
        ("a version that is not a number", {"action": legal, "expected_version": "7"}, {}),
        ("no action", {"expected_version": version}, {}),
        ("a bad key", {"action": legal}, {"idempotency_key": "has spaces"}),
    ]
    try:
        for what, body, envelope in cases:
            http_headers = {**headers, **({"Idempotency-Key": envelope["idempotency_key"]} if envelope else {})}
            status, expected = raw_post(api, game_id, json.dumps(body).encode(), http_headers)
            socket.send({"type": "act", **body, **envelope, "ref": what})
            answer = socket.reply()
            assert answer == {"type": "error", "status": status, "ref": what, **expected}, what
            assert 400 <= status < 500, (what, status)
        # Malformed JSON, a JSON array, an unknown type: the HTTP parser's and schema's own errors.
        status, expected = raw_post(api, game_id, b"{not json", headers)
        socket.send("{not json")
        assert socket.reply() == {"type": "error", "status": status, **expected}
        status, expected = raw_post(api, game_id, b"[1]", headers)
        socket.send("[1]")
        assert socket.reply() == {"type": "error", "status": status, **expected}
        socket.send({"type": "move", "action": legal})
        refused = socket.reply()
        assert refused["status"] == 400 and refused["error"]["code"] == "invalid_request"
        # Not this seat's turn: the other seat's socket is told as its POST is.
        other_headers = {**bearer(tokens[other]), "Content-Type": "application/json"}
        status, expected = raw_post(api, game_id, json.dumps({"action": legal}).encode(), other_headers)
        with_other = Socket(api, game_id, tokens[other])
        with_other.send({"type": "act", "action": legal})
        assert with_other.reply() == {"type": "error", "status": status, **expected}
        with_other.close()
        assert view_of(api, game_id, tokens[seat])["version"] == version  # nothing changed
        # The socket is still open: a good move goes through, and its retry gets the same answer and moves nothing.
        key = str(uuid.uuid4())
        act = {"type": "act", "action": legal, "expected_version": version, "idempotency_key": key}
        socket.send(act)
        first = socket.reply()
        assert first["status"] == 200 and first["answer"]["version"] > version
        socket.send(act)
        again = socket.reply()
        assert again["status"] == 200 and again["answer"]["events"] == first["answer"]["events"]
        assert again["answer"].get("replayed") is True
        status, over_http = raw_post(
            api,
            game_id,
            json.dumps({"action": legal, "expected_version": version}).encode(),
            {**headers, "Idempotency-Key": key},
        )
        assert status == 200 and over_http == again["answer"]
        assert view_of(api, game_id, tokens[seat])["version"] >= first["answer"]["version"]
        # The mover's socket brings the view after its move (a GET's at that version, its hand only).
        after = socket.view_at_least(first["answer"]["version"])
        assert after["you"] == seat and "hand" in after["state"]
    finally:
        socket.close()


def raw_post(url: str, game_id: str, body: bytes, headers: dict[str, str]) -> tuple[int, Any]:
    """POST an action's body as given; return the status and the JSON answer, an error's too."""
    request = urllib.request.Request(f"{url}/games/{game_id}/actions", data=body, method="POST", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_a_token_that_does_not_hold_a_seat_is_refused_as_over_http_and_ends_the_socket(api):
    game_id, tokens = new_game(api, [{"name": "ann"}, {"name": "bob"}, {"name": "cy"}])
    other_game, other_tokens = new_game(api, [{"name": "cy"}, {"name": "di"}, {"name": "ed"}])
    forged = tokens[0][:-4] + ("0000" if not tokens[0].endswith("0000") else "1111")
    for token in (forged, other_tokens[0], "not-a-token"):
        status, expected = raw_post(
            api, game_id, b'{"action": {}}', {**bearer(token), "Content-Type": "application/json"}
        )
        socket = Socket(api, game_id, token)
        refused = socket.reply()
        assert refused == {"type": "error", "status": status, **expected} and status in (401, 403)
        assert socket.next() is None  # then the server closed it
    # A game that is not there (or an id not of the form) is a 404 as over HTTP, and ends the socket too.
    for missing in ("0123456789abcdef", "not-a-game"):
        headers = {**bearer(tokens[0]), "Content-Type": "application/json"}
        status, expected = raw_post(api, missing, b'{"action": {}}', headers)
        socket = Socket(api, missing, tokens[0])
        assert socket.reply() == {"type": "error", "status": status, **expected} and status == 404
        assert socket.next() is None
    # Without the header, the token comes in a first hello; anything else first is a missing token.
    socket = Socket(api, game_id, None)
    socket.send({"type": "hello", "token": tokens[1]})
    assert socket.view_at_least(1)["you"] == 1
    socket.close()
    socket = Socket(api, game_id, None)
    socket.send({"type": "act", "action": {"type": "knock"}})
    refused = socket.reply()
    assert refused["status"] == 401 and refused["error"]["code"] == "missing_token"
    assert socket.next() is None
    del other_game


def test_the_socket_route_as_plain_http_says_it_needs_the_upgrade(api):
    game_id, _ = new_game(api, [{"name": "ann"}, {"name": "bob"}, {"name": "cy"}])
    status, body = http("GET", f"{api}/games/{game_id}/socket")
    assert status == 426 and json.loads(body["body"])["error"]["code"] == "upgrade_required"
