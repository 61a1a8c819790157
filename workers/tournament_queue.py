"""Follow-ups of a finished game — rate it, move its tournament on — as RQ jobs or in-process.

Both are idempotent, so a job delivered twice (RQ is at-least-once) is harmless:
rating appends with the game id as idempotency key, and a tournament step
replays, re-checks every game of the round and appends with the version it read.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from typing import Callable

from rq import Queue, Retry

log = logging.getLogger(__name__)


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
        self.queue.enqueue(
            function,
            argument,
            prefix=self.prefix,
            job_id=job_id,
            retry=Retry(max=3, interval=[1, 5, 15]),
            result_ttl=600,
            failure_ttl=7 * 24 * 3600,
        )


class InlineFollowUps:
    """Run follow-ups in this process at once; a tournament step asked for during
    another runs after it, so one tournament is never stepped by itself reentrantly.
    """

    def __init__(self) -> None:
        self.rate_game: Callable[[str], str] | None = None
        self.advance: Callable[[str], str] | None = None
        self._local = threading.local()

    def rate(self, game_id: str) -> None:
        """Rate the game now."""
        assert self.rate_game is not None, "InlineFollowUps.rate_game must be wired before use"
        try:
            self.rate_game(game_id)
        except Exception:  # noqa: BLE001 — like a failed RQ job: logged, never the client's error
            log.exception("rating game %s failed", game_id)

    def progress(self, tournament_id: str, reason: str) -> None:
        """Step the tournament now, or after the step in hand."""
        pending = getattr(self._local, "pending", None)
        if pending is not None:
            if tournament_id not in pending:
                pending.append(tournament_id)
            return
        self._local.pending = pending = deque([tournament_id])
        try:
            while pending:
                self._run(pending.popleft())
        finally:
            self._local.pending = None

    def _run(self, tournament_id: str) -> None:
        assert self.advance is not None, "InlineFollowUps.advance must be wired before use"
        try:
            self.advance(tournament_id)
        except Exception:  # noqa: BLE001 — like a failed RQ job: logged, never the client's error
            log.exception("step of tournament %s failed", tournament_id)
