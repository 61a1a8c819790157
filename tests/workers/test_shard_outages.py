"""A job whose store shard fails is put back for later instead of holding its worker; the shard rests meanwhile."""

from __future__ import annotations

from unittest import mock

from redis.cluster import RedisCluster
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from rq import SimpleWorker
from rq.job import Job
from rq.registry import ScheduledJobRegistry

from service.adapters.jobs import step_job_id, worker_queues
from service.adapters.outages import ShardOutages
from service.bootstrap import build, serve_jobs


def shard_down(*args, **kwargs):
    raise RedisConnectionError("the shard is down")


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_failed_shard_rests_longer_each_time_and_is_looked_at_again_after_each_rest(redis_client):
    clock, answering = Clock(), [False]
    outages = ShardOutages(
        redis_client, lambda subject: subject, first_s=0.5, longest_s=1.0, clock=clock, answers=lambda _: answering[0]
    )
    shard, rest = outages.rest_for("g1")
    assert rest == 0
    assert outages.failed(shard) == 0.5
    assert outages.rest_for("g1") == (shard, 0.5)
    clock.now += 0.5
    assert outages.rest_for("g1") == (shard, 1.0)  # looked at, still silent: a longer rest
    clock.now += 1.0
    assert outages.rest_for("g1") == (shard, 1.0)  # no longer than the longest
    clock.now += 1.0
    answering[0] = True
    assert outages.rest_for("g1") == (shard, 0)  # it answers: jobs run again
    assert outages.failed(shard) == 0.5  # and a new failure starts from the first rest


def test_a_job_that_went_through_ends_its_shards_rest(redis_client):
    outages = ShardOutages(redis_client, lambda subject: subject, answers=lambda _: False)
    shard, _ = outages.rest_for("g1")
    outages.failed(shard)
    outages.recovered(shard)
    assert outages.rest_for("g1") == (shard, 0)


def test_a_job_that_meets_a_store_outage_is_put_back_for_later_and_the_next_on_its_shard_waits(redis_client, prefix):
    services = serve_jobs(build(redis_client, prefix, inline_jobs=False))
    first, _ = services.games.create("toy", [{"bot": "random"}, {"bot": "random"}], {}, seed="o1")
    second, _ = services.games.create("toy", [{"bot": "random"}, {"bot": "random"}], {}, seed="o2")
    steps = []

    def unavailable(game_id, version, clock_out=None):
        steps.append(game_id)
        raise RedisConnectionError("the shard is down")

    services.games.step = unavailable
    worker = SimpleWorker(worker_queues(prefix, redis_client), connection=redis_client, name=f"{prefix}-worker")
    worker.work(burst=True, max_jobs=2)
    assert steps == [first.id]  # the second game's job did not even try: its shard rests
    first_id, second_id = step_job_id(prefix, first.id, first.version), step_job_id(prefix, second.id, second.version)
    assert Job.fetch(first_id, connection=redis_client).return_value() == "deferred"
    assert Job.fetch(second_id, connection=redis_client).return_value() == "deferred"
    scheduled = ScheduledJobRegistry(queue=worker_queues(prefix, redis_client)[1]).get_job_ids()
    assert sorted(scheduled) == sorted([f"{first_id}-later1", f"{second_id}-later1"])
    assert services.store.version(first.id) == first.version  # nothing was lost or done twice


def test_when_a_resting_shard_answers_again_the_jobs_put_back_run_at_once(redis_client, prefix):
    services = serve_jobs(build(redis_client, prefix, inline_jobs=False))
    game, _ = services.games.create("toy", [{"bot": "random"}, {"bot": "random"}], {}, seed="o3")
    step = services.games.step
    services.games.step = shard_down
    worker = SimpleWorker(worker_queues(prefix, redis_client), connection=redis_client, name=f"{prefix}-worker")
    worker.work(burst=True, max_jobs=1)
    queue = worker_queues(prefix, redis_client)[1]
    assert ScheduledJobRegistry(queue=queue).get_job_ids() != []
    services.games.step = step
    services.outages.clock = lambda: float("inf")  # the rest is over; the store answers the probe
    assert services.outages.rest_for(game.id)[1] == 0
    assert ScheduledJobRegistry(queue=queue).get_job_ids() == []
    assert queue.job_ids == [f"{step_job_id(prefix, game.id, game.version)}-later1"]


def test_on_a_cluster_a_failure_on_another_shards_key_does_not_rest_the_jobs_shard():
    # A step or a rating also writes keys of other shards (a game type's rating stream, an index):
    # when one of those fails, the job's own shard, which answers, goes on serving its games.
    cluster = mock.create_autospec(RedisCluster, instance=True)
    mine, other = "127.0.0.1:7001", "127.0.0.1:7002"
    outages = ShardOutages(cluster, lambda subject: subject, first_s=0.5, longest_s=2.0, answers=lambda s: s == mine)
    elsewhere = RedisConnectionError(f"Error 111 connecting to {other}. Connection refused.")
    assert outages.failed(mine, elsewhere) == 0.5
    assert outages.failed(mine, elsewhere) == 0.5  # never rested, so never a longer rest
    # A failure that names the job's own node rests it at once, without a probe, and longer each time.
    silent = RedisTimeoutError(f"Timeout reading from {other}")
    assert outages.failed(other, silent) == 0.5 and outages.failed(other, silent) == 1.0
