"""Zop Zoo: turns, the specialty cards, rounds and scoring, and the deck as data, as the rulebook tells them."""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import replace

import pytest

from domain.chance import Chance
from domain.errors import OptionsError
from domain.games.zop_zoo import steps
from domain.games.zop_zoo.board import worth
from domain.games.zop_zoo.cards import CardSetError, bundled, parse
from domain.games.zop_zoo.state import RULES_VERSIONS, RoundResult
from domain.rules import normalise_options
from projections.zop_zoo import seat_view
from tests.support.tables import new_table
from tests.support.zop_zoo import RULES, StackedChance, act, fresh, row, table, types

# --- A Zop Zoo turn: drawing, matching, discarding, the forced take, wild and side bonus cards.

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


# --- MOLE, HYENA, RACCOON and EARTHWORM, each met from the draw pile and on the discard pile; the refill.

USE_MOLE = {"type": "use_mole"}
# --- MOLE -----------------------------------------------------------------------------


def test_a_drawn_mole_digs_every_match_and_fitting_side_bonus_then_the_player_draws_again() -> None:
    state = table(
        [["w:whale", "w:eagle", "w:tarantula"], ["w:zebra"]],
        discard=["b:bonus-ocean", "b:eagle", "b:hyena", "b:beast-1", "b:whale", "b:zebra"],
        deck=["b:mole-1", "b:dragon"],
    )
    events, waiting = act(state, DRAW)
    assert types(events) == ["CardDrawn"]
    assert RULES.legal_actions(waiting, 0) == [USE_MOLE, {"type": "decline_mole"}]
    assert [find["card"] for find in seat_view(waiting, 0)["pending"]["dig_finds"]] == [
        "b:bonus-ocean",
        "b:eagle",
        "b:whale",
    ]
    events, after = act(waiting, USE_MOLE)
    assert types(events) == ["DiscardPileDug"]
    # The whale's upper half connects, so the OCEAN side bonus fits in the same dig.
    assert events[0].data["taken"] == [
        {"card": "b:bonus-ocean", "onto": None},
        {"card": "b:eagle", "onto": "w:eagle"},
        {"card": "b:whale", "onto": "w:whale"},
    ]
    assert row(after, 0) == ["w:whale/b:whale", "w:eagle/b:eagle", "w:tarantula"]
    assert after.bonuses[0] == ("b:bonus-ocean",)
    # Specialty and wild cards cannot be dug for; the pile keeps its order with the MOLE on top.
    assert after.discard == ("b:hyena", "b:beast-1", "b:zebra", "b:mole-1")
    assert after.turn == 0 and RULES.legal_actions(after, 0) == [DRAW]


def test_a_drawn_mole_that_finds_nothing_is_discarded_and_the_turn_ends() -> None:
    state = table([["w:lion", "w:eagle"], ["w:zebra"]], discard=["b:dragon"], deck=["b:mole-2"])
    _, waiting = act(state, DRAW)
    events, after = act(waiting, USE_MOLE)
    assert types(events) == ["DiscardPileDug", "TurnEnded"]
    assert events[0].data["taken"] == []
    assert after.discard == ("b:dragon", "b:mole-2") and after.turn == 1


def test_a_drawn_mole_may_be_declined_which_discards_it_and_ends_the_turn() -> None:
    state = table([["w:lion", "w:eagle"], ["w:zebra"]], discard=["b:lion", "b:dragon"], deck=["b:mole-2"])
    _, waiting = act(state, DRAW)
    events, after = act(waiting, {"type": "decline_mole"})
    assert types(events) == ["CardDiscarded", "TurnEnded"]
    assert after.discard == ("b:lion", "b:dragon", "b:mole-2") and row(after, 0) == ["w:lion", "w:eagle"]


