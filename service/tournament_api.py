"""The tournament and leaderboard routes: parse, authorise, call the service, serialise.

Tokens: `POST /tournaments` returns the organiser's token (register bots, start,
record a result); `POST /tournaments/{id}/register` with a name returns that
entrant's token, which `GET /tournaments/{id}` takes to add the entrant's own
games and seat tokens to the view.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, jsonify, request

from domain.games import load_all
from service.api import body, query, services
from service.errors import ApiError
from service.tournament_schemas import (
    CreateTournamentSchema,
    LeaderboardQuerySchema,
    RecordResultSchema,
    RegisterSchema,
)
from service.tournaments import ORGANISER, TournamentNotFound, TournamentService

tournaments = Blueprint("tournaments", __name__)
_TOKEN = re.compile(r"^(t-[0-9a-f]{16})\.(o|\d{1,4})\.([0-9a-f]{32})$")


@tournaments.errorhandler(TournamentNotFound)
def _not_found(error: TournamentNotFound) -> Any:
    message = f"no tournament with id {error.args[0]!r}"
    return jsonify({"error": {"code": "tournament_not_found", "message": message, "details": {}}}), 404


def service() -> TournamentService:
    """Return the tournament service wired into the app."""
    return services().tournaments


def caller(tournament_id: str, *, required: bool) -> int | str | None:
    """Return who the bearer token is (entrant number or ORGANISER; None without one), or raise 401/403."""
    header = request.headers.get("Authorization")
    if not header:
        if required:
            raise ApiError(401, "missing_token", "this route needs Authorization: Bearer <tournament token>")
        return None
    scheme, _, token = header.partition(" ")
    match = _TOKEN.match(token.strip()) if scheme.lower() == "bearer" else None
    if match is None:
        raise ApiError(401, "unknown_token", "the bearer token is not a tournament token")
    if match.group(1) != tournament_id:
        raise ApiError(403, "wrong_tournament", "this token belongs to another tournament")
    who = service().caller(tournament_id, token.strip())
    if who is None:
        raise ApiError(401, "unknown_token", "the bearer token is not a tournament token")
    return who


def organiser(tournament_id: str) -> None:
    """Raise unless the caller holds the organiser's token."""
    if caller(tournament_id, required=True) != ORGANISER:
        raise ApiError(403, "not_organiser", "only the organiser's token may do this")


@tournaments.post("/tournaments")
def create_tournament() -> Any:
    """Create a tournament; the response holds the organiser's token."""
    data = body(CreateTournamentSchema())
    if data["game"] not in load_all():
        raise ApiError(400, "unknown_game_type", f"no game type {data['game']!r}", known=sorted(load_all()))
    created, token = service().create(
        data["game"],
        rounds=data["rounds"],
        format=data["format"],
        table_sizes=data["table_sizes"],
        scoring=data["scoring"],
        max_players=data["max_players"],
        options=data["options"],
        seed=data["seed"],
    )
    return jsonify({"id": created.id, "organiser_token": token, "tournament": service().view(created.id)}), 201


@tournaments.post("/tournaments/<tournament_id>/register")
def register(tournament_id: str) -> Any:
    """Register a human by name (anyone), or a bot by kind (the organiser)."""
    service().load(tournament_id)
    data = body(RegisterSchema())
    if "bot" in data:
        organiser(tournament_id)
    return jsonify(service().register(tournament_id, name=data.get("name"), bot=data.get("bot"))), 201


@tournaments.post("/tournaments/<tournament_id>/start")
def start(tournament_id: str) -> Any:
    """Close registration and start round 1 (the organiser)."""
    service().load(tournament_id)
    organiser(tournament_id)
    service().start(tournament_id)
    return jsonify(service().view(tournament_id))


@tournaments.post("/tournaments/<tournament_id>/results")
def record_result(tournament_id: str) -> Any:
    """Record a finished game of the current round now (the organiser); results also record themselves."""
    service().load(tournament_id)
    organiser(tournament_id)
    data = body(RecordResultSchema())
    service().record_game(tournament_id, data["game_id"])
    return jsonify(service().view(tournament_id))


@tournaments.get("/tournaments/<tournament_id>")
def get_tournament(tournament_id: str) -> Any:
    """Return rounds, tables with game ids, results and standings; an entrant also sees its seat tokens."""
    service().load(tournament_id)
    return jsonify(service().view(tournament_id, caller(tournament_id, required=False)))


@tournaments.get("/leaderboards/<game>")
def get_leaderboard(game: str) -> Any:
    """Return a game type's ratings, best first."""
    args = query(LeaderboardQuerySchema())
    if game not in load_all():
        raise ApiError(404, "game_type_not_found", f"no game type {game!r}", known=sorted(load_all()))
    return jsonify(services().ratings.leaderboard(game, args["limit"]))
