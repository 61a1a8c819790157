"""The steward: takes every step the due index says is overdue, so no crash strands a game.

It is also the move clocks' timer: a game waiting on a human seat with a
clock is marked with the clock's deadline, and the steward that claims it once
overdue records the timeout (a stand-in plays the move).

Every `menagerie worker` runs one beside its RQ worker (and `serve` runs one
in embedded mode). The step jobs enqueued after an append are the fast path;
when one never runs — the process died between the append and the enqueue,
the worker running it was killed, Redis dropped the enqueue — its game stays
marked in the due index, and once the mark is overdue a steward claims it and
takes the step itself. Steps are idempotent (they append at the version they
read), so a steward racing a late job costs one refused append, nothing more.
"""

from __future__ import annotations

import functools
import logging
import threading

from service.adapters.connections import STORE_UNAVAILABLE
from service.adapters.due import DueIndex
from service.adapters.outages import process_outages
from service.application.games import GameService
from service.errors import NotFound

log = logging.getLogger(__name__)


class Steward:
    """Claim overdue games from the due index and take their steps."""

    def __init__(self, due: DueIndex, games: GameService, lease_ms: int, batch: int = 20) -> None:
        self.due = due
        self.games = games
        # A claimer that dies mid-step holds the game for one lease; the lease
        # outlasts a step by far (a step takes milliseconds).
        self.lease_ms = lease_ms
        self.batch = batch

    def run_once(self) -> int:
        """Take the steps of the overdue games claimed now; return how many were claimed."""
        claimed = self.due.claim(self.lease_ms, self.batch)
        for game_id, lease in claimed:
            try:
                # A move clock has run out only if no append rewrote the mark since the claim.
                outcome = self.games.resume(game_id, clock_out=functools.partial(self.due.holds, game_id, lease))
            except NotFound:
                outcome = "gone"
            except STORE_UNAVAILABLE:
                raise
            except Exception:  # noqa: BLE001 — one broken game must not stop the others; its lease retries it
                log.exception("overdue step of game %s failed; retried when its lease runs out", game_id)
                continue
            if outcome in ("idle", "gone"):
                # Nothing to do at the version read; unmark unless an append marked it again.
                self.due.release(game_id, lease)
            else:
                log.info("steward took an overdue step of game %s (%s)", game_id, outcome)
        return len(claimed)

    def run(self, stop: threading.Event, interval: float = 0.5, max_backoff: float = 10.0) -> None:
        """Poll until `stop` is set; wait out a store outage with a growing pause instead of failing."""
        backoff = interval
        # A line when an outage begins, one when it ends: the process's, shared with its other parts.
        outage = process_outages("the steward")
        while not stop.is_set():
            try:
                claimed = self.run_once()
            except STORE_UNAVAILABLE as error:
                outage.failed(error)
                stop.wait(backoff)
                backoff = min(max_backoff, backoff * 2)
                continue
            except Exception:  # noqa: BLE001 — a dead steward strands every game for good; a retry costs a log line
                log.exception("the steward's claim failed; it retries in %.1f s", backoff)
                stop.wait(backoff)
                backoff = min(max_backoff, backoff * 2)
                continue
            outage.answered()
            backoff = interval
            # A full batch means more may be overdue: go again at once.
            stop.wait(0 if claimed >= self.batch else interval)

    def start(self, interval: float = 0.5) -> threading.Event:
        """Run in a daemon thread; return the event that stops it."""
        stop = threading.Event()
        threading.Thread(target=self.run, args=(stop, interval), name="steward", daemon=True).start()
        return stop
