"""An integrator's view: a client generated from openapi.yaml plays every game with typed models only.

The client is generated with openapi-python-client (no warnings allowed), and
talks to the app served over real HTTP on a loopback port. Every response is
parsed into the generated models and must convert back (`to_dict()`) to exactly
the JSON the server sent.
"""

from __future__ import annotations

import importlib
import json
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import fakeredis
import pytest

from domain.chance import seed_of
from service.bootstrap import build
from service.http import create_app
from tests.support.live_server import comparable, generate_client, import_client, serving, serving_app
from tests.support.processes import Processes, free_port, http, wait_for

EXAMPLE = Path(__file__).parent.parent.parent / "examples" / "bot.py"
SEATS = {"life-is-life": 3, "animals-on-board": 3, "bloede-kuh": 3, "zop-zoo": 2}


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """Generate the client once for this module; return its folder and the generator's output."""
    into = tmp_path_factory.mktemp("generated")
    return into, generate_client(into)


@pytest.fixture(scope="module")
def mc(generated: tuple[Path, str]) -> ModuleType:
    """The generated package."""
    return import_client(generated[0])


@pytest.fixture(scope="module")
def base_url() -> Any:
    """The app on embedded services, over HTTP on a loopback port."""
    services = build(fakeredis.FakeRedis(), "generated-client", inline_jobs=True, embedded=True)
    with serving(services) as url:
        yield url


def operation_module(mc: ModuleType, operation: str) -> ModuleType:
    """Return the generated module of an operation, under its tag's package (`api.games`, `api.audit`, ...)."""
    api = Path(mc.__file__).parent / "api"
    (tag,) = [folder.name for folder in api.iterdir() if (folder / f"{operation}.py").exists()]
    return importlib.import_module(f"{mc.__name__}.api.{tag}.{operation}")


class Api:
    """Calls the generated functions and checks each typed answer against the JSON on the wire."""

    def __init__(self, mc: ModuleType, base_url: str) -> None:
        self.mc, self.base_url = mc, base_url
        self.models = __import__(f"{mc.__name__}.models", fromlist=["*"])

    def client(self, token: str | None = None, **headers: str) -> Any:
        """Return a generated client: a spectator's without a token."""
        if token is None:
            return self.mc.Client(base_url=self.base_url, headers=headers)
        return self.mc.AuthenticatedClient(base_url=self.base_url, token=token, headers=headers)

    def call(self, operation: str, *args: Any, expect: int = 200, **kwargs: Any) -> Any:
        """Call an operation; assert its status and that the parsed model round-trips to the body."""
        module = operation_module(self.mc, operation)
        response = module.sync_detailed(*args, **kwargs)
        assert response.status_code == expect, response.content
        parsed = response.parsed
        assert parsed is not None and not isinstance(parsed, dict), f"{operation}: no typed model"
        assert comparable(parsed.to_dict()) == comparable(json.loads(response.content)), operation
        return parsed


@pytest.fixture(scope="module")
def api(mc: ModuleType, base_url: str) -> Api:
    return Api(mc, base_url)


def choose(api: Api, view: Any, rng: random.Random) -> Any:
    """Pick one of the view's typed legal actions (filling in a large Animals on Board split)."""
    m = api.models
    knocks = [a for a in view.legal_actions if isinstance(a, m.LifeIsLifeKnock)]
    if knocks and rng.random() < 0.7:  # short phases keep the all-human game short
        return knocks[0]
    action = rng.choice(view.legal_actions)
    if isinstance(action, m.AnimalsOnBoardSplit) and action.first is None and rng.random() < 0.5:
        action = m.AnimalsOnBoardSplit(type_=action.type_, group=action.group, first=action.tiles[:1])
    return action


