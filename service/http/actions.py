"""Action bodies: each must be one of its game's action forms (`Rules.actions`), else 400 (422 for another game's).

The forms are the game's one declaration (its `ACTION_FORMS`). Each form is
read once into a checker, and every posted action is held to it here, at the
edge, once: past this point an action has its form, and the rules judge only
whether it is legal now (422). openapi.yaml's action schemas are checked
against the same forms (tests/service/test_action_forms.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from marshmallow import ValidationError

from domain.errors import RuleError
from domain.games import RULES, rules_for
from service.http.fields import is_text

MAX_INDEX = 1_000  # rows, groups, seats: small numbers in every game
MAX_TEXT = 200  # card and tile ids, species, sources; the split template's `choose` note
MAX_ITEMS = 32  # cards in a trade, tiles in a split


def _int_problem(value: Any) -> str | None:
    if type(value) is int and 0 <= value <= MAX_INDEX:
        return None
    return f"must be a whole number from 0 to {MAX_INDEX}"


def _text_problem(value: Any) -> str | None:
    if is_text(value, MAX_TEXT):
        return None
    return f"must be a string of 1 to {MAX_TEXT} characters, none of them a control character"


def _texts_problem(value: Any) -> str | None:
    if type(value) is list and len(value) <= MAX_ITEMS and all(is_text(item, MAX_TEXT) for item in value):
        return None
    return f"must be a list of at most {MAX_ITEMS} strings of 1 to {MAX_TEXT} characters, none a control character"


# A form's kinds (see `domain.rules.Rules.actions`), each with what is wrong with a value of it (None: nothing).
KINDS: Mapping[str, Callable[[Any], str | None]] = {"int": _int_problem, "str": _text_problem, "[str]": _texts_problem}


@dataclass(frozen=True)
class FieldForm:
    """One field of an action form: its name, its kind, and whether it may be left out or null."""

    name: str
    kind: str
    optional: bool

    def problem(self, action: Mapping[str, Any]) -> str | None:
        """Return what is wrong with this field of the action, or None."""
        if self.name not in action:
            return None if self.optional else "is required"
        value = action[self.name]
        if value is None:
            return None if self.optional else "may not be null"
        return KINDS[self.kind](value)


@dataclass(frozen=True)
class ActionForm:
    """One action form of a game: its fields, in their declared order."""

    fields: tuple[FieldForm, ...]
    names: frozenset[str]


@cache
def action_form(game_type: str, action_type: str) -> ActionForm:
    """Return one of a game's action forms, read from its declaration (KeyError: no such form)."""
    declared = rules_for(game_type).actions[action_type]
    fields = tuple(FieldForm(name, kind.rstrip("?"), kind.endswith("?")) for name, kind in declared.items())
    unknown = {field.kind for field in fields} - set(KINDS)
    if unknown:
        raise ValueError(f"{game_type}'s {action_type} declares unknown field kinds {sorted(unknown)}")
    return ActionForm(fields, frozenset(declared))


def load_action(game_type: str, action: Mapping[str, Any]) -> dict[str, Any]:
    """Return the action, its fields in the form's order, if it has one of the game's forms; else raise.

    ValidationError (400) for no form of any game; RuleError (422) for another game's move.
    """
    kind = action.get("type")
    problems = _problems(game_type, action)
    if problems:
        if _another_games_move(game_type, action):
            # Well-formed by openapi.yaml's Action (any game's forms), but not a move of this game.
            forms = ", ".join(sorted(rules_for(game_type).actions))
            raise RuleError(f"not a move of {game_type}; its moves are {forms}")
        raise ValidationError({"action": problems})
    loaded = {"type": kind}
    loaded.update(
        (field.name, action[field.name]) for field in action_form(game_type, kind).fields if field.name in action
    )
    return loaded


def _problems(game_type: str, action: Mapping[str, Any]) -> dict[str, list[str]]:
    """Return each field of the action that does not fit its form, with what is wrong (empty: it fits)."""
    forms = rules_for(game_type).actions
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in forms:
        return {"type": [f"must be one of {', '.join(sorted(forms))}"]}
    form = action_form(game_type, kind)
    problems = {name: ["is not a field of this action"] for name in action if name != "type" and name not in form.names}
    for field in form.fields:
        problem = field.problem(action)
        if problem is not None:
            problems[field.name] = [problem]
    return problems


def _another_games_move(game_type: str, action: Mapping[str, Any]) -> bool:
    return any(other.id != game_type and not _problems(other.id, action) for other in RULES.values())
