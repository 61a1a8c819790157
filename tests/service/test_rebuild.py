"""`menagerie rebuild`: each read model refilled from the streams beside the served one, then switched in one step.

The rebuilt model equals the live one over many random games, also when games
finish and tournaments move on while it is built; readers are served the old
generation until the switch; a rebuild killed in mid-run leaves the served
model as it was, and the next run removes what it left.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain.ratings import aggregate_id, leaderboard
from service.adapters.generations import RebuildRunning
from service.application.read_models import (
    MODELS,
    Rebuilder,
    ratings_value,
    standings_value,
)
from service.bootstrap import Services
from service.cli import main
from service.http import create_app
from tests.support.services import CLUSTER, REAL


def account(services: Services, handle: str) -> dict[str, Any]:
    player, _ = services.players.register(handle)
    return {"player": player.id, "handle": player.handle}


def play_out(services: Services, game_id: str, rng: random.Random) -> None:
    """Play every human seat of a game at random until it ends (bots play by themselves)."""
    while (game := services.repository.load(game_id)).status != "finished":
        seat = rng.choice(game.humans_to_act())
        services.games.act(game_id, seat, rng.choice(game.legal_actions(seat)))


def random_games(services: Services, rng: random.Random, count: int, people: list[dict[str, Any]]) -> list[str]:
    """Play `count` random games of the toy game: accounts, a guest, bots, some of fixed dealing (so unrated)."""
    choices = [*people, {"name": "gus"}, {"bot": "random"}]
    ids = []
    for n in range(count):
        seats = [rng.choice(choices) for _ in range(rng.choice((2, 3)))]
        seed = {"seed": f"fixed-{rng.random()}"} if rng.random() < 0.2 else {}
        game, _ = services.games.create("toy", seats, {}, **seed)
        if n % 7 != 6:  # a few stay in play: listed, not rated
            play_out(services, game.id, rng)
        ids.append(game.id)
    return ids


def rated_games(services: Services, rng: random.Random, count: int, people: list[dict[str, Any]]) -> None:
    """Play `count` games between two accounts to the end: each is rated."""
    for _ in range(count):
        game, _ = services.games.create("toy", rng.sample(people, 2), {})
        play_out(services, game.id, rng)


def bot_tournament(services: Services, seed: str, start: bool = True) -> str:
    created, _ = services.tournaments.create("toy", rounds=2, table_sizes=[3], seed=seed)
    for _ in range(6):
        services.tournaments.register(created.id, bot="random")
    if start:
        services.tournaments.start(created.id)
    return created.id


def assert_served_equal_live(services: Services, tournaments: list[str]) -> None:
    """Every model as served equals a fold of the streams now."""
    models, table = services.models, services.ratings.table("toy")
    assert table.rated_games > 0
    assert models.ratings.read(aggregate_id("toy")) == (table.version, ratings_value(table))
    assert models.leaderboards.read(aggregate_id("toy")) == (
        table.version,
        {"rated_games": table.rated_games, "players": leaderboard(table)},
    )
    for tournament_id in tournaments:
        tournament = services.tournaments.rebuild(tournament_id)
        assert models.standings.read(tournament_id) == (tournament.version, standings_value(tournament))


def lobby(services: Services) -> tuple[list[str], list[str]]:
    games, _ = services.directory.recent_games(10_000)
    tournaments, _ = services.tournaments.index.recent_tournaments(None, 10_000)
    return games, tournaments


def test_every_rebuilt_model_equals_the_live_one_over_many_random_games(services):
    rng = random.Random(11)
    people = [account(services, handle) for handle in ("ann", "bob", "cyd", "dee")]
    games = random_games(services, rng, 40, people)
    tournaments = [bot_tournament(services, "first"), bot_tournament(services, "second", start=False)]
    before = lobby(services)
    assert set(games) <= set(before[0]) and set(tournaments) == set(before[1])
    for model in MODELS:
        report = Rebuilder(services.models).rebuild(model)
        assert report.differences == [], model
        assert report.generation == report.served + 1 and report.passes == 2 and report.caught_up == 0
    assert lobby(services) == before
    assert_served_equal_live(services, tournaments)
    board = services.ratings.leaderboard("toy")
    assert board["rated_games"] == services.ratings.table("toy").rated_games > 0


def test_games_finished_during_a_rebuild_are_in_the_model_switched_to_and_readers_see_the_old_one_until_then(services):
    rng = random.Random(12)
    people = [account(services, handle) for handle in ("ann", "bob", "cyd")]
    random_games(services, rng, 12, people)
    tournaments = [bot_tournament(services, "early")]
    late: list[str] = []
    seen: list[Any] = []
    ratings = services.models.ratings
    old = ratings.generations.served()

    def meanwhile(step: str) -> None:
        if step == "pass 1":  # built once; now the service moves on before the catch-up and the switch
            late.extend(random_games(services, rng, 10, people))
            tournaments.append(bot_tournament(services, "late"))
        if step == "switch":
            # Built and caught up, not switched: readers are still served the old generation, up to date.
            seen.append((ratings.generations.served(), ratings.read(aggregate_id("toy"))))

    report = Rebuilder(services.models, pause=meanwhile).rebuild("ratings")
    table = services.ratings.table("toy")
    assert seen == [(old, ratings.dump(old)[aggregate_id("toy")])]
    assert seen[0][1] == (table.version, ratings_value(table))
    assert report.generation == old + 1 and ratings.generations.served() == old + 1
    for model in ("leaderboards", "standings", "lobby"):
        assert Rebuilder(services.models).rebuild(model).differences == []
    assert set(late) <= set(lobby(services)[0])
    assert_served_equal_live(services, tournaments)


def test_the_lobby_served_over_http_is_the_same_before_during_and_after_a_rebuild(services):
    random_games(services, random.Random(19), 9, [account(services, "ann"), account(services, "bob")])
    bot_tournament(services, "http")
    client = create_app(services).test_client()

    def served() -> tuple[Any, Any]:
        return client.get("/games?limit=100").json, client.get("/tournaments").json

    before, during = served(), []
    report = Rebuilder(services.models, pause=lambda step: during.append(served())).rebuild("lobby")
    assert len(during) == 3 and all(answer == before for answer in during)  # two passes, then the switch
    assert served() == before and report.served != services.models.lobby.served()


def test_a_rating_appended_by_a_writer_that_read_the_pointer_before_the_lease_is_caught_up(services):
    rng = random.Random(13)
    people = [account(services, handle) for handle in ("ann", "bob")]
    random_games(services, rng, 6, people)

    def meanwhile(step: str) -> None:
        if step == "pass 1":
            # A writer that wrote no model (it read the pointer before the lease, then stalled): only the stream has it.
            models, services.ratings.models = services.ratings.models, None
            rated_games(services, rng, 4, people)
            services.ratings.models = models

    report = Rebuilder(services.models, pause=meanwhile).rebuild("ratings")
    assert report.caught_up == 1 and report.passes == 3
    table = services.ratings.table("toy")
    assert services.models.ratings.read(aggregate_id("toy")) == (table.version, ratings_value(table))


def test_a_killed_rebuild_leaves_the_served_model_and_the_next_run_removes_what_it_left(services):
    rng = random.Random(14)
    random_games(services, rng, 8, [account(services, "ann"), account(services, "bob")])
    Rebuilder(services.models).rebuild("lobby")
    generations = services.models.lobby
    served, before = generations.served(), lobby(services)
    # A run killed in mid-build: its lease taken, half its generation written, no switch.
    _, new, _ = generations.begin()
    services.redis.zadd(generations.key(new, "games"), {"0123456789abcdef": 1.0})
    with pytest.raises(RebuildRunning):
        Rebuilder(services.models).rebuild("lobby")  # the lease holds until it lapses
    assert generations.served() == served and lobby(services) == before
    services.redis.delete(generations.lease)  # the lease lapses
    report = Rebuilder(services.models).rebuild("lobby")
    # What it wrote is removed, never served.
    assert report.differences == [] and report.generation == new + 1
    assert services.redis.exists(generations.key(new, "games")) == 0
    assert lobby(services) == before and "0123456789abcdef" not in lobby(services)[0]
    # The generation it switched from expires after the readers' grace; the one it switched to stays.
    assert 0 < services.redis.pttl(generations.key(served, "games"))
    assert services.redis.pttl(generations.key(report.generation, "games")) == -1


def test_a_rebuild_that_fails_before_the_switch_switches_nothing_and_frees_its_lease(services):
    random_games(services, random.Random(15), 4, [account(services, "ann"), account(services, "bob")])
    served = services.models.ratings.generations.served()

    def fail(step: str) -> None:
        if step == "switch":
            raise ConnectionError("lost the store")

    with pytest.raises(ConnectionError):
        Rebuilder(services.models, pause=fail).rebuild("ratings")
    assert services.models.ratings.generations.served() == served
    assert Rebuilder(services.models).rebuild("ratings").differences == []


def test_the_first_lobby_rebuild_replaces_the_keys_from_before_generations(services):
    random_games(services, random.Random(16), 5, [account(services, "ann")])
    legacy = f"{services.prefix}:games"
    before = lobby(services)
    assert services.redis.zcard(legacy) == 5
    Rebuilder(services.models).rebuild("lobby")
    assert lobby(services) == before and 0 < services.redis.pttl(legacy)


@pytest.mark.parametrize("redis_client", [REAL], indirect=True)
def test_the_command_rebuilds_every_model_and_says_what_it_did(services, monkeypatch, capsys):
    random_games(services, random.Random(17), 6, [account(services, "ann"), account(services, "bob")])
    bot_tournament(services, "cli")
    url = services.redis.connection_pool.connection_kwargs
    monkeypatch.setenv("REDIS_URL", f"redis://{url['host']}:{url['port']}/{url.get('db', 0)}")
    monkeypatch.setenv("MENAGERIE_PREFIX", services.prefix)
    assert main(["rebuild", "all"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines] == list(MODELS)
    assert all("equal to the served one" in line for line in lines)
    assert main(["rebuild", "lobby"]) == 0  # twice is fine
    assert "generation 1 -> 2" in capsys.readouterr().out


@pytest.mark.parametrize("redis_client", [CLUSTER], indirect=True)
def test_a_rebuild_on_a_cluster_switches_in_one_slot_and_equals_the_live_model(services):
    rng = random.Random(18)
    random_games(services, rng, 10, [account(services, "ann"), account(services, "bob")])
    tournament = bot_tournament(services, "cluster")
    before = lobby(services)
    for model in MODELS:
        assert Rebuilder(services.models).rebuild(model).differences == []
    assert lobby(services) == before
    assert_served_equal_live(services, [tournament])
