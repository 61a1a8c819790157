"""Request schemas (marshmallow): every body and query is checked before it reaches a command."""

from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates_schema

from domain.chance import ENTROPY
from domain.games import RULES
from domain.tournament.decide import MAX_PLAYERS, MAX_ROUNDS
from domain.tournament.state import ACTIVE, FINISHED, FORMATS, OPEN, REGISTERING, REGISTRATIONS
from service.http.fields import Text, WholeNumber

# Every game's bot kinds; which kinds a game has is checked in domain/ when a
# seat is taken.
BOT_KINDS = tuple(sorted({kind for rules in RULES.values() for kind in rules.bots}))

NAME_LENGTH = 40
# A handle is at most 24 characters once normalised (`domain.players`); what is longer as typed is the domain's 422.
HANDLE_FIELD_LENGTH = 100
# `<player id>.<secret>`: 2 + 16 + 1 + 32 characters.
PLAYER_TOKEN_LENGTH = 51
SEED_LENGTH = 200
# No game comes near a billion events; a bound keeps stream ids in range.
MAX_VERSION = 1_000_000_000
MAX_SEATS = 8  # no game seats more

# marshmallow lets an optional field with `load_default=None` be sent as null; openapi.yaml
# allows no null in a request body, so such fields say `allow_none=False` (null is a 400).


def _entropy() -> fields.String:
    """A seat's public contribution to a shared deal (`domain.chance`): 32 to 128 hex digits."""
    return fields.String(validate=validate.Regexp(ENTROPY, error="entropy is 32 to 128 hex digits"))


def _player_token() -> fields.String:
    """A player token (`POST /players`): binds the seat or the place to the account; checked by the service (401)."""
    return fields.String(validate=validate.Length(min=1, max=PLAYER_TOKEN_LENGTH))


class SeatSpecSchema(Schema):
    """A seat at creation: `{"name"}` a guest, `{"player_token"}` an account (either with its `entropy`, if it adds
    some), `{"bot"}` a bot, `{}` open."""

    class Meta:
        unknown = RAISE

    # What a seat given as a string ("ann") or a number is told, rather than "Invalid input type.".
    error_messages = {
        "type": 'a seat is an object: {"name": "ann"} for a person, {"bot": "heuristic"} for a bot, {} for an open seat'
    }

    name = Text(max_length=NAME_LENGTH)
    player_token = _player_token()
    bot = fields.String(validate=validate.OneOf(BOT_KINDS))
    entropy = _entropy()

    @validates_schema
    def _one_of(self, data: dict[str, Any], **_: Any) -> None:
        if len({"name", "bot", "player_token"} & set(data)) > 1:
            raise ValidationError("a seat has a name, a player token or a bot: one of them")
        if "entropy" in data and "name" not in data and "player_token" not in data:
            raise ValidationError("only a human seat (with a name or a player token) adds entropy")


class CreateGameSchema(Schema):
    """`POST /games`."""

    class Meta:
        unknown = RAISE

    game = Text(max_length=NAME_LENGTH, required=True)
    seats = fields.List(fields.Nested(SeatSpecSchema), required=True, validate=validate.Length(min=2, max=MAX_SEATS))
    options = fields.Dict(keys=Text(max_length=NAME_LENGTH), load_default=dict)
    seed = Text(max_length=SEED_LENGTH, load_default=None, allow_none=False)


class JoinSchema(Schema):
    """`POST /games/{id}/join`."""

    class Meta:
        unknown = RAISE

    name = Text(max_length=NAME_LENGTH)
    player_token = _player_token()
    entropy = _entropy()

    @validates_schema
    def _one_of(self, data: dict[str, Any], **_: Any) -> None:
        if ("name" in data) == ("player_token" in data):
            raise ValidationError("join with a name (a guest) or a player token (an account): one of them")


class ActionSchema(Schema):
    """`POST /games/{id}/actions`."""

    class Meta:
        unknown = RAISE

    # The body's one check (a usual body's through `plain_action_body`, held to this schema by a test);
    # the action's own form is the game's (service.http.actions).
    # A JSON object's keys are strings already: no key field, which would check each again.
    action = fields.Dict(required=True)
    expected_version = WholeNumber(minimum=0, maximum=MAX_VERSION, load_default=None, allow_none=False)


# The keys an action body may have: `ActionSchema`'s fields.
_ACTION_BODY_KEYS = frozenset(("action", "expected_version"))


def plain_action_body(data: dict[str, Any]) -> dict[str, Any] | None:
    """Return what `ActionSchema` loads from a usual action body, without marshmallow; None: the schema decides.

    Usual: an object `action` and, if any, an `expected_version` in range, and
    nothing else. tests/service/test_action_body.py holds this to the schema
    over many bodies, the usual and the rest.
    """
    action = data.get("action")
    if type(action) is not dict or not data.keys() <= _ACTION_BODY_KEYS:
        return None
    version = data.get("expected_version")
    if version is None:
        if "expected_version" in data:
            return None  # null is the schema's 400
    elif type(version) is not int or not 0 <= version <= MAX_VERSION:
        return None
    return {"action": dict(action), "expected_version": version}


