"""Action bodies: each must be one of its game's action forms (`Rules.actions`), else 400 (422 for another game's).

The forms are the game's one declaration (its `ACTION_FORMS`), read by
`domain.action_forms`. The request body around the action is checked by its
schema alone (`service.http.schemas.ActionSchema`); the action itself is held
to its form here, at the edge, so a client learns of a bad shape as a 400
before the move is judged. The domain holds an action to the same forms with
the same code (`domain.action_forms.checked`) and the rules judge only whether
a well-formed action is legal now (422). openapi.yaml's action schemas are
checked against the same forms (tests/service/test_action_forms.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from marshmallow import ValidationError

from domain.action_forms import in_form_order, problems
from domain.errors import RuleError
from domain.games import RULES, rules_for


def load_action(game_type: str, action: Mapping[str, Any]) -> dict[str, Any]:
    """Return the action, its fields in the form's order, if it has one of the game's forms; else raise.

    ValidationError (400) for no form of any game; RuleError (422) for another game's move.
    """
    rules = rules_for(game_type)
    found = problems(rules, action)
    if found:
        if any(other.id != game_type and not problems(other, action) for other in RULES.values()):
            # Well-formed by openapi.yaml's Action (any game's forms), but not a move of this game.
            raise RuleError(f"not a move of {game_type}; its moves are {', '.join(sorted(rules.actions))}")
        raise ValidationError({"action": found})
    return in_form_order(rules, action)
