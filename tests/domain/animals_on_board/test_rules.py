"""Animals on Board: the rulebook's examples and RULES.md §2's rulings, as events and state."""

from __future__ import annotations

import pytest

from domain.errors import RuleError
from domain.games.animals_on_board import RULES
from domain.games.animals_on_board.state import BETWEEN, KEEP, OVER
from domain.games.animals_on_board.tiles import depart
from projections import animals_on_board as projection
from tests.support.animals_on_board import make_state, play, step
from tests.support.tables import new_table

# --- Animals on Board: the rulebook's examples and RULES.md §2's rulings, as events and state.

GAME = "animals-on-board"
# --- setup ------------------------------------------------------------------


@pytest.mark.parametrize("seats, species, face_up", [(2, 8, 8), (3, 10, 10), (4, 12, 12)])
def test_setup_uses_species_by_seat_count_and_fills_the_centre(seats: int, species: int, face_up: int) -> None:
    table = new_table(GAME, seats)
    setup = next(e for e in table.log if e.type == "GameSetUp")
    assert len(setup.data["species"]) == species
    assert len(setup.data["left_out"]) == 12 - species
    assert setup.data["left_out_drawn"] == (seats < 4)
    assert all(len(hand) == 3 for hand in setup.data["hands"])
    assert 0 <= setup.data["starting_player"] < seats
    state = table.game.rules_state
    assert state.phase == KEEP and table.game.to_act == frozenset(range(seats))
    for seat in range(seats):
        table.act(seat, table.game.legal_actions(seat)[0])
    table.advance()
    state = table.game.rules_state
    assert [e.type for e in table.log[-2:]] == ["SetupTilesRevealed", "RoundStarted"]
    assert len(state.centre) == 1 and len(state.centre[0]) == face_up + 1
    assert state.face_down in state.centre[0]
    assert [p.crates for p in state.players] == [1] * seats and state.supply == 20 - seats
    assert state.current == setup.data["starting_player"]
    public = projection.seat_view(state, None)["centre"]
    assert public[0].count("hidden") == 1 and state.face_down not in public[0]


def test_left_out_species_come_from_the_option() -> None:
    table = new_table(GAME, 3, {"left_out": ["hippo", "lion"]})
    setup = table.log[-1]
    assert setup.data["left_out"] == ["lion", "hippo"] and setup.data["left_out_drawn"] is False
    assert "lion" not in setup.data["species"] and len(setup.data["species"]) == 10


def test_setup_choices_are_simultaneous_and_secret_until_all_have_chosen() -> None:
    table = new_table(GAME, 3)
    hand = table.game.rules_state.hands[1]
    table.act(1, {"type": "keep", "tile": hand[2]})
    assert table.game.to_act == frozenset({0, 2})
    kept = table.log[-1]
    assert projection.redact(kept.event, 0)["tile"] == "hidden"
    assert projection.redact(kept.event, 1)["tile"] == hand[2]
    assert projection.seat_view(table.game.rules_state, 0)["players"][1]["chosen"] is True
    assert hand[2] not in str(projection.seat_view(table.game.rules_state, 0))
    table.act(0, table.game.legal_actions(0)[0])
    table.act(2, table.game.legal_actions(2)[1])
    table.advance()
    revealed = next(e for e in table.log if e.type == "SetupTilesRevealed")
    assert revealed.data["tiles"][1] == list(hand[:2])
    assert table.game.rules_state.players[1].hidden == frozenset({hand[2]})


# --- round start: one face-down tile, carried over -----------------------------


def test_face_down_tile_persists_between_rounds_and_is_never_doubled() -> None:
    state = make_state([["panda-1"], ["tiger-2", "lion-3"]], crates=[2, 2], face_down="lion-3", phase=BETWEEN)
    state, (started,) = step(state)
    assert started.data["face_down"] is None and started.data["face_down_carried_over"] is True
    assert len(started.data["drawn"]) == 8 - 2
    assert len(state.centre) == 1 and len(state.centre[0]) == 9
    assert state.face_down == "lion-3"
    assert projection.seat_view(state, 0)["centre"][0].count("hidden") == 1


