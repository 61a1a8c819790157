"""The service's typed errors, one base per kind of answer.

The domain raises `domain.errors.DomainError`s (a move against the rules,
options no game takes); this module adds what only the service knows of:
unknown ids, tokens, stale versions, finished-game-only files. The HTTP layer
maps each base to one status in one table (`service.http.errors`).
"""

from __future__ import annotations

from domain.ids import GAME_ID_FORM, TOURNAMENT_ID_FORM, is_game_id, is_tournament_id


class ServiceError(Exception):
    """Base of the service's own errors: a code, a message a person can read, and details."""

    code = "service_error"

    def __init__(self, message: str, **details: object) -> None:
        super().__init__(message)
        self.message = message
        self.details = details


class BadRequest(ServiceError):
    """The request is malformed (HTTP 400)."""

    code = "bad_request"


class MalformedJson(BadRequest):
    """The body is not a JSON object."""

    code = "malformed_json"


class InvalidIdempotencyKey(BadRequest):
    """The Idempotency-Key header is not 1 to 200 visible ASCII characters."""

    code = "invalid_idempotency_key"


class IdempotencyKeyTooShort(BadRequest):
    """An Idempotency-Key that would hand out seat tokens (on a create or a join) is too short to be a secret."""

    code = "idempotency_key_too_short"


class Unauthorized(ServiceError):
    """The route needs a token the request does not carry (HTTP 401)."""

    code = "unauthorized"


class MissingToken(Unauthorized):
    """No Authorization header where one is needed."""

    code = "missing_token"


class UnknownToken(Unauthorized):
    """The bearer token is not one this service handed out."""

    code = "unknown_token"


class Forbidden(ServiceError):
    """The caller is known but may not do this (HTTP 403)."""

    code = "forbidden"


class UnknownPlayerToken(Unauthorized):
    """The player token is not one this service handed out."""

    code = "unknown_player_token"


class WrongGame(Forbidden):
    """A seat token of another game."""

    code = "wrong_game"


class WrongTournament(Forbidden):
    """A token of another tournament."""

    code = "wrong_tournament"


class NotOrganiser(Forbidden):
    """Only the organiser's token may do this."""

    code = "not_organiser"


class GameInPlay(Forbidden):
    """What is asked for needs a finished game: its seed and hands are still secret."""

    code = "game_in_play"


class NotFound(ServiceError):
    """No such thing (HTTP 404)."""

    code = "not_found"


class GameNotFound(NotFound):
    """No game has that id."""

    code = "game_not_found"

    def __init__(self, game_id: str) -> None:
        malformed = "" if is_game_id(game_id) else f" (a game id is {GAME_ID_FORM})"
        super().__init__(f"no game with id {game_id!r}{malformed}")


class TournamentNotFound(NotFound):
    """No tournament has that id."""

    code = "tournament_not_found"

    def __init__(self, tournament_id: str) -> None:
        malformed = "" if is_tournament_id(tournament_id) else f" (a tournament id is {TOURNAMENT_ID_FORM})"
        super().__init__(f"no tournament with id {tournament_id!r}{malformed}")


class PlayerNotFound(NotFound):
    """No player account has that id."""

    code = "player_not_found"

    def __init__(self, player_id: str) -> None:
        super().__init__(f"no player with id {player_id!r}")


class AuditNotFound(NotFound):
    """No audit has that id, or its record is no longer kept (a result is kept 24 hours)."""

    code = "audit_not_found"

    def __init__(self, audit_id: str) -> None:
        super().__init__(f"no audit with id {audit_id!r} (never asked for, or no longer kept)")


class GameTypeNotFound(NotFound):
    """A path names a game type that does not exist."""

    code = "game_type_not_found"


class Gone(ServiceError):
    """It was here and is no longer served (HTTP 410)."""

    code = "gone"


class GameArchived(Gone):
    """The game was archived: its stream left the store for a file, named in answers by the archive's id alone.

    The archive's id is the game's (`details.archive`; the operator's file is
    `<id>.ndjson` unless they named it otherwise). Where the file lies on the
    server's disk is kept in `path`, for this host's own reads, never in an answer.
    """

    code = "game_archived"

    def __init__(self, game_id: str, **where: object) -> None:
        # A tombstone's fields: `archive` (the file's path) and `archived_at`; nothing else goes into the answer.
        archive, archived_at = where.get("archive"), where.get("archived_at")
        when = f" on {archived_at}" if isinstance(archived_at, str) else ""
        details: dict[str, object] = {"archive": game_id}
        if isinstance(archived_at, str):
            details["archived_at"] = archived_at
        super().__init__(
            f"game {game_id!r} was archived{when}: it is no longer in the store; ask the operator for archive"
            f" {game_id} to audit it offline",
            **details,
        )
        self.path = archive if isinstance(archive, str) else None


class Conflict(ServiceError):
    """What is asked for clashes with what exists (HTTP 409)."""

    code = "conflict"


class HandleTaken(Conflict):
    """Another account has this handle (after normalisation and case folding)."""

    code = "handle_taken"


class VersionConflict(ServiceError):
    """The stream moved on since the version the command was decided at (HTTP 409)."""

    code = "version_conflict"

    def __init__(self, expected: int, actual: int) -> None:
        super().__init__(f"expected version {expected}, the stream is at version {actual}")
        self.expected = expected
        self.actual = actual
        self.details = {"expected": expected, "actual": actual}


class Refused(ServiceError):
    """Well-formed, but the service will not do it (HTTP 422)."""

    code = "refused"


class TooMany(ServiceError):
    """A client holds as much of something as it may; it may have more in `retry_after` seconds (HTTP 429, Retry-After)."""

    code = "too_many"


class TooManyBotGames(TooMany):
    """The client's address has as many all-bot games in play as it may."""

    code = "too_many_bot_games"


class UpgradeRequired(ServiceError):
    """A WebSocket route asked for without the upgrade (HTTP 426)."""

    code = "upgrade_required"


class SocketsUnsupported(ServiceError):
    """A WebSocket upgrade to a server that cannot serve one (HTTP 501): only the async front can."""

    code = "sockets_unsupported"


class Busy(ServiceError):
    """The service cannot take this request now; it may in `retry_after` seconds (HTTP 503, Retry-After)."""

    code = "busy"


class StreamsFull(Busy):
    """This server process holds as many live streams as it may: one more would take a thread moves need."""

    code = "streams_full"


class IdempotencyKeyReused(Refused):
    """The same Idempotency-Key came with a different request."""

    code = "idempotency_key_reused"


class ImportRefused(Refused):
    """An export that cannot be imported."""

    code = "import_refused"


class TournamentInPlay(Forbidden):
    """What is asked for needs a finished tournament: its seed is still secret."""

    code = "tournament_in_play"


class RoundNotFound(NotFound):
    """The tournament has no round of that number (yet)."""

    code = "round_not_found"


class MissingEntrant(Refused):
    """The organiser asked to withdraw someone without naming them."""

    code = "missing_entrant"


class AtOutOfRange(NotFound):
    """A past view asked for after an event the game has not reached: no such position (yet)."""

    code = "at_out_of_range"


class UnknownGameType(Refused):
    """A request names a game type that does not exist (the list of types is data, not schema: 422)."""

    code = "unknown_game_type"
