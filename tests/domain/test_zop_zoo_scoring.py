"""Zop Zoo, rules version 2: a covered minus card scores nothing for a player who did not win the round.

RULES.md §4, corrected (issue 13): the winner scores every card, a covered
minus card at the positive value it now shows; the others score their side
bonus cards and their uncovered minus cards only ("cover a Minus Card to avoid
getting stuck with minus points"). Games created under rules version 1 keep
its scoring, in which the others also scored covered minus cards.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from domain.games.zop_zoo.state import RULES_VERSIONS
from projections.zop_zoo import seat_view
from tests.support.tables import new_table
from tests.support.zop_zoo import RULES, act, table

# Seat 0 wins by drawing the eagle; seat 1 has covered two of its three minus cards.
WINNER = ["w:lion/b:lion", "w:eagle"]  # 10 + 20 once the eagle is covered
OTHER = [
    "w:zebra",  # not yet worth points, and no minus card: nothing
    "w:mosquito/b:mosquito",  # minus card under its ANTI-minus card (shows +75)
    "w:rat/b:best-beast",  # minus card under a wild card (shows +50)
    "w:slug",  # uncovered minus card: -75
]


def test_new_games_are_played_under_rules_version_2_and_record_it() -> None:
    game = new_table("zop-zoo", 2).game
    assert RULES.rules_version == "2" and RULES.rules_versions == RULES_VERSIONS == ("1", "2")
    assert game.rules_version == "2" and game.rules_state.rules_version == "2"


def test_a_non_winner_scores_only_uncovered_minus_cards_and_side_bonuses() -> None:
    state = table([WINNER, OTHER], deck=["b:eagle"], bonuses=[[], ["b:bonus-mythical"]])
    events, after = act(state, {"type": "draw"})
    won = events[-1]
    assert won.type == "RoundWon" and won.data["winner"] == 0
    assert won.data["scores"] == [10 + 20, -75 + 60], "the mosquito and rat score nothing for seat 1"
    assert after.totals == (30, -15)


def test_under_rules_1_a_non_winner_also_scored_covered_minus_cards() -> None:
    state = replace(table([WINNER, OTHER], deck=["b:eagle"], bonuses=[[], ["b:bonus-mythical"]]), rules_version="1")
    events, _ = act(state, {"type": "draw"})
    assert events[-1].data["scores"] == [10 + 20, 75 + 50 - 75 + 60]


def test_the_winner_still_counts_the_positive_value_a_covered_minus_card_shows() -> None:
    state = table([["w:mosquito/b:mosquito", "w:rat/b:best-beast", "w:eagle"], OTHER], deck=["b:eagle"])
    events, _ = act(state, {"type": "draw"})
    assert events[-1].data["winner"] == 0 and events[-1].data["scores"] == [75 + 50 + 20, -75]


@pytest.mark.parametrize(("rules_version", "as_other"), [("2", -75), ("1", 75 + 50 - 75)])
def test_the_view_shows_what_a_seat_would_score_under_its_games_rules(rules_version: str, as_other: int) -> None:
    state = replace(table([WINNER, OTHER], deck=["b:eagle"]), rules_version=rules_version)
    points = seat_view(state, None)["players"][1]["round_points"]
    assert points == {"as_winner": 75 + 50 - 75, "as_other": as_other}
