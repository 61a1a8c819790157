"""Every job in `JOBS` is safe to deliver twice, or to die between any two Redis commands and run again.

For each job the test builds a world where the job has work, the same way every
time (one fakeredis server of its own, every id, seed, clock and random draw made
deterministic), runs the job, and compares a digest of every key and value:
- run once, and run twice, leave the same store;
- run with a ConnectionError raised at its Nth Redis command (as a worker killed
  there would leave it; a pipeline or a script is one command), before Redis runs
  it or after (its reply lost), then run again cleanly, for every N the clean run
  reached, leave the same store as one clean run.
"""

from __future__ import annotations

import hashlib
import itertools
import secrets
import shutil
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import fakeredis
import pytest
import redis
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from redis.client import Pipeline

from service.adapters import house_keys, note_keys
from service.adapters.indexes import CLAIM_SECONDS
from service.application import archive, archive_duty, clock
from service.application.archive_duty import ArchiveDuty
from service.bootstrap import JOBS, Services, build

PREFIX = "jobs"
# A fixed now: fakeredis keeps TTLs and stream ids by `time.time`, and the service stamps events by the clock.
NOW = 1_900_000_000.0


class Injected(redis.exceptions.ConnectionError):
    """The fault: the store stopped answering here, as it does for a worker killed at this command."""


@dataclass
class Faults:
    """Counts the commands sent on a client; raises `Injected` at command `fail_at` (0: never), before or after it runs."""

    fail_at: int = 0
    sent: int = 0
    # False: the command is lost before Redis runs it; True: Redis runs it and its reply is lost.
    after: bool = False

    def count(self) -> None:
        self.sent += 1
        if self.sent == self.fail_at and not self.after:
            raise Injected(f"fault injected at command {self.sent}")

    def answered(self) -> None:
        if self.sent == self.fail_at and self.after:
            raise Injected(f"fault injected after command {self.sent}")


class CountingPipeline(Pipeline):
    """A pipeline whose batch (or each command sent at once while it watches) counts as one command."""

    faults: Faults

    def immediate_execute_command(self, *args: Any, **options: Any) -> Any:
        self.faults.count()
        reply = super().immediate_execute_command(*args, **options)
        self.faults.answered()
        return reply

    def execute(self, raise_on_error: bool = True) -> list[Any]:
        if not self.command_stack:
            return super().execute(raise_on_error)
        self.faults.count()
        replies = super().execute(raise_on_error)
        self.faults.answered()
        return replies


class FaultyRedis(fakeredis.FakeRedis):
    """A fakeredis client that counts its commands and fails at the Nth (scripts go through `execute_command` too)."""

    def __init__(self, faults: Faults, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.faults = faults

    def execute_command(self, *args: Any, **options: Any) -> Any:
        self.faults.count()
        reply = super().execute_command(*args, **options)
        self.faults.answered()
        return reply

    def pipeline(self, transaction: bool = True, shard_hint: Any = None) -> Pipeline:
        pipe = CountingPipeline(self.connection_pool, self.response_callbacks, transaction, shard_hint)
        pipe.faults = self.faults
        return pipe


class HeldJobs:
    """Follow-up jobs asked for, held instead of run: each test runs only the job it is about."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, tuple[Any, ...]]] = []

    def step(self, game_id: str, version: int, humans: bool = False) -> None:
        self.asked.append(("step", (game_id, version)))

    def rate(self, game_id: str) -> None:
        self.asked.append(("rate", (game_id,)))

    def advance(self, tournament_id: str, reason: str) -> None:
        self.asked.append(("advance", (tournament_id,)))

    def audit(self, audit_id: str, run: int) -> None:
        self.asked.append(("audit", (audit_id,)))

    def release_later(self) -> None:
        pass


class FixedKeys:
    """The house's ephemeral key, the same in every world."""

    @staticmethod
    def generate() -> Ed25519PrivateKey:
        return Ed25519PrivateKey.from_private_bytes(bytes(32))


@contextmanager
def deterministic(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[], None]]:
    """Make every id, secret, and clock the service draws a function of how many were drawn; yield a reset."""
    counters: dict[str, Any] = {}

    def reset() -> None:
        counters["hex"] = itertools.count()
        counters["uuid"] = itertools.count()

    def token_hex(nbytes: int | None = None) -> str:
        return hashlib.sha256(f"hex-{next(counters['hex'])}".encode()).hexdigest()[: 2 * (nbytes or 32)]

    class FixedDatetime(datetime):
        @classmethod
        def now(cls, tz: Any = None) -> FixedDatetime:
            return cls.fromtimestamp(NOW, tz or UTC)

    reset()
    with monkeypatch.context() as patch:
        patch.setattr(secrets, "token_hex", token_hex)
        patch.setattr(uuid, "uuid4", lambda: uuid.UUID(int=next(counters["uuid"]) + 1))
        patch.setattr(time, "time", lambda: NOW)
        for stamping in (clock, house_keys, archive, archive_duty):  # each reads `datetime.now` itself
            patch.setattr(stamping, "datetime", FixedDatetime)
        patch.setattr(house_keys, "Ed25519PrivateKey", FixedKeys)
        patch.setattr(note_keys.os, "urandom", lambda n: bytes(range(n)))
        yield reset