def play(api: Api, game_id: str, tokens: dict[int, str], rng: random.Random) -> Any:
    """Play every human seat of a game from typed views until it is over; return the last view."""
    clients = {seat: api.client(token) for seat, token in tokens.items()}
    seat = next(iter(clients))
    for _ in range(3000):
        mine = api.call("get_game", game_id, client=clients[seat])
        if mine.status == api.models.Status.FINISHED:
            return mine
        if not mine.legal_actions:  # bots answer before the server does, so another human is to act
            seat = next(s for s in mine.to_act if s in clients)
            continue
        body = api.models.PostAction(action=choose(api, mine, rng), expected_version=mine.version)
        result = api.call("post_action", game_id, client=clients[seat], body=body)
        assert result.events and all(isinstance(e.seq, int) for e in result.events)
    raise AssertionError("the game did not end")


STATES = {
    "life-is-life": "LifeIsLifeState",
    "animals-on-board": "AnimalsOnBoardState",
    "bloede-kuh": "BloedeKuhState",
    "zop-zoo": "ZopZooState",
}
DETAILS = {
    "life-is-life": "LifeIsLifeResultDetail",
    "animals-on-board": "AnimalsOnBoardResultDetail",
    "bloede-kuh": "BloedeKuhResultDetail",
    "zop-zoo": "ZopZooResultDetail",
}


def test_the_generator_prints_no_warning(generated):
    _, output = generated
    assert "Warning" not in output and "Unable" not in output, output


def test_the_lobby_routes_answer_typed_models(api):
    m = api.models
    assert api.call("health", client=api.client()).status == m.HealthStatus.OK
    types = api.call("list_game_types", client=api.client()).game_types
    assert {t.id for t in types} >= set(SEATS)
    zop = next(t for t in types if t.id == "zop-zoo")
    assert {o.name for o in zop.options} == {"target", "card_set"}
    api.call("list_games", client=api.client())


@pytest.mark.parametrize("game", sorted(SEATS))
def test_a_human_plays_each_game_against_bots_with_typed_models(api, game):
    m = api.models
    bots = [m.SeatSpec(bot=m.BotKind.HEURISTIC if i % 2 else m.BotKind.RANDOM) for i in range(SEATS[game] - 1)]
    body = m.CreateGame(game=game, seats=[m.SeatSpec(name="ann"), *bots], seed=f"typed-{game}")
    if game == "zop-zoo":
        body.options = m.GameOptionsInput(target=300)  # fewer rounds
    created = api.call("create_game", client=api.client(), body=body, expect=201)
    final = play(api, created.id, {0: created.seats[0].token}, random.Random(game))

    assert isinstance(final.state, getattr(m, STATES[game]))
    assert isinstance(final.result.detail, getattr(m, DETAILS[game]))
    assert sorted(final.result.places)[0] == 1 and seed_of(final.seed) == f"typed-{game}"
    opened = api.call("get_game", created.id, client=api.client(), open_=True)
    assert isinstance(opened.state, getattr(m, STATES[game]))
    page = api.call("get_events", created.id, client=api.client(), limit=10000)
    assert [e.seq for e in page.events] == list(range(1, final.version + 1))
    assert isinstance(page.events[-1], m.GameEndedEvent)


def test_an_all_human_game_joined_through_the_join_route_replays_exports_and_audits(api):
    m = api.models
    created = api.call(
        "create_game", client=api.client(), body=m.CreateGame(game="life-is-life", seats=[m.SeatSpec()] * 3), expect=201
    )
    waiting = api.call("get_game", created.id, client=api.client())
    assert waiting.status == m.Status.WAITING and waiting.state is None and waiting.result is None
    tokens = {}
    for name in ("ann", "bob", "cy"):
        seat = api.call("join_game", created.id, client=api.client(), body=m.JoinGame(name=name), expect=201)
        tokens[seat.seat] = seat.token
    final = play(api, created.id, tokens, random.Random(3))
    assert isinstance(final.state, m.LifeIsLifeState) and isinstance(final.result.detail, m.LifeIsLifeResultDetail)

    # Replays: the view just after the first deal, as seat 0 saw it then, and the open view of the finished game.
    log = api.call("get_events", created.id, client=api.client(), limit=10000)
    dealt = next(e.seq for e in log.events if isinstance(e, m.PhaseDealtEvent))
    past = api.call("get_game", created.id, client=api.client(tokens[0]), at=dealt)
    assert past.version == dealt and past.legal_actions == []
    assert isinstance(past.state, m.LifeIsLifeState) and past.state.hand is not None
    opened = api.call("get_game", created.id, client=api.client(), open_=True)
    assert opened.state.hands and opened.state.set_aside is not api.mc.types.UNSET

    # The default call, no header of ours: the server answers JSON unless NDJSON is asked for.
    exported = api.call("export_game", created.id, client=api.client())
    assert exported.header.format_ == m.ExportHeaderFormat.MENAGERIE_GAME1 and not exported.header.redacted
    assert len(exported.events) == final.version and isinstance(exported.events[0], m.GameCreatedEvent)
    report = api.call("audit_game", created.id, client=api.client())
    assert report.ok and report.failed_at is None

    refused = api.call("join_game", created.id, client=api.client(), body=m.JoinGame(name="dan"), expect=422)
    assert refused.error.code == m.ErrorCode.ILLEGAL_ACTION


