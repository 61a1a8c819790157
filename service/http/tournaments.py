"""The tournament and leaderboard routes: parse, authorise, call the service, serialise.

Tokens: `POST /tournaments` returns the organiser's token (register bots,
start, record a result); `POST /tournaments/{id}/register` with a name returns
that entrant's token, which `GET /tournaments/{id}` takes to add the
entrant's own games and seat tokens to the view.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify

from domain.games import RULES
from service.application.tournaments import TournamentService
from service.errors import GameTypeNotFound, UnknownGameType
from service.http.auth import require_organiser, tournament_caller
from service.http.requests import body, query, services
from service.http.schemas import CREATE_TOURNAMENT, LEADERBOARD_QUERY, RECORD_RESULT, REGISTER

tournaments = Blueprint("tournaments", __name__)


def service() -> TournamentService:
    """Return the tournament service wired into the app."""
    return services().tournaments


@tournaments.post("/tournaments")
def create_tournament() -> Any:
    """Create a tournament; the response holds the organiser's token."""
    data = body(CREATE_TOURNAMENT)
    if data["game"] not in RULES:
        raise UnknownGameType(f"no game type {data['game']!r}", known=sorted(RULES))
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
    return jsonify({"id": created.id, "organiser_token": token, "tournament": service().view(created)}), 201


@tournaments.post("/tournaments/<tournament_id>/register")
def register(tournament_id: str) -> Any:
    """Register a human by name (anyone), or a bot by kind (the organiser)."""
    tournament = service().load(tournament_id)
    data = body(REGISTER)
    if "bot" in data:
        require_organiser(tournament)
    return jsonify(service().register(tournament_id, name=data.get("name"), bot=data.get("bot"))), 201


@tournaments.post("/tournaments/<tournament_id>/start")
def start(tournament_id: str) -> Any:
    """Close registration and start round 1 (the organiser)."""
    tournament = service().load(tournament_id)
    require_organiser(tournament)
    started = service().start(tournament_id, expected_version=tournament.version)
    return jsonify(service().view(started))


@tournaments.post("/tournaments/<tournament_id>/results")
def record_result(tournament_id: str) -> Any:
    """Record a finished game of the current round now (the organiser); results also record themselves."""
    require_organiser(service().load(tournament_id))
    data = body(RECORD_RESULT)
    return jsonify(service().view(service().record_game(tournament_id, data["game_id"])))


@tournaments.get("/tournaments/<tournament_id>")
def get_tournament(tournament_id: str) -> Any:
    """Return rounds, tables with game ids, results and standings; an entrant also sees its seat tokens."""
    tournament = service().load(tournament_id)
    return jsonify(service().view(tournament, tournament_caller(tournament)))


@tournaments.get("/leaderboards/<game>")
def get_leaderboard(game: str) -> Any:
    """Return a game type's ratings, best first."""
    args = query(LEADERBOARD_QUERY)
    if game not in RULES:
        raise GameTypeNotFound(f"no game type {game!r}", known=sorted(RULES))
    return jsonify(services().ratings.leaderboard(game, args["limit"]))
