"""Steps as RQ jobs: bots and system steps run by a burst worker; a job run twice is harmless."""

from __future__ import annotations

from rq import Queue, SimpleWorker
from rq.job import Job

from service.adapters.jobs import human_queue_name, step_job_id, worker_queues
from service.bootstrap import build


def rq_services(redis_client, prefix):
    return build(redis_client, prefix, inline_jobs=False)


def run_jobs(redis_client, prefix) -> None:
    queues = worker_queues(prefix, redis_client)
    SimpleWorker(queues, connection=redis_client, name=f"{prefix}-worker").work(burst=True)


def test_a_bot_game_runs_to_the_end_through_the_worker(redis_client, prefix):
    services = rq_services(redis_client, prefix)
    game, _ = services.games.create("toy", [{"bot": "random"}, {"bot": "random"}], {}, seed="w1")
    assert game.status == "active"
    assert Queue(prefix, connection=redis_client).count >= 1
    run_jobs(redis_client, prefix)
    finished = services.repository.load(game.id)
    assert finished.status == "finished"
    # every system step (a "Scored" event after each 4th move) was taken by a job
    types = [e.type for e in services.store.read(game.id)]
    assert types.count("Scored") == sum(1 for _ in range(4, finished.rules_state.moves, 4))


def test_a_job_run_twice_does_its_work_once(redis_client, prefix):
    services = rq_services(redis_client, prefix)
    game, tokens = services.games.create("toy", [{"bot": "random"}, {"name": "ann"}], {"goal": 50}, seed="w2")
    version = services.repository.load(game.id).version
    job_id = step_job_id(prefix, game.id, version)
    job = Job.fetch(job_id, connection=redis_client)
    queue = Queue(prefix, connection=redis_client)
    queue.enqueue_job(job)  # a second delivery of the same job, as after a crash
    run_jobs(redis_client, prefix)
    events = services.store.read(game.id, after=version)
    assert [e.type for e in events] == ["Added"]  # one bot move, not two
    assert services.games.step(game.id, version) == "stale"
    assert services.store.read(game.id, after=version) == events


def test_step_jobs_have_deterministic_ids(redis_client, prefix):
    services = rq_services(redis_client, prefix)
    game, _ = services.games.create("toy", [{"bot": "random"}, {"name": "ann"}], {}, seed="w3")
    version = services.repository.load(game.id).version
    assert Job.exists(step_job_id(prefix, game.id, version), connection=redis_client)


def test_a_crashed_workers_job_is_retried_and_does_its_work_once(redis_client, prefix):
    from rq.executions import Execution
    from rq.registry import ScheduledJobRegistry, StartedJobRegistry

    services = rq_services(redis_client, prefix)
    game, _ = services.games.create("toy", [{"bot": "random"}, {"name": "ann"}], {"goal": 50}, seed="w4")
    version = services.repository.load(game.id).version
    queue = Queue(human_queue_name(prefix), connection=redis_client)  # a game with a human seat
    job = queue.dequeue_any([queue], timeout=None, connection=redis_client)[0]
    # The worker took the job, did its work, and died before reporting back.
    services.games.step(game.id, version)
    registry = StartedJobRegistry(queue=queue)
    with redis_client.pipeline() as pipe:  # the execution RQ records when a worker starts a job
        execution = Execution.create(job, ttl=60, pipeline=pipe)
        pipe.execute()
    redis_client.zadd(registry.key, {execution.composite_key: 1})  # expired long ago: abandoned
    registry.cleanup()
    scheduled = ScheduledJobRegistry(queue=queue)
    assert job.id in scheduled.get_job_ids()  # RQ retries it after the Retry interval
    scheduled.requeue(job.id)  # what the scheduler does when the interval is up
    run_jobs(redis_client, prefix)
    moves = [e for e in services.store.read(game.id, after=version) if e.type == "Added"]
    assert len(moves) == 1


def test_steps_of_games_with_humans_go_to_the_queue_workers_serve_first(redis_client, prefix):
    services = rq_services(redis_client, prefix)
    bots, _ = services.games.create("toy", [{"bot": "random"}, {"bot": "random"}], {}, seed="w5")
    human, _ = services.games.create("toy", [{"bot": "random"}, {"name": "ann"}], {}, seed="w6")
    first, rest = worker_queues(prefix, redis_client)
    assert first.job_ids == [step_job_id(prefix, human.id, human.version)]
    assert rest.job_ids == [step_job_id(prefix, bots.id, bots.version)]
    # a worker takes the human game's step first, though it was asked for last
    job, queue = Queue.dequeue_any([first, rest], timeout=None, connection=redis_client)
    assert job.id == step_job_id(prefix, human.id, human.version)
