"""Blöde Kuh: every rule of RULES.md §3 and the rulebook's examples (the horse, the refill), as small tests."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace
from functools import reduce

import pytest

from domain.chance import Chance
from domain.errors import NotYourTurn, OptionsError, RuleError
from domain.events import Event
from domain.game import Game, decide, evolve
from domain.games.bloede_kuh import RULES
from domain.games.bloede_kuh.cards import DECK_SIZE, hand_of, minus_points
from domain.games.bloede_kuh.state import BETWEEN, OVER, PIG, PLAY, NwiCard, RoundResult, State
from projections.bloede_kuh import redact, seat_view
from tests.support.bloede_kuh import cards_in_play, game_at, hand, play, position, types
from tests.support.tables import new_table, play_randomly

# --- Blöde Kuh: every rule of RULES.md §3 and the rulebook's examples, as small tests.

# --- the deal ----------------------------------------------------------------


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_the_deal_gives_nine_cards_each_and_the_rest_is_the_draw_pile(seats: int) -> None:
    state = new_table("bloede-kuh", seats).game.rules_state
    assert [sum(h) for h in state.hands] == [9] * seats
    assert len(state.draw) == DECK_SIZE - 9 * seats
    assert cards_in_play(state) == 72
    totals = [
        sum(h[i] for h in state.hands) + state.draw.count(s) for i, s in enumerate(("sheep", "pig", "horse", "cow"))
    ]
    assert totals == [18, 18, 18, 18]
    assert state.round == 1 and state.discard == ()
    assert state.turn == (state.dealer + 1) % seats
    assert RULES.to_act(state) == {state.turn}


def test_the_first_dealer_is_drawn_from_the_seed() -> None:
    dealers = {new_table("bloede-kuh", 4, seed=f"seed-{i}").game.rules_state.dealer for i in range(12)}
    assert len(dealers) > 1


@pytest.mark.parametrize("seats", [2, 7])
def test_three_to_six_players(seats: int) -> None:
    with pytest.raises(OptionsError):
        new_table("bloede-kuh", seats)


# --- discarding one card -------------------------------------------------------


def test_a_sheep_has_no_action_and_the_left_neighbour_is_next() -> None:
    events, after = play(position("sheep cow", "pig", "horse", draw="cow"), 0, {"type": "discard", "card": "sheep"})
    assert types(events) == ["CardDiscarded", "TurnEnded"]
    assert after.discard == ("sheep",) and hand(after, 0) == ["cow"]
    assert RULES.to_act(after) == {1}


def test_a_pig_makes_only_the_left_neighbour_choose() -> None:
    events, after = play(
        position("pig cow", "sheep", "horse", draw="cow", turn=0), 0, {"type": "discard", "card": "pig"}
    )
    assert types(events) == ["CardDiscarded", "ChoiceAwaited"]
    assert events[-1].data == {"choice": "pig", "seats": [1]}
    assert RULES.to_act(after) == {1}
    assert RULES.legal_actions(after, 1) == [{"type": "take", "from": "draw"}, {"type": "take", "from": "discard"}]
    assert RULES.legal_actions(after, 0) == []


def test_the_left_neighbour_of_a_pig_takes_the_top_of_the_discard_pile() -> None:
    _, waiting = play(
        position("pig cow", "sheep", "horse", draw="cow", discard="horse"), 0, {"type": "discard", "card": "pig"}
    )
    events, after = play(waiting, 1, {"type": "take", "from": "discard"})
    assert types(events) == ["CardTaken", "TurnEnded"]
    assert events[0].data == {"seat": 1, "from": "discard", "card": "pig"}
    assert hand(after, 1) == ["pig", "sheep"] and after.discard == ("horse",)
    assert RULES.to_act(after) == {1}, "after the pig's take it is the left neighbour's turn"


def test_the_left_neighbour_of_a_pig_may_take_the_top_of_the_draw_pile() -> None:
    _, waiting = play(
        position("sheep", "horse", "pig cow", draw="sheep cow", turn=2), 2, {"type": "discard", "card": "pig"}
    )
    assert RULES.to_act(waiting) == {0}, "seat 0 is the left neighbour of the last seat"
    events, after = play(waiting, 0, {"type": "take", "from": "draw"})
    assert events[0].data == {"seat": 0, "from": "draw", "card": "cow"}
    assert hand(after, 0) == ["cow", "sheep"] and after.draw == ("sheep",)


def test_a_seat_not_asked_cannot_answer_a_pig_through_the_core() -> None:
    _, waiting = play(position("pig cow", "sheep", "horse", draw="cow"), 0, {"type": "discard", "card": "pig"})
    for seat in (0, 2):
        with pytest.raises(NotYourTurn) as raised:
            decide(game_at(waiting), {"kind": "act", "seat": seat, "action": {"type": "take", "from": "draw"}}, "seed")
        assert isinstance(raised.value, RuleError) and "may not act now" in raised.value.message


def test_a_cow_makes_its_player_take_the_top_of_the_draw_pile() -> None:
    events, after = play(position("cow sheep", "pig", "horse", draw="horse pig"), 0, {"type": "discard", "card": "cow"})
    assert types(events) == ["CardDiscarded", "CardTaken", "TurnEnded"]
    assert events[1].data == {"seat": 0, "from": "draw", "card": "pig"}
    assert hand(after, 0) == ["pig", "sheep"] and after.discard == ("cow",) and after.draw == ("horse",)


# --- the draw pile runs out ------------------------------------------------------


def test_under_rules_1_an_empty_draw_pile_is_refilled_by_shuffling_the_discard_pile() -> None:
    state = replace(position("cow sheep", "pig", "horse", draw="", discard="sheep pig horse"), rules_version="1")
    events, after = play(state, 0, {"type": "discard", "card": "cow"}, seed="reshuffle")
    assert types(events) == ["CardDiscarded", "DrawPileRefilled", "CardTaken", "TurnEnded"]
    refill = events[1]
    assert sorted(refill.data["draw"]) == ["cow", "horse", "pig", "sheep"], "the whole discard pile, the cow too"
    assert events[2].data["card"] == refill.data["draw"][-1]
    assert after.discard == () and len(after.draw) == 3 and cards_in_play(after) == cards_in_play(state)
    for viewer in (0, 1, 2, None):
        assert redact(refill, viewer) == {"draw_size": 4}, "the new order is hidden from everyone"
    assert "card" not in redact(events[2], 1)
    assert redact(events[2], 0)["card"] == events[2].data["card"]


def test_the_refill_is_recorded_so_replay_draws_nothing() -> None:
    state = replace(position("cow sheep", "pig", "horse", draw="", discard="sheep pig horse"), rules_version="1")
    events, live = play(state, 0, {"type": "discard", "card": "cow"}, seed="one")
    again = reduce(RULES.evolve, [Event(e.type, json.loads(json.dumps(e.data)), e.actor) for e in events], state)
    assert again == live


def test_a_pass_takes_the_top_of_the_draw_pile_or_the_discard_pile() -> None:
    state = position("cow", "pig", "horse", draw="sheep horse", discard="pig sheep")
    events, after = play(state, 0, {"type": "pass", "from": "draw"})
    assert types(events) == ["Passed", "CardTaken", "TurnEnded"]
    assert hand(after, 0) == ["cow", "horse"]
    events, after = play(state, 0, {"type": "pass", "from": "discard"})
    assert hand(after, 0) == ["cow", "sheep"] and after.discard == ("pig",)


def test_under_rules_1_drawing_from_an_empty_draw_pile_refills_it_first() -> None:
    state = replace(position("cow", "pig", "horse", draw="", discard="pig"), rules_version="1")
    events, after = play(state, 0, {"type": "pass", "from": "draw"})
    assert types(events) == ["Passed", "DrawPileRefilled", "CardTaken", "TurnEnded"]
    assert hand(after, 0) == ["cow", "pig"] and after.draw == () and after.discard == ()


def test_with_no_card_to_take_at_all_the_take_is_skipped() -> None:
    state = position("cow", "pig", "horse", draw="", discard="")
    assert {"type": "pass"} in RULES.legal_actions(state, 0)
    assert not [a for a in RULES.legal_actions(state, 0) if a.get("from")]
    events, after = play(state, 0, {"type": "pass"})
    assert types(events) == ["Passed", "TurnEnded"] and after.hands == state.hands


# --- pairs and the Nobody-wants-it cards -------------------------------------------

MAYA, MAX, LENA, LINUS = 0, 1, 2, 3


def test_rulebook_maya_discards_two_pigs_and_max_gets_the_pig_nwi_card() -> None:
    state = position("pig pig sheep", "cow", "cow", "cow", draw="sheep", turn=MAYA, round_=1)
    events, after = play(state, MAYA, {"type": "discard_pair", "cards": ["pig", "pig"]})
    assert types(events) == ["PairDiscarded", "TurnEnded"]
    assert events[0].data == {"seat": MAYA, "card": "pig", "nwi_from": None, "nwi_to": MAX}
    assert after.nwi == (NwiCard("pig", 1, MAX),) and after.totals() == [0, 2, 0, 0]
    assert after.discard == ("pig", "pig") and hand(after, MAYA) == ["sheep"]


def test_rulebook_linus_discards_two_horses_and_the_horse_nwi_moves_on_from_max() -> None:
    state = position("cow", "cow", "cow", "horse horse sheep", turn=LINUS, round_=2, nwi=(NwiCard("horse", 2, MAX),))
    events, after = play(state, LINUS, {"type": "discard_pair", "cards": ["horse", "horse"]})
    assert events[0].data == {"seat": LINUS, "card": "horse", "nwi_from": MAX, "nwi_to": LENA}
    assert after.nwi == (NwiCard("horse", 2, LENA),), "Whew, it is gone for the moment"
    assert after.totals() == [0, 0, 4, 0]


def test_a_pair_moves_only_this_rounds_nwi_card() -> None:
    old = NwiCard("cow", 1, MAX)
    state = position("cow cow sheep", "pig", "pig", "pig", turn=MAYA, round_=2, nwi=(old,))
    _, after = play(state, MAYA, {"type": "discard_pair", "cards": ["cow", "cow"]})
    assert set(after.nwi) == {old, NwiCard("cow", 2, MAX)}, "round 1's cow stays with Max, round 2's joins it"
    assert after.totals()[MAX] == 4 + 5


def test_the_nwi_card_moves_to_the_holders_left_neighbour_even_when_that_is_the_pairs_player() -> None:
    state = position("pig", "pig pig sheep", "cow", turn=1, nwi=(NwiCard("pig", 1, 0),))
    events, after = play(state, 1, {"type": "discard_pair", "cards": ["pig", "pig"]})
    assert events[0].data["nwi_to"] == 1 and after.nwi == (NwiCard("pig", 1, 1),)


@pytest.mark.parametrize(
    ("species", "values"),
    [("sheep", (1, 2, 3)), ("pig", (2, 3, 4)), ("horse", (3, 4, 5)), ("cow", (4, 5, 6))],
)
def test_nwi_values_per_round(species: str, values: tuple[int, int, int]) -> None:
    assert tuple(NwiCard(species, round_, 0).value for round_ in (1, 2, 3)) == values


# --- the end of a round ------------------------------------------------------------


def test_the_round_ends_as_soon_as_the_turns_player_has_no_cards() -> None:
    state = position("sheep", "pig pig cow", "horse", "cow cow", draw="pig", turn=0, nwi=(NwiCard("pig", 1, 2),))
    events, after = play(state, 0, {"type": "discard", "card": "sheep"})
    assert types(events) == ["CardDiscarded", "RoundScored"]
    assert events[-1].data == {
        "round": 1,
        "ender": 0,
        "cards_left": [0, 3, 1, 2],
        "minus": [0, 4, 0, 2],
        "nwi_removed": ["sheep", "horse", "cow"],
    }
    assert after.phase == BETWEEN and RULES.to_act(after) == frozenset() and RULES.system_due(after)
    assert after.minus == (0, 4, 0, 2) and after.totals() == [0, 4, 2, 2]


def test_a_pig_as_last_card_is_answered_then_the_round_ends() -> None:
    _, waiting = play(position("pig", "sheep", "horse cow", draw="cow cow"), 0, {"type": "discard", "card": "pig"})
    assert waiting.phase == PLAY and waiting.awaiting == PIG and RULES.to_act(waiting) == {1}
    events, after = play(waiting, 1, {"type": "take", "from": "draw"})
    assert types(events) == ["CardTaken", "RoundScored"]
    assert events[-1].data["ender"] == 0 and events[-1].data["cards_left"] == [0, 2, 2]
    assert events[-1].data["minus"] == [0, 2, 2], "two tied for most: each 2"


def test_a_cow_as_last_card_draws_a_card_and_the_round_goes_on() -> None:
    events, after = play(position("cow", "sheep", "horse", draw="sheep pig"), 0, {"type": "discard", "card": "cow"})
    assert types(events) == ["CardDiscarded", "CardTaken", "TurnEnded"] and hand(after, 0) == ["pig"]


def test_a_horse_as_last_card_passes_nothing_and_ends_the_round() -> None:
    events, after = play(
        position("horse", "sheep", "horse cow pig", draw="sheep"), 0, {"type": "discard", "card": "horse"}
    )
    assert types(events) == ["CardDiscarded", "RoundScored"]
    assert after.awaiting is None and after.hands[1:] == (hand_of(["sheep"]), hand_of(["horse", "cow", "pig"]))
    assert events[-1].data["minus"] == [0, 2, 4]


def test_a_pair_as_last_cards_passes_the_nwi_card_and_ends_the_round() -> None:
    events, after = play(
        position("cow cow", "sheep", "horse", draw="sheep"), 0, {"type": "discard_pair", "cards": ["cow", "cow"]}
    )
    assert types(events) == ["PairDiscarded", "RoundScored"]
    assert events[-1].data["nwi_removed"] == ["sheep", "pig", "horse"]
    assert after.totals() == [0, 4 + 2, 2], "the cow NWI (4) and a minus 2 to seat 1"


@pytest.mark.parametrize(
    ("cards_left", "minus"),
    [
        ([0, 5, 3, 1], [0, 4, 2, 0]),  # most 4, second most 2
        ([0, 5, 5, 3], [0, 2, 2, 0]),  # tied for most: each 2, nobody takes second place
        ([0, 5, 5, 5], [0, 2, 2, 2]),
        ([0, 6, 3, 3, 1], [0, 4, 2, 2, 0]),  # tied for second: each 2
        ([0, 2], [0, 4]),
        ([0, 1, 1], [0, 2, 2]),
        ([0, 4, 2, 2, 2, 2], [0, 4, 2, 2, 2, 2]),
    ],
)
def test_minus_points(cards_left: list[int], minus: list[int]) -> None:
    assert minus_points(cards_left) == minus


# --- rounds and the end of the game --------------------------------------------------


def between(
    round_: int, ender: int, seats: int = 4, nwi: tuple[NwiCard, ...] = (), minus: tuple[int, ...] | None = None
) -> State:
    """Build a state just after a round was scored."""
    minus = minus or (0,) * seats
    result = RoundResult(round_, ender, (0,) * seats, minus, ())
    phase = OVER if round_ == 3 else BETWEEN
    return State(
        seats=seats, round=round_, phase=phase, choices=(None,) * seats, nwi=nwi, minus=minus, results=(result,)
    )


def test_the_player_who_ended_the_round_deals_the_next_and_the_left_neighbour_starts() -> None:
    state = between(1, ender=3, nwi=(NwiCard("pig", 1, 2),))
    assert RULES.system_due(state) and RULES.result(state) is None
    (dealt,) = RULES.advance(state, Chance("next", 7))
    assert dealt.type == "CardsDealt" and dealt.actor == "system"
    after = RULES.evolve(state, dealt)
    assert (after.round, after.dealer, after.turn) == (2, 3, 0)
    assert [sum(h) for h in after.hands] == [9] * 4 and cards_in_play(after) == 72
    assert after.nwi == (NwiCard("pig", 1, 2),), "NWI cards in front of players stay"
    assert RULES.to_act(after) == {0} and not RULES.system_due(after)


def test_after_three_rounds_the_lowest_total_wins_and_ties_share() -> None:
    nwi = (NwiCard("cow", 1, 0), NwiCard("sheep", 3, 1), NwiCard("pig", 2, 3))
    state = between(3, ender=2, nwi=nwi, minus=(2, 4, 6, 0))
    assert not RULES.system_due(state) and RULES.to_act(state) == frozenset()
    result = RULES.result(state)
    assert result is not None
    assert result.detail["totals"] == [6, 7, 6, 3]
    assert result.places == (2, 4, 2, 1)
    assert result.to_dict()["winners"] == [3]


def test_a_game_ends_after_three_rounds_through_the_core() -> None:
    table = play_randomly(new_table("bloede-kuh", 3, seed="three"), random.Random(3))
    dealt = [e for e in table.log if e.type == "CardsDealt"]
    scored = [e for e in table.log if e.type == "RoundScored"]
    assert [e.data["round"] for e in dealt] == [1, 2, 3] and [e.data["round"] for e in scored] == [1, 2, 3]
    assert [e.data["dealer"] for e in dealt[1:]] == [e.data["ender"] for e in scored[:2]]
    assert table.log[-1].type == "GameEnded"
    assert table.game.result["detail"]["totals"] == table.game.rules_state.totals()


# --- Blöde Kuh's horse: every seat with cards chooses in secret, then all pass left together.


@pytest.fixture
def horse_pending():
    """Seat 0 has just discarded a horse among four seats."""
    state = position("horse sheep pig", "cow cow", "pig sheep", "horse", draw="cow", discard="sheep")
    events, after = play(state, 0, {"type": "discard", "card": "horse"})
    assert types(events) == ["CardDiscarded", "ChoiceAwaited"]
    assert events[-1].data == {"choice": "horse", "seats": [0, 1, 2, 3]}
    return after


def test_every_seat_with_cards_must_choose(horse_pending) -> None:
    assert RULES.to_act(horse_pending) == {0, 1, 2, 3}
    assert RULES.legal_actions(horse_pending, 1) == [{"type": "pass_card", "card": "cow"}]
    assert RULES.legal_actions(horse_pending, 0) == [
        {"type": "pass_card", "card": "sheep"},
        {"type": "pass_card", "card": "pig"},
    ]


def test_only_seats_with_cards_are_asked() -> None:
    state = position("horse sheep", "", "pig")
    _, after = play(state, 0, {"type": "discard", "card": "horse"})
    assert RULES.to_act(after) == {0, 2}
    _, after = play(after, 2, {"type": "pass_card", "card": "pig"})
    events, after = play(after, 0, {"type": "pass_card", "card": "sheep"})
    assert events[1].data == {"cards": ["sheep", None, "pig"]}
    assert hand(after, 0) == ["pig"] and hand(after, 1) == ["sheep"] and hand(after, 2) == []


def test_choices_in_any_order_then_all_pass_to_the_left_together(horse_pending) -> None:
    state = horse_pending
    for seat, card in [(2, "pig"), (0, "sheep"), (3, "horse")]:
        events, state = play(state, seat, {"type": "pass_card", "card": card})
        assert types(events) == ["HorseCardChosen"]
        assert seat not in RULES.to_act(state), "a seat that has chosen leaves to_act"
        assert state.hands == horse_pending.hands, "nothing moves before all have chosen"
    assert RULES.to_act(state) == {1}
    events, after = play(state, 1, {"type": "pass_card", "card": "cow"})
    assert types(events) == ["HorseCardChosen", "HorseCardsPassed", "TurnEnded"]
    assert events[1].data == {"cards": ["sheep", "cow", "pig", "horse"]}
    assert hand(after, 0) == ["horse", "pig"]  # gave sheep, got seat 3's horse
    assert hand(after, 1) == ["cow", "sheep"]  # gave cow, got seat 0's sheep
    assert hand(after, 2) == ["cow", "sheep"]  # gave pig, got seat 1's cow
    assert hand(after, 3) == ["pig"]  # gave horse, got seat 2's pig
    assert cards_in_play(after) == cards_in_play(horse_pending)
    assert after.awaiting is None and RULES.to_act(after) == {1}


def test_a_choice_is_seen_only_by_its_chooser_until_the_pass(horse_pending) -> None:
    events, state = play(horse_pending, 2, {"type": "pass_card", "card": "pig"})
    chosen = events[0]
    assert redact(chosen, 2) == {"seat": 2, "card": "pig"}
    for viewer in (0, 1, 3, None):
        assert redact(chosen, viewer) == {"seat": 2}
    assert seat_view(state, 2)["pending"] == {
        "choice": "horse",
        "waiting": [0, 1, 3],
        "chosen": [2],
        "your_card": "pig",
    }
    for viewer in (0, 1, 3, None):
        assert seat_view(state, viewer)["pending"] == {"choice": "horse", "waiting": [0, 1, 3], "chosen": [2]}


def test_after_the_pass_each_seat_learns_only_what_it_gave_and_received(horse_pending) -> None:
    state = horse_pending
    for seat, card in [(0, "sheep"), (1, "cow"), (2, "pig")]:
        _, state = play(state, seat, {"type": "pass_card", "card": card})
    events, _ = play(state, 3, {"type": "pass_card", "card": "horse"})
    passed = events[1]
    assert redact(passed, 0) == {"seats": [0, 1, 2, 3], "gave": "sheep", "received": "horse"}
    assert redact(passed, 2) == {"seats": [0, 1, 2, 3], "gave": "pig", "received": "cow"}
    assert redact(passed, None) == {"seats": [0, 1, 2, 3]}
    assert redact(events[0], 0) == {"seat": 3}


def test_a_second_choice_is_refused(horse_pending) -> None:
    _, state = play(horse_pending, 1, {"type": "pass_card", "card": "cow"})
    with pytest.raises(RuleError, match="already chosen"):
        play(state, 1, {"type": "pass_card", "card": "cow"})
    with pytest.raises(NotYourTurn):
        decide(game_at(state), {"kind": "act", "seat": 1, "action": {"type": "pass_card", "card": "cow"}}, "seed")


def test_a_horse_choice_must_be_a_card_in_hand(horse_pending) -> None:
    with pytest.raises(RuleError, match="no horse in seat 1's hand"):
        play(horse_pending, 1, {"type": "pass_card", "card": "horse"})
    with pytest.raises(RuleError, match="must be one of"):
        play(horse_pending, 1, {"type": "pass_card", "card": "unicorn"})
    with pytest.raises(RuleError, match="choose a card to pass"):
        play(horse_pending, 0, {"type": "discard", "card": "sheep"})


def test_the_turns_player_passing_its_last_card_still_receives_one() -> None:
    state = position("horse sheep", "cow", "pig")
    _, state = play(state, 0, {"type": "discard", "card": "horse"})
    _, state = play(state, 1, {"type": "pass_card", "card": "cow"})
    _, state = play(state, 2, {"type": "pass_card", "card": "pig"})
    events, after = play(state, 0, {"type": "pass_card", "card": "sheep"})
    assert types(events)[-1] == "TurnEnded", "the round goes on: seat 0 holds the pig it received"
    assert hand(after, 0) == ["pig"]


# --- Blöde Kuh, rules version 2: the draw pile is refilled as soon as it becomes empty (RULES.md §3, issue 13).


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
