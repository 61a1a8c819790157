"""The embedded server (`make run`) answers at once while its bots play on a thread of their own."""

from __future__ import annotations

import threading
import time

from service.adapters.jobs import BackgroundJobs
from service.http import create_app


def test_a_job_is_queued_by_the_caller_and_run_with_its_follow_ups_on_the_jobs_thread():
    release, done = threading.Event(), threading.Event()
    ran: list[tuple[str, threading.Thread]] = []

    def dispatch(name, args):
        if name == "step":
            release.wait(30)
            jobs.rate(args[0])  # a follow-up, asked for inside the job
        ran.append((name, threading.current_thread()))
        if name == "rate":
            done.set()

    jobs = BackgroundJobs(dispatch)
    jobs.step("g1", 3)
    assert ran == []  # the caller is back while the step waits on the jobs thread
    release.set()
    assert done.wait(30)
    assert [name for name, _ in ran] == ["step", "rate"]
    assert all(thread is not threading.current_thread() for _, thread in ran)


def test_the_embedded_server_plays_an_all_bot_game_to_the_end_in_the_background(monkeypatch):
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.setenv("MENAGERIE_PREFIX", "embedded-test")
    app = create_app(config={"RATE_LIMITS_ENABLED": False})
    assert isinstance(app.extensions["menagerie"].jobs, BackgroundJobs)
    client = app.test_client()
    created = client.post("/games", json={"game": "bloede-kuh", "seats": [{"bot": "heuristic"}] * 3, "seed": "e1"})
    assert created.status_code == 201
    deadline = time.monotonic() + 120
    while (view := client.get(f"/games/{created.json['id']}").json)["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.05)
    assert view["result"] is not None
    assert client.get(f"/games/{created.json['id']}/audit").json["ok"]
