"""RQ entry points: small importable functions taking ids (RQ docs: "global variables are evil").

Each hands its ids to the bootstrap's job table on the worker's services; the
work itself is the application services'.
"""

from __future__ import annotations

from redis import Redis
from rq import get_current_job

from service.bootstrap import run_job


def _connection() -> Redis:
    job = get_current_job()
    if job is None:
        raise RuntimeError("this function runs as an RQ job, inside `menagerie worker`")
    return job.connection


def step(game_id: str, version: int, prefix: str = "menagerie") -> object:
    """Take one system or bot step of a game if it still waits on it at `version`."""
    return run_job(_connection(), prefix, "step", game_id, version)


def rate_game(game_id: str, prefix: str = "menagerie") -> object:
    """Rate a finished game (once, whatever the number of deliveries)."""
    return run_job(_connection(), prefix, "rate", game_id)


def advance_tournament(tournament_id: str, prefix: str = "menagerie") -> object:
    """Record finished games of a tournament's round and start the next round or finish."""
    return run_job(_connection(), prefix, "advance", tournament_id)


def audit(audit_id: str, prefix: str = "menagerie") -> object:
    """Run an audit that was too long for its request, writing its progress and result into its record."""
    return run_job(_connection(), prefix, "audit", audit_id)