@dataclass
class World:
    """Services on a fakeredis server of their own, with their follow-up jobs held, and the job's arguments."""

    services: Services
    faults: Faults
    held: HeldJobs
    args: tuple[Any, ...] = field(default=())
    # Where the archive duty writes its files: the same path in every world, emptied for each.
    folder: Path = field(default=Path())


def new_world(faults: Faults) -> World:
    client = FaultyRedis(faults, server=fakeredis.FakeServer())
    services = build(client, PREFIX, inline_jobs=False, embedded=True, step_slice_s=0)
    held = HeldJobs()
    services.jobs = held  # type: ignore[assignment]
    services.games.jobs = held
    services.tournaments.jobs = held
    services.audits.jobs = held
    services.audits.now = lambda: NOW
    return World(services, faults, held)


def play_out(world: World, game_id: str) -> None:
    """Take a held all-bot game's steps until it ends (as a steward would)."""
    games = world.services.games
    for _ in range(200):
        if world.services.repository.load(game_id).status == "finished":
            return
        games.resume(game_id)
    raise AssertionError("the toy game did not end in 200 steps")


def bot_game(world: World) -> str:
    """An all-bot toy game, shared dealing (no seed given: it is rated), its steps held."""
    game, _ = world.services.games.create("toy", [{"bot": "random"}, {"bot": "random"}], {})
    return game.id


def waits_on_a_bot(world: World) -> tuple[Any, ...]:
    game_id = bot_game(world)
    return (game_id, world.services.repository.load(game_id).version)


def waits_on_bots_to_its_end(world: World) -> tuple[Any, ...]:
    """As `waits_on_a_bot`, with a slice long enough for the one job to play the game out: it finishes it."""
    world.services.games.slice_s = 3600.0
    return waits_on_a_bot(world)


def finished_game(world: World) -> tuple[Any, ...]:
    game_id = bot_game(world)
    play_out(world, game_id)
    return (game_id,)


def tournament_waiting(world: World) -> tuple[Any, ...]:
    """A toy tournament of 3 bots, one table a round, started: its first table waits for `advance` to open it."""
    tournaments = world.services.tournaments
    created, _ = tournaments.create("toy", rounds=1, table_sizes=[3], seed="twice-advance")
    for _ in range(3):
        tournaments.register(created.id, bot="random")
    tournaments.start(created.id)
    return (created.id,)


def tournament_results_waiting(world: World) -> tuple[Any, ...]:
    """The tournament above with its one table's game opened and played out: `advance` records it and ends it."""
    (tournament_id,) = tournament_waiting(world)
    world.services.tournaments.advance(tournament_id)
    current = world.services.tournaments.load(tournament_id).current
    assert current is not None
    [table] = current.tables
    assert table.game_id is not None
    play_out(world, table.game_id)
    return (tournament_id,)


def audit_asked(world: World) -> tuple[Any, ...]:
    """A finished game's audit asked for as a job (the inline limit is 5 events), its record queued."""
    game_id = finished_game(world)[0]
    world.services.audits.inline_events = 5
    answer = world.services.audits.game(game_id)
    assert answer.job is not None
    return (answer.job["id"],)


def clock_ran_out(world: World) -> tuple[Any, ...]:
    """A toy game of ann (a one-second move clock) against a bot, waiting on her, her deadline past.

    Its steward claims with a lease of 0 ms: the test's clock stands still, and a killed steward's
    claim must have lapsed by the time the next steward looks, as it has in a minute in production.
    """
    services = world.services
    game, _ = services.games.create("toy", [{"name": "ann"}, {"bot": "random"}], {"clock": {"move_s": 1}})
    services.redis.zadd(services.due.keys.of(game.id), {game.id: 0})
    services.step_timeout_s = 0
    return ()


def archive_due(world: World) -> tuple[Any, ...]:
    """A finished game the archive duty takes (it archives what ended before a day from now).

    Its lease is one of `CLAIM_SECONDS`: a killed run's lease has lapsed by the next one's turn.
    """
    finished_game(world)
    return (str(world.folder),)


def archive_once(services: Services, folder: str) -> object:
    return ArchiveDuty(
        services.archive, services.redis, services.prefix, folder, after_days=-1, every_s=CLAIM_SECONDS
    ).run_once()


# What runs in the background besides `JOBS`: a worker's steward taking what is overdue (a move clock's timeout).
DUTIES: dict[str, Callable[..., object]] = {
    "steward": lambda services: services.steward().run_once(),
    "archive": archive_once,
}

# Each case: a job of `JOBS` (or a duty of `DUTIES`) and a state it has work in (returning its arguments). A job added to `JOBS`
# without a case here fails `test_every_job_has_work_to_do`.
CASES: dict[str, tuple[str, Callable[[World], tuple[Any, ...]]]] = {
    "step": ("step", waits_on_a_bot),
    "step to the game's end": ("step", waits_on_bots_to_its_end),
    "rate": ("rate", finished_game),
    "advance opening a table": ("advance", tournament_waiting),
    "advance ending the tournament": ("advance", tournament_results_waiting),
    "audit": ("audit", audit_asked),
    "steward timing out a move clock": ("steward", clock_ran_out),
    "archive duty": ("archive", archive_due),
}


