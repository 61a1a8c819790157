"""Blöde Kuh: random legal games for 3–6 players, conservation, replay and no leaks."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.games.bloede_kuh.cards import DECK_SIZE, SPECIES, hand_cards, hand_of
from domain.games.bloede_kuh.state import State
from projections.bloede_kuh import redact, seat_view
from projections.game import game_view
from tests.support.bloede_kuh import cards_in_play
from tests.support.tables import Table, new_table

# --- Blöde Kuh: random legal games for 3–6 players, conservation, replay and no leaks.

SEATS = st.integers(min_value=3, max_value=6)
SEEDS = st.integers(min_value=0, max_value=2**32)


def steps(table: Table, rng: random.Random) -> Iterator[Table]:
    """Play random legal actions (a random seat of those asked) to the end, yielding after each step."""
    while table.game.status != "finished":
        if table.game.system_due:
            table.advance()
        else:
            seat = rng.choice(sorted(table.game.to_act))
            table.act(seat, rng.choice(table.game.legal_actions(seat)))
        yield table


@settings(max_examples=60, deadline=None)
@given(seats=SEATS, seed=SEEDS)
def test_random_games_end_after_three_rounds_with_every_card_kept(seats: int, seed: int) -> None:
    table = new_table("bloede-kuh", seats, seed=f"seed-{seed}")
    for step in steps(table, random.Random(seed)):
        state: State = step.game.rules_state
        assert cards_in_play(state) == DECK_SIZE
        assert all(n >= 0 for hand in state.hands for n in hand)
        assert len(state.nwi) == len({(card.species, card.round) for card in state.nwi})
    state = table.game.rules_state
    assert [result.round for result in state.results] == [1, 2, 3]
    assert table.game.result is not None
    places = table.game.result["places"]
    totals = table.game.result["detail"]["totals"]
    assert places == [1 + sum(other < total for other in totals) for total in totals]
    assert 1 in places
    assert table.replayed() == table.game


def swapped(state: State, viewer: int | None, rng: random.Random) -> State:
    """Deal the cards hidden from `viewer` (other hands, the draw pile, other horse choices) anew, keeping every count."""
    others = [seat for seat in range(state.seats) if seat != viewer]
    pool = [card for seat in others for card in hand_cards(state.hands[seat])] + list(state.draw)
    rng.shuffle(pool)
    hands, at = list(state.hands), 0
    for seat in others:
        size = sum(state.hands[seat])
        hands[seat], at = hand_of(pool[at : at + size]), at + size
    choices = list(state.choices)
    for seat in others:
        if choices[seat] is not None:
            choices[seat] = rng.choice(hand_cards(hands[seat]))
    return replace(state, hands=tuple(hands), draw=tuple(pool[at:]), choices=tuple(choices))


@settings(max_examples=30, deadline=None)
@given(seats=SEATS, seed=SEEDS)
def test_a_view_does_not_change_when_hidden_cards_are_dealt_anew(seats: int, seed: int) -> None:
    rng = random.Random(seed)
    table = new_table("bloede-kuh", seats, seed=f"leak-{seed}")
    for step in steps(table, random.Random(seed)):
        game = step.game
        if game.rules_state.awaiting is None and rng.random() < 0.8:
            continue  # look mostly while a choice is open, where a leak would hurt most
        for viewer in [*range(seats), None]:
            other = replace(game, rules_state=swapped(game.rules_state, viewer, rng))
            assert game_view(other, viewer) == game_view(game, viewer)
            view = seat_view(game.rules_state, viewer)
            assert not {"hands", "draw", "discard", "choices"} & set(view)
            assert view["hand"] == (None if viewer is None else dict(zip(SPECIES, game.rules_state.hands[viewer])))


def card_leaves(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Yield the path of every card name inside event data."""
    if isinstance(value, str) and value in SPECIES:
        yield path
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from card_leaves(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from card_leaves(item, path + (index,))


def with_leaf(value: Any, path: tuple[Any, ...], new: str) -> Any:
    """Return a copy of event data with one leaf replaced."""
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: with_leaf(value[head], rest, new)}
    return [with_leaf(item, rest, new) if index == head else item for index, item in enumerate(value)]


def with_leaf_value(value: Any, path: tuple[Any, ...]) -> Any:
    """Return the leaf at a path."""
    for key in path:
        value = value[key]
    return value


def may_see(event_type: str, data: dict[str, Any], path: tuple[Any, ...], viewer: int | None) -> bool:
    """Tell whether `viewer` may learn the card at `path` of an event (the rules of §3, written out again)."""
    if event_type == "CardsDealt":
        return path[0] == "hands" and path[1] == viewer
    if event_type == "DrawPileRefilled":
        return False
    if event_type == "CardTaken":
        return data["from"] == "discard" or data["seat"] == viewer
    if event_type == "HorseCardChosen":
        return data["seat"] == viewer
    if event_type == "HorseCardsPassed":
        seats = len(data["cards"])
        return viewer is not None and path[1] in (viewer, (viewer - 1) % seats)
    return True  # discards, pairs and scores are public


@settings(max_examples=20, deadline=None)
@given(seats=SEATS, seed=SEEDS)
def test_no_redacted_event_shows_a_card_hidden_from_its_viewer(seats: int, seed: int) -> None:
    table = new_table("bloede-kuh", seats, seed=f"events-{seed}")
    for _ in steps(table, random.Random(seed)):
        pass
    seen: set[str] = set()
    for recorded in table.log:
        event = recorded.event
        if event.type in {"GameCreated", "SeatTaken", "GameStarted", "GameEnded"}:
            continue
        seen.add(event.type)
        for path in card_leaves(event.data):
            other = next(card for card in SPECIES if card != with_leaf_value(event.data, path))
            changed = replace(event, data=with_leaf(event.data, path, other))
            for viewer in [*range(seats), None]:
                if redact(changed, viewer) != redact(event, viewer):
                    assert may_see(event.type, event.data, path, viewer), (event.type, path, viewer)
    assert {"CardsDealt", "CardTaken", "HorseCardChosen", "HorseCardsPassed"} <= seen
