"""The positions inside a game's first batch render: just after GameStarted, and Zop Zoo just set up.

A past view (`GET /games/{id}?at=N`) is the replay of the first N events, so
positions that no live view ever shows must render too; tests/test_every_game.py
renders every position of random games of every game.
"""

from __future__ import annotations

import pytest

from domain.game import replay
from domain.games import RULES
from projections.game import game_view
from tests.support.tables import new_table


@pytest.mark.parametrize("game_id", sorted(RULES))
def test_just_after_game_started_no_one_acts_and_every_viewer_sees_an_empty_table(game_id: str) -> None:
    table = new_table(game_id, RULES[game_id].min_seats)
    started = next(event.seq for event in table.log if event.type == "GameStarted")
    past = replay(table.log[:started])
    assert past.rules_state is None
    assert past.to_act == frozenset() and not past.system_due and past.legal_actions(0) == []
    for seat in [0, None]:
        assert game_view(past, seat)["state"] is None
    assert game_view(past, None, open_view=True)["legal_actions"] == []


def test_zop_zoo_just_set_up_shows_every_seat_with_an_empty_row() -> None:
    table = new_table("zop-zoo", 3)
    set_up = next(event.seq for event in table.log if event.type == "ZooSetUp")
    past = replay(table.log[:set_up])
    assert past.to_act == frozenset() and not past.system_due
    players = game_view(past, 1)["state"]["players"]
    assert [player["row"] for player in players] == [[], [], []]
    assert players[0]["round_points"] == {"as_winner": 0, "as_other": 0}