def test_a_mole_on_the_discard_pile_digs_under_itself_ends_the_turn_and_stays_for_the_next_player() -> None:
    state = table(
        [["w:lion", "w:eagle"], ["w:zebra", "w:octopus"]],
        discard=["b:zebra", "b:lion", "b:mole-3"],
        deck=["b:dragon"],
    )
    assert RULES.legal_actions(state, 0) == [USE_MOLE, DRAW]
    events, after = act(state, USE_MOLE)
    assert types(events) == ["DiscardPileDug", "TurnEnded"]
    assert events[0].data["source"] == "discard"
    assert row(after, 0) == ["w:lion/b:lion", "w:eagle"]
    assert after.discard == ("b:zebra", "b:mole-3")
    # The next player re-uses the same MOLE.
    assert RULES.legal_actions(after, 1) == [USE_MOLE, DRAW]
    _, later = act(after, USE_MOLE)
    assert row(later, 1) == ["w:zebra/b:zebra", "w:octopus"] and later.discard == ("b:mole-3",)


def test_a_mole_on_the_discard_pile_is_passed_by_drawing() -> None:
    state = table([["w:lion", "w:eagle"], ["w:zebra"]], discard=["b:lion", "b:mole-3"], deck=["b:eagle"])
    events, after = act(state, DRAW)
    assert types(events) == ["CardDrawn", "CardMatched"]
    assert after.discard == ("b:lion", "b:mole-3")


# --- HYENA, RACCOON, EARTHWORM -----------------------------------------------------------


def test_a_drawn_hyena_gives_a_card_worth_points_with_its_cover_and_the_player_draws_again() -> None:
    state = table([["w:lion/b:lion", "w:eagle"], ["w:zebra"]], deck=["b:hyena", "b:octopus"])
    _, waiting = act(state, DRAW)
    assert RULES.legal_actions(waiting, 0) == [{"type": "give", "card": "w:lion", "to": 1}]
    events, after = act(waiting, {"type": "give", "card": "w:lion", "to": 1})
    assert types(events) == ["SpecialtyUsed"]
    assert events[0].data["moves"] == [{"card": "w:lion", "from": 0, "to": 1}]
    assert row(after, 0) == ["w:eagle"] and row(after, 1) == ["w:zebra", "w:lion/b:lion"]
    assert after.top == "b:hyena" and "b:hyena" in after.spent
    assert after.turn == 0 and RULES.legal_actions(after, 0) == [DRAW]


def test_a_specialty_that_cannot_be_used_is_discarded_and_the_next_player_must_use_it() -> None:
    state = table([["w:lion", "w:eagle"], ["w:zebra/b:zebra", "w:octopus"]], deck=["b:hyena", "b:dragon"])
    events, after = act(state, DRAW)
    assert types(events) == ["CardDrawn", "CardDiscarded", "TurnEnded"]
    assert "b:hyena" not in after.spent
    assert RULES.legal_actions(after, 1) == [{"type": "give", "card": "w:zebra", "to": 0}]
    events, after = act(after, {"type": "give", "card": "w:zebra", "to": 0})
    # Used from the discard pile: the turn ends and the HYENA stays on top, spent.
    assert types(events) == ["SpecialtyUsed", "TurnEnded"]
    assert after.discard == ("b:hyena",) and "b:hyena" in after.spent
    assert row(after, 0) == ["w:lion", "w:eagle", "w:zebra/b:zebra"]
    assert RULES.legal_actions(after, 0) == [DRAW]


def test_an_unusable_specialty_on_the_discard_pile_leaves_the_player_to_draw() -> None:
    state = table([["w:lion", "w:eagle"], ["w:zebra"]], discard=["b:raccoon"], deck=["b:dragon"])
    assert RULES.legal_actions(state, 0) == [DRAW]


def test_a_raccoon_takes_any_card_worth_points_minus_cards_and_side_bonuses_included() -> None:
    state = table(
        [["w:lion", "w:eagle"], ["w:zebra/b:zebra", "w:skunk", "w:octopus"], ["w:dragon"]],
        bonuses=[[], ["b:bonus-mammal"], []],
        deck=["b:raccoon"],
    )
    _, waiting = act(state, DRAW)
    assert RULES.legal_actions(waiting, 0) == [
        {"type": "take_card", "card": "w:zebra", "from": 1},
        {"type": "take_card", "card": "w:skunk", "from": 1},
        {"type": "take_card", "card": "b:bonus-mammal", "from": 1},
    ]
    _, after = act(waiting, {"type": "take_card", "card": "b:bonus-mammal", "from": 1})
    assert after.bonuses[0] == ("b:bonus-mammal",) and after.bonuses[1] == ()


