"""Audits too long for a request: run as jobs with progress, polled, their results kept.

A tournament audit of more than `inline_games` recorded games, or a game audit
of more than `inline_events` events, does not run in the request. The first ask
writes the audit's record and starts a job, and is answered 202 with that
record; the job writes its progress into it (games or events audited, of the
total), then its result. Smaller audits run in the request, as they always did
(200 with the report).

An audit's id is derived from what it audits: kind, id, version and last hash.
So a second ask for the same state finds the same record (202 while it runs,
200 with the kept result once done), and an ask after any change is a new audit.

A finished game's or tournament's audit runs once: its result is kept under
its audit id for good (`AuditRecords.keep_result`), since what it audits can
no longer change, and every later ask is answered from it. A game imported
again with another chain under the same id has another last hash, so another
audit. An unfinished target is refused before anything is read.

How long things are kept: a result KEEP_S after it is written; a job that could
not finish FAILED_KEEP_S, and the next ask starts it again; a job that wrote no
progress for STALL_S (its worker stopped) reads as failed, and the next ask
starts it again. Two jobs of one audit (RQ delivers at least once) compute the
same result from the same state, so a duplicate costs time, never correctness.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol

from domain.audit import audit as audit_log
from domain.export import FORMAT as GAME_FORMAT
from domain.game import FINISHED as GAME_FINISHED
from domain.tournament.audit import audit_bundle
from domain.tournament.bundle import read_bundle
from domain.tournament.state import FINISHED, Tournament
from service.adapters.audit_jobs import AuditRecords
from service.errors import AuditNotFound, ServiceError

if TYPE_CHECKING:
    from service.adapters.cache import GameRepository
    from service.adapters.store import EventStore
    from service.application.archive import ArchiveService
    from service.application.tournament_files import TournamentFiles

log = logging.getLogger(__name__)

# A recorded game costs the audit 40-75 ms, read and audited (bench/bench_tournament_audit.py: Blöde Kuh
# at tables of up to 6), so 10 games answer in under a second; more is a job.
INLINE_GAMES = 10
# An event audits in 35-110 µs (Zop Zoo's are the dearest): 5,000 events answer within about half a
# second. Most games are shorter; a long Zop Zoo game (bots' longest: 6,500 events with 4 seats, 10,800
# with 5) or one stopped at its event cap (up to 60,000 events) is a job.
INLINE_EVENTS = 5000
KEEP_S = 24 * 3600
FAILED_KEEP_S = 3600
STALL_S = 600
# A job writes its progress at most this often (and once at the end).
PROGRESS_EVERY_S = 0.5
# What a client waits before it polls again.
POLL_AFTER_S = 1

QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
GAME, TOURNAMENT = "game", "tournament"
READING, AUDITING = "reading", "auditing"
_GAME_HEADER = f'"format": "{GAME_FORMAT}"'
_ID = re.compile(r"^audit-[0-9a-f]{32}$")
_INTERNAL = ("run", "updated", "last_hash")


class AuditJobs(Protocol):
    """Whatever runs an audit's job: RQ, the embedded audit thread, or the caller (tests)."""

    def audit(self, audit_id: str, run: int) -> None:
        """Run (or queue) the job of an audit; `run` counts its starts, so each start is a job of its own."""


@dataclass(frozen=True)
class Target:
    """What an audit audits, at which state, and what its progress counts."""

    kind: str
    id: str
    version: int
    last_hash: str
    total: int
    unit: str

    @property
    def audit_id(self) -> str:
        """Return the audit's id: a digest of the state it audits."""
        state = "\n".join((self.kind, self.id, str(self.version), self.last_hash))
        return "audit-" + hashlib.sha256(state.encode()).hexdigest()[:32]


@dataclass(frozen=True)
class Answer:
    """What an ask gets: a report now (200; `job` set if it is a kept result), or the audit to poll (202)."""

    report: dict[str, Any] | None
    job: dict[str, Any] | None = None


def inline_limit(name: str, default: int) -> int:
    """Return an inline limit from the environment (MENAGERIE_AUDIT_INLINE_GAMES / _EVENTS), or its default."""
    return int(os.environ.get(f"MENAGERIE_AUDIT_INLINE_{name}", str(default)))