def digest(client: redis.Redis) -> dict[str, Any]:
    """Every key and its value, read by type (a stream's entries with their ids), as plain JSON-able values.

    Leases are left out: a table's claim or the archiver's (keys that lapse within `CLAIM_SECONDS`) say only that
    some worker is at it, and a run killed after its work lets it lapse (`lapse_leases`), so the
    run after finds nothing to claim. Nothing else is: ids, seeds, keys and clocks are drawn the
    same in every world (`deterministic`).
    """
    found: dict[str, Any] = {}
    for raw in sorted(client.keys("*")):
        if 0 < client.ttl(raw) <= CLAIM_SECONDS:
            continue
        key = raw.decode()
        kind = client.type(raw).decode()
        value: Any
        if kind == "string":
            value = client.get(raw)
        elif kind == "hash":
            value = sorted(client.hgetall(raw).items())
        elif kind == "list":
            value = client.lrange(raw, 0, -1)
        elif kind == "set":
            value = sorted(client.smembers(raw))
        elif kind == "zset":
            value = client.zrange(raw, 0, -1, withscores=True)
        elif kind == "stream":
            value = client.xrange(raw)
        else:
            raise AssertionError(f"{key}: a {kind} the digest does not read")
        found[key] = plain(value)
    return found


def everything(world: World) -> dict[str, Any]:
    """The digest of the store, and of every file the archive duty wrote."""
    files = sorted(world.folder.glob("*")) if world.folder.is_dir() else []
    return {**digest(world.services.redis), **{f"file {f.name}": f.read_bytes().decode() for f in files}}  # type: ignore[arg-type]


def plain(value: Any) -> Any:
    """Bytes as text, tuples and dicts as lists, so that two digests compare (and print) as plain data."""
    if isinstance(value, bytes):
        return value.decode("latin-1")
    if isinstance(value, dict):
        return sorted([plain(k), plain(v)] for k, v in value.items())
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    return value


@pytest.fixture
def world_of(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> Iterator[Callable[[str], tuple[World, Callable[[], object]]]]:
    """Build a job's world afresh, identically every time; return it and how to run its job (fault counting on)."""
    with deterministic(monkeypatch) as reset:

        def world_of(case: str) -> tuple[World, Callable[[], object]]:
            reset()
            world = new_world(Faults())
            world.folder = tmp_path / "archive"
            shutil.rmtree(world.folder, ignore_errors=True)
            job, setup = CASES[case]
            world.args = setup(world)

            def run() -> object:
                reset()  # each delivery draws the same ids, as a retried job would on the same input
                return {**JOBS, **DUTIES}[job](world.services, *world.args)

            return world, run

        yield world_of


def clean_run(world_of: Callable[[str], tuple[World, Callable[[], object]]], name: str) -> tuple[dict[str, Any], int]:
    """The digest after one clean run of the job, and how many commands it sent."""
    world, run = world_of(name)
    before = world.faults.sent
    run()
    return everything(world), world.faults.sent - before


def lapse_leases(client: redis.Redis) -> None:
    """Let the claims a killed worker held lapse, as they have by the time its job runs again.

    A table's claim (`CLAIM_SECONDS`) and the archiver's lease (set to as long here) are the leases
    kept as keys with a TTL; RQ retries a failed job after seconds, and the lease has lapsed by
    then only because the test's clock stands still.
    """
    for key in client.keys("*"):
        if 0 < client.ttl(key) <= CLAIM_SECONDS:
            client.delete(key)


def test_every_job_has_work_to_do():
    assert {job for job, _ in CASES.values()} == set(JOBS) | set(DUTIES)


@pytest.mark.parametrize("name", list(CASES))
def test_a_job_run_twice_leaves_the_store_as_one_run_does(world_of, name):
    once, sent = clean_run(world_of, name)
    world, run = world_of(name)
    untouched = everything(world)
    assert once != untouched, f"{name} had nothing to do"
    run()
    run()
    assert everything(world) == once


@pytest.mark.parametrize("after", [False, True], ids=["before its command", "after its command"])
@pytest.mark.parametrize("name", list(CASES))
def test_a_job_killed_at_any_command_and_run_again_leaves_the_store_as_one_run_does(world_of, name, after):
    once, sent = clean_run(world_of, name)
    assert sent > 0
    for fail_at in range(1, sent + 1):
        world, run = world_of(name)
        world.faults.fail_at = world.faults.sent + fail_at
        world.faults.after = after
        with suppress(Injected):  # a job may also survive the fault itself (a follow-up that logs and goes on)
            run()
        world.faults.fail_at = 0
        lapse_leases(world.services.redis)  # type: ignore[arg-type]
        run()
        assert everything(world) == once, f"{name} killed at its command {fail_at} of {sent}"  # type: ignore[arg-type]
