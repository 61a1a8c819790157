"""The soak: mixed load for --minutes with a round of faults every --every minutes, memory sampled throughout.

Starts what bench/fault_run.py starts (a redis-server of its own with AOF
`appendfsync always` on its own port and temp dir, `menagerie serve --workers
4`, two `menagerie worker`s) and plays waves of games on it until the time is
up. A wave is every game type with bots only (fault_run's games), every game
type with humans (one seat named at creation, one joined, the rest bots; the
soak's clients play the humans' seats with Idempotency-Keys, retrying the same
key after a dropped answer or a 503), one all-bot Swiss tournament, a
spectator's live stream of a few games, and at the end each game's whole
export and audit. Every --every minutes: kill -9 of an API worker process
(the server starts another), kill -9 of a `menagerie worker` (a new one is
started, as a supervisor would) and a kill -9 and restart of redis-server.

It prints: acknowledged moves (human moves answered 200), lost (a receipt,
a `seq` and `hash` some answer carried, that the final export does not hold,
or a version some client saw that the game no longer reaches), duplicated (a
key answered with two different results, or more human command batches in a
log than keys its client sent), stuck games and tournaments (unfinished at a
wave's deadline), audit failures, 5xx outside the outages (from the kill of
Redis until /health answers again), live-stream gaps, the longest stall, and
the memory of every process (RSS) and of Redis (`used_memory`) with its growth
per hour. Exit status 1 when anything is lost, duplicated, stuck, unaudited or
a 5xx outside an outage. Not part of CI: it takes the minutes it is given.

With --rebuild-every S, `menagerie rebuild all` runs every S seconds beside
the load, and once more after the last wave: it prints each run's exit status,
time and sources, and any difference between a rebuilt model and the served
one (which fails the soak). With --redis-url the soak uses that Redis (and
its database) instead of one of its own, and deals no faults (it cannot
restart that server); its keys are removed at the end.

Run: .venv/bin/python -m bench.soak [--minutes 60] [--every 10] [--games 8] [--rebuild-every 20] [--redis-url URL]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import redis

from bench.audit_answers import audit_report
from bench.fault_run import (
    KINDS,
    OBSERVERS,
    PREFIX,
    Game,
    Tally,
    create_games,
    observe,
    on_own_redis,
    worker_holding_a_job,
)
from tests.support.processes import OwnRedis, Processes, children_of, free_port, http, remove_run, wait_for

RETRYABLE = {0, 502, 503, 504}
PLAYERS = 4  # client threads playing the human seats of a wave
SAMPLE_S = 10.0


@dataclass
class Seat:
    """A human seat the soak's clients play."""

    game: Game
    index: int | None  # None until a joined seat has joined
    token: str | None
    name: str


@dataclass
class Ledger:
    """What the service acknowledged to the soak's clients, to be found again in the final logs."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    receipts: dict[str, dict[int, str]] = field(default_factory=lambda: defaultdict(dict))  # game: seq -> hash
    answers: dict[str, set[int]] = field(default_factory=lambda: defaultdict(set))  # key: first seqs answered
    keys_sent: Counter[tuple[str, int]] = field(default_factory=Counter)  # (game, seat): keys sent
    moves: int = 0
    joins: int = 0
    unknown_tokens: list[str] = field(default_factory=list)

    def acknowledge(self, game_id: str, key: str, events: list[dict[str, Any]]) -> None:
        with self.lock:
            self.moves += 1
            for event in events:
                self.receipts[game_id][event["seq"]] = event["hash"]
            if events:
                self.answers[key].add(events[0]["seq"])


@dataclass
class Figures:
    """The run's totals, wave after wave."""

    games: int = 0
    events: int = 0
    tournaments: int = 0
    stuck: list[str] = field(default_factory=list)
    lost: list[Any] = field(default_factory=list)
    duplicated: list[Any] = field(default_factory=list)
    audit_failures: list[Any] = field(default_factory=list)
    stream_events: int = 0
    stream_gaps: list[Any] = field(default_factory=list)
    longest: float = 0.0
    longest_outside: float = 0.0


