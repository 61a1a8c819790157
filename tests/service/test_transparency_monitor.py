"""`menagerie monitor` catches what a log must never do: a rewritten entry, a dropped entry, a fork, another key.

Each test lets the monitor accept a log, then tampers with the log's Redis keys directly (or serves another
log under the same key and address), and runs the monitor again.
"""

from __future__ import annotations

import argparse
import json

import pytest

from domain.transparency import merkle
from service.adapters.note_keys import new_signer
from service.adapters.tlog import log_key
from service.bootstrap import build
from service.cli import log_reader, monitor
from service.cli.log_reader import LogReader
from service.http import create_app
from tests.support.services import FAKE, REAL, on_every_store

redis_client = on_every_store(FAKE, REAL)
URL = "http://log.test"
SIGNER = new_signer("log.test/results")


class Server:
    """The log's address: whichever app serves it now."""

    def __init__(self, services):
        self.serve(services)

    def serve(self, services):
        self.client = create_app(services).test_client()

    def fetch(self, path):
        response = self.client.get(path)
        return response.status_code, response.data


def _log(redis_client, prefix, results, signer=SIGNER):
    services = build(redis_client, prefix, inline_jobs=True, log_signer=signer)
    for n in range(results):
        services.log.append_result(_statement(n))
    return services


def _statement(n, final_hash="ab" * 32):
    return {"id": f"g{n}", "type": "game", "final_version": 10 + n, "final_hash": final_hash}


def _monitor(server, state, capsys):
    args = argparse.Namespace(url=URL, state=str(state), once=True, every=0, key=None)
    code = monitor.run(args, LogReader(server.fetch))
    out, err = capsys.readouterr()
    return code, out + err


@pytest.fixture(autouse=True)
def small_pages(monkeypatch):
    """The monitor reads entries two to a page here, so that every test crosses pages."""
    monkeypatch.setattr(log_reader, "PAGE", 2)


@pytest.fixture
def watched(redis_client, prefix, tmp_path, capsys):
    """A log of five results that the monitor has accepted once."""
    services = _log(redis_client, prefix, 5)
    server = Server(services)
    state = tmp_path / "monitor.json"
    code, said = _monitor(server, state, capsys)
    assert code == 0 and "OK log.test/results size 5" in said
    return services, server, state


def test_a_log_that_only_grows_passes_and_moves_the_state_on(watched, capsys):
    services, server, state = watched
    services.log.append_result(_statement(5))
    services.log.append_result(_statement(6))
    code, said = _monitor(server, state, capsys)
    assert code == 0 and "size 7" in said and "consistent with 5; 2 new entries checked, 5 rechecked" in said
    assert len(json.loads(state.read_text())["leaves"]) == 7


def _set(redis_client, prefix, name, index, value):
    redis_client.lset(log_key(prefix, name), index, value)


def test_a_rewritten_entry_and_leaf_is_caught_and_named(watched, redis_client, prefix, capsys):
    services, server, state = watched
    before = state.read_text()
    forged = json.dumps(_statement(2, final_hash="cd" * 32)).encode()
    _set(redis_client, prefix, "entries", 2, forged)
    _set(redis_client, prefix, "leaves", 2, merkle.leaf_hash(forged))
    code, said = _monitor(server, state, capsys)
    assert code == 1 and "MONITOR ALARM: REWRITTEN ENTRY: entry 2" in said
    assert state.read_text() == before


def test_a_rewritten_entry_under_its_old_leaf_is_caught(watched, redis_client, prefix, capsys):
    services, server, state = watched
    services.log.append_result(_statement(5))
    _set(redis_client, prefix, "entries", 1, json.dumps(_statement(1, final_hash="cd" * 32)).encode())
    code, said = _monitor(server, state, capsys)
    assert code == 1 and "REWRITTEN ENTRY: entry 1 no longer hashes to the leaf it had" in said


