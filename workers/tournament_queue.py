"""Follow-ups of a finished game — rate it, move its tournament on — as RQ jobs or in-process.

Both are idempotent, so a job delivered twice (RQ is at-least-once) is harmless:
rating appends with the game id as idempotency key, and a tournament step
replays, re-checks every game of the round and appends with the version it read.
"""

from __future__ import annotations

from collections.abc import Callable

from rq import Queue

from workers.queue import RunInTurn, enqueue_job


def rate_job_id(prefix: str, game_id: str) -> str:
    """Return the deterministic id of the job that rates a game."""
    return f"{prefix}-rate-{game_id}"


def progress_job_id(prefix: str, tournament_id: str, reason: str) -> str:
    """Return the id of a tournament step, named after what asked for it (a game id, `v<version>`)."""
    return f"{prefix}-tournament-{tournament_id}-{reason}"


class RQFollowUps:
    """Enqueue follow-ups on the key prefix's RQ queue, with deterministic ids and retries."""

    def __init__(self, queue: Queue, prefix: str) -> None:
        self.queue = queue
        self.prefix = prefix

    def rate(self, game_id: str) -> None:
        """Enqueue the rating of a finished game."""
        self._enqueue("workers.tournament_jobs.rate_game", game_id, rate_job_id(self.prefix, game_id))

    def progress(self, tournament_id: str, reason: str) -> None:
        """Enqueue a tournament step."""
        job_id = progress_job_id(self.prefix, tournament_id, reason)
        self._enqueue("workers.tournament_jobs.advance_tournament", tournament_id, job_id)

    def _enqueue(self, function: str, argument: str, job_id: str) -> None:
        enqueue_job(self.queue, function, argument, prefix=self.prefix, job_id=job_id)


class InlineFollowUps:
    """Run follow-ups in this process at once; a tournament step asked for during
    another runs after it, so one tournament is never stepped by itself reentrantly.
    """

    def __init__(self) -> None:
        self.rate_game: Callable[[str], str] | None = None
        self.advance: Callable[[str], str] | None = None
        self._turns = RunInTurn()

    def rate(self, game_id: str) -> None:
        """Rate the game now (or after the follow-up in hand)."""
        assert self.rate_game is not None, "InlineFollowUps.rate_game must be wired before use"
        rate_game = self.rate_game
        self._turns.submit(("rate", game_id), lambda: rate_game(game_id))

    def progress(self, tournament_id: str, reason: str) -> None:
        """Step the tournament now, or after the step in hand."""
        assert self.advance is not None, "InlineFollowUps.advance must be wired before use"
        advance = self.advance
        self._turns.submit(("tournament", tournament_id), lambda: advance(tournament_id))
