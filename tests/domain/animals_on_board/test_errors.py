"""Animals on Board: every bad action or option is refused with the rule it breaks."""

from __future__ import annotations

from typing import Any

import pytest

from domain.action_forms import checked
from domain.chance import Chance
from domain.errors import NotYourTurn, OptionsError, RuleError
from domain.games.animals_on_board import RULES
from domain.games.animals_on_board.state import BETWEEN
from domain.rules import normalise_options
from tests.support.animals_on_board import make_state, play
from tests.support.tables import new_table

# --- Animals on Board: the rulebook's examples and RULES.md §2's rulings, as events and state.


@pytest.mark.parametrize("seats, left_out", [(2, ["lion"]), (3, ["lion", "lion"]), (4, ["lion"])])
def test_left_out_must_name_exactly_the_species_the_seat_count_leaves_out(seats: int, left_out: list[str]) -> None:
    with pytest.raises(OptionsError, match="left_out"):
        normalise_options(RULES, {"left_out": left_out}, seats)


# --- Animals on Board: every bad action is a RuleError that names the rule it breaks.

CENTRE = [["panda-1", "tiger-2", "lion-3"], ["fox-1"]]


@pytest.mark.parametrize(
    "action, message",
    [
        (
            {"type": "split", "group": 0, "first": ["panda-1", "tiger-2", "lion-3"]},
            "the second new group would be empty",
        ),
        ({"type": "split", "group": 0, "first": []}, "the first new group would be empty"),
        ({"type": "split", "group": 0, "first": ["fox-1"]}, "tile 'fox-1' is not in group 0"),
        ({"type": "split", "group": 0, "first": ["zebra-9"]}, "tile 'zebra-9' is not in group 0"),
        ({"type": "split", "group": 0, "first": ["hidden"]}, "tile 'hidden' is not in group 0"),
        ({"type": "split", "group": 1, "first": ["fox-1"]}, "group 1 has only one tile"),
        ({"type": "split", "group": 0, "first": ["panda-1", "panda-1"]}, "named twice"),
        ({"type": "split", "group": 2, "first": ["panda-1"]}, "group must be the index of a group"),
        ({"type": "take", "group": 0}, "group 0 has 3 tiles and costs one crate per tile; you have 2 crates"),
        ({"type": "keep", "tile": "panda-1"}, "keep: the tile for the ark is chosen only at setup"),
    ],
)
def test_bad_actions_are_refused_with_the_rule(action: dict[str, Any], message: str) -> None:
    state = make_state(CENTRE, crates=[2, 1])
    with pytest.raises(RuleError, match=message):
        play(state, 0, action)


@pytest.mark.parametrize(
    "action, message",
    [
        ({"type": "split", "group": 0, "first": "panda-1"}, "first must be a list"),
        ({"type": "split", "group": 0, "first": [3]}, "first must be a list"),
        ({"type": "split", "first": ["panda-1"]}, "group is required"),
        ({"type": "split", "group": True, "first": ["panda-1"]}, "group must be a whole number"),
        ({"type": "take", "group": "0"}, "group must be a whole number"),
        ({"type": "take", "group": -1}, "group must be a whole number"),
        ({"type": "fly"}, "type must be one of forfeit, keep, split, take"),
        ({}, "type must be one of forfeit, keep, split, take"),
    ],
)
def test_malformed_actions_are_refused_by_their_form(action: dict[str, Any], message: str) -> None:
    with pytest.raises(RuleError, match=message):
        checked(RULES, action)


def test_a_player_who_dropped_out_may_not_act() -> None:
    state = make_state(CENTRE, crates=[2, 1, 1], arks=[(), (), ()], current=1, dropped=[0])
    for action in (
        {"type": "take", "group": 1},
        {"type": "split", "group": 0, "first": ["panda-1"]},
        {"type": "forfeit"},
    ):
        with pytest.raises(RuleError, match="seat 0 took a group and dropped out of this round"):
            play(state, 0, action)


def test_the_core_also_refuses_a_dropped_out_seat() -> None:
    table = new_table("animals-on-board", 2)
    for seat in range(2):
        table.act(seat, table.game.legal_actions(seat)[0])
    table.advance()
    state = table.game.rules_state
    seat = state.current
    (template,) = table.game.legal_actions(seat)
    table.act(seat, {**template, "first": template["tiles"][:1]})
    table.act(1 - seat, {"type": "take", "group": 0})
    with pytest.raises(NotYourTurn):
        table.act(1 - seat, {"type": "take", "group": 0})


def test_acting_out_of_turn_or_between_rounds_is_refused() -> None:
    with pytest.raises(RuleError, match="it is seat 0's turn, not seat 1's"):
        play(make_state(CENTRE), 1, {"type": "take", "group": 1})
    with pytest.raises(RuleError, match="no round is under way"):
        play(make_state(CENTRE, phase=BETWEEN), 0, {"type": "take", "group": 1})


# Refused before any chance is drawn (a Chance, not None: the compiled rules check the type of what they are given).
UNUSED = Chance("unused", 0)


def test_setup_choices_are_checked() -> None:
    table = new_table("animals-on-board", 2)
    rules, state = table.game.rules, table.game.rules_state
    with pytest.raises(RuleError, match="keep: tile must be one of your three drawn tiles"):
        rules.decide(state, 0, {"type": "keep", "tile": state.hands[1][0]}, UNUSED)
    with pytest.raises(RuleError, match="setup first"):
        rules.decide(state, 0, {"type": "take", "group": 0}, UNUSED)
    table.act(0, {"type": "keep", "tile": state.hands[0][0]})
    with pytest.raises(RuleError, match="already chosen"):
        rules.decide(table.game.rules_state, 0, {"type": "keep", "tile": state.hands[0][1]}, UNUSED)


def test_an_action_that_is_not_an_object_is_refused() -> None:
    with pytest.raises(RuleError, match="JSON object"):
        checked(RULES, ["take", 0])
