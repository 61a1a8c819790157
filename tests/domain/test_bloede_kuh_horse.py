"""Blöde Kuh's horse: every seat with cards chooses in secret, then all pass left together."""

from __future__ import annotations

import pytest

from domain.errors import NotYourTurn, RuleError
from domain.game import decide
from domain.games.bloede_kuh import RULES
from projections.bloede_kuh import redact, seat_view
from tests.support.bloede_kuh import cards_in_play, game_at, hand, play, position, types


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
