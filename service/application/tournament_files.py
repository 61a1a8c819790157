"""What a tournament gives away whole: its bundle, its audit, and the list of tournaments."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from domain.export import header
from domain.game import FINISHED as GAME_FINISHED
from domain.tournament.audit import TournamentAuditReport, audit_bundle
from domain.tournament.bundle import GameFile, bundle_lines, read_bundle
from domain.tournament.state import FINISHED, Tournament
from service.errors import TournamentInPlay, TournamentNotFound

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
        game = service.repository.load(game_id)
        if game.status == GAME_FINISHED:  # every recorded game is; never export one in play
            yield GameFile(header(game, redacted=False), service.store.read_raw(game_id))


def audit(service: TournamentService, tournament_id: str) -> TournamentAuditReport:
    """Audit a finished tournament in the store exactly as an auditor would audit its bundle."""
    return audit_bundle(read_bundle(bundle(service, tournament_id)))


def listing(
    service: TournamentService, *, status: str | None, game: str | None, limit: int, cursor: int
) -> dict[str, Any]:
    """Return a page of tournaments, newest first, and the cursor of the next page (None at the end)."""
    found: list[dict[str, Any]] = []
    position = cursor
    while len(found) < limit and position - cursor < SCAN_LIMIT:
        ids = service.index.recent_tournaments(game, position, min(100, limit * 2))
        if not ids:
            return {"tournaments": found, "next": None}
        for tournament_id in ids:
            position += 1
            try:
                tournament = service.load(tournament_id)
            except TournamentNotFound:
                continue
            if status is None or tournament.status == status:
                found.append(summary(tournament))
                if len(found) == limit:
                    break
    more = bool(service.index.recent_tournaments(game, position, 1))
    return {"tournaments": found, "next": position if more else None}


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