def test_errors_are_typed_with_their_codes(api):
    m = api.models
    missing = api.call("get_game", "nope", client=api.client(), expect=404)
    assert missing.error.code == m.ErrorCode.GAME_NOT_FOUND
    unknown = api.call("get_leaderboard", "chess", client=api.client(), expect=404)
    assert unknown.error.code == m.ErrorCode.GAME_TYPE_NOT_FOUND and "life-is-life" in unknown.error.details.known
    body = m.CreateGame(game="chess", seats=[m.SeatSpec(name="ann"), m.SeatSpec()])
    bad = api.call("create_game", client=api.client(), body=body, expect=422)
    assert bad.error.code == m.ErrorCode.UNKNOWN_GAME_TYPE


def test_tournaments_all_bots_and_the_organiser_flow(api):
    m = api.models
    # A small all-bot round robin plays itself to the end once started.
    body = m.CreateTournament(game="zop-zoo", rounds=1, format_=m.CreateTournamentFormat.ROUND_ROBIN, seed="t1")
    created = api.call("create_tournament", client=api.client(), body=body, expect=201)
    organiser = api.client(created.organiser_token)
    for kind in (m.BotKind.RANDOM, m.BotKind.HEURISTIC):
        api.call(
            "register_tournament_player", created.id, client=organiser, body=m.RegisterPlayer(bot=kind), expect=201
        )
    api.call("start_tournament", created.id, client=organiser)
    done = api.call("get_tournament", created.id, client=api.client())
    assert done.status == m.TournamentStatus.FINISHED and isinstance(done.options, m.ZopZooOptions)
    assert [s.rank for s in done.standings] and seed_of(done.seed) == "t1"

    # The organiser flow: a human registers, plays the game its token seats it at, the organiser records it.
    body = m.CreateTournament(game="life-is-life", rounds=1, format_=m.CreateTournamentFormat.ROUND_ROBIN)
    created = api.call("create_tournament", client=api.client(), body=body, expect=201)
    organiser = api.client(created.organiser_token)
    entrant = api.call(
        "register_tournament_player", created.id, client=api.client(), body=m.RegisterPlayer(name="ann"), expect=201
    )
    for kind in (m.BotKind.RANDOM, m.BotKind.HEURISTIC):
        api.call(
            "register_tournament_player", created.id, client=organiser, body=m.RegisterPlayer(bot=kind), expect=201
        )
    started = api.call("start_tournament", created.id, client=organiser)
    assert started.status == m.TournamentStatus.ACTIVE
    mine = api.call("get_tournament", created.id, client=api.client(entrant.token))
    game = mine.your_games[0]
    play(api, game.game_id, {game.seat: game.token}, random.Random(5))
    recorded = api.call(
        "record_tournament_result", created.id, client=organiser, body=m.RecordResult(game_id=game.game_id), expect=422
    )
    assert recorded.error.code == m.ErrorCode.RESULT_ALREADY_RECORDED  # results record themselves
    final = api.call("get_tournament", created.id, client=api.client())
    assert final.status == m.TournamentStatus.FINISHED and final.rounds[0].tables[0].places
    board = api.call("get_leaderboard", "life-is-life", client=api.client())
    assert "ann" not in {p.player for p in board.players}  # a guest (a typed name) is never rated


