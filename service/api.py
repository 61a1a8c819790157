"""The JSON API: each view parses, authorises, calls the service and serialises."""

from __future__ import annotations

import json
import re
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request
from marshmallow import Schema

from domain.game import FINISHED, Game
from domain.games import load_all
from projections.game import game_view
from service.errors import ApiError
from service.games import token_sha256
from service.repository import GameNotFound
from service.schemas import ActionSchema, CreateGameSchema, EventsQuerySchema, JoinSchema, ViewQuerySchema
from service.wiring import Services
from workers.bots import BOT_KINDS

api = Blueprint("api", __name__)
_TOKEN = re.compile(r"^([0-9a-f]{16})\.(\d{1,2})\.([0-9a-f]{32})$")
_IDEMPOTENCY_KEY = re.compile(r"^[\x21-\x7e]{1,200}$")


def services() -> Services:
    """Return the services wired into the app."""
    return current_app.extensions["menagerie"]


def body(schema: Schema) -> dict[str, Any]:
    """Parse and validate a JSON object body (400 when it is not one)."""
    data = request.get_json(silent=True)
    if data is None:
        raise ApiError(400, "malformed_json", "the body must be JSON (Content-Type: application/json)")
    if not isinstance(data, dict):
        raise ApiError(400, "malformed_json", "the body must be a JSON object")
    return schema.load(data)


def query(schema: Schema) -> dict[str, Any]:
    """Parse and validate the query string."""
    return schema.load(request.args.to_dict())


def caller_seat(game: Game, *, required: bool) -> int | None:
    """Return the seat of `game` the bearer token is for (None for a spectator), or raise 401/403."""
    header = request.headers.get("Authorization")
    if not header:
        if required:
            raise ApiError(401, "missing_token", "this route needs Authorization: Bearer <seat token>")
        return None
    scheme, _, token = header.partition(" ")
    match = _TOKEN.match(token.strip()) if scheme.lower() == "bearer" else None
    if match is None:
        raise ApiError(401, "unknown_token", "the bearer token is not a seat token")
    token_game, seat = match.group(1), int(match.group(2))
    try:
        owner = game if token_game == game.id else services().repository.load(token_game)
    except GameNotFound:
        raise ApiError(401, "unknown_token", "the bearer token is not a seat token") from None
    if seat >= len(owner.seats) or owner.seats[seat].token_sha256 != token_sha256(token.strip()):
        raise ApiError(401, "unknown_token", "the bearer token is not a seat token")
    if token_game != game.id:
        raise ApiError(403, "wrong_game", "this token belongs to another game")
    return seat


@api.get("/health")
def health() -> Any:
    """Tell whether the service and its Redis answer."""
    s = services()
    s.redis.ping()
    return jsonify({"status": "ok", "store": "embedded" if s.embedded else "redis", "prefix": s.prefix})


@api.get("/game-types")
def game_types() -> Any:
    """List the games with their seat ranges, options and bots."""
    out = []
    for rules in sorted(load_all().values(), key=lambda r: r.id):
        out.append(
            {
                "id": rules.id,
                "title": rules.title,
                "min_seats": rules.min_seats,
                "max_seats": rules.max_seats,
                "rules_version": rules.rules_version,
                "options": [option.to_dict() for option in rules.options],
                "bots": list(BOT_KINDS),
            }
        )
    return jsonify({"game_types": out})


@api.post("/games")
def create_game() -> Any:
    """Create a game; the response holds each named seat's token."""
    data = body(CreateGameSchema())
    if data["game"] not in load_all():
        raise ApiError(400, "unknown_game_type", f"no game type {data['game']!r}", known=sorted(load_all()))
    game, tokens = services().games.create(data["game"], data["seats"], data["options"], data["seed"])
    payload = {"id": game.id, "game": game.type, "version": game.version, "status": game.status, "seats": tokens}
    return jsonify(payload), 201


@api.get("/games")
def list_games() -> Any:
    """List the newest games (a lobby): public facts only."""
    s = services()
    games = []
    for game_id in s.directory.recent_games(50):
        try:
            game = s.repository.load(game_id)
        except GameNotFound:
            continue
        view = game_view(game, None)
        games.append({k: view[k] for k in ("id", "game", "version", "status", "seats", "to_act")})
    return jsonify({"games": games})


@api.get("/games/<game_id>")
def get_game(game_id: str) -> Any:
    """Return the caller's view (a spectator's without a token), now or after event `at`."""
    args = query(ViewQuerySchema())
    game = services().repository.load(game_id)
    seat = caller_seat(game, required=False)
    if args["open"] and game.status != FINISHED:
        raise ApiError(403, "game_in_play", "the open view is available once the game is over")
    if args["at"] is not None and args["at"] < game.version:
        past = services().repository.load_at(game_id, args["at"])
        view = game_view(past, seat, open_view=args["open"])
        view["legal_actions"] = []
        return jsonify(view)
    return jsonify(game_view(game, seat, open_view=args["open"]))


@api.post("/games/<game_id>/join")
def join_game(game_id: str) -> Any:
    """Take the first open seat."""
    services().repository.load(game_id)
    data = body(JoinSchema())
    return jsonify(services().games.join(game_id, data["name"])), 201


@api.post("/games/<game_id>/actions")
def post_action(game_id: str) -> Any:
    """Play one of the caller's legal actions."""
    seat = caller_seat(services().repository.load(game_id), required=True)
    data = body(ActionSchema())
    key = request.headers.get("Idempotency-Key")
    if key is not None and not _IDEMPOTENCY_KEY.match(key):
        raise ApiError(400, "invalid_idempotency_key", "Idempotency-Key must be 1 to 200 visible ASCII characters")
    assert seat is not None
    result = services().games.act(
        game_id, seat, data["action"], expected_version=data["expected_version"], idempotency_key=key
    )
    return jsonify(result)


@api.get("/games/<game_id>/export")
def export_game(game_id: str) -> Any:
    """Stream the game as NDJSON (one JSON document on request): redacted for the caller in play, whole after."""
    seat = caller_seat(services().repository.load(game_id), required=False)
    lines = services().archive.export(game_id, seat)
    if request.accept_mimetypes.best_match(["application/x-ndjson", "application/json"]) == "application/json":
        header, *events = (json.loads(line) for line in lines)
        return jsonify({"header": header, "events": events})
    headers = {"Content-Disposition": f'attachment; filename="{game_id}.ndjson"'}
    return Response(lines, mimetype="application/x-ndjson", headers=headers)


@api.get("/games/<game_id>/audit")
def audit_game(game_id: str) -> Any:
    """Audit a finished game: hash chain, seed, every deal and command re-executed, result."""
    return jsonify(services().archive.audit(game_id).to_dict())


@api.get("/games/<game_id>/events")
def get_events(game_id: str) -> Any:
    """Return the log after `after`, redacted for the caller (whole once the game is over)."""
    args = query(EventsQuerySchema())
    seat = caller_seat(services().repository.load(game_id), required=False)
    upto = args["after"] + args["limit"]
    events = services().games.events_for(game_id, seat, after=args["after"], upto=upto)
    version = services().store.version(game_id)
    return jsonify({"events": events, "version": version, "more": upto < version})
