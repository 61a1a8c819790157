"""Real processes for fault tests and the fault run: `menagerie` subprocesses, a redis-server of one's own, polling.

Nothing here sleeps and hopes: every wait polls a condition until a deadline.
Used by tests/service/test_faults.py and bench/fault_run.py; it imports
nothing from pytest, so the bench can run without it.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import orjson
import redis
from redis.cluster import RedisCluster

ROOT = Path(__file__).resolve().parent.parent.parent

T = TypeVar("T")


def wait_for(condition: Callable[[], T], deadline_s: float, what: str) -> T:
    """Poll `condition` until it is truthy; fail after `deadline_s`."""
    end = time.monotonic() + deadline_s
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"gave up after {deadline_s} s waiting for {what}")
        time.sleep(0.02)


def free_port() -> int:
    """Return a loopback port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def port_in(ports: range) -> int:
    """Return the first port of `ports` on the loopback that nobody listens on now."""
    for port in ports:
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"every port from {ports.start} to {ports.stop - 1} is taken")


def url_of(client: redis.Redis) -> str:
    """Return the URL a subprocess needs to reach the same Redis database as `client`."""
    kwargs = client.connection_pool.connection_kwargs
    return f"redis://{kwargs.get('host', '127.0.0.1')}:{kwargs.get('port', 6379)}/{kwargs.get('db', 0)}"


class Processes:
    """Subprocesses of one run, with their logs; all are killed at the end."""

    def __init__(self, logs: Path, step_timeout_s: int) -> None:
        self.logs = logs
        self.step_timeout_s = step_timeout_s
        self.running: list[subprocess.Popen[bytes]] = []

    def menagerie(
        self,
        name: str,
        args: list[str],
        url: str,
        prefix: str,
        fault: str | None = None,
        rq_url: str | None = None,
        env: dict[str, str] | None = None,
    ) -> Any:
        """Start `menagerie <args>` on the Redis at `url` under `prefix`, logging to `<name>.log`.

        `rq_url` is RQ's plain Redis (RQ_REDIS_URL), needed when `url` is a cluster; `env` adds settings.
        """
        extra = env or {}
        env = {
            **os.environ,
            **extra,
            "REDIS_URL": url,
            "MENAGERIE_PREFIX": prefix,
            "MENAGERIE_STEP_TIMEOUT_S": str(self.step_timeout_s),
            # Runs here start more all-bot games at once, all from this one address, than a client may.
            "MENAGERIE_BOT_GAMES_PER_ADDRESS": "1000",
            "PYTHONPATH": str(ROOT),
        }
        env.pop("MENAGERIE_FAULT", None)
        env.pop("RQ_REDIS_URL", None)
        if rq_url:
            env["RQ_REDIS_URL"] = rq_url
        if fault:
            env["MENAGERIE_FAULT"] = fault
        log = open(self.logs / f"{name}.log", "wb")  # noqa: SIM115 — closed with the process
        command = [sys.executable, "-c", "import sys; from service.cli import main; sys.exit(main())", *args]
        process = subprocess.Popen(command, env=env, stdout=log, stderr=log)
        self.running.append(process)
        return process

    def log(self, name: str) -> str:
        """Return what the process `name` has written so far."""
        return (self.logs / f"{name}.log").read_text(errors="replace")

    def stop_all(self) -> None:
        """Kill every process of this run that still runs, and their children (a server's workers)."""
        for process in self.running:
            if process.poll() is None:
                children = children_of(process.pid)
                process.kill()
                process.wait(10)
                for pid in children:
                    if not has_ended(pid):
                        os.kill(pid, signal.SIGKILL)


def children_of(pid: int) -> list[int]:
    """Return the ids of the live processes whose parent is `pid` (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and _parent_and_state(int(entry.name))[0] == pid:
            found.append(int(entry.name))
    return found


def has_ended(pid: int) -> bool:
    """Whether `pid` is gone or a zombie (ended, waiting for whoever adopted it to reap it)."""
    parent, state = _parent_and_state(pid)
    return parent is None or state == "Z"


def _parent_and_state(pid: int) -> tuple[int | None, str]:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None, ""
    # The command name may hold spaces and parentheses: the fields follow the last ')'.
    fields = stat[stat.rindex(")") + 2 :].split()
    return int(fields[1]), fields[0]


class OwnRedis:
    """A redis-server of one's own: own port, temp dir, AOF `always`."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The URL of its database 0."""
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start it (again, on the same port and files) and wait until it answers."""
        args = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.directory)]
        args += ["--appendonly", "yes", "--appendfsync", "always", "--save", "", "--maxmemory-policy", "noeviction"]
        log = open(self.directory / "redis.log", "ab")  # noqa: SIM115 — closed with the process
        self.process = subprocess.Popen(args, stdout=log, stderr=log)
        probe = redis.Redis(port=self.port)
        wait_for(lambda: answers(probe), 20, "redis-server to answer")

    def kill(self) -> None:
        """Kill it with SIGKILL: no chance to flush anything it has not already written."""
        assert self.process is not None
        self.process.kill()
        self.process.wait(10)


def remove_run(client: redis.Redis | RedisCluster, prefix: str) -> None:
    """Delete every key whose name holds a run's prefix (on a cluster, on every master), and forget its RQ names."""
    keys = list(client.scan_iter(match=f"*{prefix}*", count=1000))
    for start in range(0, len(keys), 1000):
        client.delete(*keys[start : start + 1000])
    forget_rq(client, prefix)


def forget_rq(client: redis.Redis | RedisCluster, prefix: str) -> None:
    """Remove a run's queues and workers from RQ's registries (a killed worker never deregisters itself)."""
    for registry in ("rq:queues", "rq:workers"):
        # Members are bytes or str by the client's decoding; a run's queue and worker names carry its prefix.
        members = [m for m in client.smembers(registry) if prefix in (m.decode() if isinstance(m, bytes) else m)]
        if members:
            client.srem(registry, *members)


def answers(client: redis.Redis) -> bool:
    """Whether the Redis behind `client` answers a PING."""
    try:
        return bool(client.ping())
    except redis.exceptions.RedisError:
        return False


def http(method: str, url: str, body: Any = None, headers: dict[str, str] | None = None) -> tuple[int, Any]:
    """Send one request; return (status, JSON body or error details). Status 0: no answer at all."""
    data = orjson.dumps(body) if body is not None else None
    request = urllib.request.Request(
        url, data=data, method=method, headers={"Content-Type": "application/json", **(headers or {})}
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, orjson.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, {"body": error.read().decode(errors="replace"), "retry_after": error.headers["Retry-After"]}
    except OSError:
        return 0, None


class Watch:
    """Poll games' versions; remember the longest time any active game went without a new event."""

    def __init__(self, version: Callable[[str], int], finished: Callable[[str], bool]) -> None:
        self.version = version
        self.finished = finished
        self.seen: dict[str, tuple[int, float]] = {}
        self.ended: set[str] = set()
        self.longest = 0.0

    def poll(self, game_ids: list[str]) -> bool:
        """Take one look at every game; return whether all have finished."""
        now = time.monotonic()
        done = True
        for game_id in game_ids:
            if game_id in self.ended:
                continue
            version = self.version(game_id)
            last = self.seen.get(game_id)
            if last is None or version != last[0]:
                self.seen[game_id] = (version, now)
            else:
                self.longest = max(self.longest, now - last[1])
            if self.finished(game_id):
                self.ended.add(game_id)  # a finished game stands still by right: no stall
            else:
                done = False
        return done
