"""Request schemas (marshmallow): every body and query is checked before it reaches a command."""

from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates_schema

from domain.games import RULES
from domain.tournament.decide import MAX_PLAYERS, MAX_ROUNDS
from domain.tournament.state import ACTIVE, FINISHED, FORMATS, REGISTERING

# Every game's bot kinds; which kinds a game has is checked in domain/ when a
# seat is taken.
BOT_KINDS = tuple(sorted({kind for rules in RULES.values() for kind in rules.bots}))

NAME = validate.Length(min=1, max=40)


class SeatSpecSchema(Schema):
    """A seat at creation: `{"name"}` a human, `{"bot"}` a bot, `{}` open."""

    class Meta:
        unknown = RAISE

    name = fields.String(validate=NAME)
    bot = fields.String(validate=validate.OneOf(BOT_KINDS))

    @validates_schema
    def _one_of(self, data: dict[str, Any], **_: Any) -> None:
        if "name" in data and "bot" in data:
            raise ValidationError("a seat has a name or a bot, not both")


class CreateGameSchema(Schema):
    """`POST /games`."""

    class Meta:
        unknown = RAISE

    game = fields.String(required=True)
    seats = fields.List(fields.Nested(SeatSpecSchema), required=True, validate=validate.Length(min=1, max=8))
    options = fields.Dict(keys=fields.String(), load_default=dict)
    seed = fields.String(validate=validate.Length(min=1, max=200), load_default=None)


class JoinSchema(Schema):
    """`POST /games/{id}/join`."""

    class Meta:
        unknown = RAISE

    name = fields.String(required=True, validate=NAME)


class ActionSchema(Schema):
    """`POST /games/{id}/actions`."""

    class Meta:
        unknown = RAISE

    action = fields.Dict(keys=fields.String(), required=True)
    expected_version = fields.Integer(strict=True, validate=validate.Range(min=0), load_default=None)


class EventsQuerySchema(Schema):
    """`GET /games/{id}/events` query."""

    class Meta:
        unknown = RAISE

    after = fields.Integer(validate=validate.Range(min=0), load_default=0)
    limit = fields.Integer(validate=validate.Range(min=1, max=10_000), load_default=1000)


class ViewQuerySchema(Schema):
    """`GET /games/{id}` query."""

    class Meta:
        unknown = RAISE

    at = fields.Integer(validate=validate.Range(min=1), load_default=None)
    open = fields.Boolean(load_default=False)


class CreateTournamentSchema(Schema):
    """`POST /tournaments`."""

    class Meta:
        unknown = RAISE

    game = fields.String(required=True)
    format = fields.String(validate=validate.OneOf(FORMATS), load_default="swiss")
    rounds = fields.Integer(strict=True, required=True, validate=validate.Range(min=1, max=MAX_ROUNDS))
    table_sizes = fields.List(fields.Integer(strict=True), validate=validate.Length(min=1, max=8), load_default=None)
    max_players = fields.Integer(strict=True, validate=validate.Range(min=2, max=MAX_PLAYERS), load_default=None)
    scoring = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.Float(validate=validate.Range(min=0, max=1_000_000))),
        load_default=None,
    )
    options = fields.Dict(keys=fields.String(), load_default=dict)
    seed = fields.String(validate=validate.Length(min=1, max=200), load_default=None)
    late_entry_until = fields.Integer(strict=True, validate=validate.Range(min=0, max=MAX_ROUNDS), load_default=0)


class RegisterSchema(SeatSpecSchema):
    """`POST /tournaments/{id}/register`: `{"name"}` a human, `{"bot"}` a bot (organiser only)."""

    @validates_schema
    def _one_of(self, data: dict[str, Any], **_: Any) -> None:
        if ("name" in data) == ("bot" in data):
            raise ValidationError("give a name (a human) or a bot kind, not both")


class RecordResultSchema(Schema):
    """`POST /tournaments/{id}/results`."""

    class Meta:
        unknown = RAISE

    game_id = fields.String(required=True, validate=validate.Length(min=1, max=64))


class LeaderboardQuerySchema(Schema):
    """`GET /leaderboards/{game}` query."""

    class Meta:
        unknown = RAISE

    limit = fields.Integer(validate=validate.Range(min=1, max=10_000), load_default=100)


REASON = validate.Length(min=1, max=500)


class WithdrawSchema(Schema):
    """`POST /tournaments/{id}/withdraw`: the entrant (their own token may leave it out) and why."""

    class Meta:
        unknown = RAISE

    entrant = fields.Integer(strict=True, validate=validate.Range(min=0, max=MAX_PLAYERS), load_default=None)
    reason = fields.String(validate=REASON, load_default="withdrew")


class DisqualifySchema(Schema):
    """`POST /tournaments/{id}/disqualify`."""

    class Meta:
        unknown = RAISE

    entrant = fields.Integer(strict=True, required=True, validate=validate.Range(min=0, max=MAX_PLAYERS))
    reason = fields.String(required=True, validate=REASON)


class AnnulSchema(Schema):
    """`POST /tournaments/{id}/annul`."""

    class Meta:
        unknown = RAISE

    round = fields.Integer(strict=True, required=True, validate=validate.Range(min=1, max=MAX_ROUNDS))
    table = fields.Integer(strict=True, required=True, validate=validate.Range(min=0, max=MAX_PLAYERS))
    reason = fields.String(required=True, validate=REASON)
    replay = fields.Boolean(load_default=False)


class TournamentListQuerySchema(Schema):
    """`GET /tournaments` query."""

    class Meta:
        unknown = RAISE

    status = fields.String(validate=validate.OneOf((REGISTERING, ACTIVE, FINISHED)), load_default=None)
    game = fields.String(validate=validate.Length(min=1, max=64), load_default=None)
    limit = fields.Integer(validate=validate.Range(min=1, max=100), load_default=20)
    cursor = fields.Integer(validate=validate.Range(min=0, max=10_000_000), load_default=0)
