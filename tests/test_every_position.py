"""Every position of every game renders: each seat's view, the spectator's, the logs and the open view.

A past view (`GET /games/{id}?at=N`) is the replay of the first N events, so
every N of a game must render for every viewer, also the positions inside a
batch that no live view ever shows (just after GameStarted, between a game's
own setup events).
"""

from __future__ import annotations

import json
import random

import pytest

from domain.game import FINISHED, Game, replay
from domain.games import RULES
from projections.game import game_view, redact_log
from tests.support import Table, new_table, play_randomly

# Random games are bounded; with these options every seeded game below ends
# well within the bound, so the open views of a finished game are checked too.
MAX_STEPS = 5_000
SHORT_OPTIONS = {"zop-zoo": {"target": 200}}  # random play rarely wins Zop Zoo rounds: a few rounds, not 800 points


def seat_counts() -> list[tuple[str, int]]:
    """Return every game in the registry with every seat count it allows."""
    return [
        (game_id, seats) for game_id, rules in RULES.items() for seats in range(rules.min_seats, rules.max_seats + 1)
    ]


def played(game_id: str, seats: int) -> Table:
    """Play a seeded random game to its end (at most MAX_STEPS steps)."""
    seed = f"every-position-{game_id}-{seats}"
    table = new_table(game_id, seats, SHORT_OPTIONS.get(game_id), seed=seed)
    return play_randomly(table, random.Random(seed), max_steps=MAX_STEPS)


def render_all(game: Game, seats: int) -> None:
    """Render the game for every seat, the spectator and openly (as for a finished game), as JSON."""
    for seat in [*range(seats), None]:
        json.dumps(game_view(game, seat))
    json.dumps(game_view(game, None, open_view=True))


@pytest.mark.parametrize(("game_id", "seats"), seat_counts())
def test_every_prefix_of_a_random_game_renders_for_every_viewer(game_id: str, seats: int) -> None:
    table = played(game_id, seats)
    assert table.game.status == FINISHED
    game = Game()
    for event in table.log:
        # The same fold a past view uses (replay of the first N events), one event further each time.
        game = replay([event], game)
        render_all(game, seats)
    assert game == table.replayed()
    for seat in [*range(seats), None]:
        json.dumps(redact_log(game_id, table.log, seat))
    json.dumps(redact_log(game_id, table.log, None, open_log=True))


@pytest.mark.parametrize("game_id", sorted(RULES))
def test_just_after_game_started_no_one_acts_and_every_viewer_sees_an_empty_table(game_id: str) -> None:
    table = new_table(game_id, RULES[game_id].min_seats)
    started = next(event.seq for event in table.log if event.type == "GameStarted")
    past = replay(table.log[:started])
    assert past.rules_state is None
    assert past.to_act == frozenset() and not past.system_due and past.legal_actions(0) == []
    for seat in [0, None]:
        assert game_view(past, seat)["state"] == {}
    assert game_view(past, None, open_view=True)["legal_actions"] == []


def test_zop_zoo_just_set_up_shows_every_seat_with_an_empty_row() -> None:
    table = new_table("zop-zoo", 3)
    set_up = next(event.seq for event in table.log if event.type == "ZooSetUp")
    past = replay(table.log[:set_up])
    assert past.to_act == frozenset() and not past.system_due
    players = game_view(past, 1)["state"]["players"]
    assert [player["row"] for player in players] == [[], [], []]
    assert players[0]["round_points"] == {"as_winner": 0, "as_other": 0}
