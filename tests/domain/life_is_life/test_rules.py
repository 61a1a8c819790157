"""Life is Life: dealing, trading, knocking, the last round, sudden death, going out, and scoring, with the rulebook's worked examples."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from domain.chance import Chance
from domain.games.life_is_life import RULES, KnockError, TradeError
from domain.games.life_is_life.cards import DECK, life_losses, majorities, totals
from tests.support.life_is_life import KNOCK, ROWS, act, apply, arranged, cards_of, step, trade, types
from tests.support.tables import new_table

# --- Life is Life turns: dealing, trading, knocking, the last round, sudden death, going out.

# --- dealing -------------------------------------------------------------------


@pytest.mark.parametrize(("players", "set_aside"), [(3, 20), (4, 10), (5, 0)])
def test_each_phase_deals_ten_cards_each_four_rows_and_sets_the_rest_aside(players: int, set_aside: int) -> None:
    table = new_table("life-is-life", players)
    state = table.game.rules_state
    assert [len(hand) for hand in state.hands] == [10] * players
    assert [len(row) for row in state.rows] == [1, 2, 3, 4]
    assert len(state.set_aside) == set_aside
    assert cards_of(state) == Counter(DECK)
    assert state.lives == (5,) * players and state.phase == 1


def test_the_first_starter_is_drawn_from_the_seed() -> None:
    starters = {new_table("life-is-life", 5, seed=f"seed-{i}").game.rules_state.starter for i in range(20)}
    assert len(starters) > 1


def test_with_two_players_left_thirty_cards_are_set_aside() -> None:
    state = arranged([["cat"], None, ["dog"]], knocker=0, turn=2, lives=[5, 0, 5])
    state, _ = act(state, 2, KNOCK)
    state, events = step(state)
    dealt = events[-1].data
    assert dealt["hands"][1] == [] and len(dealt["set_aside"]) == 30
    assert cards_of(state) == Counter(DECK)


# --- trading -------------------------------------------------------------------


def test_a_trade_swaps_the_laid_cards_for_the_row() -> None:
    state = arranged([["cat", "mouse"], [], []], rows=ROWS)
    state, events = act(state, 0, trade(2, "cat", "mouse"))
    assert types(events) == ["RowTraded"]
    assert events[0].data == {"seat": 0, "row": 2, "laid": ["cat", "mouse"], "taken": ["bear", "mole"]}
    assert state.rows[1] == ("cat", "mouse")
    assert "bear" in state.hands[0] and "mole" in state.hands[0] and "cat" not in state.hands[0]
    assert len(state.hands[0]) == 10
    assert state.turn == 1 and state.known[0] == ("bear", "mole")


def test_sarah_cannot_trade_mole_and_bear_for_the_row_of_mole_and_bear() -> None:
    state = arranged([["mole", "bear"], [], []], rows=ROWS)
    with pytest.raises(TradeError, match="differ from row 2"):
        act(state, 0, trade(2, "mole", "bear"))


def test_sarah_may_trade_any_other_two_cards_for_mole_and_bear() -> None:
    state = arranged([["mole", "mole", "bear"], [], []], rows=ROWS)
    _, events = act(state, 0, trade(2, "mole", "mole"))
    assert events[0].data["taken"] == ["bear", "mole"]
    legal = RULES.legal_actions(state, 0)
    assert trade(2, "bear", "mole") not in legal
    assert trade(2, "mole", "mole") in legal


def test_legal_actions_list_each_distinct_trade_once() -> None:
    state = arranged([["giraffe"] * 9 + ["bear"], [], []], rows=[["bear"], ["dog"] * 2, ["sheep"] * 3, ["goat"] * 4])
    legal = RULES.legal_actions(state, 0)
    assert legal == [
        trade(1, "giraffe"),
        trade(2, "bear", "giraffe"),
        trade(2, "giraffe", "giraffe"),
        trade(3, "bear", "giraffe", "giraffe"),
        trade(3, "giraffe", "giraffe", "giraffe"),
        trade(4, "bear", "giraffe", "giraffe", "giraffe"),
        trade(4, "giraffe", "giraffe", "giraffe", "giraffe"),
    ]
    assert RULES.legal_actions(state, 1) == []


def test_the_trade_cards_may_come_in_any_order() -> None:
    state = arranged([["cat", "mouse"], [], []], rows=ROWS)
    _, events = act(state, 0, {"type": "trade", "row": 2, "cards": ["mouse", "cat"]})
    assert events[0].data["laid"] == ["cat", "mouse"]


# --- knocking and the last round ----------------------------------------------------


def test_nobody_may_knock_before_having_traded_in_this_phase() -> None:
    state = arranged([[], [], []], rows=ROWS)
    assert KNOCK not in RULES.legal_actions(state, 0)
    with pytest.raises(KnockError, match="only after having traded"):
        act(state, 0, KNOCK)


def test_after_a_knock_every_other_player_has_exactly_one_more_turn() -> None:
    state = arranged([["cat"], ["mouse"], ["dog"]], rows=[["giraffe"], ["bear", "bear"], ["mole"] * 3, ["goat"] * 4])
    state, _ = act(state, 0, trade(1, "cat"))
    state, _ = act(state, 1, trade(1, "mouse"))
    state, _ = act(state, 2, trade(1, "dog"))
    assert KNOCK in RULES.legal_actions(state, 0)
    state, events = act(state, 0, KNOCK)
    assert events[0].data == {"seat": 0, "opens_last_round": True}
    assert state.turn == 1 and state.knocker == 0
    state, _ = act(state, 1, trade(1, "cat"))  # seat 1 trades in the last round
    assert state.turn == 2 and not state.phase_over
    state, events = act(state, 2, KNOCK)  # seat 2 passes
    assert events[0].data["opens_last_round"] is False
    assert state.phase_over and state.turn is None
    assert RULES.to_act(state) == frozenset() and RULES.system_due(state)


def test_in_the_last_round_a_player_who_never_traded_may_pass() -> None:
    state = arranged([[], [], []], rows=ROWS, turn=2, knocker=1, traded=[1])
    assert 2 not in state.traded
    assert KNOCK in RULES.legal_actions(state, 2)
    state, _ = act(state, 2, KNOCK)
    assert state.turn == 0


def test_the_last_round_skips_players_who_are_out() -> None:
    state = arranged([[], None, [], []], rows=ROWS, turn=3, knocker=2, lives=[5, 0, 5, 5])
    state, _ = act(state, 3, KNOCK)
    assert state.turn == 0
    state, _ = act(state, 0, KNOCK)
    assert state.phase_over


# --- sudden death ---------------------------------------------------------------


def test_all_four_cats_end_the_phase_at_once_and_the_others_lose_a_life() -> None:
    state = arranged([["cat"] * 3, [], []], rows=[["cat"], ["dog"] * 2, ["sheep"] * 3, ["goat"] * 4])
    state, events = act(state, 0, trade(1, "giraffe"))
    assert types(events) == ["RowTraded", "SuddenDeathDeclared"]
    assert events[1].data == {"seat": 0, "species": ["cat"]}
    assert state.phase_over and RULES.system_due(state)
    state, events = step(state)
    assert types(events) == ["LivesLost", "PhaseDealt"]  # no normal scoring
    assert events[0].data == {"lost": [0, 1, 1], "gained": [0, 0, 0], "lives": [5, 4, 4]}
    assert state.last_scoring is not None and state.last_scoring.declarer == 0


@pytest.mark.parametrize("species", ["rabbit", "pig"])
def test_all_five_rabbits_or_pigs_end_the_phase(species: str) -> None:
    state = arranged([[species] * 4, [], []], rows=[[species], ["dog"] * 2, ["sheep"] * 3, ["goat"] * 4])
    _, events = act(state, 0, trade(1, "giraffe"))
    assert events[1].data["species"] == [species]


def test_a_combination_dealt_in_hand_counts_after_the_next_trade() -> None:
    state = arranged([["cat"] * 4, [], []], rows=ROWS)
    _, events = act(state, 0, trade(1, "giraffe"))
    assert types(events) == ["RowTraded", "SuddenDeathDeclared"]


def test_sudden_death_after_a_knock_ends_the_phase_without_scoring() -> None:
    state = arranged(
        [[], ["pig"] * 4 + ["mouse"], []],
        rows=[["pig"], ["dog"] * 2, ["sheep"] * 3, ["goat"] * 4],
        turn=1,
        knocker=0,
        traded=[0],
    )
    state, events = act(state, 1, trade(1, "mouse"))
    assert types(events) == ["RowTraded", "SuddenDeathDeclared"]
    assert state.phase_over and state.turn is None  # seat 2 gets no last turn
    state, events = step(state)
    assert types(events) == ["LivesLost", "PhaseDealt"]
    assert events[0].data["lost"] == [1, 0, 1]


def test_the_advanced_variant_ignores_cats() -> None:
    state = arranged([["cat"] * 3, [], []], rows=[["cat"], ["dog"] * 2, ["sheep"] * 3, ["goat"] * 4], advanced=True)
    _, events = act(state, 0, trade(1, "giraffe"))
    assert types(events) == ["RowTraded"]


def test_in_the_advanced_variant_the_declarer_gains_a_life_without_cap() -> None:
    state = arranged(
        [["rabbit"] * 4, [], []], rows=[["rabbit"], ["dog"] * 2, ["sheep"] * 3, ["goat"] * 4], advanced=True
    )
    state, _ = act(state, 0, trade(1, "giraffe"))
    state, events = step(state)
    assert events[0].data == {"lost": [0, 1, 1], "gained": [1, 0, 0], "lives": [6, 4, 4]}


def test_the_advanced_option_is_declared_and_defaults_to_off() -> None:
    (option,) = RULES.options
    assert (option.name, option.kind, option.default) == ("advanced", "bool", False)
    table = new_table("life-is-life", 3, {"advanced": True})
    assert table.game.rules_state.advanced is True


# --- going out, the next starter and the end ----------------------------------------------


def test_the_next_phase_is_started_by_the_starters_left_neighbour() -> None:
    state = arranged([["cat"] * 4, [], [], []], rows=ROWS, starter=0)
    state, _ = act(state, 0, trade(1, "giraffe"))
    state, events = step(state)
    assert events[-1].data["starter"] == 1 and events[-1].data["phase"] == 2
    assert state.turn == 1


def test_the_next_starter_skips_a_player_who_just_went_out() -> None:
    state = arranged([["cat"] * 4, [], [], []], rows=ROWS, starter=0, lives=[5, 1, 5, 5])
    state, _ = act(state, 0, trade(1, "giraffe"))
    state, events = step(state)
    assert types(events) == ["LivesLost", "PlayerEliminated", "PhaseDealt"]
    assert events[1].data == {"seat": 1, "phase": 1}
    assert events[-1].data["starter"] == 2
    assert events[-1].data["hands"][1] == []
    assert state.remaining == (0, 2, 3)


def test_the_rotation_skips_players_out_in_earlier_phases() -> None:
    state = arranged([[], None, ["cat"] * 4 + ["mouse"], []], rows=ROWS, starter=0, turn=2, lives=[5, 0, 5, 5])
    state, _ = act(state, 2, trade(1, "mouse"))
    _, events = step(state)
    assert events[-1].data["starter"] == 2


def test_several_players_may_go_out_together() -> None:
    state = arranged([["cat"] * 4, [], [], []], rows=ROWS, lives=[5, 1, 1, 2])
    state, _ = act(state, 0, trade(1, "giraffe"))
    state, events = step(state)
    assert types(events) == ["LivesLost", "PlayerEliminated", "PlayerEliminated", "PhaseDealt"]
    assert state.remaining == (0, 3) and state.out_in_phase == (None, 1, 1, None)
    assert events[-1].data["starter"] == 3
    assert RULES.result(state) is None


def test_the_last_player_in_wins_and_places_follow_the_phase_of_going_out() -> None:
    state = arranged([["cat"] * 4, [], None, []], rows=ROWS, lives=[5, 1, 0, 1], phase=3)
    state = replace(state, out_in_phase=(None, None, 1, None))
    state, _ = act(state, 0, trade(1, "giraffe"))
    state, events = step(state)
    assert types(events) == ["LivesLost", "PlayerEliminated", "PlayerEliminated"]  # no deal: the game is over
    result = RULES.result(state)
    assert result is not None
    assert result.places == (1, 2, 4, 2)
    assert result.detail["out_in_phase"] == [None, 3, 1, 3]
    assert not RULES.system_due(state) and RULES.to_act(state) == frozenset()


def test_the_core_ends_the_game_when_one_player_is_left() -> None:
    table = new_table("life-is-life", 3, seed="end")
    state = arranged([["cat"] * 4, [], []], rows=ROWS, lives=[5, 1, 1])
    table.game = replace(table.game, rules_state=state)
    table.act(0, trade(1, "giraffe"))
    batch = table.advance()
    assert [e.type for e in batch][-1] == "GameEnded"
    assert batch[-1].data["result"]["places"] == [1, 2, 2]
    assert table.game.status == "finished"


# --- bad input ------------------------------------------------------------------


# --- Life is Life scoring: majorities, the rulebook's worked examples, life loss and the two-player rule.

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


# --- Arranged Life is Life positions are real deals: the whole deck, once.


def test_an_arranged_position_holds_the_whole_deck_once() -> None:
    state = arranged([["cat"] * 4, ["rabbit"] * 3, None], rows=[["pig"], ["mole", "bear"], ["dog"] * 3, ["sheep"] * 4])
    assert cards_of(state) == Counter(DECK)
    assert [len(hand) for hand in state.hands] == [10, 10, 0]
    assert state.remaining == (0, 1)


def test_the_first_deal_is_a_real_deal() -> None:
    state = apply(None, RULES.setup(4, {"advanced": False}, Chance("deal", 0)))  # type: ignore[arg-type]
    assert cards_of(state) == Counter(DECK)
    assert [len(row) for row in state.rows] == [1, 2, 3, 4]