def logged(app: Any, services: Any, log: list[tuple[str, int]]) -> Any:
    """Wrap the app so that `log` lists, in order, each move as ("move", the version it answered), each move
    refused as stale as ("stale", the game's version), and each view read as ("read", the game's version when it came)."""
    inner = app.wsgi_app

    def logging(environ: dict[str, Any], start_response: Any) -> Any:
        path, method = environ["PATH_INFO"], environ["REQUEST_METHOD"]
        if method == "GET" and path.startswith("/games/") and path.count("/") == 2:
            log.append(("read", services.store.version(path.split("/")[2])))
        if not (method == "POST" and path.endswith("/actions")):
            return inner(environ, start_response)
        statuses: list[str] = []

        def noting(status: str, headers: Any, *rest: Any) -> Any:
            statuses.append(status)
            return start_response(status, headers, *rest)

        answered = b"".join(inner(environ, noting))
        if answered.startswith(b'{"version"'):
            log.append(("move", json.loads(answered)["version"]))
        elif statuses and statuses[0].startswith("409"):
            log.append(("stale", services.store.version(path.split("/")[2])))
        return [answered]

    app.wsgi_app = logging
    return app


def counted(app: Any, reads: list[str], skip_token: str | None = None, streams: list[str] | None = None) -> Any:
    """Wrap the app so that every view read (GET /games/<id>) not made with `skip_token` is listed in `reads`.

    Streams opened are listed in `streams`.
    """
    inner = app.wsgi_app

    def counting(environ: dict[str, Any], start_response: Any) -> Any:
        path = environ["PATH_INFO"]
        if streams is not None and path.endswith("/stream"):
            streams.append(path)
        if environ["REQUEST_METHOD"] == "GET" and path.startswith("/games/") and path.count("/") == 2:
            if skip_token is None or environ.get("HTTP_AUTHORIZATION") != f"Bearer {skip_token}":
                reads.append(path)
        return inner(environ, start_response)

    app.wsgi_app = counting
    return app


def run_example(generated: tuple[Path, str], url: str, *args: str) -> subprocess.Popen[str]:
    """Start examples/bot.py against `url` with the generated client on its path."""
    into, _ = generated
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(into), os.environ.get("PYTHONPATH", "")])}
    command = [sys.executable, str(EXAMPLE), "--url", url, *args]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def test_the_bot_author_example_plays_to_the_end_and_checks_its_receipts(generated, tmp_path):
    # As `make run` serves: the bots play on a thread of their own.
    services = build(fakeredis.FakeRedis(), "bot-example", inline_jobs=True, background_jobs=True, embedded=True)
    reads: list[str] = []
    log: list[tuple[str, int]] = []
    receipts = tmp_path / "receipts.ndjson"
    with serving_app(logged(counted(create_app(services), reads), services, log)) as url:
        example = run_example(generated, url, "--game", "bloede-kuh", "--seed", "example", "--receipts", str(receipts))
        out, err = example.communicate(timeout=300)
    assert example.returncode == 0, out + err
    game_id = next(line for line in out.splitlines() if line.startswith("game ")).split()[1]
    assert f"game {game_id} (bloede-kuh) finished: places" in out
    kept = [json.loads(line) for line in receipts.read_text().splitlines()]
    assert kept and all(len(receipt["hash"]) == 64 for receipt in kept)
    # Its first receipt is its seat's: a fixed deal (--seed) takes no entropy, and the bot checked it holds none.
    assert kept[0]["type"] == "SeatTaken" and "entropy" not in kept[0]["data"]
    assert f"seat taken at event {kept[0]['seq']}, no entropy (a fixed deal)" in out
    # The stream's events are receipts too: they reach GameEnded, past the bot's last move.
    assert max(receipt["seq"] for receipt in kept) == services.repository.load(game_id).version
    assert f"receipts: {len(kept)} acknowledged events kept in {receipts}, {len(kept)} in the published log" in out
    # The bot waits on its stream's views: it reads the game only after a move refused as stale (409).
    assert len(reads) == sum(what == "stale" for what, _ in log)
    # A move is one request: its answer holds the view after it, so the bot reads the game again only once
    # something else happened (an event on the stream its view does not show), never right after its move.
    moves = [(at, version) for at, (what, version) in enumerate(log) if what == "move"]
    assert moves
    for at, version in moves:
        following = next((seen for what, seen in log[at + 1 :] if what != "move"), None)
        assert following is None or following > version, log


