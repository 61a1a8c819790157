"""The game routes: each view parses, authorises, calls the game service and serialises."""

from __future__ import annotations

from typing import Any

import orjson
from flask import Blueprint, Response, jsonify, request
from flask.typing import ResponseReturnValue

from domain.game import FINISHED
from domain.games import RULES
from domain.ratings import RATED_MOVE_S, counts_for_ratings
from projections.game import game_view
from service.errors import (
    AtOutOfRange,
    GameInPlay,
    GameNotFound,
    IdempotencyKeyTooShort,
    UnknownGameType,
)
from service.http.audits import audit_response
from service.http.auth import caller_seat
from service.http.bot_games import bot_game_place
from service.http.json import encode, json_response
from service.http.moves import checked_idempotency_key, play
from service.http.requests import bearer_token, body, json_body, prefers, query, services
from service.http.schemas import (
    ACTION_QUERY,
    CREATE_GAME,
    EVENTS_QUERY,
    GAME_LIST_QUERY,
    JOIN,
    VIEW_QUERY,
    plain_action_query,
)
from service.http.views import seat_handles, view_response

games = Blueprint("games", __name__)
# A create's or a join's key gets its seat tokens back on a retry, so whoever knows it
# owns the seats: at least 22 characters (a UUIDv4 has 36; 22 base64 characters hold 128 bits).
SECRET_KEY_LENGTH = 22


@games.get("/health")
def health() -> ResponseReturnValue:
    """Tell whether the service and its Redis answer, and how many games' steps are overdue (503 while Redis is down)."""
    s = services()
    s.redis.ping()  # a store that does not answer is a 503 `store_unavailable`, like on every route
    return jsonify(
        {
            "status": "ok",
            "store": "embedded" if s.embedded else "redis",
            "store_state": "up",
            "prefix": s.prefix,
            "overdue_steps": s.due.overdue(),
        }
    )


@games.get("/game-types")
def game_types() -> ResponseReturnValue:
    """List the games with their seat ranges, options and bots."""
    out = []
    for rules in sorted(RULES.values(), key=lambda r: r.id):
        out.append(
            {
                "id": rules.id,
                "title": rules.title,
                "min_seats": rules.min_seats,
                "max_seats": rules.max_seats,
                "rules_version": rules.rules_version,
                "event_caps": {str(seats): cap for seats, cap in rules.event_caps.items()},
                "options": [option.to_dict() for option in rules.options],
                "bots": list(rules.bots),
                # What a game gets when its creator sets no clock and it could be rated (a page shows it as the default).
                "rated_clock": {"move_s": RATED_MOVE_S},
            }
        )
    return jsonify({"game_types": out})


@games.post("/games")
def create_game() -> ResponseReturnValue:
    """Create a game; the response holds each named seat's token."""
    data = body(CREATE_GAME)
    if data["game"] not in RULES:
        raise UnknownGameType(f"no game type {data['game']!r}", known=sorted(RULES))
    idempotency_key = _secret_idempotency_key()
    # A retry of a create that made its game holds that game's place already: it is answered, never capped.
    retried = idempotency_key is not None and services().games.created_under(idempotency_key)
    seats = [_bound(seat) for seat in data["seats"]]
    with bot_game_place([] if retried else seats) as created:
        game, tokens = services().games.create(
            data["game"], seats, data["options"], data["seed"], idempotency_key=idempotency_key
        )
        created.append(game.id)
    payload = {
        "id": game.id,
        "game": game.type,
        "version": game.version,
        "status": game.status,
        "dealing": game.disclosed_dealing,
        "rated": counts_for_ratings(game),
        "seats": tokens,
    }
    return jsonify(payload), 201


@games.get("/games")
def list_games() -> ResponseReturnValue:
    """List the newest games (a lobby), a page at a time: public facts only."""
    args = query(GAME_LIST_QUERY)
    s = services()
    ids, older = s.directory.recent_games(args["limit"], below=args["cursor"])
    listed = []
    for game_id in ids:
        try:
            listed.append(s.archive.listed(game_id))  # an archived game too, as it was archived
        except GameNotFound:
            continue
    # An account's seat is named by its handle, looked up (the chain holds the id): one read for the page.
    seats = [seat for line in listed for seat in line.get("seats", []) if seat.get("player") is not None]
    handles = s.players.handles({seat["player"] for seat in seats}) if seats else {}
    for seat in seats:
        seat["name"] = handles.get(seat["player"], seat["name"])
    return jsonify({"games": listed, "next": older or None})


