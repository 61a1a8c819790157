"""The fan-out: one reader a game hands every event to every watcher, once each, in order, redacted for each."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import orjson
import pytest
from flask.testing import FlaskClient
from redis.asyncio import Redis as AsyncRedis
from redis.exceptions import TimeoutError as RedisTimeoutError

from domain.events import RecordedEvent
from service.bootstrap import Services
from service.http import create_app
from service.http.fanout import HEARTBEAT_S, Feeds, _Shard
from service.http.streams import FANOUT
from service.http.subscriptions import HEARTBEAT, MOVED, Handoff, Subscription
from tests.support.processes import url_of
from tests.support.services import REAL, on_every_store

TOY = {"game": "toy", "seats": [{"name": "ann"}, {"name": "bob"}]}


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


# The fan-out serves only on a real Redis (`menagerie serve` with REDIS_URL; the embedded server streams
# with a thread a stream), and fakeredis's asyncio client does not let a cancelled blocking read go.
redis_client = on_every_store(REAL)


@pytest.fixture
def api(services: Services) -> FlaskClient:
    return create_app(services, {"RATE_LIMITS_ENABLED": False}).test_client()


def feeds_on(services: Services, heartbeat_s: float = HEARTBEAT_S) -> Feeds:
    """The fan-out as the async front builds it: its own blocking client, catch-ups by the store's read."""

    async def read_after(stream_id: str, after: int) -> list[RecordedEvent]:
        return await asyncio.to_thread(services.store.read, stream_id, after)

    # Its connections carry the test's prefix as their name: other tests subscribe on the same server meanwhile.
    client = AsyncRedis.from_url(url_of(services.redis), client_name=services.prefix)
    return Feeds(client, services.prefix, read_after, heartbeat_s)


@pytest.fixture
def feeds(services: Services) -> Feeds:
    return feeds_on(services)


def subscribe(api: FlaskClient, path: str, headers: dict[str, str] | None = None) -> Subscription:
    """Ask for a stream as the async front does: the app answers with the subscription, not a body."""
    handoff = Handoff()
    response = api.get(path, headers=headers, environ_overrides={FANOUT: handoff})
    assert response.status_code == 200, response.data
    assert handoff.subscription is not None
    return handoff.subscription


def messages(chunks: list[bytes]) -> list[dict[str, Any]]:
    """Parse SSE messages (comments and the retry hint left out)."""
    out = []
    for block in b"".join(chunks).split(b"\n\n"):
        fields = dict(line.split(b": ", 1) for line in block.split(b"\n") if b": " in line and line[:1] != b":")
        if b"data" in fields:
            out.append(
                {
                    "id": int(fields[b"id"]) if b"id" in fields else None,
                    "event": fields[b"event"].decode(),
                    "data": orjson.loads(fields[b"data"]),
                }
            )
    return out


async def watch(
    feeds: Feeds, subscription: Subscription, until: Callable[[list[bytes]], bool], chunks: list[bytes] | None = None
) -> list[bytes]:
    """Follow a stream until it ends or `until` holds of what came (into `chunks`, if given)."""
    chunks = [] if chunks is None else chunks
    stream: AsyncIterator[bytes] = feeds.follow(subscription)
    async for chunk in stream:
        chunks.append(chunk)
        if until(chunks):
            await stream.aclose()  # type: ignore[attr-defined]
            break
    return chunks


def event_ids(chunks: list[bytes]) -> list[int]:
    return [m["id"] for m in messages(chunks) if m["event"] != "view"]


async def in_thread(call: Callable[[], Any]) -> Any:
    return await asyncio.to_thread(call)


async def until_watching(feeds: Feeds, game_id: str, count: int) -> None:
    """Wait (polling the loop, no sleep-and-hope) until `count` watchers have joined the game's feed."""
    while feeds.watchers(game_id) < count:
        await asyncio.sleep(0.001)


def run(test: Callable[[], Awaitable[Any]]) -> Any:
    return asyncio.run(asyncio.wait_for(test(), 60))


def watch_all(feeds: Feeds, watchers: list[Subscription], until: Callable[[list[bytes]], bool]) -> list[list[bytes]]:
    """Follow every watcher's stream at once, each until it ends or `until` holds; return what each got."""

    async def together() -> list[list[bytes]]:
        return list(await asyncio.gather(*(watch(feeds, w, until) for w in watchers)))

    return run(together)