def test_a_raccoon_on_the_discard_pile_must_be_used_and_ends_the_turn() -> None:
    state = table([["w:lion", "w:eagle"], ["w:zebra/b:zebra", "w:octopus"]], discard=["b:raccoon"], deck=["b:lion"])
    assert RULES.legal_actions(state, 0) == [{"type": "take_card", "card": "w:zebra", "from": 1}]
    events, after = act(state, {"type": "take_card", "card": "w:zebra", "from": 1})
    assert types(events) == ["SpecialtyUsed", "TurnEnded"]
    assert row(after, 0) == ["w:lion", "w:eagle", "w:zebra/b:zebra"] and row(after, 1) == ["w:octopus"]
    assert after.deck == ("b:lion",)


def test_an_earthworm_switches_two_cards_worth_points_with_their_covers() -> None:
    state = table(
        [["w:lion/b:lion", "w:eagle"], ["w:giraffe/b:giraffe", "w:skunk", "w:octopus"]],
        deck=["b:earthworm"],
    )
    _, waiting = act(state, DRAW)
    assert RULES.legal_actions(waiting, 0) == [
        {"type": "swap", "card": "w:lion", "with": 1, "for": "w:giraffe"},
        {"type": "swap", "card": "w:lion", "with": 1, "for": "w:skunk"},
    ]
    events, after = act(waiting, {"type": "swap", "card": "w:lion", "with": 1, "for": "w:giraffe"})
    assert events[0].data["moves"] == [
        {"card": "w:lion", "from": 0, "to": 1},
        {"card": "w:giraffe", "from": 1, "to": 0},
    ]
    assert row(after, 0) == ["w:eagle", "w:giraffe/b:giraffe"]
    assert row(after, 1) == ["w:skunk", "w:octopus", "w:lion/b:lion"]


def test_an_earthworm_on_the_discard_pile_must_be_used() -> None:
    state = table(
        [["w:lion/b:lion", "w:eagle"], ["w:zebra/b:zebra", "w:octopus"]], discard=["b:earthworm"], deck=["b:eagle"]
    )
    events, after = act(state, {"type": "swap", "card": "w:lion", "with": 1, "for": "w:zebra"})
    assert types(events) == ["SpecialtyUsed", "TurnEnded"]
    assert row(after, 0) == ["w:eagle", "w:zebra/b:zebra"]


def test_a_spent_specialty_drawn_again_is_discarded_and_the_turn_ends() -> None:
    state = table([["w:lion/b:lion", "w:eagle"], ["w:zebra"]], deck=["b:hyena"], spent=["b:hyena"])
    events, after = act(state, DRAW)
    assert types(events) == ["CardDrawn", "CardDiscarded", "TurnEnded"]
    assert RULES.legal_actions(after, 1) == [DRAW]


# --- the refill -----------------------------------------------------------------------


def test_an_empty_black_deck_is_refilled_from_the_discard_pile_except_its_top_card() -> None:
    state = table([["w:lion", "w:eagle"], ["w:zebra"]], discard=["b:zebra", "b:dragon", "b:lion", "b:octopus"])
    events, after = act(state, DRAW, Chance("refill", 7))
    assert types(events)[:2] == ["BlackDeckRefilled", "CardDrawn"]
    refilled = events[0].data["deck"]
    assert Counter(refilled) == Counter(["b:zebra", "b:dragon", "b:lion"])
    assert refilled == Chance("refill", 7).shuffle(["b:zebra", "b:dragon", "b:lion"])
    assert events[1].data["card"] == refilled[0]
    assert after.discard[0] == "b:octopus"


# --- Rounds: the deal, the round win and its scoring, the next round, the end of the game.

CARDS = parse(bundled())
MINUS = [card for card in CARDS.white if CARDS[card].kind == "minus"]
OTHERS = [card for card in CARDS.white if CARDS[card].kind != "minus"]
OPTIONS = {"target": 800, "card_set": None}