@games.get("/games/<game_id>")
def get_game(game_id: str) -> ResponseReturnValue:
    """Return the caller's view (a spectator's without a token), now or after event `at`."""
    args = query(VIEW_QUERY)
    game = services().repository.load(game_id)
    seat = caller_seat(game)
    if args["open"] and game.status != FINISHED:
        raise GameInPlay("the open view is available once the game is over")
    at = args["at"]
    if at is None:
        return view_response(game, seat, args["open"])
    if at > game.version:
        raise AtOutOfRange(f"the game has {game.version} events; at must be 1 to {game.version}", version=game.version)
    # A past view, even at the current version: what was, with nothing to act on.
    past = game if at == game.version else services().repository.load_at(game_id, at)
    view = game_view(past, seat, open_view=args["open"], handles=seat_handles(past))
    view["legal_actions"] = []
    return jsonify(view)


@games.post("/games/<game_id>/join")
def join_game(game_id: str) -> ResponseReturnValue:
    """Take the first open seat."""
    services().repository.cached(game_id)
    data = body(JOIN)
    seat = _bound(data)
    joined = services().games.join(
        game_id,
        seat.get("name"),
        seat.get("entropy"),
        idempotency_key=_secret_idempotency_key(),
        player=seat.get("player"),
        handle=seat.get("handle"),
    )
    return jsonify(joined), 201


def _bound(spec: dict[str, Any]) -> dict[str, Any]:
    """Return a seat spec with its player token (if any) replaced by the account it proves (401 if none)."""
    token = spec.get("player_token")
    if token is None:
        return spec
    account = services().players.authenticate(token)
    seat = {key: value for key, value in spec.items() if key != "player_token"}
    return {**seat, "player": account.id, "handle": account.handle}


@games.post("/games/<game_id>/actions")
def post_action(game_id: str) -> ResponseReturnValue:
    """Play one of the caller's legal actions; answer with its events and (with `view=true`) its view after them."""
    return json_response(encode(play(game_id, bearer_token(), _HttpMove())))


class _HttpMove:
    """A move as `POST /games/{id}/actions` carries it: `view` in the query, the key in a header, the body."""

    def wants_view(self) -> bool:
        view: bool = query(ACTION_QUERY, plain_action_query)["view"]
        return view

    def idempotency_key(self) -> str | None:
        return _raw_idempotency_key()

    def body(self) -> Any:
        return json_body()


def _raw_idempotency_key() -> str | None:
    # What `request.headers.get("Idempotency-Key")` reads.
    key: str | None = request.environ.get("HTTP_IDEMPOTENCY_KEY")
    return key


def _idempotency_key() -> str | None:
    """Return the request's Idempotency-Key, if it has a valid one."""
    return checked_idempotency_key(_raw_idempotency_key())


def _secret_idempotency_key() -> str | None:
    """Return the Idempotency-Key of a request whose retry hands out seat tokens: it must be long enough to be secret."""
    key = _idempotency_key()
    if key is not None and len(key) < SECRET_KEY_LENGTH:
        raise IdempotencyKeyTooShort(
            f"an Idempotency-Key that gets seat tokens back must be a secret of at least {SECRET_KEY_LENGTH} "
            "characters (a random UUID will do)",
            minimum=SECRET_KEY_LENGTH,
        )
    return key


@games.get("/games/<game_id>/export")
def export_game(game_id: str) -> ResponseReturnValue:
    """Return the game as one JSON document (NDJSON on request): redacted for the caller in play, whole after.

    JSON unless the client prefers NDJSON: a client generated from openapi.yaml
    sends `Accept: */*` and parses JSON, and so does any JSON client.
    """
    seat = caller_seat(services().repository.cached(game_id))
    lines = services().archive.export(game_id, seat)
    if not prefers("application/x-ndjson"):
        header, *events = (orjson.loads(line) for line in lines)
        return jsonify({"header": header, "events": events})
    headers = {"Content-Disposition": f'attachment; filename="{game_id}.ndjson"'}
    return Response(lines, mimetype="application/x-ndjson", headers=headers)


@games.get("/games/<game_id>/audit")
def audit_game(game_id: str) -> ResponseReturnValue:
    """Audit a finished game: hash chain, seed, every deal and command re-executed, result; a long one as a job."""
    return audit_response(services().audits.game(game_id))


@games.get("/games/<game_id>/events")
def get_events(game_id: str) -> ResponseReturnValue:
    """Return the log after `after`, redacted for the caller (whole once the game is over)."""
    args = query(EVENTS_QUERY)
    game = services().repository.load(game_id)
    seat = caller_seat(game)
    upto = min(args["after"] + args["limit"], game.version)
    events = services().games.events_for(game, seat, after=args["after"], upto=upto)
    return jsonify({"events": events, "version": game.version, "more": upto < game.version})
