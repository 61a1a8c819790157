"""The Life is Life heuristic bot: it takes a sudden death, knocks when ahead, and beats random play."""

from __future__ import annotations

import random

from domain.games.life_is_life import RULES
from projections.life_is_life import seat_view
from tests.support.life_is_life import KNOCK, arranged, trade
from workers.bots.life_is_life import heuristic


def choose(state: object, seat: int) -> dict[str, object]:
    """Ask the heuristic for the seat's move from its own view."""
    legal = RULES.legal_actions(state, seat)
    return heuristic({"state": seat_view(state, seat), "you": seat}, legal, random.Random(0))


def test_the_heuristic_takes_a_sudden_death_when_a_row_completes_it() -> None:
    state = arranged([["pig"] * 4 + ["mouse"], [], []], rows=[["dog"], ["pig", "sheep"], ["sheep"] * 3, ["goat"] * 4])
    action = choose(state, 0)
    assert action["row"] == 2 and "pig" not in action["cards"]


STRONG = ["giraffe"] * 4 + ["bear"] * 3 + ["mole"] * 3
WEAK_ROWS = [["mouse"], ["cat", "cat"], ["mouse", "pig", "rabbit"], ["cat", "dog", "dog", "pig"]]


def test_the_heuristic_knocks_when_its_hand_is_clearly_ahead() -> None:
    state = arranged([STRONG, [], []], rows=WEAK_ROWS, traded=[0])
    assert choose(state, 0) == KNOCK


def test_the_heuristic_trades_towards_a_majority() -> None:
    hand = ["giraffe"] * 3 + ["mouse", "cat", "dog", "sheep", "goat", "mole", "pig"]
    rows = [["giraffe"], ["rabbit", "rabbit"], ["sheep"] * 3, ["goat"] * 4]
    state = arranged([hand, [], []], rows=rows)
    action = choose(state, 0)
    assert action["type"] == "trade" and action != trade(1, "giraffe")
