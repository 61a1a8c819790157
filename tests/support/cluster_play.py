"""All-bot games on a Redis Cluster of one's own, played by `menagerie worker` processes and watched from here.

For the worker failover test and `bench/bench_failover.py`: the games are
created through the game service on the cluster, RQ runs on a plain
redis-server of its own, and the workers take one step a job (a slice of
0 ms), so that every game is still under way while a master fails over. It
imports nothing from pytest.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Iterable
from pathlib import Path

import orjson
from redis import Redis
from redis.cluster import RedisCluster
from redis.exceptions import RedisClusterException, RedisError

from service.adapters.slots import aggregate_key
from service.bootstrap import Services, build_from_urls
from tests.support.cluster import OwnCluster
from tests.support.processes import OwnRedis, Processes, wait_for

PREFIX = "failover"
KINDS = [("zop-zoo", 4), ("bloede-kuh", 4), ("life-is-life", 4)]


class ClusterPlay:
    """The games, the workers, and where each game lives."""

    def __init__(self, cluster: OwnCluster, directory: Path, workers: int = 2, slice_ms: int = 0) -> None:
        self.cluster = cluster
        queue_home = directory / "rq"
        queue_home.mkdir(parents=True, exist_ok=True)
        self.queue = OwnRedis(queue_home)
        self.queue.start()
        self.processes = Processes(directory, step_timeout_s=30)
        self.services: Services = build_from_urls(cluster.url, self.queue.url, PREFIX, fail_fast=True)
        store = self.services.redis
        assert isinstance(store, RedisCluster)
        self.store = store
        env = {"MENAGERIE_STEP_SLICE_MS": str(slice_ms)}
        self.workers = [
            self.processes.menagerie(f"worker-{n}", ["worker"], cluster.url, PREFIX, rq_url=self.queue.url, env=env)
            for n in range(workers)
        ]
        self.games: list[str] = []

    def create(self, count: int) -> None:
        """Create `count` all-bot games (heuristic and random bots)."""
        for number in range(count):
            name, seats = KINDS[number % len(KINDS)]
            bots = [{"bot": "heuristic" if seat % 2 == 0 else "random"} for seat in range(seats)]
            game, _ = self.services.games.create(name, bots, {})
            self.games.append(game.id)

    def master_of(self, game_id: str) -> int:
        """Return the port of the master serving a game's slot, as the client's map has it."""
        node = self.store.nodes_manager.get_node_from_slot(self.store.keyslot(self.key(game_id)))
        return int(node.port)

    def key(self, game_id: str, part: str = "events") -> str:
        """Return a game's stream key (or the key of another of its parts)."""
        return aggregate_key(PREFIX, game_id, part)

    def last(self, game_ids: Iterable[str]) -> dict[str, tuple[int, bool]]:
        """Return each game's version and whether it ended (its last event is GameEnded), one read each.

        A game whose master does not answer now is left out: this client fails fast, like a worker's,
        so a read never waits out a failover.
        """
        seen = {}
        for game_id in game_ids:
            try:
                last = self.store.xrevrange(self.key(game_id), count=1)
                # A finished game's stream is packed into one value once it is rated: it ended.
                packed = None if last else self.store.hget(self.key(game_id, "packed"), "version")
            except (RedisError, RedisClusterException):
                continue
            if last:
                [(entry, fields)] = last
                seen[game_id] = (int(entry.split(b"-")[0]), orjson.loads(fields[b"e"])["type"] == "GameEnded")
            elif packed is not None:
                seen[game_id] = (int(packed), True)
        return seen

    def moved_since(self, before: dict[str, tuple[int, bool]]) -> set[str]:
        """Return the games that moved (or ended) since `before`, as far as their masters answer now."""
        return {g for g, (version, ended) in self.last(before).items() if ended or version > before[g][0]}

    def busiest_master(self) -> int:
        """Return the port of the master that holds the most games."""
        ports = [self.master_of(game_id) for game_id in self.games]
        return max(set(ports), key=ports.count)

    def kill(self, port: int) -> None:
        """Kill -9 a master once its replica has every write so far (Redis's own replication window aside)."""
        assert Redis(port=port).execute_command("WAIT", 1, 5000) == 1
        self.cluster.kill(port)

    def freeze(self, port: int) -> None:
        """Stop a master with SIGSTOP once its replica has every write: a host gone silent, not one refusing.

        Its port still accepts connections, and nothing answers on them: a client
        waits for its timeout, where a killed process's refusal is at once.
        """
        assert Redis(port=port).execute_command("WAIT", 1, 5000) == 1
        self.cluster.processes[self.cluster.ports.index(port)].send_signal(signal.SIGSTOP)

    def promoted(self, dead: int, game_id: str) -> bool:
        """Tell whether another node now serves the dead master's slot, as a surviving node says."""
        slot = self.store.keyslot(self.key(game_id))
        for port in self.cluster.ports:
            if port == dead:
                continue
            try:
                ranges = Redis(port=port, socket_timeout=1).execute_command("CLUSTER", "SLOTS")
            except RedisError:  # a node mid-failover may not answer; ask the next
                continue
            for low, high, owner, *_ in ranges:
                if int(low) <= slot <= int(high):
                    return int(owner[1]) != dead
        return False

    def wait_until_under_way(self) -> None:
        """Wait until every game has moved since it was created."""
        created = {game_id: version for game_id, (version, _) in self.last(self.games).items()}
        wait_for(
            lambda: all(v > created[g] for g, (v, _) in self.last(self.games).items()), 60, "every game to be under way"
        )

    def stop(self) -> None:
        """Stop the workers and RQ's redis-server (the cluster is its owner's to stop)."""
        self.processes.stop_all()
        if self.queue.process is not None and self.queue.process.poll() is None:
            self.queue.kill()


def wait_for_promotion(play: ClusterPlay, dead: int, game_id: str, deadline_s: float = 60) -> float:
    """Wait until the dead master's replica serves its slots; return when (time.monotonic)."""
    wait_for(lambda: play.promoted(dead, game_id), deadline_s, "the replica to be promoted")
    return time.monotonic()
