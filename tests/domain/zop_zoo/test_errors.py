"""Bad input: every action the rules refuse gives a RuleError that says why."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.action_forms import checked
from domain.errors import OptionsError, RuleError
from domain.games.zop_zoo.cards import bundled
from domain.games.zop_zoo.moves import MustUse, NotOnOffer
from tests.support.tables import new_table
from tests.support.zop_zoo import RULES, act, table

# --- Bad input: every action the rules refuse gives a RuleError that says why.

PLAIN = table([["w:lion/b:lion", "w:eagle"], ["w:zebra/b:zebra", "w:octopus"]], deck=["b:dragon"])
WILD = table([["w:lion/b:lion", "w:eagle"], ["w:zebra", "w:octopus"]], drawn="b:beast-1")
HYENA_DRAWN = table([["w:lion/b:lion", "w:eagle"], ["w:zebra/b:zebra", "w:octopus"]], drawn="b:hyena")
RACCOON_ON_PILE = table([["w:lion", "w:eagle"], ["w:zebra/b:zebra", "w:octopus"]], discard=["b:raccoon"])
SPENT_ON_PILE = table(
    [["w:lion/b:lion", "w:eagle"], ["w:zebra", "w:octopus"]], discard=["b:hyena"], spent=["b:hyena"], deck=["b:dragon"]
)
MATCH_ON_PILE = table([["w:lion", "w:eagle"], ["w:zebra"]], discard=["b:lion"], deck=["b:dragon"])
MOLE_DRAWN = table([["w:lion", "w:eagle"], ["w:zebra"]], drawn="b:mole-1")
MOLE_ON_PILE = table([["w:lion", "w:eagle"], ["w:zebra"]], discard=["b:mole-1"], deck=["b:dragon"])


@pytest.mark.parametrize(
    "state, action, error, message",
    [
        # where a wild card may go
        (WILD, {"type": "place_wild", "card": "w:lion"}, RuleError, "w:lion is already covered by b:lion"),
        (WILD, {"type": "place_wild", "card": "w:zebra"}, RuleError, "w:zebra is in seat 1's row"),
        (WILD, {"type": "place_wild", "card": "w:dragon"}, RuleError, "w:dragon is in no row"),
        (WILD, {"type": "place_wild", "card": "w:nothing"}, RuleError, "place_wild needs 'card'"),
        (PLAIN, {"type": "place_wild", "card": "w:eagle"}, NotOnOffer, "there is no wild card to place"),
        # spent specialty cards
        (SPENT_ON_PILE, {"type": "give", "card": "w:lion", "to": 1}, RuleError, "HYENA .* is spent"),
        (PLAIN, {"type": "give", "card": "w:lion", "to": 1}, NotOnOffer, "no specialty card to use now"),
        # cards that are not worth points, or not there
        (
            RACCOON_ON_PILE,
            {"type": "take_card", "card": "w:octopus", "from": 1},
            RuleError,
            "w:octopus is not worth points",
        ),
        (
            RACCOON_ON_PILE,
            {"type": "take_card", "card": "w:lion", "from": 1},
            RuleError,
            "w:lion is not in seat 1's row",
        ),
        (RACCOON_ON_PILE, {"type": "take_card", "card": "w:zebra", "from": 0}, RuleError, "with another player"),
        (RACCOON_ON_PILE, {"type": "take_card", "card": "w:zebra", "from": 5}, RuleError, "from 0 to 1"),
        (RACCOON_ON_PILE, {"type": "take_card", "card": "x", "from": 1}, RuleError, "needs 'card'"),
        (RACCOON_ON_PILE, {"type": "give", "card": "w:zebra", "to": 1}, RuleError, "its action is take_card, not give"),
        (HYENA_DRAWN, {"type": "give", "card": "w:eagle", "to": 1}, RuleError, "w:eagle is not worth points"),
        (HYENA_DRAWN, {"type": "swap", "card": "w:lion", "with": 1, "for": "w:zebra"}, RuleError, "its action is give"),
        # refusing a card that must be used
        (RACCOON_ON_PILE, {"type": "draw"}, MustUse, "RACCOON .* on the discard pile must be used"),
        (HYENA_DRAWN, {"type": "draw"}, MustUse, "HYENA .* drawn must be used"),
        (MATCH_ON_PILE, {"type": "draw"}, MustUse, "fits your row: you must take it"),
        (WILD, {"type": "draw"}, MustUse, "place the drawn BEAST"),
        (MOLE_DRAWN, {"type": "draw"}, MustUse, "use_mole or decline_mole"),
        # MOLE actions with no MOLE on offer
        (PLAIN, {"type": "use_mole"}, NotOnOffer, "there is no MOLE on offer"),
        (HYENA_DRAWN, {"type": "use_mole"}, NotOnOffer, "there is no MOLE on offer"),
        (MOLE_ON_PILE, {"type": "decline_mole"}, NotOnOffer, "declined by drawing"),
        (PLAIN, {"type": "decline_mole"}, NotOnOffer, "no drawn MOLE"),
        # taking from the discard pile when nothing there fits
        (PLAIN, {"type": "take_discard"}, NotOnOffer, "the discard pile is empty"),
        (MOLE_ON_PILE, {"type": "take_discard"}, NotOnOffer, "topped by MOLE"),
    ],
)
def test_a_bad_action_is_refused_with_the_reason(state: Any, action: dict, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        act(state, action)


@pytest.mark.parametrize(
    "action, message",
    [
        ({"type": "place_wild"}, "card is required"),
        ({"type": "place_wild", "card": ["w:eagle"]}, "card must be a string"),
        ({"type": "take_card", "card": "w:zebra", "from": "1"}, "from must be a whole number"),
        ({"type": "take_card", "card": "w:zebra", "from": True}, "from must be a whole number"),
        ({"type": "take_card", "card": 7, "from": 1}, "card must be a string"),
        ({"type": "use_mole", "x": 1}, "x is not a field of this action"),
        ({}, "type must be one of decline_mole, draw"),
        ({"type": 3}, "type must be one of"),
        ({"type": "fly"}, "type must be one of"),
    ],
)
def test_a_malformed_action_is_refused_by_its_form(action: dict, message: str) -> None:
    with pytest.raises(RuleError, match=message):
        checked(RULES, action)


def test_a_refused_action_changes_nothing_through_the_core() -> None:
    table_ = new_table("zop-zoo", 2, seed="errors")
    seat = next(iter(table_.game.to_act))
    before = table_.game
    for action in ({"type": "give", "card": "w:lion", "to": seat}, {"type": "swap"}, {"type": "use_mole", "x": 1}):
        with pytest.raises(RuleError):
            table_.act(seat, action)
    assert table_.game == before


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 8) | st.sampled_from(["w:lion", "w:zebra", "b:lion", "x"]),
    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=3), inner, max_size=2),
    max_leaves=4,
)
KEYS = st.sampled_from(["type", "card", "to", "from", "with", "for"])
TYPES = st.sampled_from(["draw", "take_discard", "place_wild", "use_mole", "decline_mole", "give", "take_card", "swap"])


@settings(max_examples=300, deadline=None)
@given(
    state=st.sampled_from([PLAIN, WILD, HYENA_DRAWN, RACCOON_ON_PILE, SPENT_ON_PILE, MATCH_ON_PILE, MOLE_DRAWN]),
    kind=TYPES | JSON,
    fields=st.dictionaries(KEYS, JSON, max_size=4),
)
def test_any_action_a_client_can_send_is_played_or_refused_with_a_rule_error(
    state: Any, kind: Any, fields: dict
) -> None:
    try:
        act(state, checked(RULES, {**fields, "type": kind}))
    except RuleError:
        pass


@settings(max_examples=200, deadline=None)
@given(
    deck=st.sampled_from(["white", "black"]),
    index=st.integers(0, 51),
    key=KEYS | st.sampled_from(["kind", "id", "animal", "category", "value"]),
    value=JSON,
)
def test_any_card_set_is_accepted_or_refused_with_an_options_error(deck: str, index: int, key: str, value: Any) -> None:
    raw = bundled()
    raw[deck][index][key] = value
    try:
        RULES.check_options({"target": 800, "card_set": raw}, 4)
    except OptionsError:
        pass