def test_a_rewritten_new_entry_is_caught_by_the_signed_root(watched, redis_client, prefix, capsys):
    services, server, state = watched
    services.log.append_result(_statement(5))
    _set(redis_client, prefix, "entries", 5, json.dumps(_statement(5, final_hash="cd" * 32)).encode())
    code, said = _monitor(server, state, capsys)
    assert code == 1 and "ENTRIES DO NOT MATCH" in said


def test_a_dropped_entry_is_caught(watched, redis_client, prefix, capsys):
    services, server, state = watched
    for name in ("leaves", "entries"):
        dropped = redis_client.lindex(log_key(prefix, name), 3)
        redis_client.lrem(log_key(prefix, name), 1, dropped)
    code, said = _monitor(server, state, capsys)
    assert code == 1 and "DROPPED ENTRIES: the log shrank from 5 to 4 entries" in said


def test_a_dropped_entry_hidden_under_new_ones_is_caught(watched, redis_client, prefix, capsys):
    services, server, state = watched
    for name in ("leaves", "entries"):
        redis_client.lrem(log_key(prefix, name), 1, redis_client.lindex(log_key(prefix, name), 1))
    services.log.append_result(_statement(5))
    services.log.append_result(_statement(6))
    code, said = _monitor(server, state, capsys)
    assert code == 1 and "REWRITTEN ENTRY: entry 1" in said


def test_a_fork_is_caught(watched, redis_client, capsys):
    # Another history under the same key and address: the same first results, then different ones.
    services, server, state = watched
    fork_prefix = f"{services.prefix}-fork"
    try:
        fork = _log(redis_client, fork_prefix, 3)
        for n in range(3, 7):
            fork.log.append_result(_statement(n, final_hash="ef" * 32))
        server.serve(fork)
        code, said = _monitor(server, state, capsys)
        assert code == 1 and "REWRITTEN ENTRY: entry 3" in said and "does not extend the tree of 5" in said
    finally:
        for name in ("leaves", "entries", "ids", "signer"):
            redis_client.delete(log_key(fork_prefix, name))


def test_a_fork_at_the_same_size_is_caught(watched, redis_client, tmp_path, capsys):
    services, server, state = watched
    fork_prefix = f"{services.prefix}-fork"
    try:
        fork = _log(redis_client, fork_prefix, 0)
        for n in range(5):
            fork.log.append_result(_statement(n, final_hash="ef" * 32))
        server.serve(fork)
        code, said = _monitor(server, state, capsys)
        assert code == 1 and "REWRITTEN ENTRY: entry 0" in said and "does not extend the tree of 5" in said
    finally:
        for name in ("leaves", "entries", "ids", "signer"):
            redis_client.delete(log_key(fork_prefix, name))


def test_a_signed_tree_that_no_longer_matches_the_entries_it_serves_is_a_fork(watched, redis_client, prefix, capsys):
    # The leaf hashes rewritten under unchanged entries: what the log signs and what it serves part ways.
    services, server, state = watched
    _set(redis_client, prefix, "leaves", 4, merkle.leaf_hash(b"another history"))
    services.log.append_result(_statement(5))
    code, said = _monitor(server, state, capsys)
    assert code == 1 and "MONITOR ALARM: FORK: the log's tree of 6 entries does not extend the tree of 5" in said


def test_a_checkpoint_signed_by_another_key_is_caught(watched, redis_client, prefix, capsys):
    services, server, state = watched
    server.serve(build(redis_client, prefix, inline_jobs=True, log_signer=new_signer(SIGNER.name)))
    code, said = _monitor(server, state, capsys)
    assert code == 1 and "BAD SIGNATURE" in said


def test_a_log_that_cannot_be_read_is_not_an_alarm(watched, capsys):
    services, server, state = watched
    server.fetch = lambda path: (503, b'{"error": {}}')
    code, said = _monitor(server, state, capsys)
    assert code == 2 and "cannot read the log" in said and "ALARM" not in said
