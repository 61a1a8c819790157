"""Step jobs in slices: a job takes a game's consecutive system and bot steps, yields when its time is up,
and a human game's step still goes first; a worker that dies mid-slice loses nothing."""

from __future__ import annotations

import itertools

import pytest
from rq import SimpleWorker

from domain.audit import audit
from service.adapters.jobs import JobQueue, step_job_id, worker_queues
from service.bootstrap import build, serve_jobs

BOTS = [{"bot": "random"}, {"bot": "random"}]


def rq_services(redis_client, prefix, **options):
    # The worker below runs its jobs on these services (and their timer).
    return serve_jobs(build(redis_client, prefix, inline_jobs=False, **options))


def run_one_job(redis_client, prefix) -> None:
    worker = SimpleWorker(worker_queues(prefix, redis_client), connection=redis_client, name=f"{prefix}-worker")
    worker.work(burst=True, max_jobs=1)


def ticking(step: float):
    """A timer that moves on by `step` seconds each time it is read."""
    ticks = itertools.count()
    return lambda: next(ticks) * step


def commands_of(services, game_id, after):
    return {event.command_id for event in services.store.read(game_id, after=after)}


def test_a_slice_takes_several_steps_in_one_job(redis_client, prefix):
    services = rq_services(redis_client, prefix)
    game, _ = services.games.create("toy", BOTS, {"goal": 50}, seed="s1")
    run_one_job(redis_client, prefix)
    after = services.repository.load(game.id)
    assert len(commands_of(services, game.id, game.version)) > 1  # several bot moves (and scorings), one job
    assert after.status == "finished" or worker_queues(prefix, redis_client)[1].job_ids == [
        step_job_id(prefix, game.id, after.version)
    ]


def test_a_slice_whose_time_is_up_yields_to_the_next_game_in_the_queue(redis_client, prefix):
    services = rq_services(redis_client, prefix)
    # The slice's timer moves 30 ms a look: the slice ends after its second step.
    services.games.timer = ticking(0.03)
    first, _ = services.games.create("toy", BOTS, {"goal": 50}, seed="s2")
    second, _ = services.games.create("toy", BOTS, {"goal": 50}, seed="s3")
    queue = worker_queues(prefix, redis_client)[1]
    assert queue.job_ids == [
        step_job_id(prefix, first.id, first.version),
        step_job_id(prefix, second.id, second.version),
    ]
    run_one_job(redis_client, prefix)
    moved = services.repository.load(first.id)
    assert len(commands_of(services, first.id, first.version)) == 2
    # The rest of the first game waits behind the second game's job.
    assert queue.job_ids == [
        step_job_id(prefix, second.id, second.version),
        step_job_id(prefix, first.id, moved.version),
    ]
    run_one_job(redis_client, prefix)
    assert services.repository.load(second.id).version > second.version
    assert services.repository.load(first.id).version == moved.version


def test_a_human_games_bot_turn_is_taken_before_queued_all_bot_slices(redis_client, prefix):
    services = rq_services(redis_client, prefix)
    services.games.timer = ticking(0.03)
    bot_games = [services.games.create("toy", BOTS, {"goal": 50}, seed=f"s4-{n}")[0] for n in range(3)]
    run_one_job(redis_client, prefix)  # the first all-bot game's slice; its rest queues behind the others
    human, _ = services.games.create("toy", [{"bot": "random"}, {"name": "ann"}], {"goal": 50}, seed="s5")
    versions = {g.id: services.store.version(g.id) for g in bot_games}
    run_one_job(redis_client, prefix)
    taken = services.repository.load(human.id)
    assert taken.version > human.version and taken.to_act == {1}  # the bot moved; ann's turn
    assert {g.id: services.store.version(g.id) for g in bot_games} == versions


class Died(BaseException):
    """The worker process dies here (a `kill -9` mid-slice)."""


class NoQueue(JobQueue):
    """Jobs that never run: only the steward takes the game's steps."""

    def submit(self, name, args, key, urgent=False):
        pass


def test_a_worker_that_dies_mid_slice_loses_nothing_and_the_steward_goes_on(redis_client, prefix):
    # Overdue at once (a step timeout of 0), so the steward need not wait for it.
    services = build(redis_client, prefix, inline_jobs=False, step_timeout_s=0)
    services.games.jobs = NoQueue()
    game, _ = services.games.create("toy", BOTS, {"goal": 50}, seed="s6")
    mark = services.due.pending()[game.id]
    choose, calls = services.games.bots.choose, itertools.count()

    def dies_on_the_fourth_move(*args, **kwargs):
        if next(calls) == 3:
            raise Died
        return choose(*args, **kwargs)

    services.games.bots.choose = dies_on_the_fourth_move
    with pytest.raises(Died):
        services.games.step(game.id, game.version)
    # The three moves decided before were never appended, so nobody was told of them; the mark stands.
    assert services.store.version(game.id) == game.version
    assert services.due.pending() == {game.id: mark}
    services.games.bots.choose = choose
    services.repository.games.forget(game.id)  # a fresh process knows only the stream
    steward = services.steward()
    for _ in range(100):
        if services.repository.load(game.id).status == "finished":
            break
        steward.run_once()
    assert services.repository.load(game.id).status == "finished"
    assert audit(services.store.read_raw(game.id)).ok


def test_a_slice_that_loses_the_race_to_append_schedules_the_game_where_it_now_is(redis_client, prefix):
    services = rq_services(redis_client, prefix)
    game, _ = services.games.create("toy", [{"bot": "random"}, {"name": "ann"}], {"goal": 50}, seed="s7")
    other = build(redis_client, prefix, inline_jobs=False)  # another process, whose step goes first
    assert other.games.step(game.id, game.version) == "done"
    moved = other.store.version(game.id)
    assert services.games.step(game.id, game.version) == "stale"  # decided on its stale copy, refused at the append
    assert services.store.version(game.id) == moved
    assert services.repository.cached(game.id).version == moved


def test_a_searching_bot_starts_a_slice_of_its_own(redis_client, prefix):
    # An mcts seat reads its log from the stream, which holds a slice's steps only once the slice
    # is appended: so each mcts move comes first in its job, after what the slice before appended.
    services = rq_services(redis_client, prefix)
    seats = [{"bot": "heuristic"}, {"bot": "mcts"}]
    game, _ = services.games.create("zop-zoo", seats, {"mcts_iterations": 3, "target": 60}, seed="search")
    while (current := services.repository.load(game.id)).status != "finished":
        before = current.version
        run_one_job(redis_client, prefix)
        events = services.store.read(game.id, after=before)
        assert events, "every job moves the game on"
        commands = [event.command for event in events if event.command is not None]  # on each command's first event
        searched = [at for at, command in enumerate(commands) if command["kind"] == "act" and command["seat"] == 1]
        assert searched in ([], [0]), f"an mcts move came after other steps in one slice: {commands}"
    assert audit([event.to_dict() for event in services.store.read(game.id)]).ok
