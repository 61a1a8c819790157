"""Random Life is Life games: one winner, 60 cards at every step, replay equals live, no leak; bots finish."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.events import Event
from domain.games.life_is_life.cards import DECK, HAND_SIZE
from domain.games.life_is_life.state import State
from projections.life_is_life import redact, seat_view
from tests.support.life_is_life import cards_of
from tests.support.tables import Table, new_table, play_bots

# --- Random Life is Life games: one winner, 60 cards at every step, replay equals live, no leak; bots finish.

GAME = "life-is-life"


def hide_differently(state: State, seat: int | None, rng: random.Random) -> State:
    """Deal the cards `seat` cannot see (other hands but their public part, the set-aside) anew."""
    others = [other for other in range(state.players) if other != seat]
    hidden = {other: Counter(state.hands[other]) - Counter(state.known[other]) for other in others}
    pool = list(state.set_aside) + [card for other in others for card in hidden[other].elements()]
    rng.shuffle(pool)
    hands = list(state.hands)
    for other in others:
        size = sum(hidden[other].values())
        hands[other] = tuple(sorted([*state.known[other], *pool[:size]]))
        pool = pool[size:]
    return replace(state, hands=tuple(hands), set_aside=tuple(sorted(pool)))


def deal_differently(event: Event, seat: int | None, rng: random.Random) -> Event:
    """Redeal the cards of a PhaseDealt that `seat` does not hold, keeping every count."""
    if event.type != "PhaseDealt":
        return event
    hands = event.data["hands"]
    others = [other for other in range(len(hands)) if other != seat]
    pool = list(event.data["set_aside"]) + [card for other in others for card in hands[other]]
    rng.shuffle(pool)
    new_hands = list(hands)
    for other in others:
        new_hands[other] = sorted(pool[: len(hands[other])])
        pool = pool[len(hands[other]) :]
    return Event(event.type, {**event.data, "hands": new_hands, "set_aside": sorted(pool)}, event.actor)


def check_step(state: State, batch: list[Event], rng: random.Random) -> None:
    """Check conservation and that no viewer can tell the hidden cards apart."""
    assert cards_of(state) == Counter(DECK)
    for seat in state.remaining:
        assert len(state.hands[seat]) == HAND_SIZE
        assert not Counter(state.known[seat]) - Counter(state.hands[seat])
    assert [len(row) for row in state.rows] == [1, 2, 3, 4]
    for seat in [None, *range(state.players)]:
        assert seat_view(state, seat) == seat_view(hide_differently(state, seat, rng), seat)
        for event in batch:
            data = redact(event, seat)
            assert data == redact(deal_differently(event, seat, rng), seat)
            if event.type == "PhaseDealt":
                assert all(hand is None for index, hand in enumerate(data["hands"]) if index != seat)
                assert data["set_aside"] is None


def play_checked(players: int, advanced: bool, seed: str, rng: random.Random, knock_bias: float) -> Table:
    """Play random legal actions to the end, checking every step."""
    table = new_table(GAME, players, {"advanced": advanced}, seed=seed)
    check_step(table.game.rules_state, [e.event for e in table.log if e.type in ("PhaseDealt", "GameSetUp")], rng)
    for _ in range(50_000):
        game = table.game
        if game.status == "finished":
            return table
        if game.system_due:
            batch = table.advance()
        else:
            (seat,) = game.to_act
            legal = game.legal_actions(seat)
            knock = [action for action in legal if action["type"] == "knock"]
            action = knock[0] if knock and rng.random() < knock_bias else rng.choice(legal)
            batch = table.act(seat, action)
        check_step(table.game.rules_state, [e.event for e in batch if e.type != "GameEnded"], rng)
    raise AssertionError("the game did not end")


def assert_one_winner(table: Table, players: int) -> None:
    """Check the finished game: one winner, lives only with the winner, places by phase out."""
    game = table.game
    assert game.status == "finished"
    result = game.result
    assert result is not None and len(result["winners"]) == 1
    assert sorted(result["places"])[0] == 1 and sorted(result["places"])[1] == 2
    (winner,) = result["winners"]
    lives = game.rules_state.lives
    assert lives[winner] > 0 and all(life == 0 for seat, life in enumerate(lives) if seat != winner)
    assert table.replayed() == game


@pytest.mark.parametrize("players", [3, 4, 5])
@settings(max_examples=12, deadline=None)
@given(seed=st.text(min_size=1, max_size=8), moves=st.integers(0, 2**32), advanced=st.booleans(),
       knock_bias=st.sampled_from([0.0, 0.3]))  # fmt: skip
def test_random_games_end_with_one_winner_and_hide_every_hidden_card(
    players: int, seed: str, moves: int, advanced: bool, knock_bias: float
) -> None:
    table = play_checked(players, advanced, seed, random.Random(moves), knock_bias)
    assert_one_winner(table, players)


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("kinds", [("heuristic", "random"), ("heuristic", "heuristic"), ("random", "heuristic")])
def test_bots_finish_games_from_their_views(players: int, kinds: tuple[str, str]) -> None:
    table = new_table(GAME, players, {"advanced": players == 4}, seed=f"bots-{players}-{kinds}")
    play_bots(table, [kinds[seat % 2] for seat in range(players)])
    assert_one_winner(table, players)