def test_a_round_without_a_face_down_tile_draws_one() -> None:
    state = make_state([["panda-1"]], phase=BETWEEN)
    state, (started,) = step(state)
    assert started.data["face_down"] is not None and len(started.data["drawn"]) == 7
    assert state.face_down == started.data["face_down"] and len(state.centre[0]) == 9
    assert projection.redact(started, 0)["face_down"] == "hidden"


# --- split ------------------------------------------------------------------


def test_split_forms_two_groups_and_gives_a_crate() -> None:
    state = make_state([["panda-1", "tiger-2", "lion-3"], ["fox-1"]])
    state, (split,) = play(state, 0, {"type": "split", "group": 0, "first": ["tiger-2"]})
    assert split.type == "GroupSplit" and split.data["crates"] == 2 and split.data["next"] == 1
    assert state.centre == (("tiger-2",), ("panda-1", "lion-3"), ("fox-1",))
    assert state.players[0].crates == 2 and state.supply == 17


def test_a_split_may_name_either_half() -> None:
    state = make_state([["panda-1", "tiger-2", "lion-3"]])
    listed = [a["first"] for a in RULES.legal_actions(state, 0) if a["type"] == "split"]
    assert ["lion-3"] not in listed and ["panda-1", "tiger-2"] in listed
    state, (split,) = play(state, 0, {"type": "split", "group": 0, "first": ["lion-3"]})
    assert state.centre == (("lion-3",), ("panda-1", "tiger-2"))


def test_a_sixth_crate_leaves_the_player_with_four() -> None:
    state = make_state([["panda-1", "tiger-2"]], crates=[5, 1])
    state, (split,) = play(state, 0, {"type": "split", "group": 0, "first": ["panda-1"]})
    assert split.data["crates"] == 4 and split.data["crate_returned"] is True
    assert state.players[0].crates == 4 and state.supply == 15


def test_small_groups_list_every_split_once_and_big_groups_a_template() -> None:
    seven = [f"panda-{v}" for v in range(1, 6)] + ["tiger-1", "tiger-2"]
    eight = [f"lion-{v}" for v in range(1, 6)] + ["fox-1", "fox-2", "fox-3"]
    state = make_state([seven, eight], crates=[0, 0])
    legal = RULES.legal_actions(state, 0)
    listed = [a for a in legal if a["group"] == 0]
    assert len(listed) == 63
    halves = {frozenset([frozenset(a["first"]), frozenset(set(seven) - set(a["first"]))]) for a in listed}
    assert len(halves) == 63
    (template,) = [a for a in legal if a["group"] == 1]
    assert template["first"] is None and sorted(template["tiles"]) == sorted(eight)
    state2, (split,) = play(state, 0, template)
    assert 1 <= len(split.data["first"]) < 8 and len(state2.centre) == 3
    _, (chosen,) = play(state, 0, {**template, "first": ["fox-3", "lion-2"]})
    assert chosen.data["first"] == ["lion-2", "fox-3"]


def test_the_face_down_tile_is_split_by_the_name_hidden_only() -> None:
    state = make_state([["panda-1", "tiger-2", "lion-3"]], face_down="lion-3")
    assert all("lion-3" not in str(a) for a in RULES.legal_actions(state, 0))
    with pytest.raises(RuleError, match="'lion-3' is not in group 0"):
        play(state, 0, {"type": "split", "group": 0, "first": ["lion-3"]})
    state, (split,) = play(state, 0, {"type": "split", "group": 0, "first": ["hidden", "panda-1"]})
    assert split.data["first"] == ["panda-1", "hidden"] and "lion-3" not in str(split.data)
    assert state.centre[0] == ("panda-1", "lion-3")


# --- take -------------------------------------------------------------------


