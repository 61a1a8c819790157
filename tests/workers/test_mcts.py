"""The mcts bot: it samples only what its seat may know, plays legal moves, and never peeks."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from domain.events import RecordedEvent
from domain.game import Game, replay
from projections import projection_for
from projections.game import game_view, redact_log
from tests.support.tables import Table, new_table
from workers.bots import (
    animals_on_board_sampler,
    bloede_kuh_sampler,
    bot_for,
    bot_rng,
    life_is_life_sampler,
    zop_zoo_sampler,
)
from workers.bots.mcts import ahead
from workers.bots.mcts import bot as mcts_bot
from workers.bots.players import BotPlayers

HOOKS = {
    "life-is-life": life_is_life_sampler,
    "animals-on-board": animals_on_board_sampler,
    "bloede-kuh": bloede_kuh_sampler,
    "zop-zoo": zop_zoo_sampler,
}
TABLES = [("life-is-life", 4), ("animals-on-board", 3), ("bloede-kuh", 4), ("zop-zoo", 2)]


def _advance_randomly(table: Table, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        game = table.game
        if game.status == "finished":
            return
        if game.system_due:
            table.advance()
            continue
        seat = min(game.to_act)
        table.act(seat, rng.choice(game.legal_actions(seat)))


def _seat_view(game: Game, seat: int) -> dict[str, Any]:
    view = projection_for(game.type).seat_view(game.rules_state, seat)
    view.pop("last_scoring", None)  # Life is Life's record of past phases: no rule reads it
    return view


@pytest.mark.parametrize(("game_type", "seats"), TABLES)
def test_every_sample_looks_to_the_seat_exactly_like_the_real_game(game_type: str, seats: int) -> None:
    table, rng = new_table(game_type, seats, seed="sampler"), random.Random(5)
    hooks = HOOKS[game_type]
    for _ in range(40):
        _advance_randomly(table, rng, 3)
        game = table.game
        if game.status == "finished":
            break
        if not game.to_act:
            continue
        seat = min(game.to_act)
        belief = hooks.believe(game_view(game, seat), redact_log(game_type, table.log, seat))
        for _ in range(3):
            sampled = hooks.sample(belief, rng)
            real_view = _seat_view(game, seat)
            sampled_view = projection_for(game_type).seat_view(sampled, seat)
            sampled_view.pop("last_scoring", None)
            assert sampled_view == real_view
            assert game.rules.legal_actions(sampled, seat) == game.legal_actions(seat)


@pytest.mark.parametrize(("game_type", "seats"), TABLES)
def test_the_bot_plays_a_legal_move_through_bot_players(game_type: str, seats: int) -> None:
    table = new_table(game_type, seats, seed="legal")
    _advance_randomly(table, random.Random(2), 12)
    game = table.game
    seat = min(game.to_act)
    game = replace(game, seats=tuple(replace(s, bot="mcts") for s in game.seats))
    players = BotPlayers(lambda g, s: redact_log(g.type, table.log, s))
    assert players.choose(game, seat) in game.legal_actions(seat)


def _swap_other_hands(log: list[RecordedEvent], seat: int) -> list[RecordedEvent]:
    """Swap two other seats' hands in the deal of a fresh Life is Life phase: hidden from `seat`."""
    *before, dealt = log
    hands = list(dealt.data["hands"])
    a, b = [other for other in range(len(hands)) if other != seat][:2]
    hands[a], hands[b] = hands[b], hands[a]
    return [*before, replace(dealt, data={**dealt.data, "hands": hands})]


def test_the_bot_chooses_the_same_move_in_two_games_that_differ_only_in_cards_it_cannot_see() -> None:
    table = new_table("life-is-life", 4, seed="no-peeking")
    real = table.game
    seat = min(real.to_act)
    assert table.log[-1].type == "PhaseDealt"
    other_log = _swap_other_hands(table.log, seat)
    other = replay(other_log)
    assert other.rules_state.hands != real.rules_state.hands
    assert game_view(other, seat) == game_view(real, seat)
    assert redact_log(other.type, other_log, seat) == redact_log(real.type, table.log, seat)
    bot = mcts_bot(life_is_life_sampler.GAME, iterations=30)
    assert _choice(bot, real, table.log, seat) == _choice(bot, other, other_log, seat)


def test_the_flat_search_chooses_the_same_move_whatever_the_cards_it_cannot_see() -> None:
    table = new_table("bloede-kuh", 4, seed="no-peeking")
    real = table.game
    seat = min(real.to_act)
    assert table.log[-1].type == "CardsDealt"
    *before, dealt = table.log
    hands = list(dealt.data["hands"])
    a, b = [other for other in range(len(hands)) if other != seat][:2]
    hands[a], hands[b] = hands[b], hands[a]
    other_log = [*before, replace(dealt, data={**dealt.data, "hands": hands})]
    other = replay(other_log)
    assert other.rules_state.hands != real.rules_state.hands
    assert game_view(other, seat) == game_view(real, seat)
    bot = bot_for("bloede-kuh", "mcts", 60)
    assert _choice(bot, real, table.log, seat) == _choice(bot, other, other_log, seat)


def _choice(bot: Any, game: Any, log: Any, seat: int) -> Any:
    """Return the bot's move from what `seat` is handed of `game`: its view and its redacted log."""
    view = game_view(game, seat)
    view["log"] = redact_log(game.type, log, seat)
    return bot(view, view["legal_actions"], bot_rng(game.id, game.version, seat))


@pytest.mark.parametrize(("game_type", "seats"), [t for t in TABLES if t[0] != "life-is-life"])
def test_the_flat_search_keeps_the_heuristics_move_when_no_move_plays_out_better(game_type: str, seats: int) -> None:
    table = new_table(game_type, seats, seed="even")
    rng = random.Random(4)
    while True:
        _advance_randomly(table, rng, 1)
        game = table.game
        if not game.system_due and game.to_act and len(game.legal_actions(min(game.to_act))) > 1:
            break
    seat = min(game.to_act)
    view = game_view(game, seat)
    view["log"] = redact_log(game_type, table.log, seat)
    search = HOOKS[game_type].GAME
    level = replace(search, evaluate=lambda start, state, moves: [0.5] * seats)
    legal = view["legal_actions"]
    assert search.prior is not None
    expected = search.prior(view, legal, bot_rng(game.id, game.version, seat))
    assert mcts_bot(level, 20)(view, legal, bot_rng(game.id, game.version, seat)) == expected


def test_a_lead_is_worth_more_than_a_half_and_a_deficit_less() -> None:
    assert ahead([100, 100], 50) == [0.5, 0.5]
    first, second, third = ahead([150, 100, 0], 50)
    assert first > 0.5 > second > third
    assert ahead([3, 5], 1, higher_is_better=False)[0] > 0.5


def test_the_bot_is_deterministic_given_the_game_and_the_step() -> None:
    table = new_table("zop-zoo", 2, seed="same")
    _advance_randomly(table, random.Random(9), 30)
    game = table.game
    seat = min(game.to_act)
    view = game_view(game, seat)
    view["log"] = redact_log(game.type, table.log, seat)
    bot = bot_for("zop-zoo", "mcts")
    picks = {repr(bot(view, view["legal_actions"], bot_rng(game.id, game.version, seat))) for _ in range(2)}
    assert len(picks) == 1


@pytest.mark.parametrize("game_type", sorted(HOOKS))
def test_every_game_offers_the_mcts_bot(game_type: str) -> None:
    from domain.games import rules_for

    assert "mcts" in rules_for(game_type).bots
    assert callable(bot_for(game_type, "mcts"))
