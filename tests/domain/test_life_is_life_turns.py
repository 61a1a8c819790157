"""Life is Life turns: dealing, trading, knocking, the last round, sudden death, going out."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from domain.chance import Chance
from domain.errors import RuleError
from domain.games.life_is_life import RULES, KnockError, TradeError
from domain.games.life_is_life.cards import DECK
from tests.support.life_is_life import KNOCK, act, arranged, cards_of, step, trade, types
from tests.support.tables import new_table

SARAHS_ROW = ["bear", "mole"]
ROWS = [["dog"], SARAHS_ROW, ["sheep"] * 3, ["goat"] * 4]


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


BAD_ACTIONS: list[tuple[dict[str, Any], str]] = [
    ({}, "unknown action type"),
    ({"type": "dance"}, "unknown action type"),
    ({"type": "trade"}, "row must be"),
    ({"type": "trade", "row": 0, "cards": []}, "row must be"),
    ({"type": "trade", "row": 5, "cards": ["cat"] * 5}, "row must be"),
    ({"type": "trade", "row": "2", "cards": ["cat", "cat"]}, "row must be"),
    ({"type": "trade", "row": True, "cards": ["cat"]}, "row must be"),
    ({"type": "trade", "row": 1}, "cards must be a list"),
    ({"type": "trade", "row": 1, "cards": "cat"}, "cards must be a list"),
    ({"type": "trade", "row": 1, "cards": [1]}, "cards must be a list"),
    ({"type": "trade", "row": 1, "cards": ["unicorn"]}, "unknown species unicorn"),
    ({"type": "trade", "row": 2, "cards": ["cat"]}, "lay down exactly 2"),
    ({"type": "trade", "row": 1, "cards": ["pig"]}, "you do not hold pig"),
    ({"type": "trade", "row": 2, "cards": ["bear", "mole"]}, "must differ from row 2"),
    ({"type": "knock"}, "only after having traded"),
]


@pytest.mark.parametrize(("action", "message"), BAD_ACTIONS)
def test_a_bad_action_is_refused_with_the_rule_it_breaks(action: dict[str, Any], message: str) -> None:
    state = arranged([["bear", "mole", "cat"], [], []], rows=ROWS)
    with pytest.raises(RuleError, match=message):
        RULES.decide(state, 0, action, Chance("bad", 0))


def test_a_seat_out_of_turn_is_refused() -> None:
    state = arranged([[], [], []], rows=ROWS)
    with pytest.raises(RuleError, match="not seat 1's turn"):
        RULES.decide(state, 1, trade(1, "giraffe"), Chance("bad", 0))
