"""Blöde Kuh views: own hand, counts of the others, public piles, awaited choices."""

from __future__ import annotations

from domain.games.bloede_kuh.state import NwiCard
from projections.bloede_kuh import open_view, redact, seat_view
from projections.game import game_view
from tests.support.bloede_kuh import play, position
from tests.support.tables import new_table

# --- Blöde Kuh views: own hand, counts of the others, public piles, awaited choices.


def test_a_seat_sees_its_hand_the_counts_and_the_public_piles() -> None:
    state = position(
        "pig pig cow", "sheep", "horse horse", draw="cow sheep", discard="pig horse", nwi=(NwiCard("cow", 1, 2),)
    )
    view = seat_view(state, 0)
    assert view["hand"] == {"sheep": 0, "pig": 2, "horse": 0, "cow": 1}
    assert view["hand_counts"] == [3, 1, 2]
    assert (view["draw_size"], view["discard_top"], view["discard_size"]) == (2, "horse", 2)
    assert view["nwi"] == [[], [], [{"species": "cow", "round": 1, "value": 4}]]
    assert view["nwi_holders"] == {"sheep": None, "pig": None, "horse": None, "cow": 2}
    assert view["minus"] == [0, 0, 0] and view["totals"] == [0, 0, 4]
    assert (view["round"], view["dealer"], view["turn"], view["pending"]) == (1, 2, 0, None)
    assert seat_view(state, None)["hand"] is None


def test_a_pig_choice_is_shown_as_awaited_from_the_left_neighbour() -> None:
    _, state = play(position("pig cow", "sheep", "horse", draw="cow"), 0, {"type": "discard", "card": "pig"})
    assert seat_view(state, 2)["pending"] == {"choice": "pig", "waiting": [1]}


def test_the_open_view_shows_everything() -> None:
    _, state = play(position("horse pig", "cow", "sheep", draw="cow sheep"), 0, {"type": "discard", "card": "horse"})
    _, state = play(state, 1, {"type": "pass_card", "card": "cow"})
    view = open_view(state)
    assert view["hands"][1] == {"sheep": 0, "pig": 0, "horse": 0, "cow": 1}
    assert view["draw"] == ["cow", "sheep"] and view["discard"] == ["horse"]
    assert view["pending"]["choices"] == [None, "cow", None]


def test_the_deal_shows_each_seat_its_own_hand_only() -> None:
    table = new_table("bloede-kuh", 4, seed="deal")
    dealt = next(event for event in table.log if event.type == "CardsDealt").event
    own = redact(dealt, 2)
    assert own["hand"] == dealt.data["hands"][2] and own["hand_counts"] == [9, 9, 9, 9] and own["draw_size"] == 36
    assert "hands" not in own and "draw" not in own
    assert redact(dealt, None)["hand"] is None
    view = game_view(table.game, 2)
    assert view["state"]["round"] == 1 and view["to_act"] == [view["state"]["turn"]]