def play_to_the_end(api: FlaskClient, game: dict[str, Any]) -> int:
    """Race the toy game to 10 by twos, ann and bob in turn; return its final version."""
    tokens = [seat["token"] for seat in game["seats"]]
    for n in range(5):
        move = api.post(
            f"/games/{game['id']}/actions", json={"action": {"type": "add", "n": 2}}, headers=auth(tokens[n % 2])
        )
        assert move.status_code == 200, move.json
    final = api.get(f"/games/{game['id']}").json
    assert final["status"] == "finished"
    return int(final["version"])


def test_many_watchers_of_a_game_share_one_reader_and_each_gets_every_event_once_in_order_to_the_end(api, feeds):
    game = api.post("/games", json=TOY).json
    start = api.get(f"/games/{game['id']}").json["version"]
    watchers = [subscribe(api, f"/games/{game['id']}/stream?after={start}") for _ in range(20)]
    readers: list[int] = []
    final: list[int] = []

    async def test() -> list[list[bytes]]:
        async def play() -> None:
            await until_watching(feeds, game["id"], len(watchers))
            readers.append(feeds.readers)
            final.append(await in_thread(lambda: play_to_the_end(api, game)))

        *results, _ = await asyncio.gather(*(watch(feeds, w, lambda _: False) for w in watchers), play())
        return results

    results = run(test)
    assert readers == [1]
    for chunks in results:
        assert event_ids(chunks) == list(range(start + 1, final[0] + 1))
        assert messages(chunks)[-1]["event"] == "GameEnded"
    assert feeds.readers == 0  # the last watcher to leave stopped the reader


def test_a_watcher_resumes_after_its_last_event_id(api, feeds):
    game = api.post("/games", json=TOY).json
    final = play_to_the_end(api, game)
    resumed = subscribe(api, f"/games/{game['id']}/stream", headers={"Last-Event-ID": "5"})
    chunks = run(lambda: watch(feeds, resumed, lambda _: False))
    assert event_ids(chunks) == list(range(6, final + 1))


def test_a_seat_on_the_fan_out_gets_its_own_hand_and_view_and_never_another_seats(api, feeds):
    game = api.post(
        "/games", json={"game": "bloede-kuh", "seats": [{"name": "ann"}, {"name": "bob"}, {"name": "cy"}]}
    ).json
    tokens = [seat["token"] for seat in game["seats"]]
    version = api.get(f"/games/{game['id']}").json["version"]
    path = f"/games/{game['id']}/stream?view=true"
    seats = [subscribe(api, path, headers=auth(token)) for token in tokens]
    spectator = subscribe(api, path)

    # Every watcher on one feed, caught up to the current version, its view last.
    results = watch_all(feeds, [*seats, spectator], lambda c: views_in(c) > 0)
    for token, chunks in zip([*tokens, None], results, strict=True):
        headers = auth(token) if token else None
        got = messages(chunks)
        # Each watcher's events are its own redacted log, and its view is its own GET, shared feed or not.
        log = api.get(f"/games/{game['id']}/events?limit=1000", headers=headers).json["events"]
        assert [m["data"] for m in got if m["event"] != "view"] == log
        assert [m["data"] for m in got if m["event"] == "view"] == [
            api.get(f"/games/{game['id']}", headers=headers).json
        ]
        assert got[-1]["data"]["version"] == version
    spectated = messages(results[3])
    assert next(m for m in spectated if m["event"] == "CardsDealt")["data"]["data"]["hand"] is None
    assert spectated[-1]["data"]["state"]["hand"] is None


def test_a_seat_asking_for_views_gets_its_view_after_each_batch_equal_to_a_get_at_that_version(api, feeds):
    game = api.post("/games", json=TOY).json
    ann = game["seats"][0]["token"]
    start = api.get(f"/games/{game['id']}").json["version"]
    watcher = subscribe(api, f"/games/{game['id']}/stream?after={start}&view=true", headers=auth(ann))

    async def test() -> list[bytes]:
        chunks: list[bytes] = []

        async def play() -> None:
            while not views_in(chunks):  # the view it starts at is out before any move
                await asyncio.sleep(0.001)
            await in_thread(lambda: play_to_the_end(api, game))

        await asyncio.gather(watch(feeds, watcher, lambda _: False, chunks), play())
        return chunks

    got = messages(run(test))
    views = [(i, m["data"]) for i, m in enumerate(got) if m["event"] == "view"]
    assert views[0][0] == 0 and views[0][1]["version"] == start  # where it starts, before any move
    for i, view in views[1:]:
        assert got[i - 1]["id"] == view["version"]  # a view follows the batch that brought it to its version
    for _, view in views:
        # A past view (`at`) offers no actions; the stream's offered those open at its version.
        past = api.get(f"/games/{game['id']}?at={view['version']}", headers=auth(ann)).json
        assert {**view, "legal_actions": []} == past
        assert bool(view["legal_actions"]) == (0 in view["to_act"])
    assert (
        got[-2]["event"] == "GameEnded" and got[-1]["data"] == api.get(f"/games/{game['id']}", headers=auth(ann)).json
    )


