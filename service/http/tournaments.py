"""The tournament and leaderboard routes: parse, authorise, call the service, serialise.

Tokens: `POST /tournaments` returns the organiser's token (register bots,
start, record a result); `POST /tournaments/{id}/register` with a name returns
that entrant's token, which `GET /tournaments/{id}` takes to add the
entrant's own games and seat tokens to the view.
"""

from __future__ import annotations

import secrets

import orjson
from flask import Blueprint, Response, jsonify, request
from flask.typing import ResponseReturnValue

from domain.games import RULES
from domain.tournament.decide import MAX_ROUNDS
from domain.tournament.state import CODE, Tournament
from projections.tournament import pairings, pairings_text, standings_csv, tournament_view
from service.adapters.players import Account
from service.application.tournaments import ORGANISER, TournamentService
from service.errors import (
    GameTypeNotFound,
    MissingEntrant,
    MissingToken,
    NotOrganiser,
    RoundNotFound,
    UnknownGameType,
)
from service.http.audits import audit_response
from service.http.auth import require_organiser, tournament_caller
from service.http.bot_games import tournament_bot_place
from service.http.requests import body, prefers, query, services
from service.http.schemas import (
    ADD_ORGANISER,
    ANNUL,
    APPROVE,
    CREATE_TOURNAMENT,
    DISQUALIFY,
    LEADERBOARD_QUERY,
    RECORD_RESULT,
    REGISTER,
    TOURNAMENT_LIST_QUERY,
    WITHDRAW,
)

tournaments = Blueprint("tournaments", __name__)


def service() -> TournamentService:
    """Return the tournament service wired into the app."""
    return services().tournaments


@tournaments.post("/tournaments")
def create_tournament() -> ResponseReturnValue:
    """Create a tournament; the response holds the organiser's token."""
    data = body(CREATE_TOURNAMENT)
    if data["game"] not in RULES:
        raise UnknownGameType(f"no game type {data['game']!r}", known=sorted(RULES))
    organiser = _account(data.get("player_token"))
    # The invitation code goes to the organiser in this answer alone; the tournament keeps its hash.
    invitation = secrets.token_urlsafe(16) if data["registration"] == CODE else None
    created, token = service().create(
        data["game"],
        rounds=data["rounds"],
        format=data["format"],
        table_sizes=data["table_sizes"],
        scoring=data["scoring"],
        max_players=data["max_players"],
        options=data["options"],
        seed=data["seed"],
        late_entry_until=data["late_entry_until"],
        registration=data["registration"],
        invitation=invitation,
        organiser_player=organiser.id if organiser is not None else None,
    )
    answer = {"id": created.id, "organiser_token": token, "tournament": service().view(created)}
    if invitation is not None:
        answer["invitation_code"] = invitation
    return jsonify(answer), 201


def _account(player_token: str | None) -> Account | None:
    """Return the account a player token proves (401 if it proves none); None without a token."""
    return services().players.authenticate(player_token) if player_token is not None else None


@tournaments.post("/tournaments/<tournament_id>/register")
def register(tournament_id: str) -> ResponseReturnValue:
    """Register a human by name (anyone), or a bot by kind (the organiser)."""
    tournament = service().load(tournament_id)
    data = body(REGISTER)
    if "bot" in data:
        require_organiser(tournament)
    account = _account(data.get("player_token"))
    # A bot may fill one more all-bot table: its place counts toward the address's all-bot cap.
    with tournament_bot_place(tournament if "bot" in data else None):
        registered = service().register(
            tournament_id,
            name=data.get("name"),
            bot=data.get("bot"),
            entropy=data.get("entropy"),
            player=account.id if account is not None else None,
            handle=account.handle if account is not None else None,
            invitation=data.get("invitation_code"),
        )
    return jsonify(registered), 201


@tournaments.post("/tournaments/<tournament_id>/organisers")
def add_organiser(tournament_id: str) -> ResponseReturnValue:
    """Add a co-organiser by their player token (the organiser): their own organiser token may annul results."""
    require_organiser(service().load(tournament_id))
    account = services().players.authenticate(body(ADD_ORGANISER)["player_token"])
    return jsonify(service().add_organiser(tournament_id, account.id)), 201


@tournaments.post("/tournaments/<tournament_id>/approve")
def approve(tournament_id: str) -> ResponseReturnValue:
    """Admit a pending entrant (the organiser; registration by approval)."""
    require_organiser(service().load(tournament_id))
    data = body(APPROVE)
    return jsonify(service().view(service().approve(tournament_id, data["entrant"])))


@tournaments.post("/tournaments/<tournament_id>/start")
def start(tournament_id: str) -> ResponseReturnValue:
    """Close registration and start round 1 (the organiser)."""
    tournament = service().load(tournament_id)
    require_organiser(tournament)
    started = service().start(tournament_id, expected_version=tournament.version)
    return jsonify(service().view(started))


@tournaments.post("/tournaments/<tournament_id>/results")
def record_result(tournament_id: str) -> ResponseReturnValue:
    """Record a finished game of the current round now (the organiser); results also record themselves."""
    require_organiser(service().load(tournament_id))
    data = body(RECORD_RESULT)
    return jsonify(service().view(service().record_game(tournament_id, data["game_id"])))


@tournaments.get("/tournaments/<tournament_id>")
def get_tournament(tournament_id: str) -> ResponseReturnValue:
    """Return rounds, tables with game ids, results and standings; an entrant also sees its seat tokens."""
    tournament = service().load(tournament_id)
    return jsonify(service().view(tournament, tournament_caller(tournament)))