def call(tally: Tally, method: str, url: str, body: Any = None, headers: dict[str, str] | None = None) -> Any:
    """One request, counted in the tally; (status, body)."""
    began = time.monotonic()
    status, answer = http(method, url, body, headers)
    tally.record(status, began, time.monotonic(), f"{method} {url.split('/', 3)[-1]}")
    return status, answer


def until_answered(tally: Tally, method: str, url: str, body: Any, headers: dict[str, str]) -> Any:
    """Send the same request (same Idempotency-Key) until it gets an answer that is not an outage's."""
    end = time.monotonic() + 120
    while True:
        status, answer = call(tally, method, url, body, headers)
        if status not in RETRYABLE or time.monotonic() > end:
            return status, answer
        time.sleep(float((answer or {}).get("retry_after") or 0.5))


def bearer(token: str | None, key: str | None = None) -> dict[str, str]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return {**headers, "Idempotency-Key": key} if key else headers


def create_human_games(api: str, tally: Tally, wave: int) -> list[Seat]:
    """Create every game type with one named human and one open seat (the rest bots); return the human seats."""
    seats = []
    for number, (name, count) in enumerate(KINDS):
        specs = [{"name": f"h{wave}-{number}"}, {}] + [{"bot": "heuristic"}] * (count - 2)
        key = uuid.uuid4().hex
        status, created = until_answered(
            tally, "POST", f"{api}/games", {"game": name, "seats": specs}, bearer(None, key)
        )
        assert status == 201, (status, created)
        game = Game(created["id"])
        seats.append(Seat(game, 0, created["seats"][0]["token"], f"h{wave}-{number}"))
        seats.append(Seat(game, None, None, f"j{wave}-{number}"))
    return seats


def play(api: str, seats: list[Seat], tally: Tally, ledger: Ledger, stop: threading.Event, seed: int) -> None:
    """Play the human seats: join where needed, then a random legal action whenever the seat may act."""
    rng = random.Random(seed)
    while not stop.is_set() and not all(seat.game.finished for seat in seats):
        for seat in seats:
            if seat.game.finished or stop.is_set():
                continue
            if seat.token is None:
                join(api, seat, tally, ledger)
                continue
            status, view = call(tally, "GET", f"{api}/games/{seat.game.id}", headers=bearer(seat.token))
            if status == 401:
                ledger.unknown_tokens.append(f"{seat.game.id} seat {seat.index}: {view}")
            if status == 200 and view["status"] == "active" and view["legal_actions"]:
                act(api, seat, view, tally, ledger, rng)
        time.sleep(0.05)


def join(api: str, seat: Seat, tally: Tally, ledger: Ledger) -> None:
    headers = bearer(None, uuid.uuid4().hex)
    status, joined = until_answered(tally, "POST", f"{api}/games/{seat.game.id}/join", {"name": seat.name}, headers)
    if status == 201:
        seat.index, seat.token = joined["seat"], joined["token"]
        with ledger.lock:
            ledger.joins += 1


def act(api: str, seat: Seat, view: dict[str, Any], tally: Tally, ledger: Ledger, rng: random.Random) -> None:
    key = uuid.uuid4().hex
    body = {"action": rng.choice(view["legal_actions"]), "expected_version": view["version"]}
    assert seat.index is not None
    with ledger.lock:
        ledger.keys_sent[(seat.game.id, seat.index)] += 1
    status, answer = until_answered(tally, "POST", f"{api}/games/{seat.game.id}/actions", body, bearer(seat.token, key))
    if status == 200:
        ledger.acknowledge(seat.game.id, key, answer["events"])
    elif status == 401:
        ledger.unknown_tokens.append(f"{seat.game.id} seat {seat.index}: {answer}")


