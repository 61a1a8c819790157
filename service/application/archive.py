"""Exports, audits, imports and archives of whole games; packing finished ones.

Archiving moves a finished game out of Redis into a file of its whole export
and leaves a tombstone (`EventStore.mark_archived`) that names the file and
keeps the game's line in the lobby. Each game goes in three steps, each safe
to repeat: the file is written beside its final name, fsynced and renamed
into place; then the tombstone; then the game's keys are deleted. A run cut
short anywhere leaves the game in the store (with or without its tombstone)
and its file complete or absent, never a game in neither: the next run, which
takes every game still in the store, finishes it.
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from domain.audit import AuditReport, audit, audit_export
from domain.events import RecordedEvent
from domain.export import ExportFormatError, export_lines, header, is_complete, read_export
from domain.game import FINISHED, replay
from domain.ids import GAME_ID_FORM, is_game_id
from domain.results import GAME, chain_statement
from domain.tournament.bundle import GameFile
from projections.game import game_view, redact_log
from service.adapters.cache import GameRepository
from service.adapters.indexes import Directory, listed_at
from service.adapters.store import EventStore
from service.application.signatures import ResultSignatures
from service.errors import GameArchived, GameInPlay, GameNotFound, ImportRefused, VersionConflict

log = logging.getLogger(__name__)

# A game's line in the lobby: public facts only.
LISTED = ("id", "game", "version", "status", "dealing", "seats", "to_act")
# How many games of the listing the archiver looks at a round trip.
PAGE = 500


@dataclass
class ArchiveRun:
    """What one archiver run did."""

    archived: list[str] = field(default_factory=list)
    in_play: int = 0
    recent: int = 0
    held: int = 0
    packed: int = 0
    failed: list[str] = field(default_factory=list)


@dataclass
class ArchiveService:
    """Whole-game files: what auditors and replayers take away."""

    store: EventStore
    directory: Directory
    repository: GameRepository
    signatures: ResultSignatures
    # Whether something still in play needs a finished game in the store (its tournament records its result).
    held: Callable[[str], bool] = lambda game_id: False

    def export(self, game_id: str, seat: int | None) -> Iterator[str]:
        """Yield the game as NDJSON: whole once over, else redacted for `seat`."""
        game = self.repository.load(game_id)
        if game.status == FINISHED:
            signature = self.signatures.game(game)
            return export_lines(header(game, redacted=False, signature=signature), self._raw(game_id))
        seed = self.repository.seed(game_id) if seat is not None else None
        events = self.store.read(game_id)
        if not events:
            raise self.repository.missing(game_id)
        return export_lines(header(game, redacted=True), redact_log(game.type, events, seat, seed=seed))

    def _raw(self, game_id: str) -> list[dict[str, Any]]:
        # A game loaded a moment ago may have been archived since by another process.
        events = self.store.read_raw(game_id)
        if not events:
            raise self.repository.missing(game_id)
        return events

    def audit(self, game_id: str) -> AuditReport:
        """Audit a finished game in the store."""
        game = self.repository.load(game_id)
        if game.status != FINISHED:
            raise GameInPlay("only a finished game can be audited; its seed is still secret")
        raw = self._raw(game_id)
        return audit(raw, signature=self.signatures.game(game), verifier=self.signatures.keys)

    def import_lines(self, lines: Iterable[str]) -> str:
        """Load an exported finished game into the store, after auditing it; return its id."""
        head, events = read_export(lines)
        if not is_complete(head):
            raise ImportRefused("only a finished game's whole export can be imported")
        report = audit_export(head, events)
        if not report.ok:
            raise ImportRefused(f"the game fails its audit at event {report.failed_at}: {report.reason}")
        game = replay(RecordedEvent.from_dict(event) for event in events)
        if game.seed is None:
            raise ImportRefused("the export does not reveal its seed")
        if not is_game_id(game.id):
            # The id becomes a key's hash tag and an archive's file name: only the service's own form will do.
            raise ImportRefused(f"the export's game id is not one this service gives (a game id is {GAME_ID_FORM})")
        if self.store.exists(game.id):
            # Packed or half-archived, it is still served from the store: never two copies.
            raise ImportRefused(f"a game with id {game.id} is already in the store")
        try:
            self.store.append_raw(game.id, events, expected_version=0)
        except VersionConflict:
            raise ImportRefused(f"a game with id {game.id} is already in the store") from None
        self.store.save_seed(game.id, game.seed)
        self.signatures.adopt(head.get("signature"), chain_statement(GAME, events))
        self.store.unmark_archived(game.id)
        self.directory.add_game(game.id, listed_at(events[0]["time"]))
        self.pack(game.id)  # finished, so kept as every finished game is
        return game.id

    def listed(self, game_id: str) -> dict[str, Any]:
        """Return a game's line in the lobby; an archived game's as it was archived, marked `archived`."""
        try:
            game = self.repository.load(game_id)
        except GameArchived:
            line = self.store.archived_listing(game_id)
            if not line:  # a tombstone older than its lobby line: nothing left to list
                raise GameNotFound(game_id) from None
            return {**line, "archived": True}
        view = game_view(game, None)
        return {key: view[key] for key in LISTED}

    def pack(self, game_id: str) -> str:
        """Pack a finished game's stream (`service.adapters.packing`): "packed", "already packed", "unfinished", or
        what the store says ("moved", "missing").

        Safe to run twice and at any time after the end: the events, their
        hashes and every export stay exactly as they were.
        """
        if self.store.is_packed(game_id):
            return "already packed"
        game = self.repository.load(game_id)
        if game.status != FINISHED or game.seed is None:
            return "unfinished"
        return self.store.pack(game_id, game.version, game.seed, self.store.ended([game_id])[0] or "")

    def archive_to(self, game_id: str, path: str) -> int:
        """Write a finished game's whole export to `path`, then remove its keys; return the line count."""
        game = self.repository.load(game_id)
        if game.status != FINISHED:
            raise GameInPlay("only a finished game can be archived")
        lines = list(self.export(game_id, None))
        listing = {key: value for key, value in self.listed(game_id).items() if key != "archived"}
        _write_durably(path, lines)
        # The tombstone goes first: a process that finds the stream missing finds it too.
        archived_at = datetime.now(UTC).isoformat(timespec="seconds")
        self.store.mark_archived(game_id, {"archive": os.path.abspath(path), "archived_at": archived_at}, listing)
        self.store.delete(game_id)
        self.repository.forget(game_id)
        return len(lines)

    def archive_finished(self, directory: str, before: datetime) -> ArchiveRun:
        """Archive every game that ended before `before` into `directory` (one `<id>.ndjson` a game).

        Looks at every game listed as created before then (a game ends after it
        begins) that is still in the store, so a second run finishes what a
        first one cut short, and a game whose tournament is still in play stays.
        A finished game it leaves in the store it packs, if its end did not.
        """
        os.makedirs(directory, exist_ok=True)
        before = before.astimezone(UTC)  # a naive moment is the host's local time
        run = ArchiveRun()
        for page in self.directory.created_before(before.timestamp(), PAGE):
            for game_id, ended in zip(page, self.store.ended(page)):
                if ended is None:
                    continue  # archived already (or never here)
                if not ended:
                    run.in_play += 1
                    continue
                recent = not _before(ended, before)
                if recent or self.held(game_id):
                    run.recent += recent
                    run.held += not recent
                    # Kept in Redis for now, packed at least (a game that ended before packing existed).
                    run.packed += self.pack(game_id) == "packed"
                else:
                    self._archive_one(game_id, directory, run)
        return run

    def _archive_one(self, game_id: str, directory: str, run: ArchiveRun) -> None:
        try:
            self.archive_to(game_id, archive_path(directory, game_id))
            run.archived.append(game_id)
        except (GameArchived, GameInPlay):
            pass  # archived or changed by another run meanwhile
        except (OSError, ValueError) as error:
            log.error("could not archive game %r: %s", game_id, error)
            run.failed.append(game_id)


