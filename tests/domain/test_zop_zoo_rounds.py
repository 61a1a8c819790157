"""Rounds: the deal, the round win and its scoring, the next round, the end of the game."""

from __future__ import annotations

from dataclasses import replace

import pytest

from domain.chance import Chance
from domain.games.zop_zoo import steps
from domain.games.zop_zoo.cards import bundled, parse
from domain.games.zop_zoo.state import RoundResult
from projections.zop_zoo import seat_view
from tests.support.tables import new_table
from tests.support.zop_zoo import RULES, StackedChance, act, fresh, table, types

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