def test_take_pays_a_crate_per_tile_drops_out_and_takes_the_start_flag() -> None:
    state = make_state(
        [["panda-1", "elephant-2", "lion-3"], ["fox-1"]], crates=[3, 1, 1], arks=[(), (), ()], face_down="lion-3"
    )
    state, (taken,) = play(state, 0, {"type": "take", "group": 0})
    assert taken.data["paid"] == 3 and taken.data["crates"] == 0 and taken.data["first_out"] is True
    assert taken.data["tiles"] == ["elephant-2", "panda-1", "hidden"] and taken.data["face_down"] == "lion-3"
    assert projection.redact(taken, 1)["face_down"] == "hidden" and projection.redact(taken, 0)["face_down"] == "lion-3"
    assert state.players[0].tiles == ("elephant-2", "panda-1", "lion-3")
    assert state.players[0].hidden == frozenset({"lion-3"}) and state.face_down is None
    assert state.dropped == {0} and state.starter == 0 and state.current == 1
    other = projection.seat_view(state, 1)["players"][0]
    assert other["face_up"] == ["elephant-2", "panda-1"] and other["tile_count"] == 3 and other["hidden_count"] == 1
    assert "lion-3" not in str(projection.seat_view(state, 1))
    state, (again, ended) = play(state, 1, {"type": "take", "group": 0})
    assert again.data["first_out"] is False and state.starter == 0
    assert ended.data["reason"] == "no player left in the round can act"  # seat 2 faces an empty centre


def test_taking_the_tenth_tile_is_announced() -> None:
    ark = [f"panda-{v}" for v in range(1, 6)] + [f"tiger-{v}" for v in range(1, 4)]
    state = make_state([["lion-1", "lion-2"], ["fox-1"]], arks=[ark, ()], crates=[2, 0])
    state, (taken, _) = play(state, 0, {"type": "take", "group": 0})
    assert taken.data["announced"] is True and taken.data["tile_count"] == 10
    assert projection.seat_view(state, 1)["players"][0]["announced"] is True


def test_without_a_group_to_split_a_take_is_forced() -> None:
    state = make_state([["panda-1"], ["tiger-2"]], crates=[1, 1])
    assert RULES.legal_actions(state, 0) == [{"type": "take", "group": 0}, {"type": "take", "group": 1}]


def test_with_neither_split_nor_take_the_turn_is_forfeited() -> None:
    state = make_state([["panda-1"], ["tiger-2"]], crates=[0, 1, 1], arks=[(), (), ()])
    assert RULES.legal_actions(state, 0) == [{"type": "forfeit"}]
    state, (forfeited,) = play(state, 0, {"type": "forfeit"})
    assert forfeited.type == "TurnForfeited" and state.current == 1 and 0 not in state.dropped


def test_a_forfeit_is_refused_while_the_player_can_act() -> None:
    state = make_state([["panda-1", "tiger-2"]])
    with pytest.raises(RuleError, match="forfeit: a turn is forfeited only when"):
        play(state, 0, {"type": "forfeit"})


# --- round end ----------------------------------------------------------------


def test_the_last_player_left_has_one_final_turn_then_the_round_ends() -> None:
    state = make_state([["panda-1", "tiger-2"], ["fox-1"], ["lion-1"]], arks=[(), (), ()], crates=[1, 1, 1])
    state, (taken,) = play(state, 0, {"type": "take", "group": 1})
    assert taken.data["next"] == 1 and taken.data["final_turn"] is False
    state, (taken,) = play(state, 1, {"type": "take", "group": 1})
    assert taken.data["next"] == 2 and taken.data["final_turn"] is True
    assert state.current == 2 and state.final_turn
    state, (split, ended) = play(state, 2, {"type": "split", "group": 0, "first": ["panda-1"]})
    assert ended.type == "RoundEnded" and ended.data["reason"] == "the last player in the round had their final turn"
    assert state.phase == BETWEEN and state.current is None and state.players[2].crates == 2
    state, (started,) = step(state)
    assert started.data["starter"] == 0 and state.current == 0 and state.dropped == frozenset()
    assert len(state.centre) == 1 and {"panda-1", "tiger-2"} <= set(state.centre[0])


