"""Blöde Kuh: bad input gets a RuleError that says which rule was broken."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from domain.action_forms import checked
from domain.errors import NotYourTurn, RuleError
from domain.game import decide
from domain.games.bloede_kuh import RULES
from domain.games.bloede_kuh.state import PIG
from tests.support.bloede_kuh import game_at, play, position

# --- Blöde Kuh: bad input gets a RuleError that says which rule was broken.

TURN = position("sheep pig cow", "horse", "cow", draw="sheep", discard="")


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ({"type": "discard", "card": "unicorn"}, "not 'unicorn'"),
        ({"type": "discard", "card": "horse"}, "there is no horse in seat 0's hand"),
        ({"type": "discard_pair", "cards": ["pig", "cow"]}, "a pair must be of one species, not pig and cow"),
        ({"type": "discard_pair", "cards": ["sheep", "sheep"]}, "seat 0 does not hold two cards of sheep"),
        ({"type": "discard_pair", "cards": ["pig"]}, "a pair is two cards"),
        ({"type": "pass"}, "'from' must be 'draw' or 'discard', not None"),
        ({"type": "pass", "from": "sky"}, "'from' must be 'draw' or 'discard'"),
        ({"type": "pass", "from": "discard"}, "the discard pile is empty"),
        ({"type": "take", "from": "draw"}, "unknown action type 'take'"),
        ({"type": "pass_card", "card": "pig"}, "unknown action type 'pass_card'"),
    ],
)
def test_bad_actions_on_a_turn(action: dict[str, Any], message: str) -> None:
    with pytest.raises(RuleError) as raised:
        play(TURN, 0, action)
    assert message in raised.value.message


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ({}, "type must be one of discard, discard_pair, pass, pass_card, take"),
        ({"type": "fly"}, "type must be one of discard, discard_pair, pass, pass_card, take"),
        ({"type": "discard"}, "card is required"),
        ({"type": "discard", "card": ["pig"]}, "card must be a string"),
        ({"type": "discard_pair", "cards": "pig"}, "cards must be a list"),
        ({"type": "take"}, "from is required"),
        (["discard", "pig"], "JSON object"),
    ],
)
def test_malformed_actions_are_refused_by_their_form(action: Any, message: str) -> None:
    with pytest.raises(RuleError) as raised:
        checked(RULES, action)
    assert message in raised.value.message


def test_a_draw_when_both_piles_are_empty() -> None:
    state = position("sheep", "horse", "cow")
    with pytest.raises(RuleError, match="both empty: pass without 'from'"):
        play(state, 0, {"type": "pass", "from": "draw"})
    with pytest.raises(RuleError, match="both empty"):
        play(state, 0, {"type": "pass", "from": "discard"})


def test_a_pig_answer_must_be_a_take_from_a_pile_with_cards() -> None:
    _, waiting = play(position("pig sheep", "horse", "cow", draw=""), 0, {"type": "discard", "card": "pig"})
    with pytest.raises(RuleError, match="must take a card"):
        play(waiting, 1, {"type": "discard", "card": "horse"})
    with pytest.raises(RuleError, match="'from' must be"):
        play(waiting, 1, {"type": "take", "from": "sky"})


def test_taking_from_an_empty_discard_pile() -> None:
    # A pig's discard is always on the pile; build the only case an empty pile can be asked for.
    state = replace(position("sheep", "horse", "cow", draw="cow"), awaiting=PIG, waiting=frozenset({1}))
    with pytest.raises(RuleError, match="the discard pile is empty"):
        play(state, 1, {"type": "take", "from": "discard"})


def test_acting_when_not_asked_is_refused_by_the_core() -> None:
    with pytest.raises(NotYourTurn) as raised:
        decide(game_at(TURN), {"kind": "act", "seat": 2, "action": {"type": "discard", "card": "cow"}}, "seed")
    assert raised.value.details == {"to_act": [0]}


def test_acting_when_not_asked_is_refused_by_the_rules_too() -> None:
    with pytest.raises(RuleError, match="seat 2 may not act now"):
        play(TURN, 2, {"type": "discard", "card": "cow"})


def test_nobody_acts_between_rounds() -> None:
    _, over = play(position("sheep", "horse", "cow"), 0, {"type": "discard", "card": "sheep"})
    with pytest.raises(RuleError, match="the round is over"):
        play(over, 1, {"type": "discard", "card": "horse"})
