"""Who is calling: seat tokens of games, entrant and organiser tokens of tournaments.

Tokens name what they belong to (`<game>.<seat>.<secret>`,
`<tournament>.<entrant|o>.<secret>`), so a token of another game or
tournament (403) is told apart from an unknown one (401) without a lookup
table; each is trusted only once its SHA-256 matches the one on record.
"""

from __future__ import annotations

import re

from domain.game import Game
from domain.tournament.state import Tournament
from service.application.tokens import token_sha256
from service.application.tournaments import ORGANISER
from service.errors import (
    GameArchived,
    GameNotFound,
    MissingToken,
    NotOrganiser,
    UnknownToken,
    WrongGame,
    WrongTournament,
)
from service.http.requests import bearer_token, services

_SEAT_TOKEN = re.compile(r"^([0-9a-f]{16})\.(\d{1,2})\.([0-9a-f]{32})$")
_TOURNAMENT_TOKEN = re.compile(r"^(t-[0-9a-f]{16})\.(o\d{0,4}|\d{1,4})\.([0-9a-f]{32})$")


def caller_seat(game: Game) -> int | None:
    """Return the seat of `game` the bearer token is for (None for a spectator), or raise 401/403."""
    token = bearer_token()
    return None if token is None else _seat_of(game, token)


def acting_seat(game: Game) -> int:
    """Return the seat of `game` the bearer token is for; a token is required."""
    return seat_for(game, bearer_token())


def seat_for(game: Game, token: str | None) -> int:
    """Return the seat of `game` a bearer token (an HTTP header's, or a game socket's) is for; a token is required."""
    if token is None:
        raise MissingToken("this route needs Authorization: Bearer <seat token>")
    return _seat_of(game, token)


def _seat_of(game: Game, token: str) -> int:
    match = _SEAT_TOKEN.match(token)
    if match is None:
        raise UnknownToken(_not_a(token, "seat token"))
    token_game, seat = match.group(1), int(match.group(2))
    digest = token_sha256(token)
    # A seat's token hash never changes once taken, so the cached game will do for a match. A seat
    # taken since this process cached the game (a join served by another process) is not in it yet:
    # one catch-up before refusing.
    if not _holds(_game(token_game, game, cached=True), seat, digest):
        if not _holds(_game(token_game, game, cached=False), seat, digest):
            raise UnknownToken("the bearer token is not a seat token")
    if token_game != game.id:
        raise WrongGame("this token belongs to another game")
    return seat


def _game(game_id: str, game: Game, *, cached: bool) -> Game:
    """Return the game a token names: the one asked about, or another (its absence makes the token unknown)."""
    if game_id == game.id and cached:
        return game
    repository = services().repository
    if game_id == game.id:
        return repository.load(game_id)
    try:
        return repository.cached(game_id) if cached else repository.load(game_id)
    except (GameNotFound, GameArchived):
        raise UnknownToken("the bearer token is not a seat token") from None


def _holds(game: Game, seat: int, digest: str) -> bool:
    return seat < len(game.seats) and game.seats[seat].token_sha256 == digest


def tournament_caller(tournament: Tournament) -> int | str | None:
    """Return who the bearer token is (entrant number or ORGANISER; None without one), or raise 401/403."""
    token = bearer_token()
    return None if token is None else _holder_of(tournament, token)


def require_organiser(tournament: Tournament) -> None:
    """Raise unless the caller holds the organiser's token."""
    token = bearer_token()
    if token is None:
        raise MissingToken("this route needs Authorization: Bearer <tournament token>")
    if _holder_of(tournament, token) != ORGANISER:
        raise NotOrganiser("only the organiser's token may do this")


def _holder_of(tournament: Tournament, token: str) -> int | str:
    match = _TOURNAMENT_TOKEN.match(token)
    if match is None:
        raise UnknownToken(_not_a(token, "tournament token"))
    if match.group(1) != tournament.id:
        raise WrongTournament("this token belongs to another tournament")
    who = services().tournaments.caller(tournament, token)
    if who is None:
        raise UnknownToken("the bearer token is not a tournament token")
    return who


def _not_a(token: str, wanted: str) -> str:
    """Say why a token is not of the kind a route takes, and what to send instead (never echoing the token)."""
    if token == "":
        return (
            f"the Authorization header must read 'Bearer <{wanted}>': the word Bearer, a space, then the token"
            " (it holds no Bearer scheme, or nothing after it)"
        )
    if wanted == "seat token" and _TOURNAMENT_TOKEN.match(token):
        return (
            "this is a tournament's token; a game route takes a seat token: an entrant finds its games and"
            " seat tokens in GET /tournaments/{id} sent with this token"
        )
    if wanted == "tournament token" and _SEAT_TOKEN.match(token):
        return (
            "this is a game's seat token; a tournament route takes the organiser's token or an entrant's"
            " (from POST /tournaments or POST /tournaments/{id}/register)"
        )
    return f"the bearer token is not a {wanted}"