def run_tournament(api: str, tally: Tally, wave: int, deadline: float) -> tuple[str, bool, Any]:
    """An all-bot Swiss tournament played to its end; return (id, finished, audit)."""
    name, _ = KINDS[wave % len(KINDS)]
    body = {"game": name, "rounds": 2, "format": "swiss"}
    status, created = until_answered(tally, "POST", f"{api}/tournaments", body, bearer(None, uuid.uuid4().hex))
    assert status == 201, (status, created)
    tid, organiser = created["id"], created["organiser_token"]
    for _ in range(4):
        status, answer = until_answered(
            tally, "POST", f"{api}/tournaments/{tid}/register", {"bot": "heuristic"}, bearer(organiser)
        )
        assert status == 201, (status, answer)
    status, answer = until_answered(tally, "POST", f"{api}/tournaments/{tid}/start", None, bearer(organiser))
    assert status == 200, (status, answer)
    while time.monotonic() < deadline:
        status, view = call(tally, "GET", f"{api}/tournaments/{tid}")
        if status == 200 and view["status"] == "finished":
            return (
                tid,
                True,
                audit_report(lambda url: until_answered(tally, "GET", url, None, {}), api, f"/tournaments/{tid}/audit"),
            )
        time.sleep(0.5)
    return tid, False, None


def watch_stream(api: str, game: Game, deadline: float) -> tuple[int, list[Any]]:
    """Follow a game's live stream as a spectator to its end, resuming after drops; return (events, gaps)."""
    last, received, gaps = 0, 0, []
    while time.monotonic() < deadline and not (game.finished and last >= game.acknowledged):
        request = urllib.request.Request(f"{api}/games/{game.id}/stream?after={last}")
        try:
            with urllib.request.urlopen(request, timeout=30) as stream:
                for raw in stream:
                    line = raw.decode().rstrip("\n")
                    if line.startswith("id:"):
                        seq = int(line[3:])
                        if seq != last + 1:
                            gaps.append((game.id, last, seq))
                        last, received = seq, received + 1
                    elif line.startswith("event:") and "GameEnded" in line:
                        return received, gaps
        except (OSError, urllib.error.URLError, ValueError):
            time.sleep(0.5)  # a killed server process or the outage: resume after the last event seen
    return received, gaps


def check_game(api: str, game: Game, tally: Tally, ledger: Ledger, humans: list[Seat], figures: Figures) -> None:
    """The game's whole export against every receipt and version the clients got; then its audit."""
    status, export = until_answered(tally, "GET", f"{api}/games/{game.id}/export", None, {"Accept": "application/json"})
    if status != 200:
        figures.lost.append((game.id, "export", status))
        return
    events = {event["seq"]: event for event in export["events"]}
    figures.events += len(events)
    if game.acknowledged > len(events):
        figures.lost.append((game.id, "version", game.acknowledged, len(events)))
    with ledger.lock:
        receipts = dict(ledger.receipts.get(game.id, {}))
        sent = {seat.index: ledger.keys_sent[(game.id, seat.index)] for seat in humans if seat.index is not None}
    figures.lost += [(game.id, seq) for seq, digest in receipts.items() if events.get(seq, {}).get("hash") != digest]
    batches: Counter[int] = Counter()
    for event in events.values():
        command = event.get("command") or {}
        if command.get("kind") == "act" and command.get("seat") in sent:
            batches[command["seat"]] += 1
    figures.duplicated += [(game.id, s, batches[s], sent[s]) for s in sent if batches[s] > sent[s]]
    status, audit = audit_report(
        lambda url: until_answered(tally, "GET", url, None, {}), api, f"/games/{game.id}/audit"
    )
    if status != 200 or not audit["ok"]:
        figures.audit_failures.append((game.id, status, audit))


