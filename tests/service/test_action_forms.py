"""One declaration of an action's form: the rules' `actions`, which the edge checks and openapi.yaml states.

Each game's `ACTION_FORMS` is what `service.http.actions` holds a posted action
to; openapi.yaml must say the same fields, the same required ones and the same
kinds, so a new field is declared once and a test names the spec's line to add.
"""

from __future__ import annotations

from typing import Any

import pytest
from marshmallow import ValidationError

from domain.action_forms import MAX_INDEX, MAX_ITEMS, MAX_TEXT
from domain.errors import RuleError
from domain.games import RULES
from service.http.actions import load_action
from tests.support.openapi import SPEC

SCHEMAS = SPEC["components"]["schemas"]
GAMES = ["life-is-life", "animals-on-board", "bloede-kuh", "zop-zoo"]
# A form's kind and the JSON type openapi.yaml gives it.
JSON_TYPES = {"int": "integer", "str": "string", "[str]": "array"}


def _deref(node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = SCHEMAS[node["$ref"].rsplit("/", 1)[1]]
    return node


def _spec_actions(game: str) -> dict[str, dict[str, Any]]:
    """Return the game's action schemas in openapi.yaml by action type."""
    state = SCHEMAS["GameView"]["properties"]["state"]["discriminator"]["mapping"][game]
    union = SCHEMAS[state.rsplit("/", 1)[1].removesuffix("State") + "Action"]
    mapping = union["discriminator"]["mapping"]
    return {kind: SCHEMAS[ref.rsplit("/", 1)[1]] for kind, ref in mapping.items()}


def _spec_form(schema: dict[str, Any]) -> dict[str, str]:
    """Return the form an action schema of openapi.yaml states, in the rules' notation."""
    assert schema.get("additionalProperties") is False
    required = set(schema["required"])
    form = {}
    for name, prop in schema["properties"].items():
        if name == "type":
            continue
        json_type = _deref(prop)["type"]
        kind = next(kind for kind, as_json in JSON_TYPES.items() if as_json == json_type)
        form[name] = kind if name in required else kind + "?"
        if name not in required:
            assert prop.get("nullable") is True, f"{name}: an optional field may be null"
    return form


@pytest.mark.parametrize("game", GAMES)
def test_openapi_states_every_action_form_of_the_rules_and_no_other(game):
    declared = {kind: dict(form) for kind, form in RULES[game].actions.items()}
    stated = {kind: _spec_form(schema) for kind, schema in _spec_actions(game).items()}
    assert stated == declared


@pytest.mark.parametrize("game", GAMES)
def test_every_action_schema_of_openapi_requires_its_type(game):
    for kind, schema in _spec_actions(game).items():
        assert "type" in schema["required"]
        assert schema["properties"]["type"]["enum"] == [kind]


NEAR_MISSES = [
    ({"type": "trade", "row": True, "cards": ["bear"]}, "row"),  # a boolean is not a number
    ({"type": "trade", "row": 1.0, "cards": ["bear"]}, "row"),
    ({"type": "trade", "row": -1, "cards": ["bear"]}, "row"),
    ({"type": "trade", "row": 1001, "cards": ["bear"]}, "row"),
    ({"type": "trade", "row": 1, "cards": ["be\x07ar"]}, "cards"),  # a control character
    ({"type": "trade", "row": 1, "cards": [""]}, "cards"),
    ({"type": "trade", "row": 1, "cards": ["x" * 201]}, "cards"),
    ({"type": "trade", "row": 1, "cards": ["bear"] * 33}, "cards"),
    ({"type": "trade", "row": 1, "cards": "bear"}, "cards"),
    ({"type": "trade", "row": 1, "cards": None}, "cards"),  # required: null is not allowed
    ({"type": "trade", "row": 1}, "cards"),
    ({"type": "trade", "row": 1, "cards": ["bear"], "extra": 1}, "extra"),
    ({"type": 5}, "type"),
    ({"type": "bogus"}, "type"),
]


@pytest.mark.parametrize("action, field", NEAR_MISSES)
def test_an_action_off_its_form_is_refused_naming_the_field(action, field):
    with pytest.raises(ValidationError) as refused:
        load_action("life-is-life", action)
    assert list(refused.value.messages["action"]) == [field]


def test_a_printable_character_outside_str_isprintable_is_still_text():
    assert load_action("life-is-life", {"type": "trade", "row": 1, "cards": ["bear\u2028"]})["cards"] == ["bear\u2028"]


def test_an_optional_field_may_be_left_out_or_null():
    split = {"type": "split", "group": 0}
    assert load_action("animals-on-board", split) == split
    assert load_action("animals-on-board", split | {"first": None}) == split | {"first": None}


def test_a_well_formed_move_of_another_game_is_a_rule_error():
    with pytest.raises(RuleError, match="not a move of life-is-life"):
        load_action("life-is-life", {"type": "take", "group": 1})


def test_an_action_loads_with_its_fields_in_the_forms_order():
    loaded = load_action("zop-zoo", {"for": "x", "with": 1, "card": "y", "type": "swap"})
    assert list(loaded) == ["type", "card", "with", "for"]


def _bounds_beyond_the_server(prop: dict[str, Any]) -> list[str]:
    """Return what an action field of openapi.yaml allows that the server's form refuses (a 400 for a valid body)."""
    schema = _deref(prop)
    beyond = []
    if schema["type"] == "integer" and not (
        0 <= schema.get("minimum", -1) and schema.get("maximum", MAX_INDEX + 1) <= MAX_INDEX
    ):
        beyond.append("integer bounds")
    if schema["type"] == "array":
        if schema.get("maxItems", MAX_ITEMS + 1) > MAX_ITEMS:
            beyond.append("maxItems")
        beyond += _bounds_beyond_the_server(schema["items"])
    if schema["type"] == "string" and "enum" not in schema and schema.get("maxLength", MAX_TEXT + 1) > MAX_TEXT:
        beyond.append("maxLength")
    return beyond


@pytest.mark.parametrize("game", GAMES)
def test_no_action_field_of_openapi_allows_more_than_the_server_takes(game):
    beyond = {
        (kind, name): problems
        for kind, schema in _spec_actions(game).items()
        for name, prop in schema["properties"].items()
        if name != "type" and (problems := _bounds_beyond_the_server(prop))
    }
    assert beyond == {}
