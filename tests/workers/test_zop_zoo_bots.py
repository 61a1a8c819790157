"""The heuristic bot's choices, read from its seat's view."""

from __future__ import annotations

import random

from domain.game import ACTIVE, Game, Seat
from domain.games.zop_zoo.state import State as ZooState
from projections.game import game_view
from tests.support.zop_zoo import table
from workers.bots.zop_zoo import heuristic


def choose(state: ZooState) -> dict:
    """Return the heuristic's action for the player to act, given only that seat's view."""
    game = Game(
        id="g", type="zop-zoo", status=ACTIVE, rules_state=state, seats=tuple(Seat(f"p{i}") for i in range(state.seats))
    )
    view = game_view(game, state.turn)
    return heuristic(view, view["legal_actions"], random.Random(0))


def test_it_covers_its_cheapest_card_still_keeping_it_from_winning_with_a_wild() -> None:
    state = table([["w:lion/b:lion", "w:skunk", "w:dragon", "w:eagle", "w:giraffe"], ["w:zebra"]], drawn="b:best-beast")
    assert choose(state) == {"type": "place_wild", "card": "w:eagle"}


def test_it_raccoons_the_most_valuable_card() -> None:
    state = table(
        [["w:eagle"], ["w:giraffe/b:giraffe", "w:skunk", "w:octopus"], ["w:lion/b:lion", "w:bee"]],
        bonuses=[[], [], ["b:bonus-mythical"]],
        drawn="b:raccoon",
    )
    assert choose(state) == {"type": "take_card", "card": "w:giraffe", "from": 1}


def test_it_gives_its_least_valuable_card_to_the_leader_with_a_hyena() -> None:
    state = table(
        [["w:lion/b:lion", "w:skunk", "w:eagle"], ["w:zebra"], ["w:octopus"]], drawn="b:hyena", totals=[0, 100, 300]
    )
    assert choose(state) == {"type": "give", "card": "w:skunk", "to": 2}


def test_it_switches_its_worst_card_for_the_best_one_with_an_earthworm() -> None:
    state = table(
        [["w:lion/b:lion", "w:skunk", "w:eagle"], ["w:dragon/b:dragon", "w:rat", "w:zebra"]], drawn="b:earthworm"
    )
    assert choose(state) == {"type": "swap", "card": "w:skunk", "with": 1, "for": "w:dragon"}


def test_it_digs_when_the_discard_pile_holds_its_matches() -> None:
    state = table([["w:lion", "w:eagle"], ["w:zebra"]], discard=["b:eagle", "b:dragon"], drawn="b:mole-1")
    assert choose(state) == {"type": "use_mole"}
    state = table([["w:lion", "w:eagle"], ["w:zebra"]], discard=["b:eagle", "b:mole-2"])
    assert choose(state) == {"type": "use_mole"}


def test_it_passes_a_mole_when_the_discard_pile_holds_nothing_for_it() -> None:
    state = table([["w:lion", "w:eagle"], ["w:zebra"]], discard=["b:zebra", "b:dragon"], drawn="b:mole-1")
    assert choose(state) == {"type": "decline_mole"}
    state = table([["w:lion", "w:eagle"], ["w:zebra"]], discard=["b:zebra", "b:mole-2"])
    assert choose(state) == {"type": "draw"}
