"""A Zop Zoo turn: drawing, matching, discarding, the forced take, wild and side bonus cards."""

from __future__ import annotations

from domain.games.zop_zoo.board import worth
from tests.support.zop_zoo import RULES, act, row, table, types

DRAW = {"type": "draw"}


def test_a_drawn_category_match_covers_its_starting_card_and_the_player_draws_again() -> None:
    state = table([["w:lion", "w:eagle"], ["w:zebra"]], deck=["b:lion", "b:zebra"])
    events, after = act(state, DRAW)
    assert types(events) == ["CardDrawn", "CardMatched"]
    assert events[0].data == {"seat": 0, "card": "b:lion"}
    assert events[1].data == {"seat": 0, "card": "b:lion", "onto": "w:lion"}
    assert row(after, 0) == ["w:lion/b:lion", "w:eagle"]
    assert after.turn == 0 and RULES.legal_actions(after, 0) == [DRAW]


def test_an_upper_half_connects_its_lower_half_for_80_points_and_gives_it_a_category() -> None:
    state = table([["w:giraffe", "w:eagle"], ["w:zebra"]], deck=["b:giraffe"])
    events, after = act(state, DRAW)
    assert types(events) == ["CardDrawn", "CardMatched"]
    stack = after.rows[0][0]
    assert worth(after.cards, stack) == 80
    assert after.rows[0][0].cover == "b:giraffe"


def test_an_anti_minus_card_turns_its_minus_card_positive() -> None:
    state = table([["w:skunk", "w:eagle"], ["w:zebra"]], deck=["b:skunk"])
    assert worth(state.cards, state.rows[0][0]) == -100
    _, after = act(state, DRAW)
    assert worth(after.cards, after.rows[0][0]) == 100


def test_a_card_that_matches_nothing_of_yours_is_discarded_and_the_turn_passes() -> None:
    state = table([["w:lion", "w:eagle"], ["w:zebra", "w:octopus"]], deck=["b:zebra", "b:lion"])
    events, after = act(state, DRAW)
    assert types(events) == ["CardDrawn", "CardDiscarded", "TurnEnded"]
    assert after.discard == ("b:zebra",) and after.turn == 1
    assert RULES.to_act(after) == frozenset({1})


def test_a_matching_discard_must_be_taken_with_the_matching_cards_under_it_and_ends_the_turn() -> None:
    state = table(
        [["w:lion"], ["w:zebra", "w:eagle", "w:skunk", "w:octopus"]],
        discard=["b:eagle", "b:dragon", "b:skunk", "b:zebra"],
        deck=["b:octopus"],
        turn=1,
    )
    assert RULES.legal_actions(state, 1) == [{"type": "take_discard"}]
    events, after = act(state, {"type": "take_discard"})
    assert types(events) == ["DiscardTaken", "DiscardTaken", "TurnEnded"]
    assert [e.data["card"] for e in events[:2]] == ["b:zebra", "b:skunk"]
    assert row(after, 1) == ["w:zebra/b:zebra", "w:eagle", "w:skunk/b:skunk", "w:octopus"]
    # The chain stops at the dragon, which does not fit; the eagle under it stays.
    assert after.discard == ("b:eagle", "b:dragon")
    assert after.turn == 0 and after.deck == ("b:octopus",)


def test_a_discard_that_does_not_fit_leaves_the_player_to_draw() -> None:
    state = table([["w:lion", "w:eagle"], ["w:zebra"]], discard=["b:zebra"], deck=["b:eagle"])
    assert RULES.legal_actions(state, 0) == [DRAW]


def test_a_side_bonus_drawn_goes_beside_a_row_showing_its_category_and_the_player_draws_again() -> None:
    state = table([["w:lion", "w:eagle"], ["w:zebra"]], deck=["b:bonus-mammal"])
    events, after = act(state, DRAW)
    assert types(events) == ["CardDrawn", "SideBonusTaken"]
    assert after.bonuses[0] == ("b:bonus-mammal",) and after.turn == 0


def test_a_side_bonus_without_its_category_in_the_row_is_discarded() -> None:
    # A lower half shows no category until connected.
    state = table([["w:giraffe", "w:eagle"], ["w:zebra"]], deck=["b:bonus-mammal"])
    events, after = act(state, DRAW)
    assert types(events) == ["CardDrawn", "CardDiscarded", "TurnEnded"]
    assert after.bonuses[0] == ()


def test_a_connected_lower_half_has_its_upper_halfs_category() -> None:
    state = table([["w:giraffe/b:giraffe", "w:eagle"], ["w:zebra"]], deck=["b:bonus-mammal"])
    _, after = act(state, DRAW)
    assert after.bonuses[0] == ("b:bonus-mammal",)


def test_a_card_under_a_wild_keeps_its_category_for_side_bonuses() -> None:
    state = table([["w:lion/b:beast-1", "w:eagle"], ["w:zebra"]], deck=["b:bonus-mammal"])
    _, after = act(state, DRAW)
    assert after.bonuses[0] == ("b:bonus-mammal",)


def test_a_side_bonus_on_the_discard_pile_that_fits_must_be_taken() -> None:
    state = table([["w:lion", "w:eagle"], ["w:zebra"]], discard=["b:bonus-mammal"], deck=["b:eagle"])
    assert RULES.legal_actions(state, 0) == [{"type": "take_discard"}]
    events, after = act(state, {"type": "take_discard"})
    assert events[0].data == {"seat": 0, "card": "b:bonus-mammal", "onto": None}
    assert after.bonuses[0] == ("b:bonus-mammal",) and after.turn == 1


def test_a_drawn_wild_card_waits_for_its_player_to_choose_an_uncovered_starting_card() -> None:
    state = table([["w:lion/b:lion", "w:skunk", "w:giraffe", "w:eagle"], ["w:zebra"]], deck=["b:best-beast"])
    events, waiting = act(state, DRAW)
    assert types(events) == ["CardDrawn"]
    # Minus cards and lower halves may be covered; covered cards may not.
    assert RULES.legal_actions(waiting, 0) == [
        {"type": "place_wild", "card": "w:skunk"},
        {"type": "place_wild", "card": "w:giraffe"},
        {"type": "place_wild", "card": "w:eagle"},
    ]
    events, after = act(waiting, {"type": "place_wild", "card": "w:skunk"})
    assert types(events) == ["WildPlaced"]
    assert worth(after.cards, after.rows[0][1]) == 50
    assert RULES.legal_actions(after, 0) == [DRAW]


def test_a_beast_makes_a_card_worth_zero_points_which_counts_as_points() -> None:
    state = table([["w:lion/b:lion", "w:eagle"], ["w:zebra"]], drawn="b:beast-2")
    events, after = act(state, {"type": "place_wild", "card": "w:eagle"})
    assert worth(after.cards, after.rows[0][1]) == 0
    assert types(events) == ["WildPlaced", "RoundWon"]


def test_a_wild_card_with_no_uncovered_card_to_go_on_is_discarded() -> None:
    # Not reachable in play (a row all covered has won); the rule is kept for other card sets.
    state = table([["w:lion/b:lion"], ["w:zebra"]], deck=["b:beast-1"])
    events, after = act(state, DRAW)
    assert types(events) == ["CardDrawn", "CardDiscarded", "TurnEnded"]


def test_a_wild_card_on_the_discard_pile_is_no_match() -> None:
    state = table([["w:lion", "w:eagle"], ["w:zebra"]], discard=["b:beast-1"], deck=["b:zebra"])
    assert RULES.legal_actions(state, 0) == [DRAW]
