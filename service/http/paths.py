"""What a path names: ids checked before a view reads anything, and a hint for a path the API does not have."""

from __future__ import annotations

from typing import Any

from flask import Flask

from domain.ids import is_game_id, is_tournament_id
from service.errors import GameNotFound, TournamentNotFound

# The collections a newcomer may name in the singular (`/game/<id>`), with the path the API has.
_PLURALS = {"game": "games", "tournament": "tournaments", "audit": "audits", "leaderboard": "leaderboards"}
# Enough of a path to recognise it in a hint; the rest of a long one is not echoed back.
_ECHOED = 200


def install_id_checks(app: Flask) -> None:
    """Answer 404 for a game or tournament id not of the service's form, before any view reads the store."""

    @app.url_value_preprocessor
    def _check_ids(endpoint: str | None, values: dict[str, Any] | None) -> None:
        if not values:
            return
        game_id = values.get("game_id")
        if game_id is not None and not is_game_id(game_id):
            raise GameNotFound(game_id)
        tournament_id = values.get("tournament_id")
        if tournament_id is not None and not is_tournament_id(tournament_id):
            raise TournamentNotFound(tournament_id)


def nearest_path(path: str) -> str | None:
    """Return the API's path a mistyped one probably meant (`/game/<id>` for `/games/<id>`), or None."""
    first, slash, rest = path.lstrip("/").partition("/")
    plural = _PLURALS.get(first)
    return None if plural is None else f"/{plural}{slash}{rest}"[:_ECHOED]