def views_in(chunks: list[bytes]) -> int:
    return sum(1 for m in messages(chunks) if m["event"] == "view")


def test_a_quiet_game_s_watchers_get_heartbeats_timed_by_its_one_reader(api, services):
    feeds = feeds_on(services, heartbeat_s=0.05)
    game = api.post("/games", json=TOY).json
    version = api.get(f"/games/{game['id']}").json["version"]
    watchers = [subscribe(api, f"/games/{game['id']}/stream?after={version}") for _ in range(3)]

    for chunks in watch_all(feeds, watchers, lambda c: HEARTBEAT in c):
        assert HEARTBEAT in chunks and event_ids(chunks) == []


def test_a_tournament_streams_through_the_fan_out_to_its_end_without_token_hashes(api, feeds):
    tournament = api.post("/tournaments", json={"game": "toy", "rounds": 1, "seed": "fan-out"}).json
    organiser = auth(tournament["organiser_token"])
    for _ in range(2):
        api.post(f"/tournaments/{tournament['id']}/register", json={"bot": "random"}, headers=organiser)
    api.post(f"/tournaments/{tournament['id']}/start", headers=organiser)
    watcher = subscribe(api, f"/tournaments/{tournament['id']}/stream")
    got = messages(run(lambda: watch(feeds, watcher, lambda _: False)))
    assert got[0]["event"] == "TournamentCreated" and got[-1]["event"] == "TournamentFinished"
    assert [m["id"] for m in got] == list(range(1, len(got) + 1))
    assert b"sha256" not in orjson.dumps([m["data"] for m in got])


def test_once_a_game_is_over_its_seats_share_its_events_but_each_gets_its_own_view(api, feeds):
    game = api.post("/games", json=TOY).json
    play_to_the_end(api, game)
    tokens = [seat["token"] for seat in game["seats"]]
    watchers = [subscribe(api, f"/games/{game['id']}/stream?view=true", headers=auth(token)) for token in tokens]

    results = [messages(chunks) for chunks in watch_all(feeds, watchers, lambda _: False)]
    assert [m["data"] for m in results[0][:-1]] == [m["data"] for m in results[1][:-1]]  # the open log
    for token, got in zip(tokens, results, strict=True):
        assert got[-1]["event"] == "view"
        assert got[-1]["data"] == api.get(f"/games/{game['id']}", headers=auth(token)).json


@pytest.mark.parametrize("heartbeat_s", [0.05, 3600])
def test_a_stream_whose_key_goes_while_watched_ends_after_reading_where_the_store_keeps_it(api, services, heartbeat_s):
    # As when a finished game is packed, or a game archived: the reading notices (within GONE_CHECK_S,
    # however long the heartbeat), and its watchers read on where it went.
    feeds = feeds_on(services, heartbeat_s=heartbeat_s)
    game = api.post("/games", json=TOY).json
    version = api.get(f"/games/{game['id']}").json["version"]
    watchers = [subscribe(api, f"/games/{game['id']}/stream?after={version}") for _ in range(2)]

    async def test() -> list[list[bytes]]:
        async def remove() -> None:
            await until_watching(feeds, game["id"], len(watchers))
            await in_thread(lambda: services.redis.delete(f"{services.prefix}:{{{game['id']}}}:events"))

        *results, _ = await asyncio.gather(*(watch(feeds, w, lambda _: False) for w in watchers), remove())
        return results

    for chunks in run(test):
        assert chunks[-1] == MOVED  # nothing was left to read here: the client reconnects, and is told why
    assert feeds.readers == 0


def subscribed(services: Services) -> list[int]:
    """The shard channels each of this test's fan-out connections subscribes to now (CLIENT LIST), if any."""
    clients = services.redis.client_list()
    return [int(c["ssub"]) for c in clients if c.get("name") == services.prefix and int(c.get("ssub", 0))]


