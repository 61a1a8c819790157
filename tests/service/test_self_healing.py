"""Steps derived from the stream: the due index is written with the append, and a steward takes what is overdue."""

from __future__ import annotations

from rq import Queue

from domain.audit import audit
from service.adapters.jobs import human_queue_name, step_job_id
from service.bootstrap import build


class LostJobs:
    """Jobs that never run: the process died between the append and the enqueue, every time."""

    def step(self, game_id: str, version: int, humans: bool = False) -> None:
        pass

    def rate(self, game_id: str) -> None:
        pass

    def advance(self, tournament_id: str, reason: str) -> None:
        pass


def stranding_services(redis_client, prefix, step_timeout_s=0):
    # One step a job (a slice of 0 s), so each claim's step can be watched on its own.
    services = build(redis_client, prefix, inline_jobs=False, step_timeout_s=step_timeout_s, step_slice_s=0)
    services.games.jobs = LostJobs()
    return services


def test_an_append_marks_what_the_game_waits_on(redis_client, prefix):
    services = build(redis_client, prefix, inline_jobs=False, step_timeout_s=30)
    now_ms = int(float(redis_client.time()[0]) * 1000)
    bots, _ = services.games.create("toy", [{"bot": "random"}, {"bot": "random"}], {}, seed="h1")
    human, _ = services.games.create("toy", [{"name": "ann"}, {"name": "bob"}], {}, seed="h2")
    pending = services.due.pending()
    assert set(pending) == {bots.id}  # a game waiting on a human is not marked
    # overdue only once its step job has had a step timeout to run
    assert now_ms + 29_000 <= pending[bots.id] <= now_ms + 31_000 + 1000
    assert human.status == "active"


def test_a_game_whose_step_was_never_enqueued_is_finished_by_the_steward(redis_client, prefix):
    services = stranding_services(redis_client, prefix)
    game, _ = services.games.create("toy", [{"bot": "random"}, {"bot": "random"}], {}, seed="h3")
    steward = services.steward()
    for _ in range(200):
        if services.repository.load(game.id).status == "finished":
            break
        steward.run_once()
    finished = services.repository.load(game.id)
    assert finished.status == "finished"
    assert services.due.pending() == {}  # the last append unmarked it
    assert audit(services.store.read_raw(game.id)).ok


def test_nothing_is_overdue_before_the_step_timeout(redis_client, prefix):
    services = stranding_services(redis_client, prefix, step_timeout_s=30)
    game, _ = services.games.create("toy", [{"bot": "random"}, {"bot": "random"}], {}, seed="h4")
    assert services.steward().run_once() == 0
    assert services.repository.load(game.id).version == game.version


def test_a_claim_is_a_lease_and_release_spares_a_newer_mark(redis_client, prefix):
    services = stranding_services(redis_client, prefix)
    game, _ = services.games.create("toy", [{"bot": "random"}, {"bot": "random"}], {}, seed="h5")
    [(claimed, lease)] = services.due.claim(lease_ms=60_000)
    assert claimed == game.id
    assert services.due.claim(lease_ms=60_000) == []  # held by the first claimer
    services.games.resume(game.id)  # the step's append rewrites the mark: that is the acknowledgement
    assert services.due.pending()[game.id] != lease
    assert not services.due.release(game.id, lease)
    assert game.id in services.due.pending()


def test_a_claimer_that_dies_lets_the_next_take_the_game_after_its_lease(redis_client, prefix):
    services = stranding_services(redis_client, prefix)
    game, _ = services.games.create("toy", [{"bot": "random"}, {"bot": "random"}], {}, seed="h6")
    assert [g for g, _ in services.due.claim(lease_ms=0)] == [game.id]  # a claimer that died at once
    assert services.steward().run_once() == 1  # its lease (0 ms) is over: taken again
    assert services.repository.load(game.id).version > game.version


def test_a_step_asked_for_twice_is_enqueued_once(redis_client, prefix):
    services = build(redis_client, prefix, inline_jobs=False)
    game, _ = services.games.create("toy", [{"bot": "random"}, {"name": "ann"}], {}, seed="h7")
    services.jobs.step(game.id, game.version, humans=True)
    services.jobs.step(game.id, game.version, humans=True)
    queue = Queue(human_queue_name(prefix), connection=redis_client)
    assert queue.job_ids == [step_job_id(prefix, game.id, game.version)]


def test_an_archived_game_leaves_the_due_index(redis_client, prefix):
    services = stranding_services(redis_client, prefix)
    game, _ = services.games.create("toy", [{"bot": "random"}, {"bot": "random"}], {}, seed="h8")
    services.store.delete(game.id)
    assert services.due.pending() == {}
