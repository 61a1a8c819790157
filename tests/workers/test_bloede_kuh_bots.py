"""Blöde Kuh bots: they play from their seat's view only, and finish games."""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain.games.bloede_kuh import RULES
from domain.games.bloede_kuh.state import NwiCard, State
from projections.bloede_kuh import seat_view
from tests.support.bloede_kuh import play, position
from tests.support.tables import new_table, play_bots
from workers.bots.bloede_kuh import heuristic


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
@pytest.mark.parametrize("kinds", ["heuristic", "random", "mixed"])
def test_bots_finish_games(seats: int, kinds: str) -> None:
    names = {"heuristic": ["heuristic"] * seats, "random": ["random"] * seats}.get(kinds, ["heuristic", "random"] * 3)
    table = play_bots(new_table("bloede-kuh", seats, seed=f"bots-{kinds}-{seats}"), names[:seats])
    assert table.game.result is not None and table.replayed() == table.game


def test_the_heuristic_beats_random_play_more_often_than_not() -> None:
    wins = 0
    for game in range(12):
        table = play_bots(
            new_table("bloede-kuh", 4, seed=f"duel-{game}"), ["heuristic", "random", "heuristic", "random"]
        )
        places = table.game.result["places"]
        wins += min(places[0], places[2]) < min(places[1], places[3])
    assert wins >= 8


def decide(state: State, seat: int) -> dict[str, Any]:
    """Ask the heuristic for its action in a position (it reads only `you` and `state` of a view)."""
    view = {"you": seat, "state": seat_view(state, seat)}
    return heuristic(view, RULES.legal_actions(state, seat), random.Random(0))


def test_the_heuristic_ends_the_round_when_it_can() -> None:
    assert decide(position("sheep", "pig", "cow"), 0) == {"type": "discard", "card": "sheep"}
    assert decide(position("cow cow", "pig", "cow"), 0) == {"type": "discard_pair", "cards": ["cow", "cow"]}


def test_the_heuristic_keeps_pairs_and_sheds_a_single_card() -> None:
    assert decide(position("pig pig sheep horse horse", "pig", "cow"), 0) in (
        {"type": "discard_pair", "cards": ["pig", "pig"]},
        {"type": "discard_pair", "cards": ["horse", "horse"]},
    )
    assert decide(position("sheep sheep horse", "pig", "cow", turn=0), 0)["type"] == "discard_pair"


def test_the_heuristic_passes_its_nwi_card_on_with_a_pair() -> None:
    state = position("sheep sheep cow cow horse", "pig", "cow", nwi=(NwiCard("sheep", 1, 0),))
    assert decide(state, 0) == {"type": "discard_pair", "cards": ["sheep", "sheep"]}


def test_the_heuristic_avoids_a_pair_that_brings_an_nwi_card_to_itself() -> None:
    state = position("cow cow sheep", "pig", "cow", nwi=(NwiCard("cow", 1, 2),))
    assert decide(state, 0) == {"type": "discard", "card": "sheep"}


def test_the_heuristic_passes_its_worst_card_on_a_horse() -> None:
    _, state = play(position("horse pig pig cow sheep", "sheep", "horse"), 0, {"type": "discard", "card": "horse"})
    assert decide(state, 0) == {"type": "pass_card", "card": "cow"}
