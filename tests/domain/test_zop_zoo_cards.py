"""The deck as data: the bundled file's totals, and games created with another card set."""

from __future__ import annotations

import copy
from collections import Counter

import pytest

from domain.errors import OptionsError
from domain.games.zop_zoo.cards import CardSetError, bundled, parse
from domain.rules import normalise_options
from tests.support.tables import new_table
from tests.support.zop_zoo import RULES

CARDS = parse(bundled())
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
