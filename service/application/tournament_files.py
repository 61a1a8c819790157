"""What a tournament gives away whole: its bundle, its audit, and the list of tournaments.

These only read: a tournament as `load` returns it (the tournament service's
own, handed in by the bootstrap), its stream and its games. Nothing here calls
back into the commands.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from domain.export import header
from domain.game import FINISHED as GAME_FINISHED
from domain.tournament.audit import TournamentAuditReport, audit_bundle
from domain.tournament.bundle import GameFile, bundle_lines, read_bundle, recorded_games
from domain.tournament.state import FINISHED, Tournament
from projections.tournament import tournament_summary
from service.adapters.cache import GameRepository
from service.adapters.indexes import TournamentIndex
from service.adapters.store import EventStore
from service.application.archive import archived_game_file
from service.application.signatures import ResultSignatures
from service.errors import GameArchived, TournamentInPlay, TournamentNotFound

# A listing reads at most this many tournaments per page, so a filter that
# matches little cannot turn one request into a scan of every tournament.
SCAN_LIMIT = 500


@dataclass(frozen=True)
class TournamentFiles:
    """Tournaments read whole: bundles, audits and listings."""

    load: Callable[[str], Tournament]
    store: EventStore
    repository: GameRepository
    index: TournamentIndex
    signatures: ResultSignatures

    def export(self, tournament_id: str) -> Iterator[str]:
        """Yield a finished tournament's bundle (NDJSON): its stream, then every game whose result it recorded."""
        tournament = self.load(tournament_id)
        if tournament.status != FINISHED:
            # Before the end the seed is secret and games may be in play: nothing to audit yet.
            raise TournamentInPlay("a tournament can be exported once it is over")
        raw = self.store.read_raw(tournament_id)
        game_ids = recorded_games(raw)
        head = {
            "id": tournament.id,
            "game": tournament.game,
            "status": tournament.status,
            "version": len(raw),
            "seed_commitment": tournament.seed_commitment,
            "games": game_ids,
            "signature": self.signatures.tournament(tournament),
        }
        return bundle_lines(head, raw, self._games(game_ids))

    def _games(self, game_ids: list[str]) -> Iterator[GameFile]:
        for game_id in game_ids:
            try:
                game = self.repository.load(game_id)
            except GameArchived as gone:
                yield archived_game_file(gone)  # archived once the tournament was over: its file is its export
                continue
            if game.status == GAME_FINISHED:  # every recorded game is; never export one in play
                signature = self.signatures.game(game)
                yield GameFile(header(game, redacted=False, signature=signature), self.store.read_raw(game_id))

    def audit(self, tournament_id: str) -> TournamentAuditReport:
        """Audit a finished tournament in the store exactly as an auditor would audit its bundle."""
        return audit_bundle(read_bundle(self.export(tournament_id)), verifier=self.signatures.keys)

    def listing(self, *, status: str | None, game: str | None, limit: int, cursor: int) -> dict[str, Any]:
        """Return a page of tournaments, newest first, and the cursor of the next page (None at the end).

        The cursor counts the tournaments older than the last one looked at
        (`indexes.newest_first`); a status filter looks at up to SCAN_LIMIT of them a page.
        """
        found: list[dict[str, Any]] = []
        below, scanned = cursor, 0
        while len(found) < limit and scanned < SCAN_LIMIT:
            ids, older = self.index.recent_tournaments(game, min(100, limit * 2), below)
            below = older
            for n, tournament_id in enumerate(ids):
                scanned += 1
                # What is left below this one: the older ones after the batch, and the rest of the batch.
                below = older + len(ids) - 1 - n
                try:
                    tournament = self.load(tournament_id)
                except TournamentNotFound:
                    continue
                if status is None or tournament.status == status:
                    found.append(tournament_summary(tournament))
                    if len(found) == limit:
                        break
            if below == 0:
                break
        return {"tournaments": found, "next": below or None}
