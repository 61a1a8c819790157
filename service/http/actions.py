"""Action bodies: each must be one of its game's action forms (`Rules.actions`), else 400 (422 for another game's).

The forms are the game's own declaration; this module turns them into
marshmallow schemas once per game and type. Whether a well-formed action is
legal now is the rules' call (422).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate

from domain.errors import RuleError
from domain.games import RULES, rules_for
from service.http.fields import Text, WholeNumber, plain_text

MAX_INDEX = 1_000  # rows, groups, seats: small numbers in every game
MAX_TEXT = 200  # card and tile ids, species, sources; the split template's `choose` note
MAX_ITEMS = 32  # cards in a trade, tiles in a split


def _field(kind: str) -> fields.Field:
    optional = kind.endswith("?")
    extra: dict[str, Any] = {"required": False, "allow_none": True} if optional else {"required": True}
    base = kind.rstrip("?")
    if base == "int":
        return WholeNumber(minimum=0, maximum=MAX_INDEX, **extra)
    if base == "str":
        return Text(max_length=MAX_TEXT, **extra)
    if base == "[str]":
        return fields.List(Text(max_length=MAX_TEXT), validate=validate.Length(max=MAX_ITEMS), **extra)
    raise ValueError(f"unknown action field kind {kind!r}")


@cache
def _schema(game_type: str, action_type: str) -> Schema:
    form = rules_for(game_type).actions[action_type]
    declared: dict[str, fields.Field] = {"type": fields.String(required=True)}
    declared.update({name: _field(kind) for name, kind in form.items()})
    return Schema.from_dict(declared, name=f"{game_type}:{action_type}")(unknown=RAISE)


def load_action(game_type: str, action: Mapping[str, Any]) -> dict[str, Any]:
    """Return the action if it is one of the game's action forms; else raise ValidationError (400)."""
    forms = rules_for(game_type).actions
    kind = action.get("type")
    if isinstance(kind, str) and kind in forms and _plainly_valid(forms[kind], action):
        # What the schema returns for it: the same fields, in the schema's order.
        return {name: action[name] for name in ("type", *forms[kind]) if name in action}
    try:
        if not isinstance(kind, str) or kind not in forms:
            raise ValidationError({"type": [f"must be one of {', '.join(sorted(forms))}"]})
        loaded: dict[str, Any] = _schema(game_type, kind).load(action)
    except ValidationError as error:
        if _another_games_move(game_type, action):
            # Well-formed by openapi.yaml's Action (any game's forms), but not a move of this game.
            raise RuleError(f"not a move of {game_type}; its moves are {', '.join(sorted(forms))}") from None
        raise ValidationError({"action": error.messages}) from None
    return loaded


def _plainly_valid(form: Mapping[str, str], action: Mapping[str, Any]) -> bool:
    """Tell whether the action plainly fits its form, without marshmallow (the hot path of every move).

    It accepts only what the schema accepts, and not all of it: anything else
    (a bad value, an unusual character) goes through the schema, so every
    refusal and its message are the schema's own.
    """
    if len(action) > len(form) + 1 or any(name != "type" and name not in form for name in action):
        return False
    for name, kind in form.items():
        if name not in action:
            if not kind.endswith("?"):
                return False
        elif not _plainly(kind.rstrip("?"), action[name], kind.endswith("?")):
            return False
    return True


def _plainly(base: str, value: Any, optional: bool) -> bool:
    if value is None:
        return optional
    if base == "int":
        return type(value) is int and 0 <= value <= MAX_INDEX
    if base == "str":
        return plain_text(value, MAX_TEXT)
    # "[str]"
    return type(value) is list and len(value) <= MAX_ITEMS and all(plain_text(item, MAX_TEXT) for item in value)


def _another_games_move(game_type: str, action: Mapping[str, Any]) -> bool:
    kind = action.get("type")
    if not isinstance(kind, str):
        return False
    for other in RULES.values():
        if other.id == game_type or kind not in other.actions:
            continue
        try:
            _schema(other.id, kind).load(action)
        except ValidationError:
            continue
        return True
    return False
