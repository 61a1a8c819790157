"""A Redis Cluster of one's own: three masters from the installed `redis-server`, no persistence.

Each node gets its own free port, its own cluster bus port and its own
directory; `redis-cli --cluster create` assigns the slots. Used by the cluster
tests and by `bench/bench_http.py --cluster`; it imports nothing from pytest.
`stop` kills only the processes it started. With `replicas=1` each master
has a replica, and a master that stops answering for `NODE_TIMEOUT_MS` is
failed over to it (the failover test).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import redis

from tests.support.processes import answers, free_port, wait_for

MASTERS = 3
# How long a master may not answer before its replica takes over (redis.conf's default is 15 s).
NODE_TIMEOUT_MS = 1000


def cluster_tools_missing() -> str | None:
    """Return which of `redis-server` and `redis-cli` is not on PATH, if any."""
    return next((tool for tool in ("redis-server", "redis-cli") if shutil.which(tool) is None), None)


class OwnCluster:
    """Three cluster-enabled redis-servers, joined into one cluster with every slot assigned."""

    def __init__(self, directory: Path, masters: int = MASTERS, replicas: int = 0, full_coverage: bool = True) -> None:
        self.directory = directory
        self.replicas = replicas
        # Redis's default: while any slot has no master, every master refuses every command.
        self.full_coverage = full_coverage
        self.ports = [free_port() for _ in range(masters * (1 + replicas))]
        self.processes: list[subprocess.Popen[bytes]] = []

    @property
    def url(self) -> str:
        """The store URL naming every node (`redis+cluster://`)."""
        return "redis+cluster://" + ",".join(f"127.0.0.1:{port}" for port in self.ports)

    def start(self) -> OwnCluster:
        """Start the masters, create the cluster and wait until every node says `cluster_state:ok`."""
        try:
            for port in self.ports:
                self._start_node(port)
            nodes = [f"127.0.0.1:{port}" for port in self.ports]
            subprocess.run(
                ["redis-cli", "--cluster", "create", *nodes, "--cluster-replicas", str(self.replicas), "--cluster-yes"],
                check=True,
                capture_output=True,
                timeout=60,
            )
            for port in self.ports:
                node = redis.Redis(port=port)
                wait_for(lambda node=node: _cluster_ok(node), 30, f"the cluster node on {port} to be ok")
                # A replica that has not synced yet could not take over from its master.
                wait_for(lambda node=node: _in_sync(node), 30, f"the node on {port} to be in sync")
        except BaseException:
            self.stop()
            raise
        return self

    def _start_node(self, port: int) -> None:
        home = self.directory / str(port)
        home.mkdir(parents=True, exist_ok=True)
        # The bus port defaults to port + 10000, which may be taken (or past 65535): pick a free one.
        args = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--dir", str(home)]
        args += ["--cluster-enabled", "yes", "--cluster-port", str(free_port())]
        args += ["--cluster-config-file", "nodes.conf", "--save", "", "--appendonly", "no"]
        args += ["--cluster-node-timeout", str(NODE_TIMEOUT_MS), "--repl-diskless-sync-delay", "0"]
        args += ["--cluster-require-full-coverage", "yes" if self.full_coverage else "no"]
        log = open(home / "redis.log", "ab")  # noqa: SIM115 — closed with the process
        self.processes.append(subprocess.Popen(args, stdout=log, stderr=log))
        wait_for(lambda: answers(redis.Redis(port=port)), 20, f"redis-server on {port} to answer")

    def kill(self, port: int) -> None:
        """Kill -9 the node on `port`."""
        self.processes[self.ports.index(port)].kill()
        self.processes[self.ports.index(port)].wait(10)

    def stop(self) -> None:
        """Kill the masters this cluster started (and only them)."""
        for process in self.processes:
            if process.poll() is None:
                process.kill()
                process.wait(10)
        self.processes.clear()


def _in_sync(node: redis.Redis) -> bool:
    replication = node.info("replication")
    return replication["role"] == "master" or replication.get("master_link_status") == "up"


def _cluster_ok(node: redis.Redis) -> bool:
    info = node.execute_command("CLUSTER", "INFO")
    text = info.decode() if isinstance(info, bytes) else str(info)
    return "cluster_state:ok" in text
