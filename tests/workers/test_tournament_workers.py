"""Bot tournaments run to the end through RQ workers, unattended, for every game; a rebuild equals the live record."""

from __future__ import annotations

import pytest
from rq import Queue, SimpleWorker

from domain.games import RULES
from domain.ratings import aggregate_id, verify
from domain.tournament import standings
from service.adapters.jobs import advance_job_id as progress_job_id
from service.bootstrap import build, run_job

GAMES = {"life-is-life": (3, 5), "animals-on-board": (2, 4), "bloede-kuh": (3, 6), "zop-zoo": (2, 6)}


def run_jobs(redis_client, prefix: str) -> None:
    queue = Queue(prefix, connection=redis_client)
    SimpleWorker([queue], connection=redis_client, name=f"{prefix}-worker").work(burst=True)


def bot_tournament(services, game: str, players: int, rounds: int, **settings):
    # No organiser seed: shared dealing, so the games are rated.
    tournament, _ = services.tournaments.create(game, rounds=rounds, **settings)
    for n in range(players):
        services.tournaments.register(tournament.id, bot=("heuristic", "random")[n % 2])
    services.tournaments.start(tournament.id)
    return tournament.id


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_bot_tournament_runs_to_the_end_through_the_workers(redis_client, prefix, game):
    if game not in RULES:
        pytest.skip(f"{game} is not registered yet (its rules are still being built)")
    services = build(redis_client, prefix, inline_jobs=False)
    tournament_id = bot_tournament(services, game, players=7, rounds=2)
    run_jobs(redis_client, prefix)
    tournament = services.tournaments.load(tournament_id)
    assert tournament.status == "finished", "the workers ran the tournament to its end unattended"
    low, high = GAMES[game]
    game_ids = []
    for round_ in tournament.played:
        assert not round_.byes
        for table in round_.tables:
            assert low <= len(table.entrants) <= high
            played = services.repository.load(table.game_id)
            assert played.status == "finished" and list(table.places) == played.result["places"]
            assert [s.bot for s in played.seats] == [tournament.entrants[e].bot for e in table.entrants]
            game_ids.append(table.game_id)
    rated = [e.data["game_id"] for e in services.store.read(aggregate_id(game))]
    assert sorted(rated) == sorted(game_ids), "every game rated, once"
    # rebuilt from the events alone, everything is what the live services hold
    rebuilt = services.tournaments.rebuild(tournament_id)
    assert rebuilt == tournament and standings(rebuilt) == standings(tournament)
    assert services.ratings.rebuild(game) == services.ratings.table(game)
    assert verify(services.store.read(aggregate_id(game)), game) == []
    fresh = build(redis_client, prefix, inline_jobs=False)  # a new process: no caches
    assert fresh.tournaments.view(fresh.tournaments.load(tournament_id)) == services.tournaments.view(
        services.tournaments.load(tournament_id)
    )
    assert fresh.ratings.leaderboard(game) == services.ratings.leaderboard(game)


def test_a_tournament_step_delivered_again_changes_nothing(redis_client, prefix):
    services = build(redis_client, prefix, inline_jobs=False)
    tournament_id = bot_tournament(services, "animals-on-board", players=4, rounds=1)
    run_jobs(redis_client, prefix)
    version = services.store.version(tournament_id)
    assert services.tournaments.load(tournament_id).status == "finished"
    queue = Queue(prefix, connection=redis_client)
    queue.enqueue(
        run_job,
        "advance",
        tournament_id,
        prefix=prefix,
        job_id=progress_job_id(prefix, tournament_id, "again"),
    )
    run_jobs(redis_client, prefix)
    assert services.store.version(tournament_id) == version
    assert services.tournaments.advance(tournament_id) == "idle"


def test_an_all_bot_tournament_runs_inline_with_byes_and_restricted_tables(services):
    tournament_id = bot_tournament(services, "life-is-life", players=10, rounds=3, table_sizes=[4])
    tournament = services.tournaments.load(tournament_id)
    assert tournament.status == "finished"
    assert all(len(r.byes) == 2 for r in tournament.played)
    byes = [e for r in tournament.played for e in r.byes]
    assert len(byes) == len(set(byes)), "no second bye while others have had none"
    view = services.tournaments.view(services.tournaments.load(tournament_id))
    assert sum(line["byes"] for line in view["standings"]) == 6
    assert services.tournaments.rebuild(tournament_id) == tournament
