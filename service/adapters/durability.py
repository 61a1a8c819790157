"""Redis's durability settings, read at start and held against what docs/operators.md requires.

An acknowledged move must be on disk before the player hears "200"
(`appendonly yes`, `appendfsync always`), and no stream may be evicted
(`maxmemory-policy noeviction`). `menagerie serve` and `menagerie worker`
read these with `CONFIG GET` when they start: a setting that differs is a
warning, or, with `--require-durable`, a refusal to start. A Redis that
refuses `CONFIG` (a managed service may rename it) is a warning too: the
operator then checks by hand.
"""

from __future__ import annotations

from typing import Any

from redis.exceptions import ResponseError

from service.adapters.connections import ConfigError

# What docs/operators.md ("Redis") requires, and why, in a few words.
REQUIRED = {
    "appendonly": ("yes", "without the AOF a restart loses every move since the last snapshot"),
    "appendfsync": ("always", "with anything else a crash loses acknowledged moves"),
    "maxmemory-policy": ("noeviction", "an evicted stream is a lost game"),
}


def durability_gaps(redis: Any) -> list[str]:
    """Return what differs from the required settings, a sentence each (none: all is as required).

    `redis`: a client of the store; on a Redis Cluster, every master is asked.
    """
    try:
        found = _settings(redis)
    except ResponseError as error:
        return [f"could not read Redis's settings ({error}); check {', '.join(REQUIRED)} by hand"]
    gaps = []
    for name, (wanted, why) in REQUIRED.items():
        for value in sorted(found.get(name, {""})):
            if value != wanted:
                gaps.append(f"Redis has {name} {value or '(unset)'}, not {wanted}: {why}")
    return gaps


def check_durability(redis: Any, required: bool, warn: Any) -> None:
    """Warn about each gap (`warn`: a logger's warning); with `required`, refuse to start when there is one."""
    gaps = durability_gaps(redis)
    for gap in gaps:
        warn("%s (docs/operators.md, Redis)", gap)
    if gaps and required:
        raise ConfigError("--require-durable: Redis is not configured as docs/operators.md requires")


def _settings(redis: Any) -> dict[str, set[str]]:
    """Return each required setting's values (more than one on a cluster whose masters differ)."""
    found: dict[str, set[str]] = {}
    for name in REQUIRED:
        reply = redis.config_get(name)
        # A cluster client answers per node ({node: {name: value}}) or merged ({name: value}).
        replies = reply.values() if reply and all(isinstance(v, dict) for v in reply.values()) else [reply]
        for each in replies:
            value = each.get(name, each.get(name.encode(), ""))
            found.setdefault(name, set()).add(value.decode() if isinstance(value, bytes) else str(value))
    return found