def recorded_games(tournament: Tournament) -> int:
    """Return how many games a tournament recorded a result for (what its audit re-audits)."""
    tables = [table for round_ in tournament.played for table in round_.tables]
    return sum(1 for t in tables if t.game_id is not None and t.places is not None) + sum(
        len(t.annulled) for t in tables
    )


def _counting_games(lines: Iterable[str], progress: Callable[[int], None]) -> Iterator[str]:
    """Pass a bundle's lines through, telling `progress` how many games' exports have begun."""
    read = 0
    for line in lines:
        # Only a game's header line holds this unescaped: in an event it could only be inside a string.
        if _GAME_HEADER in line:
            read += 1
            progress(read)
        yield line


def _iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass
class AuditService:
    """Game and tournament audits: at once when small, else as jobs whose records are polled."""

    records: AuditRecords
    repository: GameRepository
    store: EventStore
    tournament_files: TournamentFiles
    archive: ArchiveService
    jobs: AuditJobs
    inline_games: int = field(default_factory=lambda: inline_limit("GAMES", INLINE_GAMES))
    inline_events: int = field(default_factory=lambda: inline_limit("EVENTS", INLINE_EVENTS))
    now: Callable[[], float] = time.time

    # --- asks -------------------------------------------------------------

    def game(self, game_id: str) -> Answer:
        """Audit a finished game once and keep the result: at once up to `inline_events` events, else as a job."""
        game = self.repository.load(game_id)
        if game.status != GAME_FINISHED:
            return Answer(self.archive.audit(game_id).to_dict())  # refused there: its seed is still secret
        target = Target(GAME, game.id, game.version, game.last_hash, game.version, "events")
        if game.version > self.inline_events:
            return self._ask(target)
        return Answer(self.records.result(target.audit_id) or self._audit_game_now(target))

    def _audit_game_now(self, target: Target) -> dict[str, Any]:
        # The archive's audit checks the result's signature too (signing it first if its follow-up has not yet).
        report = self.archive.audit(target.id).to_dict()
        if self.repository.load(target.id).last_hash == target.last_hash:  # not another chain imported meanwhile
            self.records.keep_result(target.audit_id, report)
        return report

    def tournament(self, tournament_id: str) -> Answer:
        """Audit a finished tournament once and keep the result: at once up to `inline_games` recorded games, else
        as a job."""
        tournament = self.tournament_files.load(tournament_id)
        games = recorded_games(tournament)
        if tournament.status != FINISHED:
            return Answer(self.tournament_files.audit(tournament_id).to_dict())  # refused there: still in play
        target = Target(TOURNAMENT, tournament.id, tournament.version, tournament.last_hash, games, "games")
        if games > self.inline_games:
            return self._ask(target)
        kept = self.records.result(target.audit_id)
        if kept is None:
            kept = self.tournament_files.audit(tournament_id).to_dict()
            self.records.keep_result(target.audit_id, kept)  # a finished tournament's stream never changes
        return Answer(kept)

    def status(self, audit_id: str) -> dict[str, Any]:
        """Return an audit's record as clients see it (404 if unknown or no longer kept)."""
        record = self.records.get(audit_id) if _ID.match(audit_id) else None
        if record is None:
            raise AuditNotFound(audit_id)
        return self._public(record)

    def _ask(self, target: Target) -> Answer:
        record = self.records.get(target.audit_id)
        if record is not None and self._alive(record):
            public = self._public(record)
            return Answer(record["result"], public) if record["status"] == DONE else Answer(None, public)
        kept = self.records.result(target.audit_id)
        if kept is not None:  # done long ago: its record has expired, its result is kept
            return Answer(kept)
        fresh: dict[str, Any] = {
            "id": target.audit_id,
            "kind": target.kind,
            "target": target.id,
            "version": target.version,
            "last_hash": target.last_hash,
            "status": QUEUED,
            "progress": {
                "phase": READING if target.kind == TOURNAMENT else AUDITING,
                "done": 0,
                "total": target.total,
                "unit": target.unit,
            },
            "result": None,
            "failure": None,
            "asked_at": _iso(self.now()),
            "finished_at": None,
            "run": record["run"] + 1 if record is not None else 1,
            "updated": self.now(),
        }
        if record is None:
            if not self.records.create(fresh, KEEP_S):
                return self._ask(target)  # another ask wrote it a moment ago: answer as for a second ask
        else:
            self.records.replace(fresh, KEEP_S)  # a failed or stalled audit starts again
        self.jobs.audit(target.audit_id, fresh["run"])
        # In-process jobs may have finished already; the ask that starts an audit is a 202 all the same.
        return Answer(None, self._public(self.records.get(target.audit_id) or fresh))

    def _alive(self, record: dict[str, Any]) -> bool:
        """Tell whether a record stands: done, or a job still making progress."""
        if record["status"] in (QUEUED, RUNNING):
            updated: float = record["updated"]
            return self.now() - updated <= STALL_S
        return bool(record["status"] == DONE)

    def _public(self, record: dict[str, Any]) -> dict[str, Any]:
        public = {key: value for key, value in record.items() if key not in _INTERNAL}
        if not self._alive(record) and record["status"] != FAILED:
            public["status"] = FAILED
            public["failure"] = {
                "code": "audit_stalled",
                "message": f"the audit made no progress for {STALL_S} s (its worker stopped); ask again to restart it",
            }
        return public

    # --- the job ------------------------------------------------------------

    def run(self, audit_id: str) -> str:
        """Run an audit's job: audit what its record names, with progress, and keep the result; return its status."""
        record = self.records.get(audit_id)
        if record is None or record["status"] == DONE:
            return "skipped"  # no longer asked for, or done by an earlier delivery of the job
        record.update(status=RUNNING, updated=self.now())
        self.records.update(record)
        try:
            changed = self._changed(record)
            if changed:
                return self._fail(record, "audit_target_changed", changed)
            report = self._audit(record)
        except ServiceError as error:  # the game or tournament left the store, say
            return self._fail(record, error.code, error.message)
        except Exception as error:
            self._fail(record, "audit_error", f"the audit stopped on an internal error ({type(error).__name__})")
            raise
        record["progress"]["done"] = record["progress"]["total"]
        # A run after a failed one (a job retried after an error) leaves no failure beside its result.
        record.update(status=DONE, result=report, failure=None, finished_at=_iso(self.now()), updated=self.now())
        # The result is kept before the record says done: a job killed between the two finds the record
        # not done and runs again, where the other order would skip and never keep the result.
        self.records.keep_result(audit_id, report)  # only finished targets are jobs: the result cannot change
        self.records.replace(record, KEEP_S)
        return DONE

    def _changed(self, record: dict[str, Any]) -> str | None:
        """Return why what the record names is no longer the state it was asked for, or None."""
        current: Any = (
            self.repository.load(record["target"])
            if record["kind"] == GAME
            else self.tournament_files.load(record["target"])
        )
        if (current.version, current.last_hash) == (record["version"], record["last_hash"]):
            return None
        return (
            f"the {record['kind']} changed since the audit was asked for "
            f"(version {record['version']}, now {current.version}); ask again to audit it as it is"
        )

    def _audit(self, record: dict[str, Any]) -> dict[str, Any]:
        progress = self._progress(record)
        if record["kind"] == GAME:
            raw = self.store.read_raw(record["target"])
            if not raw:
                raise self.repository.missing(record["target"])
            game = self.repository.load(record["target"])
            signatures = self.archive.signatures
            return audit_log(raw, progress, signature=signatures.game(game), verifier=signatures.keys).to_dict()
        # Reading a large tournament's games from the store is a good part of its audit: counted too.
        record["progress"]["phase"] = READING
        bundle = read_bundle(_counting_games(self.tournament_files.export(record["target"]), progress))
        record["progress"].update(phase=AUDITING, done=0, total=len(bundle.games))
        return audit_bundle(bundle, progress, verifier=self.tournament_files.signatures.keys).to_dict()

    def _progress(self, record: dict[str, Any]) -> Callable[[int], None]:
        """Return the callback that counts what is audited into the record, written at most every PROGRESS_EVERY_S."""
        written = self.now()

        def progress(done: int) -> None:
            nonlocal written
            record["progress"]["done"] = done
            if self.now() - written >= PROGRESS_EVERY_S:
                written = record["updated"] = self.now()
                self.records.update(record)

        return progress

    def _fail(self, record: dict[str, Any], code: str, message: str) -> str:
        log.warning("audit %s of %s %s failed: %s", record["id"], record["kind"], record["target"], message)
        record.update(
            status=FAILED,
            failure={"code": code, "message": message},
            finished_at=_iso(self.now()),
            updated=self.now(),
        )
        self.records.replace(record, FAILED_KEEP_S)
        return FAILED