class ActionQuerySchema(Schema):
    """`POST /games/{id}/actions` query: `view=true` adds the caller's view after the move to the answer.

    Asked for, not given by default: a view costs about a tenth of a move's
    server work, which a client that learns the game otherwise (the live
    stream, or one client playing every seat) would pay for nothing.
    """

    class Meta:
        unknown = RAISE

    view = fields.Boolean(load_default=False)


# The query strings a client moving with one request sends, as `ActionQuerySchema` loads them.
_PLAIN_ACTION_QUERIES = {b"view=true": {"view": True}, b"view=false": {"view": False}}


def plain_action_query(raw: bytes) -> dict[str, Any] | None:
    """Return what `ActionQuerySchema` loads from a usual query string, without marshmallow; None: the schema decides."""
    known = _PLAIN_ACTION_QUERIES.get(raw)
    return dict(known) if known is not None else None


class GameListQuerySchema(Schema):
    """`GET /games` query."""

    class Meta:
        unknown = RAISE

    limit = fields.Integer(validate=validate.Range(min=1, max=100), load_default=50)
    cursor = fields.Integer(validate=validate.Range(min=0, max=10_000_000), load_default=0)


class EventsQuerySchema(Schema):
    """`GET /games/{id}/events` query."""

    class Meta:
        unknown = RAISE

    after = fields.Integer(validate=validate.Range(min=0, max=MAX_VERSION), load_default=0)
    limit = fields.Integer(validate=validate.Range(min=1, max=10_000), load_default=1000)


class StreamQuerySchema(Schema):
    """`GET /games/{id}/stream` and `GET /tournaments/{id}/stream` query."""

    class Meta:
        unknown = RAISE

    after = fields.Integer(validate=validate.Range(min=0, max=MAX_VERSION), load_default=0)


class ViewQuerySchema(Schema):
    """`GET /games/{id}` query."""

    class Meta:
        unknown = RAISE

    at = fields.Integer(validate=validate.Range(min=1, max=MAX_VERSION), load_default=None)
    open = fields.Boolean(load_default=False)


class RegisterPlayerSchema(Schema):
    """`POST /players`: the handle to open an account for (its rules are `domain.players`)."""

    class Meta:
        unknown = RAISE

    handle = Text(max_length=HANDLE_FIELD_LENGTH, required=True)


class CreateTournamentSchema(Schema):
    """`POST /tournaments`."""

    class Meta:
        unknown = RAISE

    game = Text(max_length=NAME_LENGTH, required=True)
    format = fields.String(validate=validate.OneOf(FORMATS), load_default="swiss")
    rounds = WholeNumber(minimum=1, maximum=MAX_ROUNDS, required=True)
    table_sizes = fields.List(
        WholeNumber(minimum=2, maximum=MAX_SEATS),
        validate=validate.Length(min=1, max=MAX_SEATS),
        load_default=None,
        allow_none=False,
    )
    max_players = WholeNumber(minimum=2, maximum=MAX_PLAYERS, load_default=None, allow_none=False)
    scoring = fields.Dict(
        # Any key openapi.yaml allows; one that is not a table size played is the domain's 422.
        keys=fields.String(),
        values=fields.List(
            fields.Float(allow_nan=False, validate=validate.Range(min=0, max=1_000_000)),
            validate=validate.Length(max=MAX_SEATS),
        ),
        load_default=None,
        allow_none=False,
    )
    options = fields.Dict(keys=Text(max_length=NAME_LENGTH), load_default=dict)
    seed = Text(max_length=SEED_LENGTH, load_default=None, allow_none=False)
    late_entry_until = WholeNumber(minimum=0, maximum=MAX_ROUNDS, load_default=0)
    registration = fields.String(validate=validate.OneOf(REGISTRATIONS), load_default=OPEN)
    # The organiser's own account, if they play too: they cannot then annul a table they sit at.
    player_token = _player_token()


class RegisterSchema(SeatSpecSchema):
    """`POST /tournaments/{id}/register`: `{"player_token"}` an account, `{"name"}` a guest, `{"bot"}` a bot
    (organiser only); `invitation_code` where registration is by code."""

    invitation_code = Text(max_length=100)

    @validates_schema
    def _one_of(self, data: dict[str, Any], **_: Any) -> None:
        if len({"name", "bot", "player_token"} & set(data)) != 1:
            raise ValidationError("give a player token (an account), a name (a guest) or a bot kind: one of them")
        if "entropy" in data and "bot" in data:
            raise ValidationError("only a human entrant adds entropy")


class AddOrganiserSchema(Schema):
    """`POST /tournaments/{id}/organisers`: the co-organiser's player token."""

    class Meta:
        unknown = RAISE

    player_token = fields.String(required=True, validate=validate.Length(min=1, max=PLAYER_TOKEN_LENGTH))


