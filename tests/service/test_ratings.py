"""Ratings: a pure Plackett-Luce fold per game type; each finished game rated once; rebuild is exact."""

from __future__ import annotations

import json
from functools import reduce

import pytest
from rq import Queue, SimpleWorker

from domain.events import GENESIS_HASH, RecordedEvent, record
from domain.ratings import (
    MU,
    RatingTable,
    aggregate_id,
    apply,
    evolve,
    from_snapshot,
    identity,
    merge_seats,
    replay,
    to_snapshot,
    verify,
)
from domain.ratings import decide as decide_rated
from domain.values import changed
from service.adapters.jobs import rate_job_id, worker_queues
from service.application.commands import Decision
from service.application.ratings import RatingService
from service.bootstrap import build, run_job, serve_jobs
from tests.support.services import on_every_store, queue_redis_beside

redis_client = on_every_store()


def test_an_account_is_rated_by_its_id_and_a_bot_by_kind():
    assert identity(None, None, "p-0123") == "player:p-0123"
    assert identity(None, "heuristic") == "bot:heuristic"


def test_an_identity_with_several_seats_is_rated_once_at_its_best_place():
    assert merge_seats(["bot:random", "ann", "bot:random"], [3, 2, 1]) == (["bot:random", "ann"], [1, 2])


def test_winners_go_up_losers_go_down_and_a_shared_place_moves_alike():
    table = apply(RatingTable(), decide_rated(RatingTable(), "g1", ["ann", "bob", "cy"], [1, 2, 2]))
    ann, bob, cy = (table.get(p) for p in ("ann", "bob", "cy"))
    assert ann.mu > MU > bob.mu and bob == cy
    assert ann.games == bob.games == 1


def test_a_game_with_one_identity_changes_nothing():
    event = decide_rated(RatingTable(), "g1", ["bot:heuristic"] * 4, [1, 2, 3, 4])
    assert event.data["players"] == ["bot:heuristic"] and event.data["ratings"] == {}
    assert apply(RatingTable(), event).players == {}


def recorded_history(games: list[tuple[list[str], list[int]]]) -> tuple[RatingTable, list[RecordedEvent]]:
    table, log = RatingTable(game="x"), []
    for n, (players, places) in enumerate(games):
        event = decide_rated(table, f"g{n}", players, places)
        batch = record(
            [event], after_seq=table.version, previous_hash=table.last_hash, time="t", command_id="c", command=None
        )
        batch = [RecordedEvent.from_dict(json.loads(json.dumps(e.to_dict()))) for e in batch]
        table = replay(batch, table)
        log += batch
    return table, log


HISTORY = [
    (["ann", "bob", "cy"], [1, 2, 3]),
    (["bob", "dee"], [1, 2]),
    (["cy", "ann", "dee", "bob"], [2, 1, 4, 2]),
    (["bot:random", "ann", "bot:random"], [1, 3, 2]),
]


def test_rebuilding_from_the_events_gives_identical_numbers():
    live, log = recorded_history(HISTORY)
    rebuilt = replay(log, game="x")
    assert rebuilt == live
    assert verify(log, game="x") == []  # what each decision recorded, the fold recomputes
    assert rebuilt.last_hash != GENESIS_HASH and rebuilt.version == len(HISTORY)


def test_verify_names_a_game_whose_recorded_ratings_were_altered():
    _, log = recorded_history(HISTORY)
    forged = dict(log[1].data, ratings={"bob": [40.0, 5.0], "dee": [10.0, 5.0]})
    log[1] = changed(log[1], data=forged)
    assert verify(log, game="x") == ["g1"]


def play_to_the_end(services, game_id: str, seat: int = 0) -> None:
    """Play a human seat of a toy game against bots until the game is over."""
    while (game := services.repository.load(game_id)).status != "finished":
        assert seat in game.to_act
        services.games.act(game_id, seat, {"type": "add", "n": 2})


def account(services, handle: str) -> dict:
    """Return an account's seat spec, as the HTTP layer hands it on."""
    player, _ = services.players.register(handle)
    return {"player": player.id, "handle": player.handle}


def test_every_finished_casual_game_is_rated_once(services):
    ann = account(services, "ann")
    game, _ = services.games.create("toy", [ann, {"bot": "random"}], {})
    play_to_the_end(services, game.id)
    stream = aggregate_id("toy")
    assert [e.data["game_id"] for e in services.store.read(stream)] == [game.id]
    assert services.store.read(stream)[0].data["final_hash"] == services.repository.load(game.id).last_hash
    assert services.ratings.rate_game(game.id) == "duplicate"
    assert len(services.store.read(stream)) == 1
    board = services.ratings.leaderboard("toy")
    assert {(p["player"], p["player_id"]) for p in board["players"]} == {("ann", ann["player"]), ("bot:random", None)}
    assert services.ratings.rebuild("toy") == services.ratings.table("toy")


def test_an_unfinished_game_is_not_rated(services):
    game, _ = services.games.create("toy", [{"name": "ann"}, {"name": "bob"}], {}, seed="r2")
    assert services.ratings.rate_game(game.id) == "unfinished"
    assert services.store.read(aggregate_id("toy")) == []


