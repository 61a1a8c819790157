"""MOLE, HYENA, RACCOON and EARTHWORM, each met from the draw pile and on the discard pile; the refill."""

from __future__ import annotations

from collections import Counter

from domain.chance import Chance
from projections.zop_zoo import seat_view
from tests.support.zop_zoo import RULES, act, row, table, types

DRAW = {"type": "draw"}
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