def test_the_bot_author_example_waits_on_the_stream_while_a_human_thinks(generated, tmp_path):
    services = build(fakeredis.FakeRedis(), "bot-example-wait", inline_jobs=True, background_jobs=True, embedded=True)
    app = create_app(services)
    client = app.test_client()
    seats = [{"name": "tester"}, {}, {"bot": "heuristic"}]
    created = client.post("/games", json={"game": "bloede-kuh", "seats": seats}).json  # shared: the bot adds entropy
    game_id, token = created["id"], created["seats"][0]["token"]
    mine = {"Authorization": f"Bearer {token}"}
    reads: list[str] = []
    streams: list[str] = []
    with serving_app(counted(app, reads, skip_token=token, streams=streams)) as url:
        example = run_example(generated, url, "--join", game_id, "--receipts", str(tmp_path / "r.ndjson"))
        try:
            held = 0
            while (view := client.get(f"/games/{game_id}", headers=mine).json)["status"] != "finished":
                if not view["legal_actions"]:
                    time.sleep(0.01)  # the test's own seat waits for its turn
                    continue
                if held < 3:
                    # The example's seat waits on this human now. It may still be reading the views the last
                    # events (its own move's, the heuristic's) led to, but a polling bot reads its view again
                    # and again: dozens of times in these 0.3 s.
                    wait_for(lambda: streams, 60, "the example to open the game's stream")
                    before = len(reads)
                    time.sleep(0.3)
                    assert len(reads) - before <= 3, "the example kept reading its view while nothing happened"
                    held += 1
                client.post(f"/games/{game_id}/actions", json={"action": view["legal_actions"][0]}, headers=mine)
            out, err = example.communicate(timeout=120)
        finally:
            if example.poll() is None:
                example.kill()
    assert example.returncode == 0, out + err
    assert held == 3 and f"game {game_id} (bloede-kuh) finished" in out
    # The seat it joined holds the entropy it sent: its receipt says so, and the bot checked.
    kept = json.loads((tmp_path / "r.ndjson").read_text().splitlines()[0])
    assert kept["type"] == "SeatTaken" and len(kept["data"]["entropy"]) == 32
    assert f"seat taken at event {kept['seq']}, with our entropy" in out


@pytest.mark.redis
@pytest.mark.skipif(shutil.which("redis-server") is None, reason="SKIPPED: no redis-server on PATH")
def test_the_bot_author_example_plays_on_the_game_socket_and_checks_its_receipts(generated, own_redis, tmp_path):
    # Sockets are served by `menagerie serve` on one Redis (the async front), with a worker for the bots.
    processes = Processes(tmp_path, step_timeout_s=3)
    port = free_port()
    processes.menagerie("api", ["serve", "--port", str(port), "--workers", "1"], own_redis.url, "bot-socket")
    processes.menagerie("worker", ["worker"], own_redis.url, "bot-socket")
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: http("GET", f"{url}/health")[0] == 200, 30, "the API to answer")
        receipts = tmp_path / "receipts.ndjson"
        example = run_example(generated, url, "--socket", "--receipts", str(receipts))
        out, err = example.communicate(timeout=300)
    finally:
        processes.stop_all()
    assert example.returncode == 0, out + err
    game_id = next(line for line in out.splitlines() if line.startswith("game ")).split()[1]
    assert f"game {game_id} (bloede-kuh) finished: places" in out
    kept = [json.loads(line) for line in receipts.read_text().splitlines()]
    # The seat taken (a shared deal: with the entropy it sent), then its moves' events, all in the published log.
    assert kept[0]["type"] == "SeatTaken" and len(kept[0]["data"]["entropy"]) == 32 and len(kept) > 3
    assert f"receipts: {len(kept)} acknowledged events kept in {receipts}, {len(kept)} in the published log" in out
    assert "Traceback" not in processes.log("api")