def test_watchers_of_many_games_share_one_subscribing_connection_and_each_gets_its_game_to_the_end(api, services):
    feeds = feeds_on(services, heartbeat_s=3600)  # no heartbeat: every batch comes from a game's own message
    games = [api.post("/games", json=TOY).json for _ in range(30)]
    starts = [api.get(f"/games/{game['id']}").json["version"] for game in games]
    watchers = [subscribe(api, f"/games/{g['id']}/stream?after={v}") for g, v in zip(games, starts, strict=True)]
    channels: list[list[int]] = []
    finals: list[int] = []

    async def test() -> list[list[bytes]]:
        async def play() -> None:
            for game in games:
                await until_watching(feeds, game["id"], 1)
            while sum(await in_thread(lambda: subscribed(services))) < len(games):
                await asyncio.sleep(0.001)  # until every game's channel is subscribed in Redis
            channels.append(await in_thread(lambda: subscribed(services)))
            for game in games:
                finals.append(await in_thread(lambda game=game: play_to_the_end(api, game)))

        *results, _ = await asyncio.gather(*(watch(feeds, w, lambda _: False) for w in watchers), play())
        return results

    results = run(test)
    assert channels == [[30]]  # thirty games watched, one connection subscribed to them
    for chunks, start, final in zip(results, starts, finals, strict=True):
        assert event_ids(chunks) == list(range(start + 1, final + 1))
        assert messages(chunks)[-1]["event"] == "GameEnded"
    assert feeds.readers == 0 and feeds.connections == 0  # the last game's watcher closed it


def test_a_game_first_watched_beside_another_is_subscribed_on_the_same_connection_at_once(api, services):
    # No heartbeat within the test's time: only the second game's own messages bring its events.
    feeds = feeds_on(services, heartbeat_s=3600)
    quiet, played = api.post("/games", json=TOY).json, api.post("/games", json=TOY).json
    first = subscribe(api, f"/games/{quiet['id']}/stream")
    version = api.get(f"/games/{played['id']}").json["version"]
    second = subscribe(api, f"/games/{played['id']}/stream?after={version}")
    final: list[int] = []
    shared: list[int] = []

    async def test() -> list[bytes]:
        watching_quiet = asyncio.ensure_future(watch(feeds, first, lambda _: False))
        while feeds.connections == 0 or not await in_thread(lambda: subscribed(services)):
            await asyncio.sleep(0.001)  # the first game's channel is subscribed in Redis
        chunks: list[bytes] = []

        async def play() -> None:
            await until_watching(feeds, played["id"], 1)
            final.append(await in_thread(lambda: play_to_the_end(api, played)))

        await asyncio.wait_for(asyncio.gather(watch(feeds, second, lambda _: False, chunks), play()), 20)
        shared.append(feeds.connections)  # the quiet game's watcher is still there
        watching_quiet.cancel()
        return chunks

    chunks = run(test)
    assert event_ids(chunks) == list(range(version + 1, final[0] + 1))
    assert shared == [1]


def test_a_shard_s_connection_silent_for_its_socket_timeout_is_failed_at_a_ping_and_its_watchers_told():
    """No timer is armed a message read: the pings' answers keep a connection alive, and a ping finds a silent one."""

    class Silent:
        """A connection that takes commands and never answers (a Redis that hangs)."""

        socket_timeout = 7.0

        def __init__(self) -> None:
            self.sent: list[bytes] = []
            self.released = False

        def pack_command(self, *parts: Any) -> bytes:
            return b" ".join(part if isinstance(part, bytes) else str(part).encode() for part in parts)

        async def send_packed_command(self, command: bytes, check_health: bool = True) -> None:
            self.sent.append(command)

        async def read_response(self, **options: Any) -> Any:
            await asyncio.Event().wait()

    async def scenario() -> tuple[list[BaseException], Silent, _Shard, bool]:
        connection = Silent()
        lost: list[BaseException] = []

        async def connect() -> Any:
            return connection

        async def release(given: Any) -> None:
            given.released = True

        shard = _Shard("store", connect, release, lambda channel, payload: None, lambda s, e: lost.append(e), print)
        await shard._open()
        assert shard.silence_s == 7.0  # the connection's own socket timeout
        shard.ping()  # heard from just now: a ping goes out
        await asyncio.sleep(0)
        alive = shard.open and not lost
        shard.heard_at -= 8.0  # as if nothing had come for longer than the timeout
        shard.ping()
        await asyncio.sleep(0)
        return lost, connection, shard, alive

    lost, connection, shard, alive = asyncio.run(scenario())
    assert alive and connection.sent == [b"PING"]
    assert len(lost) == 1 and isinstance(lost[0], RedisTimeoutError)
    assert shard.failed and not shard.open and shard.connection is None and connection.released
