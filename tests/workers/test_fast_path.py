"""The fast simulation path plays the same rules as the service, in memory."""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain import simulate
from domain.batch import Folded
from domain.chance import DrawnChance
from domain.games import rules_for
from workers.bots import random_bot

GAMES = [
    ("life-is-life", 3, {"advanced": False}),
    ("animals-on-board", 2, {"left_out": []}),
    ("bloede-kuh", 4, {}),
    ("zop-zoo", 2, {"target": 300, "card_set": None}),
]


def _policy(rng: random.Random) -> simulate.Policy:
    """Play at random, but knock often when knocking is allowed (random Life is Life phases last long)."""

    def choose(state: Any, seat: int, legal: list[dict[str, Any]]) -> dict[str, Any]:
        knock = [action for action in legal if action["type"] == "knock"]
        return knock[0] if knock and rng.random() < 0.3 else random_bot({}, legal, rng)

    return choose


@pytest.mark.parametrize(("game", "seats", "options"), GAMES)
def test_random_games_on_the_fast_path_run_to_a_result(game: str, seats: int, options: dict) -> None:
    rules = rules_for(game)
    rng = random.Random(7)
    chance = DrawnChance(rng.randrange)
    state = simulate.start(rules, seats, options, chance)
    state, moves = simulate.play_out(rules, state, _policy(rng), chance)
    result = simulate.outcome(rules, state)
    assert result is not None and moves > 0
    assert sorted(result.places)[0] == 1


@pytest.mark.parametrize(("game", "seats", "options"), GAMES)
def test_the_same_generator_seed_plays_the_same_game(game: str, seats: int, options: dict) -> None:
    rules = rules_for(game)

    def run() -> tuple:
        rng = random.Random(3)
        chance = DrawnChance(rng.randrange)
        state = simulate.start(rules, seats, options, chance)
        state, moves = simulate.play_out(rules, state, _policy(rng), chance)
        return simulate.outcome(rules, state).places, moves

    assert run() == run()


def test_drawn_chance_refuses_an_empty_range() -> None:
    with pytest.raises(ValueError):
        DrawnChance(random.Random(1).randrange).below(0)


@pytest.mark.parametrize(("game", "seats", "options"), GAMES)
def test_the_state_a_decision_hands_back_is_the_fold_of_its_events(game: str, seats: int, options: dict) -> None:
    rules, rng = rules_for(game), random.Random(11)
    chance = DrawnChance(rng.randrange)
    state, checked = simulate.start(rules, seats, options, chance), 0
    while simulate.outcome(rules, state) is None:
        if rules.system_due(state):
            events = rules.advance(state, chance)
        else:
            seat = min(rules.to_act(state))
            events = rules.decide(state, seat, _policy(rng)(state, seat, rules.legal_actions(state, seat)), chance)
        folded = state
        for event in events:
            folded = rules.evolve(folded, event)
        after = events.after() if isinstance(events, Folded) else None
        if after is not None:
            assert after == folded
            checked += 1
        state = folded
    assert checked > 0 or game == "life-is-life"  # Life is Life decides without a batch