class ApproveSchema(Schema):
    """`POST /tournaments/{id}/approve`."""

    class Meta:
        unknown = RAISE

    entrant = WholeNumber(required=True, minimum=0, maximum=MAX_PLAYERS)


class RecordResultSchema(Schema):
    """`POST /tournaments/{id}/results`."""

    class Meta:
        unknown = RAISE

    game_id = Text(max_length=64, required=True)


class LeaderboardQuerySchema(Schema):
    """`GET /leaderboards/{game}` query."""

    class Meta:
        unknown = RAISE

    limit = fields.Integer(validate=validate.Range(min=1, max=10_000), load_default=100)


class WithdrawSchema(Schema):
    """`POST /tournaments/{id}/withdraw`: the entrant (their own token may leave it out) and why."""

    class Meta:
        unknown = RAISE

    entrant = WholeNumber(minimum=0, maximum=MAX_PLAYERS, load_default=None, allow_none=False)
    reason = Text(max_length=500, load_default="withdrew")


class DisqualifySchema(Schema):
    """`POST /tournaments/{id}/disqualify`."""

    class Meta:
        unknown = RAISE

    entrant = WholeNumber(required=True, minimum=0, maximum=MAX_PLAYERS)
    reason = Text(max_length=500, required=True)


class AnnulSchema(Schema):
    """`POST /tournaments/{id}/annul`."""

    class Meta:
        unknown = RAISE

    round = WholeNumber(required=True, minimum=1, maximum=MAX_ROUNDS)
    table = WholeNumber(required=True, minimum=0, maximum=MAX_PLAYERS)
    reason = Text(max_length=500, required=True)
    replay = fields.Boolean(load_default=False)


class TournamentListQuerySchema(Schema):
    """`GET /tournaments` query."""

    class Meta:
        unknown = RAISE

    status = fields.String(validate=validate.OneOf((REGISTERING, ACTIVE, FINISHED)), load_default=None)
    game = fields.String(validate=validate.Length(min=1, max=64), load_default=None)
    limit = fields.Integer(validate=validate.Range(min=1, max=100), load_default=20)
    cursor = fields.Integer(validate=validate.Range(min=0, max=10_000_000), load_default=0)


# No log nears a trillion results; a bound keeps sizes and indexes plain integers.
MAX_LOG_SIZE = 1 << 40


class EntriesQuerySchema(Schema):
    """`GET /log/entries` query: up to `limit` entries from `start`."""

    class Meta:
        unknown = RAISE

    start = fields.Integer(required=True, validate=validate.Range(min=0, max=MAX_LOG_SIZE))
    limit = fields.Integer(validate=validate.Range(min=1, max=1000), load_default=1000)


class InclusionQuerySchema(Schema):
    """`GET /log/proof/inclusion/{index}` query: the tree of `size` leaves (default: the present one)."""

    class Meta:
        unknown = RAISE

    size = fields.Integer(validate=validate.Range(min=1, max=MAX_LOG_SIZE), load_default=None)


class ResultInclusionQuerySchema(InclusionQuerySchema):
    """`GET /log/proof/inclusion` query: a result by its `id`, in the tree of `size` leaves."""

    id = Text(max_length=200, required=True)


class ConsistencyQuerySchema(Schema):
    """`GET /log/proof/consistency` query: from the tree of `from` leaves to that of `to` (default: the present)."""

    class Meta:
        unknown = RAISE

    first = fields.Integer(data_key="from", required=True, validate=validate.Range(min=1, max=MAX_LOG_SIZE))
    second = fields.Integer(data_key="to", validate=validate.Range(min=1, max=MAX_LOG_SIZE), load_default=None)


# One instance of each, shared by every request: building a schema costs more than loading with it.
CREATE_GAME = CreateGameSchema()
VIEW_QUERY = ViewQuerySchema()
GAME_LIST_QUERY = GameListQuerySchema()
STREAM_QUERY = StreamQuerySchema()
JOIN = JoinSchema()
ACTION = ActionSchema()
ACTION_QUERY = ActionQuerySchema()
EVENTS_QUERY = EventsQuerySchema()
CREATE_TOURNAMENT = CreateTournamentSchema()
REGISTER = RegisterSchema()
RECORD_RESULT = RecordResultSchema()
LEADERBOARD_QUERY = LeaderboardQuerySchema()
WITHDRAW = WithdrawSchema()
DISQUALIFY = DisqualifySchema()
ANNUL = AnnulSchema()
TOURNAMENT_LIST_QUERY = TournamentListQuerySchema()
INCLUSION_QUERY = InclusionQuerySchema()
ENTRIES_QUERY = EntriesQuerySchema()
RESULT_INCLUSION_QUERY = ResultInclusionQuerySchema()
CONSISTENCY_QUERY = ConsistencyQuerySchema()
REGISTER_PLAYER = RegisterPlayerSchema()
APPROVE = ApproveSchema()
ADD_ORGANISER = AddOrganiserSchema()
