"""RQ jobs: small importable functions taking ids (RQ docs: "global variables are evil")."""

from __future__ import annotations

from rq import get_current_job


def step(game_id: str, version: int, prefix: str = "menagerie") -> str:
    """Take one system or bot step of a game if it still waits on it at `version`."""
    from service.wiring import services_for

    job = get_current_job()
    assert job is not None, "step runs inside an RQ worker"
    return services_for(job.connection, prefix).games.step(game_id, version)
