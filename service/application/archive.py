"""Exports, audits, imports and archives of whole games."""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from domain.audit import AuditReport, audit, audit_export
from domain.events import RecordedEvent
from domain.export import export_lines, header, is_complete, read_export
from domain.game import FINISHED, replay
from projections.game import redact_log
from service.adapters.cache import GameRepository
from service.adapters.indexes import Directory
from service.adapters.store import EventStore
from service.errors import GameInPlay, ImportRefused, VersionConflict


@dataclass
class ArchiveService:
    """Whole-game files: what auditors and replayers take away."""

    store: EventStore
    directory: Directory
    repository: GameRepository

    def export(self, game_id: str, seat: int | None) -> Iterator[str]:
        """Yield the game as NDJSON: whole once over, else redacted for `seat`."""
        game = self.repository.load(game_id)
        if game.status == FINISHED:
            return export_lines(header(game, redacted=False), self._raw(game_id))
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
        return audit(self._raw(game_id))

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
        try:
            self.store.append_raw(game.id, events, expected_version=0)
        except VersionConflict:
            raise ImportRefused(f"a game with id {game.id} is already in the store") from None
        self.store.save_seed(game.id, game.seed)
        self.store.unmark_archived(game.id)
        self.directory.add_game(game.id, time.time())
        return game.id

    def archive_to(self, game_id: str, path: str) -> int:
        """Write a finished game's whole export to `path`, then remove its stream; return the line count."""
        game = self.repository.load(game_id)
        if game.status != FINISHED:
            raise GameInPlay("only a finished game can be archived")
        lines = list(self.export(game_id, None))
        # The file is complete on disk before anything is deleted.
        with open(path, "w", encoding="utf-8") as out:
            out.writelines(lines)
            out.flush()
            os.fsync(out.fileno())
        # The tombstone goes first: a process that finds the stream missing finds it too.
        archived_at = datetime.now(UTC).isoformat(timespec="seconds")
        self.store.mark_archived(game_id, {"archive": os.path.abspath(path), "archived_at": archived_at})
        self.store.delete(game_id)
        self.directory.remove_game(game_id)
        self.repository.forget(game_id)
        return len(lines)
