"""Life is Life scoring: majorities, the rulebook's worked examples, life loss and the two-player rule."""

from __future__ import annotations

import pytest

from domain.games.life_is_life.cards import DECK, life_losses, majorities, totals
from tests.support.life_is_life import KNOCK, act, arranged, step, types

MIA, TIM, SARAH = 0, 1, 2


def test_mia_scores_the_giraffes_with_four_against_three_and_one() -> None:
    hands = {MIA: ["giraffe"] * 4, TIM: ["giraffe"] * 3, SARAH: ["giraffe"]}
    assert majorities(hands)["giraffe"] == MIA
    assert totals(hands) == {MIA: 9, TIM: 0, SARAH: 0}


def test_a_shared_majority_gives_nobody_the_points() -> None:
    hands = {MIA: ["giraffe"] * 3, TIM: ["giraffe"] * 3, SARAH: ["giraffe"]}
    assert majorities(hands)["giraffe"] is None
    assert totals(hands) == {MIA: 0, TIM: 0, SARAH: 0}


def test_a_species_scores_its_value_once_however_many_cards() -> None:
    assert totals({0: ["bear"] * 8, 1: ["mouse"], 2: []}) == {0: 8, 1: 3, 2: 0}


def test_with_three_players_a_single_card_can_be_the_majority() -> None:
    assert majorities({0: ["mouse"], 1: [], 2: []})["mouse"] == 0


@pytest.mark.parametrize(("mine", "theirs", "scorer"), [(1, 0, None), (2, 0, 0), (2, 1, 0), (1, 1, None)])
def test_with_two_players_left_a_single_card_never_scores(mine: int, theirs: int, scorer: int | None) -> None:
    assert majorities({0: ["cat"] * mine, 1: ["cat"] * theirs})["cat"] == scorer


def test_tim_15_mia_13_linus_10_leon_and_hanna_7_lose_0_1_1_2_2() -> None:
    assert life_losses({"Tim": 15, "Mia": 13, "Linus": 10, "Leon": 7, "Hanna": 7}) == {
        "Tim": 0,
        "Mia": 1,
        "Linus": 1,
        "Leon": 2,
        "Hanna": 2,
    }


def test_all_totals_equal_costs_nobody_a_life() -> None:
    assert life_losses({0: 9, 1: 9, 2: 9}) == {0: 0, 1: 0, 2: 0}


def test_everyone_tied_for_highest_loses_nothing_and_the_lowest_lose_two() -> None:
    assert life_losses({0: 9, 1: 9, 2: 4, 3: 4}) == {0: 0, 1: 0, 2: 2, 3: 2}


# The rulebook's five players, dealt so that their totals are 15, 13, 10, 7 and 7:
# Tim giraffes + sheep, Mia bears + rabbits, Linus dogs + cats, Leon moles,
# Hanna goats; pigs and mice are tied and score for nobody.
TIM5, MIA5, LINUS, LEON, HANNA = range(5)
FIVE_HANDS = [
    ["giraffe"] * 3 + ["sheep"] * 2 + ["bear", "dog", "mole", "goat", "pig"],
    ["sheep"] + ["bear"] * 3 + ["rabbit"] * 2 + ["mole", "goat", "pig", "mouse"],
    ["giraffe", "sheep", "bear", "rabbit"] + ["dog"] * 2 + ["cat"] * 2 + ["mole", "goat"],
    ["giraffe", "bear", "rabbit", "dog", "cat"] + ["mole"] * 2 + ["goat", "pig", "mouse"],
    ["giraffe"] * 2 + ["bear", "dog", "cat", "mole"] + ["goat"] * 3 + ["pig"],
]
FIVE_ROWS = [["rabbit"], ["giraffe", "giraffe"], ["sheep", "sheep", "bear"], ["dog", "mole", "pig", "mouse"]]


def five_player_phase_ending() -> object:
    """Return the rulebook's five players with Tim knocked and everyone else about to pass."""
    state = arranged(FIVE_HANDS, FIVE_ROWS, starter=TIM5, turn=MIA5, knocker=TIM5)
    for seat in (MIA5, LINUS, LEON, HANNA):
        state, _ = act(state, seat, KNOCK)
    return state


def test_the_five_player_hands_use_the_whole_deck() -> None:
    assert sorted(card for cards in FIVE_HANDS + FIVE_ROWS for card in cards) == sorted(DECK)


def test_a_normal_end_scores_the_rulebook_example_through_the_system_step() -> None:
    state = five_player_phase_ending()
    assert state.phase_over
    state, events = step(state)
    assert types(events) == ["PhaseScored", "LivesLost", "PhaseDealt"]
    scored, lost = events[0].data, events[1].data
    assert scored["points"] == [15, 13, 10, 7, 7]
    assert scored["majorities"]["giraffe"] == TIM5 and scored["majorities"]["pig"] is None
    assert lost["lost"] == [0, 1, 1, 2, 2]
    assert lost["lives"] == [5, 4, 4, 3, 3]
    assert state.lives == (5, 4, 4, 3, 3)


def test_a_normal_end_lays_every_hand_face_up() -> None:
    state, events = step(five_player_phase_ending())
    assert events[0].data["hands"] == [sorted(hand) for hand in FIVE_HANDS]
    assert state.last_scoring is not None and state.last_scoring.points == (15, 13, 10, 7, 7)


def test_two_players_left_score_only_pairs_in_a_real_phase() -> None:
    # Seat 0 holds a single mouse against none: with three players in that would score 3.
    hands = [
        ["mouse"] + ["giraffe"] * 2 + ["bear"] * 7,
        None,
        ["giraffe"] * 2 + ["mole"] * 7 + ["cat"],
    ]
    state = arranged(hands, rows=[["pig"], ["pig", "pig"], ["dog"] * 3, ["sheep"] * 4], knocker=0, turn=2)
    state, _ = act(state, 2, KNOCK)
    _, events = step(state)
    assert events[0].data["points"] == [8, None, 7]
    assert events[0].data["majorities"]["mouse"] is None
    assert events[0].data["majorities"]["cat"] is None
