"""Request schemas (marshmallow): every body is checked before it reaches a command."""

from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates_schema

from workers.bots import BOT_KINDS

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
