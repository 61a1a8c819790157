"""An action's shape held to its game's declared form (`Rules.actions`, each game's `ACTION_FORMS`).

The one reading of the forms' notation, and the one check of an action's
shape. The service holds every posted action to its form at its edge
(`service.http.actions`, for a 400 or 422 before the move is judged), and
`domain.game` holds every action it decides to the same forms (`checked`), so
an audit re-executing an imported log refuses a malformed action too. The
rules see only well-formed actions: they judge only whether one is legal now
(whose turn, which cards a seat holds, which row or group exists).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from mypy_extensions import mypyc_attr

from domain.errors import RuleError
from domain.rules import Rules

MAX_INDEX = 1_000  # rows, groups, seats: small numbers in every game
MAX_TEXT = 200  # card and tile ids, species, sources; the split template's `choose` note
MAX_ITEMS = 32  # cards in a trade, tiles in a split

# Control characters (Cc) would let a value rewrite a terminal or a log line;
# lone surrogates (Cs) cannot be encoded, so they could never be stored.
REFUSED_CHARACTERS = frozenset({"Cc", "Cs"})


def is_text(value: Any, max_length: int) -> bool:
    """Tell whether `value` is a string of 1 to `max_length` characters, none a control character or lone surrogate."""
    if type(value) is not str or not 0 < len(value) <= max_length:
        return False
    # Printable strings (nearly all) hold neither; the rest are read character by character.
    return value.isprintable() or not any(unicodedata.category(char) in REFUSED_CHARACTERS for char in value)


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


# A form's kinds, each with what is wrong with a value of it (None: nothing).
KINDS: Mapping[str, Callable[[Any], str | None]] = {"int": _int_problem, "str": _text_problem, "[str]": _texts_problem}


@mypyc_attr(native_class=False)
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


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class ActionForm:
    """One action form of a game: its fields, in their declared order."""

    fields: tuple[FieldForm, ...]
    names: frozenset[str]


_FORMS: dict[tuple[str, str], ActionForm] = {}


def action_form(rules: Rules, action_type: str) -> ActionForm:
    """Return one of a game's action forms, read once from its declaration (KeyError: no such form)."""
    key = (rules.id, action_type)
    form = _FORMS.get(key)
    if form is None:
        declared = rules.actions[action_type]
        fields = tuple(FieldForm(name, kind.rstrip("?"), kind.endswith("?")) for name, kind in declared.items())
        unknown = {field.kind for field in fields} - set(KINDS)
        if unknown:
            raise ValueError(f"{rules.id}'s {action_type} declares unknown field kinds {sorted(unknown)}")
        form = _FORMS[key] = ActionForm(fields, frozenset(declared))
    return form


def problems(rules: Rules, action: Mapping[str, Any]) -> dict[str, list[str]]:
    """Return each field of the action that does not fit its form, with what is wrong (empty: it fits)."""
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in rules.actions:
        return {"type": [f"must be one of {', '.join(sorted(rules.actions))}"]}
    form = action_form(rules, kind)
    found = {name: ["is not a field of this action"] for name in action if name != "type" and name not in form.names}
    for field in form.fields:
        problem = field.problem(action)
        if problem is not None:
            found[field.name] = [problem]
    return found


def checked(rules: Rules, action: Any, what: str = "an action") -> Mapping[str, Any]:
    """Return the action if it has one of the game's forms; else raise RuleError saying what does not fit.

    The domain's one shape check (`domain.game` runs it before the rules see
    an action), so an audit re-executing an imported log refuses a malformed
    action as the service refuses it at its edge.
    """
    if not isinstance(action, Mapping):
        raise RuleError(f"{what} is a JSON object taken from legal_actions")
    found = problems(rules, action)
    if found:
        fields = "; ".join(f"{name} {' '.join(why)}" for name, why in found.items())
        raise RuleError(f"{what} of {rules.id} must fit its form: {fields}", problems=found)
    return action


def in_form_order(rules: Rules, action: Mapping[str, Any]) -> dict[str, Any]:
    """Return a well-formed action with its fields in its form's order, `type` first."""
    kind = action["type"]
    loaded = {"type": kind}
    loaded.update((field.name, action[field.name]) for field in action_form(rules, kind).fields if field.name in action)
    return loaded