def test_the_first_starter_is_drawn_from_the_seed_and_the_deal_is_recorded() -> None:
    table_ = new_table("zop-zoo", 4, seed="deal")
    setup = [event for event in table_.log if event.type in ("ZooSetUp", "RoundDealt")]
    assert types(setup) == ["ZooSetUp", "RoundDealt"]
    dealt = setup[1].data
    assert dealt["starter"] == Chance("deal", 0).below(4)
    assert [len(cards) for cards in dealt["rows"]] == [6, 6, 6, 6]
    assert len(dealt["set_aside"]) == 52 - 24 and len(dealt["deck"]) == 74
    assert RULES.to_act(table_.game.rules_state) == frozenset({dealt["starter"]})


def test_six_cards_each_are_dealt_one_at_a_time_clockwise_from_the_starter() -> None:
    white = list(reversed(CARDS.white))
    events = RULES.setup(3, OPTIONS, StackedChance(white, CARDS.black))
    dealt = events[1].data
    starter = dealt["starter"]
    for index in range(18):
        seat = (starter + index) % 3
        assert dealt["rows"][seat][index // 3] == white[index]
    assert dealt["set_aside"] == white[18:]
    assert dealt["deck"] == list(CARDS.black)


def won(state, winner: int):  # type: ignore[no-untyped-def]
    return replace(state, phase="round_won", results=(RoundResult(1, winner, (0,) * state.seats),))


def test_the_next_round_is_dealt_by_the_system_and_the_last_winner_is_dealt_first_and_starts() -> None:
    state = won(table([["w:lion"], ["w:zebra"], ["w:eagle"]], discard=["b:lion"]), winner=2)
    assert RULES.system_due(state) and RULES.to_act(state) == frozenset()
    events = RULES.advance(state, StackedChance(CARDS.white, CARDS.black))
    assert types(events) == ["RoundDealt"]
    assert events[0].data["round"] == 2 and events[0].data["starter"] == 2
    after = RULES.evolve(state, events[0])
    assert [stack.base for stack in after.rows[2]][:2] == [CARDS.white[0], CARDS.white[3]]
    assert after.turn == 2 and after.discard == () and len(after.deck) == 74


def test_a_deal_of_only_minus_cards_wins_the_round_at_once() -> None:
    # Seat 1 starts, so it gets the even positions: six minus cards.
    white = [card for pair in zip(MINUS[:6], OTHERS[:6]) for card in pair] + MINUS[6:] + OTHERS[6:]
    state = won(fresh(2), winner=1)
    events = steps.advance(state, StackedChance(white, CARDS.black))
    assert types(events) == ["RoundDealt", "RoundWon"]
    assert events[1].data["winner"] == 1
    assert events[1].data["scores"] == [0, 4 * -75 + 2 * -90]


def test_when_the_deal_completes_two_rows_the_first_dealt_wins() -> None:
    white = MINUS + OTHERS
    events = steps.advance(won(fresh(2), winner=1), StackedChance(white, CARDS.black))
    assert events[1].data["winner"] == 1


def test_the_match_that_makes_every_card_worth_points_wins_the_round() -> None:
    state = table(
        [["w:lion/b:lion", "w:skunk", "w:eagle"], ["w:zebra", "w:cockroach"]],
        deck=["b:eagle", "b:zebra"],
        totals=[100, 50],
    )
    events, after = act(state, {"type": "draw"})
    assert types(events) == ["CardDrawn", "CardMatched", "RoundWon"]
    assert events[2].data == {
        "round": 1,
        "winner": 0,
        "scores": [10 - 100 + 20, -90],
        "totals": [30, -40],
        "game_over": False,
    }
    assert RULES.to_act(after) == frozenset() and RULES.system_due(after)
    assert RULES.legal_actions(after, 0) == [] and RULES.result(after) is None


WINNER_ROW = [
    "w:lion/b:lion",  # category match: its value, 10
    "w:giraffe/b:giraffe",  # connected: 80
    "w:skunk",  # uncovered minus: -100
    "w:cockroach/b:cockroach",  # ANTI-minus: +90
    "w:dragon/b:best-beast",  # BEST BEAST: 50
    "w:eagle/b:beast-1",  # BEAST: 0
]
OTHER_ROW = [
    "w:elephant/b:elephant",  # not a minus card: not scored
    "w:parrot",
    "w:slug",  # -75
    "w:mosquito/b:mosquito",  # +75
    "w:rat/b:best-beast",  # a minus card under a wild is worth the wild: 50
    "w:tick/b:beast-2",  # 0
]


@pytest.mark.parametrize(
    "rules_version, seat, winner, expected",
    [
        ("2", 0, True, 10 + 80 - 100 + 90 + 50 + 0 + 45),
        ("2", 0, False, -100 + 45),  # the covered cockroach scores nothing for a non-winner
        ("2", 1, False, -75 + 60),  # nor do the mosquito, rat and tick, covered
        ("1", 0, True, 10 + 80 - 100 + 90 + 50 + 0 + 45),
        ("1", 0, False, -100 + 90 + 45),  # rules 1: a covered minus card counted what it showed
        ("1", 1, False, -75 + 75 + 50 + 0 + 60),
    ],
)
def test_the_winner_scores_every_card_and_the_others_their_uncovered_minus_cards_and_side_bonuses(
    rules_version: str, seat: int, winner: bool, expected: int
) -> None:
    state = table([WINNER_ROW, OTHER_ROW], bonuses=[["b:bonus-marsupial"], ["b:bonus-mythical"]])
    state = replace(state, rules_version=rules_version)
    assert steps.score(state, seat, winner) == expected
    points = seat_view(state, seat)["players"][seat]["round_points"]
    assert points["as_winner" if winner else "as_other"] == expected


def test_the_game_ends_after_the_round_in_which_someone_reaches_the_target() -> None:
    state = table([["w:dragon/b:dragon", "w:phoenix"], ["w:zebra", "w:bee"]], deck=["b:phoenix"], totals=[700, 790])
    events, after = act(state, {"type": "draw"})
    assert events[-1].data["totals"] == [840, 790] and events[-1].data["game_over"]
    result = RULES.result(after)
    assert result is not None and result.places == (1, 2)
    assert result.detail["totals"] == [840, 790]
    assert not RULES.system_due(after) and RULES.to_act(after) == frozenset()


def test_the_highest_total_wins_not_the_last_rounds_winner() -> None:
    state = table(
        [["w:iguana"], ["w:dragon/b:dragon", "w:zebra"], ["w:bee"]],
        bonuses=[[], ["b:bonus-mythical"], []],
        deck=["b:iguana"],
        totals=[790, 780, 0],
    )
    events, after = act(state, {"type": "draw"})
    assert events[-1].data["winner"] == 0 and events[-1].data["totals"] == [830, 840, 0]
    result = RULES.result(after)
    assert result is not None and result.places == (2, 1, 3)


def test_equal_totals_share_first_place() -> None:
    state = table([["w:iguana"], ["w:zebra"]], deck=["b:iguana"], totals=[760, 800])
    _, after = act(state, {"type": "draw"})
    result = RULES.result(after)
    assert result is not None and result.places == (1, 1)


# --- Zop Zoo, rules version 2: a covered minus card scores nothing for a player who did not win the round.

# Seat 0 wins by drawing the eagle; seat 1 has covered two of its three minus cards.
WINNER = ["w:lion/b:lion", "w:eagle"]  # 10 + 20 once the eagle is covered
OTHER = [
    "w:zebra",  # not yet worth points, and no minus card: nothing
    "w:mosquito/b:mosquito",  # minus card under its ANTI-minus card (shows +75)
    "w:rat/b:best-beast",  # minus card under a wild card (shows +50)
    "w:slug",  # uncovered minus card: -75
]


def test_new_games_are_played_under_rules_version_2_and_record_it() -> None:
    game = new_table("zop-zoo", 2).game
    assert RULES.rules_version == "2" and RULES.rules_versions == RULES_VERSIONS == ("1", "2")
    assert game.rules_version == "2" and game.rules_state.rules_version == "2"


def test_a_non_winner_scores_only_uncovered_minus_cards_and_side_bonuses() -> None:
    state = table([WINNER, OTHER], deck=["b:eagle"], bonuses=[[], ["b:bonus-mythical"]])
    events, after = act(state, {"type": "draw"})
    won = events[-1]
    assert won.type == "RoundWon" and won.data["winner"] == 0
    assert won.data["scores"] == [10 + 20, -75 + 60], "the mosquito and rat score nothing for seat 1"
    assert after.totals == (30, -15)


def test_under_rules_1_a_non_winner_also_scored_covered_minus_cards() -> None:
    state = replace(table([WINNER, OTHER], deck=["b:eagle"], bonuses=[[], ["b:bonus-mythical"]]), rules_version="1")
    events, _ = act(state, {"type": "draw"})
    assert events[-1].data["scores"] == [10 + 20, 75 + 50 - 75 + 60]


def test_the_winner_still_counts_the_positive_value_a_covered_minus_card_shows() -> None:
    state = table([["w:mosquito/b:mosquito", "w:rat/b:best-beast", "w:eagle"], OTHER], deck=["b:eagle"])
    events, _ = act(state, {"type": "draw"})
    assert events[-1].data["winner"] == 0 and events[-1].data["scores"] == [75 + 50 + 20, -75]


@pytest.mark.parametrize(("rules_version", "as_other"), [("2", -75), ("1", 75 + 50 - 75)])
def test_the_view_shows_what_a_seat_would_score_under_its_games_rules(rules_version: str, as_other: int) -> None:
    state = replace(table([WINNER, OTHER], deck=["b:eagle"]), rules_version=rules_version)
    points = seat_view(state, None)["players"][1]["round_points"]
    assert points == {"as_winner": 75 + 50 - 75, "as_other": as_other}


# --- The deck as data: the bundled file's totals, and games created with another card set.

VALUES = {
    "MAMMAL": 10,
    "OCEAN": 15,
    "BIRD": 20,
    "INSECT": 25,
    "SEMI-AQUATIC": 30,
    "HORNS": 35,
    "REPTILE": 40,
    "MARSUPIAL": 45,
    "ARACHNID": 55,
    "MYTHICAL": 60,
}


def kinds(deck: tuple[str, ...]) -> Counter[str]:
    return Counter(CARDS[card].kind for card in deck)


def test_the_bundled_decks_hold_52_white_and_74_black_cards() -> None:
    assert len(CARDS.white) == 52
    assert len(CARDS.black) == 74
    assert len(set(CARDS.white) | set(CARDS.black)) == 126


def test_the_ten_categories_have_the_publishers_values() -> None:
    assert dict(CARDS.categories) == VALUES
    assert CARDS.connect_value == 80


def test_the_white_deck_is_30_category_10_lower_half_and_12_minus_cards() -> None:
    assert kinds(CARDS.white) == Counter(category=30, lower=10, minus=12)
    per_category = Counter(CARDS[card].category for card in CARDS.white if CARDS[card].kind == "category")
    assert per_category == Counter({name: 3 for name in VALUES})


def test_each_category_has_one_connect_pair() -> None:
    uppers = [CARDS[card] for card in CARDS.black if CARDS[card].kind == "upper"]
    assert Counter(card.category for card in uppers) == Counter({name: 1 for name in VALUES})
    assert all(CARDS[CARDS.matches[card.id]].kind == "lower" for card in uppers)


def test_minus_cards_are_four_each_of_75_90_and_100() -> None:
    minus = Counter(CARDS[card].value for card in CARDS.white if CARDS[card].kind == "minus")
    assert minus == Counter({-75: 4, -90: 4, -100: 4})
    anti = {CARDS.matches[card]: CARDS[card].value for card in CARDS.black if CARDS[card].kind == "anti_minus"}
    assert all(value == -CARDS[white].value for white, value in anti.items())


def test_the_black_deck_holds_every_special_card() -> None:
    assert kinds(CARDS.black) == Counter(
        category=30, upper=10, anti_minus=12, wild=5, mole=6, side_bonus=8, hyena=1, raccoon=1, earthworm=1
    )
    wilds = sorted((CARDS[c].name, CARDS[c].value) for c in CARDS.black if CARDS[c].kind == "wild")
    assert wilds == [("BEAST", 0)] * 4 + [("BEST BEAST", 50)]
    bonuses = {CARDS[c].category: CARDS[c].value for c in CARDS.black if CARDS[c].kind == "side_bonus"}
    assert set(bonuses) == set(VALUES) - {"SEMI-AQUATIC", "ARACHNID"}
    assert all(value == VALUES[name] for name, value in bonuses.items())


def test_every_white_card_has_exactly_one_black_match() -> None:
    matched = Counter(CARDS.matches.values())
    assert set(matched) == set(CARDS.white)
    assert set(matched.values()) == {1}
    for black, white in CARDS.matches.items():
        assert CARDS[black].animal == CARDS[white].animal


def small_set() -> dict:
    """A card set of the same form: two categories, enough cards for two players."""
    raw = bundled()
    raw["categories"] = [{"name": "MAMMAL", "value": 12}, {"name": "BIRD", "value": 22}]
    keep = {"MAMMAL", "BIRD"}
    white = [c for c in raw["white"] if c.get("category") in keep or c["kind"] == "minus"]
    white += [c for c in raw["white"] if c["id"] in ("w:giraffe", "w:peacock")]
    animals = {c["animal"] for c in white}
    black = [c for c in raw["black"] if c.get("animal") in animals or c["kind"] in ("wild", "mole", "hyena")]
    black += [c for c in raw["black"] if c["kind"] == "side_bonus" and c["category"] in keep]
    raw["white"], raw["black"] = white, black
    return raw


def test_a_game_may_be_played_with_another_card_set_recorded_in_its_setup_event() -> None:
    custom = small_set()
    table = new_table("zop-zoo", 2, {"card_set": custom, "target": 100})
    setup = next(event for event in table.log if event.type == "ZooSetUp")
    assert setup.data["card_set"] == custom
    state = table.game.rules_state
    assert state.cards.categories == {"MAMMAL": 12, "BIRD": 22}
    assert len(state.cards.white) == len(custom["white"])


def test_the_bundled_card_set_is_recorded_when_none_is_given() -> None:
    table = new_table("zop-zoo", 3)
    setup = next(event for event in table.log if event.type == "ZooSetUp")
    assert setup.data["card_set"] == bundled()
    assert setup.data["target"] == 800


def broken(change) -> dict:  # type: ignore[no-untyped-def]
    raw = copy.deepcopy(bundled())
    change(raw)
    return raw


@pytest.mark.parametrize(
    "card_set, message",
    [
        ([], "a card set is a JSON object"),
        (broken(lambda r: r.pop("categories")), "categories must be a non-empty list"),
        (broken(lambda r: r.update(connect_value="80")), "connect_value must be an integer"),
        (broken(lambda r: r["white"].pop()), "matches no minus white card"),
        (broken(lambda r: r["black"].pop(0)), "without a black match: w:lion"),
        (broken(lambda r: r["white"][0].update(kind="joker")), "has kind 'joker'"),
        (broken(lambda r: r["black"][0].update(category="PLANT")), "needs one of the set's categories"),
        (broken(lambda r: r["black"].append(dict(r["black"][0]))), "appears twice"),
        (broken(lambda r: r["white"][40].update(value="-75")), "needs an integer value"),
        (broken(lambda r: r["black"][1].update(category="OCEAN")), "differ in category"),
    ],
)
def test_a_card_set_of_another_form_is_refused_with_the_reason(card_set: object, message: str) -> None:
    with pytest.raises(CardSetError, match=message):
        RULES.check_options({"target": 800, "card_set": card_set}, 2)


def test_a_card_set_too_small_for_the_seats_is_refused() -> None:
    with pytest.raises(OptionsError, match="6 seats need at least 36 white cards"):
        normalise_options(RULES, {"card_set": small_set()}, 6)


def test_the_target_is_an_option_of_at_least_one_point() -> None:
    assert normalise_options(RULES, {}, 2) == {"target": 800, "card_set": None}
    assert normalise_options(RULES, {"target": 1000}, 2)["target"] == 1000
    with pytest.raises(OptionsError):
        normalise_options(RULES, {"target": 0}, 2)
    with pytest.raises(OptionsError):
        normalise_options(RULES, {"card_set": "bundled"}, 2)