def test_a_rating_job_delivered_twice_rates_once(redis_client, prefix):
    rq = queue_redis_beside(redis_client)
    # The jobs run on these services, whose store may be a cluster while RQ is on a plain Redis.
    services = serve_jobs(build(redis_client, prefix, inline_jobs=False, queue_redis=rq))
    game, _ = services.games.create("toy", [{"bot": "random"}, account(services, "ann")], {})
    queue = Queue(prefix, connection=rq)
    worker = SimpleWorker(worker_queues(prefix, rq), connection=rq, name=f"{prefix}-worker")
    while services.repository.load(game.id).status != "finished":
        worker.work(burst=True)
        if 1 in services.repository.load(game.id).to_act:
            services.games.act(game.id, 1, {"type": "add", "n": 2})
    worker.work(burst=True)
    assert len(services.store.read(aggregate_id("toy"))) == 1
    # the same job again, as after a crash
    queue.enqueue(run_job, "rate", game.id, prefix=prefix, job_id=rate_job_id(prefix, game.id))
    SimpleWorker([queue], connection=rq, name=f"{prefix}-worker").work(burst=True)
    assert len(services.store.read(aggregate_id("toy"))) == 1


@pytest.mark.parametrize("places", [[1, 2], [2, 1], [1, 1]])
def test_two_player_results_move_ratings_symmetrically(places):
    table = apply(RatingTable(), decide_rated(RatingTable(), "g", ["a", "b"], places))
    a, b = table.get("a"), table.get("b")
    assert a.mu - MU == pytest.approx(MU - b.mu)
    assert (a.mu > b.mu) == (places[0] < places[1])


def test_the_batch_fold_is_the_event_by_event_fold():
    _, log = recorded_history(HISTORY)
    assert replay(log, game="x") == reduce(evolve, log, RatingTable(game="x"))
    assert replay(log[2:], replay(log[:2], game="x")) == replay(log, game="x")


def test_a_snapshot_holds_the_table_exactly_and_only_for_its_own_game_and_fold():
    live, _ = recorded_history(HISTORY)
    data = json.loads(json.dumps(to_snapshot(live)))
    assert from_snapshot(data, "x") == live
    for bad in ({**data, "game": "y"}, {**data, "fold": "another"}, {**data, "format": 0}, {**data, "version": "4"}):
        with pytest.raises(ValueError):
            from_snapshot(bad, "x")
    with pytest.raises(ValueError):
        from_snapshot({**data, "players": {"ann": [25, 8.3, 1]}}, "x")  # an int where the fold keeps a float


def rate_games(ratings: RatingService, count: int, start: int = 0) -> None:
    """Rate `count` made-up games of the toy game among five players."""
    for n in range(start, start + count):
        seated = [f"p{(n * 2 + k) % 5}" for k in range(3)]
        places = [1 + (n + k) % 3 for k in range(3)]
        ratings.commands.run(
            aggregate_id("toy"),
            lambda table, g=f"g{n}", s=seated, p=places: Decision({"kind": "rate"}, [decide_rated(table, g, s, p)]),
            optimistic=True,
        )


def fresh_ratings(services) -> RatingService:
    """The ratings of a fresh process: nothing cached, snapshots every 4 events."""
    return RatingService(services.store, services.repository, snapshot_every=4)


def test_a_fresh_process_resumes_from_the_snapshot_and_gets_what_a_full_replay_gets(services):
    rate_games(fresh_ratings(services), 10)  # crosses 4 and 8: the snapshot is at version 8
    fresh = fresh_ratings(services)
    resumed = fresh.snapshots.resume(aggregate_id("toy"), lambda key, after: services.store.read(key, after=after))
    assert resumed is not None and resumed[0].version == 8 and [e.seq for e in resumed[1]] == [9, 10]
    assert fresh.table("toy") == fresh.rebuild("toy") and fresh.table("toy").version == 10
    assert fresh.leaderboard("toy") == fresh_ratings(services).leaderboard("toy")
    rate_games(fresh, 3, start=10)  # on from the resumed table to 13, past 12: a newer snapshot
    assert fresh.snapshots.load(aggregate_id("toy")).version == 12
    assert fresh_ratings(services).table("toy") == fresh.rebuild("toy")


@pytest.mark.parametrize(
    "spoil",
    [
        lambda data: b"not json",
        lambda data: json.dumps({**data, "format": 0}),
        lambda data: json.dumps({**data, "players": {}, "last_hash": "0" * 64}),  # not the stream's event
        lambda data: json.dumps({**data, "version": 1_000_000}),  # past the end of the stream
    ],
    ids=["unreadable", "old-format", "stale", "ahead"],
)
def test_a_corrupt_old_or_stale_snapshot_is_ignored_for_a_full_replay(services, redis_client, spoil):
    rate_games(fresh_ratings(services), 9)
    key = fresh_ratings(services).snapshots.key(aggregate_id("toy"))
    redis_client.set(key, spoil(json.loads(redis_client.get(key))))
    fresh = fresh_ratings(services)
    assert fresh.table("toy") == fresh.rebuild("toy") and fresh.table("toy").version == 9
    # the replay past a multiple of 4 wrote a good snapshot over it
    assert fresh_ratings(services).snapshots.load(aggregate_id("toy")) == fresh.table("toy")
