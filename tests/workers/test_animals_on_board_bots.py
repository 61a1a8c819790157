"""Animals on Board bots: they finish games from their seat's view, and the heuristic plays sensibly."""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain.games.animals_on_board import RULES
from domain.games.animals_on_board.state import State
from domain.games.animals_on_board.tiles import HIDDEN, TILE_KEY
from projections import animals_on_board as projection
from projections.game import game_view
from tests.support.animals_on_board import make_state
from tests.support.tables import new_table, play_bots
from workers.bots.animals_on_board import Gains, heuristic, worth

GAME = "animals-on-board"


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_heuristic_and_random_bots_finish_games(seats: int) -> None:
    kinds = ["heuristic" if seat % 2 == 0 else "random" for seat in range(seats)]
    wins = 0
    for game in range(6):
        table = play_bots(new_table(GAME, seats, seed=f"bots-{seats}-{game}"), kinds, max_steps=5000, verbatim=False)
        wins += 1 in [table.game.result["places"][s] for s in range(0, seats, 2)]
    assert wins >= 4  # the heuristic seats win most games against random ones


def _view(state: State, seat: int = 0) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    legal = RULES.legal_actions(state, seat)
    return {"state": projection.seat_view(state, seat), "legal_actions": legal}, legal


def test_heuristic_completes_a_herd_rather_than_make_a_pair_in_the_last_round() -> None:
    ark = ["lion-1", "lion-2", "lion-3", "fox-1", "fox-2", "fox-3", "zebra-1", "elephant-1", "crocodile-1", "giraffe-1"]
    ark0 = ["panda-1", "panda-2", "tiger-3"]
    state = make_state(
        [["tiger-5"], ["panda-4"]], arks=[ark0, ark], crates=[1, 0], final_turn=True, announced=frozenset({1})
    )
    view, legal = _view(state)
    assert heuristic(view, legal, random.Random(0)) == {"type": "take", "group": 1}


def test_heuristic_saves_crates_rather_than_overpay() -> None:
    state = make_state([["zebra-1", "fox-1", "lion-1", "tiger-1"], ["giraffe-1", "elephant-1"]], crates=[4, 1])
    view, legal = _view(state)
    assert heuristic(view, legal, random.Random(0))["type"] == "split"


def test_heuristic_keeps_its_best_tile_at_setup() -> None:
    table = new_table(GAME, 2)
    view = game_view(table.game, 0)
    action = heuristic(view, view["legal_actions"], random.Random(0))
    hand = table.game.rules_state.hands[0]
    assert action == {"type": "keep", "tile": max(hand, key=lambda t: int(t[-1]))}


def test_a_groups_gain_is_the_difference_of_the_two_arks_worths() -> None:
    # Gains tallies the ark once and adds a group's species; it must agree with weighing both arks whole.
    rng = random.Random(7)
    tiles = [*TILE_KEY, HIDDEN]
    for _ in range(2000):
        ark = rng.sample(tiles, rng.randrange(0, 14))
        group = rng.sample([t for t in tiles if t not in ark or t == HIDDEN], rng.randrange(1, 6))
        last_round = rng.random() < 0.5
        gains = Gains(ark, last_round)
        assert gains(group) == worth(ark + group, last_round) - worth(ark, last_round) - len(group)