def archive_path(directory: str, game_id: str) -> str:
    """Return where a game's archive goes in `directory`, `<id>.ndjson`; raise ValueError for an id that could lead
    anywhere else (not of the service's own form, or a path that leaves the folder)."""
    if not is_game_id(game_id):
        raise ValueError(f"not a game id of this service (a game id is {GAME_ID_FORM})")
    folder = os.path.realpath(directory)
    path = os.path.realpath(os.path.join(folder, f"{game_id}.ndjson"))
    if os.path.dirname(path) != folder:  # a link planted in the folder under the game's name, say
        raise ValueError(f"the archive of {game_id} would leave {folder}")
    return path


def _before(time: str, moment: datetime) -> bool:
    """Tell whether an event's time is before a moment (a time that does not parse is not: the game stays)."""
    try:
        return datetime.fromisoformat(time.replace("Z", "+00:00")) < moment
    except ValueError:
        return False


def _write_durably(path: str, lines: list[str]) -> None:
    """Write the file whole or not at all: beside its name, fsynced, renamed into place, its directory fsynced."""
    # A name of this write's own: two archivers that meet on one game never write into one file.
    partial = f"{path}.{os.getpid()}-{secrets.token_hex(4)}.partial"
    try:
        with open(partial, "w", encoding="utf-8") as out:
            out.writelines(lines)
            out.flush()
            os.fsync(out.fileno())
        os.replace(partial, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.remove(partial)
        raise
    folder = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


def archived_game_file(gone: GameArchived) -> GameFile:
    """Return an archived game's export from the file its tombstone names (for a finished tournament's bundle).

    Raises the GameArchived again when that file cannot be read here: the game is then gone for this host.
    """
    if gone.path is None:
        raise gone
    try:
        with open(gone.path, encoding="utf-8") as lines:
            head, events = read_export(lines)
    except (OSError, ExportFormatError):
        raise gone from None
    return GameFile(head, events)