def run_wave(api: str, tally: Tally, ledger: Ledger, figures: Figures, wave: int, args: argparse.Namespace) -> None:
    """Play one wave of games, a tournament and streams to their end; check every game."""
    deadline = time.monotonic() + args.wave_deadline
    bots = create_games(api, args.games, tally)
    humans = create_human_games(api, tally, wave)
    games = bots + list({seat.game.id: seat.game for seat in humans}.values())
    stop = threading.Event()
    threads = [threading.Thread(target=observe, args=(api, games, tally, stop, i)) for i in range(OBSERVERS)]
    threads += [
        threading.Thread(target=play, args=(api, humans[i::PLAYERS], tally, ledger, stop, wave * PLAYERS + i))
        for i in range(PLAYERS)
    ]
    tournament: list[Any] = []
    threads.append(threading.Thread(target=lambda: tournament.append(run_tournament(api, tally, wave, deadline))))
    streamed: list[tuple[int, list[Any]]] = []
    for game in games[:: max(1, len(games) // 3)]:
        threads.append(threading.Thread(target=lambda g=game: streamed.append(watch_stream(api, g, deadline))))
    for thread in threads[OBSERVERS + PLAYERS :]:
        thread.start()
    for thread in threads[: OBSERVERS + PLAYERS]:
        thread.start()
    while not all(game.finished for game in games) and time.monotonic() < deadline:
        time.sleep(0.5)
    stop.set()
    for thread in threads:
        thread.join()
    figures.games += len(games)
    figures.stuck += [game.id for game in games if not game.finished]
    for game in games:
        check_game(api, game, tally, ledger, [seat for seat in humans if seat.game is game], figures)
        figures.longest = max(figures.longest, game.longest)
        figures.longest_outside = max(figures.longest_outside, game.longest_outside)
    for tid, finished, audit in tournament:
        figures.tournaments += 1
        if not finished:
            figures.stuck.append(tid)
        elif audit[0] != 200 or not audit[1]["ok"]:
            figures.audit_failures.append((tid, audit))
    for received, gaps in streamed:
        figures.stream_events += received
        figures.stream_gaps += gaps


@dataclass
class Faults:
    """The processes under test and the round of faults dealt to them."""

    api: str
    own: OwnRedis | None  # None: a Redis not ours (--redis-url), never killed
    processes: Processes
    server: Any
    workers: list[Any]
    tally: Tally
    outage_s: float
    started: float = field(default_factory=time.monotonic)
    rounds: int = 0
    redis_url: str = ""

    @property
    def url(self) -> str:
        """The store's URL."""
        return self.own.url if self.own is not None else self.redis_url

    def say(self, what: str) -> None:
        print(f"{time.monotonic() - self.started:7.1f} s: {what}", flush=True)

    def deal(self) -> None:
        """kill -9 of an API worker process, of a `menagerie worker` (then a new one), and a Redis restart."""
        assert self.own is not None
        self.rounds += 1
        victim = random.choice(children_of(self.server.pid))
        os.kill(victim, signal.SIGKILL)
        self.say(f"kill -9 of API worker process {victim}")
        wait_for(lambda: len(children_of(self.server.pid)) == 4 and victim not in children_of(self.server.pid), 60,
                 "the server to replace its worker")  # fmt: skip
        time.sleep(5)
        store = redis.Redis.from_url(self.own.url)
        holder = worker_holding_a_job(store, self.workers)
        worker = holder[0] if holder else random.choice([w for w in self.workers if w.poll() is None])
        worker.send_signal(signal.SIGKILL)
        worker.wait(10)
        self.workers.remove(worker)
        name = f"worker-{self.rounds + 1}"
        self.workers.append(self.processes.menagerie(name, ["worker"], self.own.url, PREFIX))
        self.say(f"kill -9 of menagerie worker {worker.pid}{' (holding a step)' if holder else ''}; {name} started")
        time.sleep(5)
        self.tally.begin_outage()
        self.own.kill()
        self.say(f"kill -9 of redis-server; restart in {self.outage_s} s")
        time.sleep(self.outage_s)
        self.own.start()
        wait_for(lambda: http("GET", f"{self.api}/health")[0] == 200, 60, "the API to see the store again")
        self.say(f"the store is back after {self.tally.end_outage():.2f} s")


@dataclass
class Memory:
    """RSS of every process under test and Redis's used_memory, sampled every SAMPLE_S seconds."""

    samples: dict[tuple[str, int], list[tuple[float, float]]] = field(default_factory=lambda: defaultdict(list))

    def sample(self, faults: Faults) -> None:
        now = time.monotonic()
        roles = [("api master", faults.server.pid)] + [("api worker", pid) for pid in children_of(faults.server.pid)]
        for worker in faults.workers:
            roles += [("worker", worker.pid)] + [("rq scheduler", pid) for pid in children_of(worker.pid)]
        if faults.own is not None and faults.own.process is not None:
            roles.append(("redis-server", faults.own.process.pid))
        for role, pid in roles:
            rss = _rss_mb(pid)
            if rss is not None:
                self.samples[(role, pid)].append((now, rss))
        try:
            used = redis.Redis.from_url(faults.url, socket_timeout=2).info("memory")["used_memory"]
            self.samples[("redis used_memory", 0)].append((now, used / 2**20))
        except redis.exceptions.RedisError:
            pass  # the outage

    def report(self) -> None:
        print("\nmemory (MB): process, samples, first, last, growth per hour (least squares after warm-up)")
        for (role, pid), series in sorted(self.samples.items()):
            # Warm-up: caches and the allocator fill in a process's first minutes; growth after it is what leaks.
            warm = max(60.0, (series[-1][0] - series[0][0]) / 4)
            settled = [(t, v) for t, v in series if t - series[0][0] >= warm] or series
            print(
                f"  {role:18} {pid:>7} {len(series):5} {series[0][1]:8.1f} {series[-1][1]:8.1f} "
                f"{_slope(settled) * 3600:+9.1f}/h"
            )


def _rss_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def _slope(series: list[tuple[float, float]]) -> float:
    if len(series) < 2:
        return 0.0
    mean_t = sum(t for t, _ in series) / len(series)
    mean_v = sum(v for _, v in series) / len(series)
    spread = sum((t - mean_t) ** 2 for t, _ in series)
    return sum((t - mean_t) * (v - mean_v) for t, v in series) / spread if spread else 0.0


def main() -> int:
    """Run the soak; print the figures; 1 if anything was lost, duplicated, stuck, unaudited or a stray 5xx."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=60.0, help="how long waves keep starting")
    parser.add_argument("--every", type=float, default=10.0, help="minutes between rounds of faults")
    parser.add_argument("--games", type=int, default=8, help="all-bot games a wave (besides the 8 with humans)")
    parser.add_argument("--step-timeout", type=int, default=10, help="MENAGERIE_STEP_TIMEOUT_S of the workers")
    parser.add_argument("--outage", type=float, default=3.0, help="seconds Redis stays down")
    parser.add_argument("--wave-deadline", type=float, default=600.0, help="seconds a wave's games have to finish")
    parser.add_argument("--keep-logs", action="store_true", help="keep the processes' logs after a good run too")
    parser.add_argument("--rebuild-every", type=float, default=0.0, help="seconds between `menagerie rebuild all`")
    parser.add_argument("--redis-url", default="", help="play on this Redis (no faults) instead of one of its own")
    parser.add_argument("--port", type=int, default=0, help="the API's port (default: a free one)")
    args = parser.parse_args()
    os.environ["MENAGERIE_RATE_LIMITS"] = "off"  # one client address plays every seat
    if args.redis_url:
        return on_redis_at(args)
    return on_own_redis("menagerie-soak-", args.step_timeout, args.keep_logs, lambda own, ps: soak(args, own, ps))


def on_redis_at(args: argparse.Namespace) -> int:
    """Run the soak on the Redis at --redis-url, without faults; remove its keys afterwards."""
    directory = Path(tempfile.mkdtemp(prefix="menagerie-soak-"))
    processes = Processes(directory, args.step_timeout)
    args.every = float("inf")
    failed = 1
    try:
        failed = soak(args, None, processes)
    finally:
        processes.stop_all()
        remove_run(redis.Redis.from_url(args.redis_url), PREFIX)
        if not failed and not args.keep_logs:
            shutil.rmtree(directory)
    return failed


@dataclass
class Rebuilds:
    """`menagerie rebuild all` runs beside the load: their exit statuses, times, sources and differences."""

    processes: Processes
    url: str
    runs: list[tuple[int, float, list[str]]] = field(default_factory=list)

    def run(self, faults: Faults) -> None:
        started = time.monotonic()
        name = f"rebuild-{len(self.runs)}"
        process = self.processes.menagerie(name, ["rebuild", "all"], self.url, PREFIX)
        status = process.wait(600)
        lines = (self.processes.logs / f"{name}.log").read_text(errors="replace").splitlines()
        self.runs.append((status, time.monotonic() - started, lines))
        faults.say(f"menagerie rebuild all: exit {status} in {time.monotonic() - started:.1f} s")
        for line in lines:
            faults.say(f"  {line}")

    @property
    def failed(self) -> list[str]:
        """What went wrong: a run that did not exit 0, a model that differed from the served one."""
        return [line for status, _, lines in self.runs for line in lines if status != 0 or "differ" in line]


def soak(args: argparse.Namespace, own: OwnRedis | None, processes: Processes) -> int:
    """Waves of load until the time is up, faults and memory samples beside them; then the report."""
    url = own.url if own is not None else args.redis_url
    api = f"http://127.0.0.1:{args.port or free_port()}"
    server = processes.menagerie("api", ["serve", "--port", api.rsplit(":", 1)[1], "--workers", "4"], url, PREFIX)
    workers = [processes.menagerie(f"worker-{i}", ["worker"], url, PREFIX) for i in range(2)]
    wait_for(lambda: http("GET", f"{api}/health")[0] == 200, 60, "the API to answer")
    wait_for(lambda: len(children_of(server.pid)) == 4, 60, "the server's four workers")
    tally, ledger, figures, memory = Tally(), Ledger(), Figures(), Memory()
    faults = Faults(api, own, processes, server, workers, tally, args.outage, redis_url=url)
    rebuilds = Rebuilds(processes, url)
    end = faults.started + args.minutes * 60
    done = threading.Event()

    def background() -> None:
        next_faults = faults.started + args.every * 60
        while not done.wait(SAMPLE_S):
            memory.sample(faults)
            if time.monotonic() >= next_faults and time.monotonic() < end:
                faults.deal()
                next_faults += args.every * 60

    def rebuilding() -> None:
        while not done.wait(args.rebuild_every):
            rebuilds.run(faults)

    beside = threading.Thread(target=background)
    beside.start()
    rebuilder = threading.Thread(target=rebuilding)
    if args.rebuild_every:
        rebuilder.start()
    wave = 0
    try:
        while time.monotonic() < end:
            run_wave(api, tally, ledger, figures, wave, args)
            wave += 1
            faults.say(f"wave {wave} done: {figures.games} games, {ledger.moves} acknowledged moves so far")
    finally:
        done.set()
        beside.join()
        if args.rebuild_every:
            rebuilder.join()
    if args.rebuild_every:
        rebuilds.run(faults)  # once more with every game settled: each model must equal the served one
    hours = (time.monotonic() - faults.started) / 3600
    print(f"\n{wave} waves in {hours * 60:.1f} min, {faults.rounds} rounds of faults")
    print(f"answers by status:          {dict(sorted(tally.statuses.items()))} (0 = connection dropped)")
    print(f"acknowledged moves:         {ledger.moves} (humans; {ledger.joins} joins; {figures.events} events)")
    print(f"lost:                       {len(figures.lost)} {figures.lost[:5] or ''}")
    print(f"duplicated:                 {len(figures.duplicated)} {figures.duplicated[:5] or ''}")
    print(
        f"stuck:                      {len(figures.stuck)} of {figures.games} games, {figures.tournaments} tournaments"
    )
    print(f"audit failures:             {len(figures.audit_failures)} {figures.audit_failures[:3] or ''}")
    print(f"5xx outside outages:        {len(tally.five_xx_outside)} {tally.five_xx_outside[:5] or ''}")
    print(f"401 unknown_token:          {len(ledger.unknown_tokens)} {ledger.unknown_tokens[:3] or ''}")
    print(f"live-stream events, gaps:   {figures.stream_events}, {len(figures.stream_gaps)} {figures.stream_gaps[:3]}")
    print(f"longest stall:              {figures.longest:.2f} s ({figures.longest_outside:.2f} s outside outages)")
    if args.rebuild_every:
        runs = rebuilds.runs
        print(
            f"rebuilds (all four models): {len(runs)} runs, {sum(status != 0 for status, _, _ in runs)} failed,"
            f" {max(seconds for _, seconds, _ in runs):.1f} s the longest; problems: {rebuilds.failed[:5] or 'none'}"
        )
    memory.report()
    logs = {path.stem: path.read_text(errors="replace").count("Traceback") for path in processes.logs.glob("*.log")}
    print(f"tracebacks in the logs:     {logs} (logs in {processes.logs})")
    bad = (
        figures.lost
        or figures.duplicated
        or figures.stuck
        or figures.audit_failures
        or tally.five_xx_outside
        or ledger.unknown_tokens
        or figures.stream_gaps
        or rebuilds.failed
    )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
