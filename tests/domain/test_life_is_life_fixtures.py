"""Arranged Life is Life positions are real deals: the whole deck, once."""

from __future__ import annotations

from collections import Counter

from domain.chance import Chance
from domain.games.life_is_life import RULES
from domain.games.life_is_life.cards import DECK
from tests.support.life_is_life import apply, arranged, cards_of


def test_an_arranged_position_holds_the_whole_deck_once() -> None:
    state = arranged([["cat"] * 4, ["rabbit"] * 3, None], rows=[["pig"], ["mole", "bear"], ["dog"] * 3, ["sheep"] * 4])
    assert cards_of(state) == Counter(DECK)
    assert [len(hand) for hand in state.hands] == [10, 10, 0]
    assert state.remaining == (0, 1)


def test_the_first_deal_is_a_real_deal() -> None:
    state = apply(None, RULES.setup(4, {"advanced": False}, Chance("deal", 0)))  # type: ignore[arg-type]
    assert cards_of(state) == Counter(DECK)
    assert [len(row) for row in state.rows] == [1, 2, 3, 4]
