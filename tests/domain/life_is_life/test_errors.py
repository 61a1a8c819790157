"""Life is Life: a bad action, or one out of turn, is refused with the rule it breaks."""

from __future__ import annotations

from typing import Any

import pytest

from domain.action_forms import checked
from domain.chance import Chance
from domain.errors import RuleError
from domain.games.life_is_life import RULES
from tests.support.life_is_life import ROWS, arranged, trade

# Malformed: refused by the game's action forms before the rules see them.
MALFORMED: list[tuple[Any, str]] = [
    ({}, "type must be one of knock, trade"),
    ({"type": "dance"}, "type must be one of knock, trade"),
    ({"type": "trade"}, "row is required"),
    ({"type": "trade", "row": "2", "cards": ["cat", "cat"]}, "row must be a whole number"),
    ({"type": "trade", "row": True, "cards": ["cat"]}, "row must be a whole number"),
    ({"type": "trade", "row": 1}, "cards is required"),
    ({"type": "trade", "row": 1, "cards": "cat"}, "cards must be a list"),
    ({"type": "trade", "row": 1, "cards": [1]}, "cards must be a list"),
    (["trade", 1], "JSON object"),
]

BAD_ACTIONS: list[tuple[dict[str, Any], str]] = [
    ({"type": "trade", "row": 0, "cards": []}, "row must be"),
    ({"type": "trade", "row": 5, "cards": ["cat"] * 5}, "row must be"),
    ({"type": "trade", "row": 1, "cards": ["unicorn"]}, "unknown species unicorn"),
    ({"type": "trade", "row": 2, "cards": ["cat"]}, "lay down exactly 2"),
    ({"type": "trade", "row": 1, "cards": ["pig"]}, "you do not hold pig"),
    ({"type": "trade", "row": 2, "cards": ["bear", "mole"]}, "must differ from row 2"),
    ({"type": "knock"}, "only after having traded"),
]


@pytest.mark.parametrize(("action", "message"), MALFORMED)
def test_a_malformed_action_is_refused_by_its_form(action: Any, message: str) -> None:
    with pytest.raises(RuleError, match=message):
        checked(RULES, action)


@pytest.mark.parametrize(("action", "message"), BAD_ACTIONS)
def test_a_bad_action_is_refused_with_the_rule_it_breaks(action: dict[str, Any], message: str) -> None:
    state = arranged([["bear", "mole", "cat"], [], []], rows=ROWS)
    with pytest.raises(RuleError, match=message):
        RULES.decide(state, 0, action, Chance("bad", 0))


def test_a_seat_out_of_turn_is_refused() -> None:
    state = arranged([[], [], []], rows=ROWS)
    with pytest.raises(RuleError, match="not seat 1's turn"):
        RULES.decide(state, 1, trade(1, "giraffe"), Chance("bad", 0))
