"""What a tournament gives away whole: its bundle, its audit, and the list of tournaments."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from domain.export import header
from domain.game import FINISHED as GAME_FINISHED
from domain.tournament.audit import TournamentAuditReport, audit_bundle
from domain.tournament.bundle import GameFile, bundle_lines, read_bundle
from domain.tournament.state import FINISHED, Tournament
from service.application.archive import archived_game_file
from service.errors import GameArchived, TournamentInPlay, TournamentNotFound

if TYPE_CHECKING:
    from service.application.tournaments import TournamentService

# A listing reads at most this many tournaments per page, so a filter that
# matches little cannot turn one request into a scan of every tournament.
SCAN_LIMIT = 500


def bundle(service: TournamentService, tournament_id: str) -> Iterator[str]:
    """Yield a finished tournament's bundle: its stream, then every game whose result it recorded."""
    tournament = service.load(tournament_id)
    if tournament.status != FINISHED:
        # Before the end the seed is secret and games may be in play: nothing to audit yet.
        raise TournamentInPlay("a tournament can be exported once it is over")
    raw = service.store.read_raw(tournament_id)
    game_ids = list(dict.fromkeys(e["data"]["game_id"] for e in raw if e["type"] == "ResultRecorded"))
    head = {
        "id": tournament.id,
        "game": tournament.game,
        "status": tournament.status,
        "version": len(raw),
        "seed_commitment": tournament.seed_commitment,
        "games": game_ids,
    }
    return bundle_lines(head, raw, _games(service, game_ids))


def _games(service: TournamentService, game_ids: list[str]) -> Iterator[GameFile]:
    for game_id in game_ids:
        try:
            game = service.repository.load(game_id)
        except GameArchived as gone:
            yield archived_game_file(gone)  # archived once the tournament was over: its file is its export
            continue
        if game.status == GAME_FINISHED:  # every recorded game is; never export one in play
            yield GameFile(header(game, redacted=False), service.store.read_raw(game_id))


def audit(service: TournamentService, tournament_id: str) -> TournamentAuditReport:
    """Audit a finished tournament in the store exactly as an auditor would audit its bundle."""
    return audit_bundle(read_bundle(bundle(service, tournament_id)))


def listing(
    service: TournamentService, *, status: str | None, game: str | None, limit: int, cursor: int
) -> dict[str, Any]:
    """Return a page of tournaments, newest first, and the cursor of the next page (None at the end).

    The cursor counts the tournaments older than the last one looked at
    (`indexes.newest_first`); a status filter looks at up to SCAN_LIMIT of them a page.
    """
    found: list[dict[str, Any]] = []
    below, scanned = cursor, 0
    while len(found) < limit and scanned < SCAN_LIMIT:
        ids, older = service.index.recent_tournaments(game, min(100, limit * 2), below)
        below = older
        for n, tournament_id in enumerate(ids):
            scanned += 1
            # What is left below this one: the older ones after the batch, and the rest of the batch.
            below = older + len(ids) - 1 - n
            try:
                tournament = service.load(tournament_id)
            except TournamentNotFound:
                continue
            if status is None or tournament.status == status:
                found.append(summary(tournament))
                if len(found) == limit:
                    break
        if below == 0:
            break
    return {"tournaments": found, "next": below or None}


def summary(tournament: Tournament) -> dict[str, Any]:
    """Return a tournament's line in a listing."""
    current = tournament.current
    return {
        "id": tournament.id,
        "game": tournament.game,
        "format": tournament.format,
        "status": tournament.status,
        "round": current.number if current else 0,
        "planned_rounds": tournament.rounds,
        "players": len(tournament.entrants),
    }
