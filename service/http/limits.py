"""Fair use: rate limits per client address on what costs the service work (creating games, moves).

The counters live on the same Redis as the store (the embedded fakeredis in
embedded mode), under the deployment's key prefix, so every API process of a
deployment counts one client together. Limits are generous by default and set
by environment (`MENAGERIE_RATE_CREATE`, `MENAGERIE_RATE_ACTIONS`,
`MENAGERIE_RATE_AUDITS`) or by the app's config (`RATE_LIMIT_CREATE`,
`RATE_LIMIT_ACTIONS`, `RATE_LIMIT_AUDITS`; `RATE_LIMITS_ENABLED`).
A client over a limit gets 429 `too_many_requests` with `Retry-After`.
"""

from __future__ import annotations

import math
import os
import time
from typing import Any, cast

from flask import Flask
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits import parse_many
from redis import Redis

from service.adapters.connections import StoreRedis
from service.bootstrap import Services

# A human plays a few moves a minute and a busy bot client a few a second; a
# client creating more than a game a second is a flood.
DEFAULT_CREATE = "60 per minute"
DEFAULT_ACTIONS = "600 per minute"
# A finished game's or tournament's audit is computed once and kept, so a repeat costs a read; an
# auditor checks a few a minute. The first ask of a large tournament costs up to a second, so a
# client asking for many in a loop is held to this, counted over both audit routes together.
DEFAULT_AUDITS = "30 per minute"

# The move's route: a move on a game's socket counts on its counter too (`hit_socket_move`).
MOVES = "games.post_action"
# The views each limit applies to, by endpoint.
LIMITED: dict[str, tuple[str, ...]] = {
    "RATE_LIMIT_CREATE": ("games.create_game", "tournaments.create_tournament", "players.register_player"),
    "RATE_LIMIT_ACTIONS": (MOVES, "games.join_game", "tournaments.register"),
}
# Limits whose views count together, one counter per client for the whole group.
SHARED: dict[str, tuple[str, ...]] = {
    "RATE_LIMIT_AUDITS": ("games.audit_game", "tournaments.audit_tournament"),
}

EXTENSION = "menagerie.limiter"


def limit_defaults() -> dict[str, object]:
    """Return the rate-limit config read from the environment."""
    return {
        "RATE_LIMITS_ENABLED": os.environ.get("MENAGERIE_RATE_LIMITS", "on") != "off",
        "RATE_LIMIT_CREATE": os.environ.get("MENAGERIE_RATE_CREATE", DEFAULT_CREATE),
        "RATE_LIMIT_ACTIONS": os.environ.get("MENAGERIE_RATE_ACTIONS", DEFAULT_ACTIONS),
        "RATE_LIMIT_AUDITS": os.environ.get("MENAGERIE_RATE_AUDITS", DEFAULT_AUDITS),
    }


def install_limits(app: Flask, services: Services) -> None:
    """Limit the app's costly views per client address, counting on the store's Redis."""
    if not app.config["RATE_LIMITS_ENABLED"]:
        return
    storage_uri, storage_options = _storage(services.redis)
    limiter = Limiter(
        get_remote_address,
        app=app,
        storage_uri=storage_uri,
        # flask-limiter types these as text, but `limits` takes a connection pool or cluster nodes here.
        storage_options=cast(dict[str, Any], storage_options),
        key_prefix=services.prefix,
        # Retry-After on the 429 only (our error handler); not X-RateLimit-* and Retry-After on every answer.
        headers_enabled=False,
        # A counter per client and window: O(1) memory, unlike a moving window's entry per request.
        strategy="fixed-window",
    )
    for config_key, endpoints in LIMITED.items():
        for endpoint in endpoints:
            limited: Any = limiter.limit(app.config[config_key])(app.view_functions[endpoint])
            app.view_functions[endpoint] = limited
    for config_key, endpoints in SHARED.items():
        shared = limiter.shared_limit(app.config[config_key], scope=config_key.lower())
        for endpoint in endpoints:
            limited = shared(app.view_functions[endpoint])
            app.view_functions[endpoint] = limited
    app.extensions[EXTENSION] = limiter


def _storage(redis: StoreRedis) -> tuple[str, dict[str, object]]:
    """Return where the counters live: the store's own Redis, so there is one to run and to lose.

    An outage is then the same 503 `store_unavailable` as on any route. On a
    single Redis the limiter shares the store's connection pool; `limits`
    cannot take a cluster client, so on a cluster it connects to the same
    nodes itself (each counter is one key: its scripts touch one slot).
    """
    if isinstance(redis, Redis):
        return "redis://", {"connection_pool": redis.connection_pool}
    nodes = ",".join(f"{node.host}:{node.port}" for node in redis.get_primaries())
    kwargs = redis.nodes_manager.connection_kwargs
    options = {name: kwargs[name] for name in ("username", "password", "ssl") if kwargs.get(name)}
    return f"redis+cluster://{nodes}", options


def retry_after_s(app: Flask) -> int:
    """Return the seconds until the limit the current request broke lets it through again."""
    limiter: Limiter | None = app.extensions.get(EXTENSION)
    current = limiter.current_limit if limiter is not None else None
    if current is None:
        return 1
    return max(1, math.ceil(current.reset_at - time.time()))


def hit_socket_move(app: Flask, address: str) -> tuple[str, int] | None:
    """Count a move sent on a game's socket from `address`; return its limit and the seconds to wait if it is over.

    It counts on the counter flask-limiter keeps for `POST /games/{id}/actions`
    from the same address (its key: the prefix, the address, the endpoint), so a
    client's moves are limited together however it sends them.
    """
    limiter: Limiter | None = app.extensions.get(EXTENSION)
    if limiter is None:
        return None
    prefix = app.extensions["menagerie"].prefix
    for item in parse_many(app.config["RATE_LIMIT_ACTIONS"]):
        if not limiter.limiter.hit(item, prefix, address, MOVES):
            reset_at, _ = limiter.limiter.get_window_stats(item, prefix, address, MOVES)
            return str(item), max(1, math.ceil(reset_at - time.time()))
    return None