@tournaments.get("/tournaments")
def list_tournaments() -> ResponseReturnValue:
    """List tournaments newest first, a page at a time, by status and game type."""
    args = query(TOURNAMENT_LIST_QUERY)
    page = services().tournament_files.listing(
        status=args["status"], game=args["game"], limit=args["limit"], cursor=args["cursor"]
    )
    return jsonify(page)


@tournaments.post("/tournaments/<tournament_id>/withdraw")
def withdraw(tournament_id: str) -> ResponseReturnValue:
    """Withdraw an entrant: with their own token, or the organiser's naming them."""
    tournament = service().load(tournament_id)
    caller = tournament_caller(tournament)
    data = body(WITHDRAW)
    if caller is None:
        raise MissingToken("this route needs Authorization: Bearer <entrant or organiser token>")
    if isinstance(caller, str) and caller != ORGANISER:
        raise NotOrganiser("a co-organiser's token annuls results; only the organiser's withdraws entrants")
    if caller == ORGANISER:
        if data["entrant"] is None:
            raise MissingEntrant("the organiser names the entrant who withdraws")
        entrant, by = data["entrant"], "organiser"
    else:
        if data["entrant"] not in (None, caller):
            raise NotOrganiser("an entrant's token withdraws only that entrant")
        entrant, by = int(caller), "entrant"
    withdrawn = service().withdraw(tournament_id, entrant, by=by, reason=data["reason"])
    return jsonify(service().view(withdrawn, caller))


@tournaments.post("/tournaments/<tournament_id>/disqualify")
def disqualify(tournament_id: str) -> ResponseReturnValue:
    """Disqualify an entrant, with a reason (the organiser)."""
    require_organiser(service().load(tournament_id))
    data = body(DISQUALIFY)
    return jsonify(service().view(service().disqualify(tournament_id, data["entrant"], reason=data["reason"])))


@tournaments.post("/tournaments/<tournament_id>/annul")
def annul(tournament_id: str) -> ResponseReturnValue:
    """Annul a table's result, with a reason: void, or played again (the organiser, or an entrant at the table)."""
    tournament = service().load(tournament_id)
    caller = tournament_caller(tournament)
    if caller is None:
        raise MissingToken("this route needs Authorization: Bearer <organiser or entrant token>")
    data = body(ANNUL)
    if isinstance(caller, int) and not _sits_at(tournament, data["round"], data["table"], caller):
        raise NotOrganiser("an annulment is asked for by the organiser, or by an entrant at that table")
    annulled = service().annul(
        tournament_id, data["round"], data["table"], reason=data["reason"], replay=data["replay"], by=caller
    )
    return jsonify(service().view(annulled, caller))


def _sits_at(tournament: Tournament, round_: int, table: int, entrant: int) -> bool:
    """Tell whether an entrant sits at a table of a round played."""
    played = tournament.played[round_ - 1] if 0 < round_ <= len(tournament.played) else None
    return played is not None and any(t.number == table and entrant in t.entrants for t in played.tables)


@tournaments.get("/tournaments/<tournament_id>/standings")
def get_standings(tournament_id: str) -> ResponseReturnValue:
    """Return the standings: JSON, or CSV with `Accept: text/csv`."""
    tournament = service().check(service().load(tournament_id))
    if prefers("text/csv"):
        filename = f"{tournament.id}-standings.csv"
        headers = {"Content-Disposition": f'attachment; filename="{filename}"'}
        return Response(standings_csv(tournament, service().handles(tournament)), mimetype="text/csv", headers=headers)
    view = tournament_view(tournament, handles=service().handles(tournament))
    return jsonify({"id": tournament.id, "status": tournament.status, "standings": view["standings"]})


@tournaments.get("/tournaments/<tournament_id>/rounds/<int:round_number>/pairings")
def get_pairings(tournament_id: str, round_number: int) -> ResponseReturnValue:
    """Return a round's tables, seats and game links: JSON, or printable text with `Accept: text/plain`.

    A browser following the page's link (it prefers HTML to JSON) gets the printable text too.
    """
    tournament = service().check(service().load(tournament_id))
    # The URL converter takes any whole number; one past any round could not go into JSON details.
    handles = service().handles(tournament)
    listed = pairings(tournament, round_number, request.host_url, handles) if round_number <= MAX_ROUNDS else None
    if listed is None:
        raise RoundNotFound(f"tournament {tournament.id} has no round {round_number}", round=round_number)
    if prefers("text/plain") or prefers("text/html"):
        return Response(pairings_text(listed), mimetype="text/plain")
    return jsonify(listed)


@tournaments.get("/tournaments/<tournament_id>/export")
def export_tournament(tournament_id: str) -> ResponseReturnValue:
    """Return a finished tournament's bundle, its stream and every game's export: JSON, or NDJSON on request."""
    lines = list(
        services().tournament_files.export(tournament_id)
    )  # built whole, so a failure is an error, not a cut file
    if not prefers("application/x-ndjson"):
        return jsonify({"lines": [orjson.loads(line) for line in lines]})
    headers = {"Content-Disposition": f'attachment; filename="{tournament_id}.ndjson"'}
    return Response(lines, mimetype="application/x-ndjson", headers=headers)


@tournaments.get("/tournaments/<tournament_id>/audit")
def audit_tournament(tournament_id: str) -> ResponseReturnValue:
    """Audit a finished tournament: every game, every result, every pairing and the final standings; a large one as a job."""
    return audit_response(services().audits.tournament(tournament_id))


@tournaments.get("/leaderboards/<game>")
def get_leaderboard(game: str) -> ResponseReturnValue:
    """Return a game type's ratings, best first."""
    args = query(LEADERBOARD_QUERY)
    if game not in RULES:
        raise GameTypeNotFound(f"no game type {game!r}", known=sorted(RULES))
    return jsonify(services().ratings.leaderboard(game, args["limit"]))
