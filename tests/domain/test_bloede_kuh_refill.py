"""Blöde Kuh, rules version 2: the draw pile is refilled as soon as it becomes empty (RULES.md §3, issue 13).

The refill takes the whole discard pile, right after the take or draw that
emptied the draw pile, in the same batch: nobody ever acts while the draw pile
is empty and the discard pile is not.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from domain.errors import OptionsError
from domain.game import Game, decide, evolve
from domain.games.bloede_kuh import RULES
from domain.games.bloede_kuh.state import State
from tests.support.bloede_kuh import cards_in_play, hand, play, position, types
from tests.support.tables import new_table, play_randomly


def test_new_games_are_played_under_rules_version_2_and_record_it() -> None:
    table = new_table("bloede-kuh", 3)
    created, dealt = table.log[0], next(e for e in table.log if e.type == "CardsDealt")
    assert RULES.rules_version == "2" and RULES.rules_versions == ("1", "2")
    assert created.data["rules_version"] == "2" and dealt.data["rules_version"] == "2"
    assert table.game.rules_version == "2" and table.game.rules_state.rules_version == "2"


def test_a_game_cannot_be_created_under_a_rules_version_that_does_not_exist() -> None:
    command = {"kind": "create", "id": "g", "game": "bloede-kuh", "seats": [{}, {}, {}], "rules_version": "9"}
    with pytest.raises(OptionsError, match="no rules version '9'"):
        decide(Game(), {**command, "seed_commitment": "x"}, "seed")


def test_a_pass_that_draws_the_last_card_refills_the_draw_pile_at_once() -> None:
    state = position("cow", "pig", "horse", draw="sheep", discard="pig horse")
    events, after = play(state, 0, {"type": "pass", "from": "draw"}, seed="at-once")
    assert types(events) == ["Passed", "CardTaken", "DrawPileRefilled", "TurnEnded"]
    assert Counter(events[2].data["draw"]) == Counter(["pig", "horse"]), "the whole discard pile"
    assert after.discard == () and len(after.draw) == 2 and cards_in_play(after) == cards_in_play(state)
    # The next player can no longer take the horse they saw on top of the discard pile.
    assert RULES.legal_actions(after, 1)[-1:] == [{"type": "pass", "from": "draw"}]
    assert {"type": "pass", "from": "discard"} not in RULES.legal_actions(after, 1)


def test_a_cow_that_draws_the_last_card_is_shuffled_into_the_new_draw_pile() -> None:
    state = position("cow sheep", "pig", "horse", draw="pig", discard="horse")
    events, after = play(state, 0, {"type": "discard", "card": "cow"}, seed="cow")
    assert types(events) == ["CardDiscarded", "CardTaken", "DrawPileRefilled", "TurnEnded"]
    assert events[1].data == {"seat": 0, "from": "draw", "card": "pig"}
    assert Counter(events[2].data["draw"]) == Counter(["horse", "cow"])
    assert hand(after, 0) == ["pig", "sheep"] and after.discard == ()


def test_a_pig_answer_that_empties_the_draw_pile_refills_it_before_the_next_turn() -> None:
    _, waiting = play(
        position("pig sheep", "cow", "horse", draw="sheep", discard="cow"), 0, {"type": "discard", "card": "pig"}
    )
    events, after = play(waiting, 1, {"type": "take", "from": "draw"})
    assert types(events) == ["CardTaken", "DrawPileRefilled", "TurnEnded"]
    assert Counter(after.draw) == Counter(["cow", "pig"]) and after.discard == ()


def test_with_both_piles_empty_the_next_discard_refills_at_once_so_a_cow_draws_itself_back() -> None:
    state = position("cow sheep", "pig", "horse", draw="", discard="")
    events, after = play(state, 0, {"type": "discard", "card": "cow"})
    assert types(events) == ["CardDiscarded", "DrawPileRefilled", "CardTaken", "TurnEnded"]
    assert events[1].data == {"draw": ["cow"]} and events[2].data["card"] == "cow"
    assert hand(after, 0) == ["cow", "sheep"] and after.draw == () and after.discard == ()


def test_with_both_piles_empty_a_pair_becomes_the_draw_pile() -> None:
    state = position("pig pig sheep", "cow", "horse", draw="", discard="")
    events, after = play(state, 0, {"type": "discard_pair", "cards": ["pig", "pig"]})
    assert types(events) == ["PairDiscarded", "DrawPileRefilled", "TurnEnded"]
    assert after.draw == ("pig", "pig") and after.discard == ()
    assert RULES.legal_actions(after, 1)[-1] == {"type": "pass", "from": "draw"}


def refill_pending(state: State) -> bool:
    """Tell whether the draw pile is empty while the discard pile is not (rules 2 never leaves it so)."""
    return not state.draw and bool(state.discard)


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_in_random_games_no_one_acts_while_the_draw_pile_is_empty_and_the_discard_pile_is_not(seats: int) -> None:
    refilled = False
    # Seeded games until one runs through the draw pile (not every game does), each checked throughout.
    for attempt in range(10):
        rng = random.Random(f"{seats}-{attempt}")
        log, game = play_randomly(new_table("bloede-kuh", seats, seed=f"refill-{seats}-{attempt}"), rng).log, Game()
        for index, event in enumerate(log):
            game = evolve(game, event)
            end_of_batch = index + 1 == len(log) or log[index + 1].command_id != event.command_id
            if end_of_batch and game.rules_state is not None:
                assert not refill_pending(game.rules_state), f"after event {event.seq}"
        refilled = any(event.type == "DrawPileRefilled" for event in log)
        if refilled:
            break
    assert refilled, "one of these seeded games runs through the draw pile"
