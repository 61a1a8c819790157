"""The archiver as a worker duty: `menagerie worker` archives finished games on its own schedule.

Turned on by `MENAGERIE_ARCHIVE_AFTER_DAYS` (with `MENAGERIE_ARCHIVE_DIR`, default `./archive`);
off by default, as archiving moves games out of Redis into files the operator must keep. Each
worker that has it turned on tries once an interval (an hour by default), and a lease in Redis
lets one of them run at a time; a run is `ArchiveService.archive_finished`, so one cut short
(a killed worker) is finished by the next, whichever worker takes it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from service.adapters.connections import STORE_UNAVAILABLE, ConfigError, StoreRedis
from service.application.archive import ArchiveRun, ArchiveService

log = logging.getLogger(__name__)

HOUR_S = 3600
# What stops one run and not the next: Redis away, the directory unwritable.
RUN_FAILED: tuple[type[Exception], ...] = (*STORE_UNAVAILABLE, OSError)


@dataclass
class ArchiveDuty:
    """Archive the games that ended `after_days` ago into `directory`, every `every_s` seconds, one worker at a time."""

    archive: ArchiveService
    redis: StoreRedis
    prefix: str
    directory: str
    after_days: float
    every_s: int = HOUR_S

    def run_once(self) -> ArchiveRun | None:
        """Run the archiver if no other worker holds the lease this interval; None if one does."""
        if not self.redis.set(f"{self.prefix}:archiver-lease", "1", nx=True, ex=self.every_s):
            return None
        run = self.archive.archive_finished(self.directory, datetime.now(UTC) - timedelta(days=self.after_days))
        log.info(
            "archived %d games to %s (%d failed); %d ended since, %d in play, %d kept for tournaments",
            len(run.archived),
            self.directory,
            len(run.failed),
            run.recent,
            run.in_play,
            run.held,
        )
        return run

    def run(self, stop: threading.Event) -> None:
        """Try once an interval until `stop` is set; a failed run is logged and tried again the next."""
        while not stop.is_set():
            try:
                self.run_once()
            except RUN_FAILED as error:
                log.warning("the archiver could not run (%s); it tries again in %d s", error, self.every_s)
            stop.wait(self.every_s)

    def start(self) -> threading.Event:
        """Run in a daemon thread; return the event that stops it."""
        stop = threading.Event()
        threading.Thread(target=self.run, args=(stop,), name="archiver", daemon=True).start()
        return stop


def duty_from_env(
    archive: ArchiveService, redis: StoreRedis, prefix: str, environ: Mapping[str, str]
) -> ArchiveDuty | None:
    """Return the duty `MENAGERIE_ARCHIVE_AFTER_DAYS` turns on (None when it is unset); ConfigError if it is no number."""
    days = environ.get("MENAGERIE_ARCHIVE_AFTER_DAYS")
    if not days:
        return None
    try:
        after_days = float(days)
    except ValueError:
        after_days = -1
    if not after_days >= 0:  # also refuses nan
        raise ConfigError(f"MENAGERIE_ARCHIVE_AFTER_DAYS must be a number of days, 0 or more, not {days!r}")
    return ArchiveDuty(archive, redis, prefix, environ.get("MENAGERIE_ARCHIVE_DIR", "archive"), after_days)