def test_a_final_turn_take_also_ends_the_round() -> None:
    state = make_state([["panda-1"], ["fox-1", "tiger-1"]], crates=[1, 2], current=1, dropped=[0], final_turn=True)
    state, (taken, ended) = play(state, 1, {"type": "take", "group": 1})
    assert ended.type == "RoundEnded" and state.dropped == {0, 1}


def test_the_round_ends_when_no_player_left_can_act() -> None:
    state = make_state([["panda-1"], ["tiger-2"]], crates=[1, 0])
    state, (taken, ended) = play(state, 0, {"type": "take", "group": 0})
    assert taken.data["next"] is None
    assert ended.data["reason"] == "no player left in the round can act" and ended.data["game_over"] is False
    assert state.phase == BETWEEN


def test_the_game_ends_after_a_round_in_which_someone_owns_ten_tiles() -> None:
    ark = [f"panda-{v}" for v in range(1, 6)] + [f"tiger-{v}" for v in range(1, 5)]
    state = make_state([["lion-1"], ["fox-2", "fox-3"]], arks=[ark, ["zebra-4"]], crates=[1, 2])
    state, (taken,) = play(state, 0, {"type": "take", "group": 0})
    assert taken.data["final_turn"] is True
    state, (_, ended) = play(state, 1, {"type": "take", "group": 0})
    assert ended.data["game_over"] is True and ended.data["tile_counts"] == [10, 3]
    state, (departed,) = step(state)
    assert departed.type == "ArksDeparted" and state.phase == OVER
    result = RULES.result(state)
    assert result is not None and result.places == (1, 2)
    assert result.detail["scores"] == [5 * 5 + 5 * 4 + 1 + 0, 4 + 0]


# --- departure and scoring --------------------------------------------------------


def test_ninas_departure() -> None:
    tiles = [
        "elephant-1", "elephant-4",
        "crocodile-4", "tiger-2",
        "giraffe-1", "giraffe-3", "giraffe-5",
        "panda-1", "panda-2", "panda-3", "panda-5",
    ]  # fmt: skip
    departure = depart(tiles, crates=2)
    assert departure.discarded_pairs == ("elephant-1", "elephant-4")
    assert departure.trimmed == ()
    assert departure.single_points == 4 + 2
    assert departure.herd_points == 3 * 5 + 4 * 5
    assert departure.crate_points == 2
    assert departure.total == 43 and departure.species == 4


def test_trimming_to_ten_never_leaves_exactly_two_of_a_species() -> None:
    tiles = [f"{s}-{v}" for s in ("panda", "tiger", "giraffe") for v in (1, 2, 3)] + ["lion-3", "lion-4", "lion-5"]
    departure = depart(tiles, crates=0)
    assert len(departure.ark) == 10
    assert sorted(departure.trimmed) == ["lion-3", "lion-4"]
    assert departure.total == 3 * 15 + 5 and departure.species == 4


def test_trimming_prefers_more_species_when_points_tie() -> None:
    tiles = [f"panda-{v}" for v in range(1, 6)] + [f"tiger-{v}" for v in range(1, 6)] + ["giraffe-5"]
    departure = depart(tiles, crates=0)
    assert departure.total == 50 and departure.species == 3 and "giraffe-5" in departure.ark
    assert len(departure.ark) == 10


def test_more_species_breaks_a_tie_and_a_full_tie_is_shared() -> None:
    from domain.games.animals_on_board.steps import _places

    a = depart(["panda-5", "tiger-1"], 0)  # 6 points, 2 species
    b = depart(["lion-3", "fox-3"], 0)  # 6 points, 2 species
    c = depart(["zebra-4", "hippo-1", "rhino-1"], 0)  # 6 points, 3 species
    assert _places([a, b, c]) == [2, 2, 1]
    assert _places([a, b]) == [1, 1]
