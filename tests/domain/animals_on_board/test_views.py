"""Animals on Board views: what each viewer is shown."""

from __future__ import annotations

from domain.games.animals_on_board.state import BETWEEN, OVER
from projections import animals_on_board as projection
from tests.support.animals_on_board import make_state, step

# --- Animals on Board: the rulebook's examples and RULES.md §2's rulings, as events and state.


def test_the_views_show_the_final_scoring_breakdown() -> None:
    state = make_state([["lion-1"]], arks=[["panda-1", "panda-2", "panda-3"], ["fox-5"]], phase=BETWEEN, game_over=True)
    state, _ = step(state)
    view = projection.seat_view(state, None)
    assert view["phase"] == OVER
    assert view["departure"][0]["herd_points"] == 15 and view["departure"][1]["single_points"] == 5
