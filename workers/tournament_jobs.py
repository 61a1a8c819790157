"""RQ jobs for ratings and tournaments: small importable functions taking ids."""

from __future__ import annotations

from rq import get_current_job


def rate_game(game_id: str, prefix: str = "menagerie") -> str:
    """Rate a finished game (once, whatever the number of deliveries)."""
    from service.wiring import services_for

    job = get_current_job()
    assert job is not None, "rate_game runs inside an RQ worker"
    return services_for(job.connection, prefix).ratings.rate_game(game_id)


def advance_tournament(tournament_id: str, prefix: str = "menagerie") -> str:
    """Record finished games of a tournament's round and start the next round or finish."""
    from service.wiring import services_for

    job = get_current_job()
    assert job is not None, "advance_tournament runs inside an RQ worker"
    return services_for(job.connection, prefix).tournaments.advance(tournament_id)
