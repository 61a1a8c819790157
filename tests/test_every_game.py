"""Every game of the registry, at every seat count: random play ends, replays, round-trips, audits and renders.

The invariants every game owes the core, checked once for all of them; a game's own invariants
(cards conserved, nothing leaks, who wins) stay in its tests under tests/domain.
"""

from __future__ import annotations

import json
import random
from functools import cache

import orjson
import pytest

from domain.audit import audit
from domain.events import RecordedEvent
from domain.game import FINISHED, Game, replay
from domain.games import RULES
from projections.game import game_view, redact_log
from tests.support.tables import Table, new_table, play_randomly

GAMES = [
    pytest.param(game_id, seats, id=f"{game_id}-{seats}")
    for game_id, rules in sorted(RULES.items())
    for seats in range(rules.min_seats, rules.max_seats + 1)
]
MAX_STEPS = 20_000


@cache
def played(game_id: str, seats: int) -> Table:
    """Play one seeded game of uniformly random legal actions to the end (shared by the tests below)."""
    return play_randomly(new_table(game_id, seats, seed=f"every-{game_id}-{seats}"), random.Random(seats), MAX_STEPS)


def render(game: Game, seats: int) -> None:
    """Render every seat's view, the spectator's and, once the game is over, the open view, as JSON."""
    # orjson: ten times faster than json here, and stricter (no non-string keys).
    for seat in [*range(seats), None]:
        orjson.dumps(game_view(game, seat))
    if game.status == FINISHED:
        orjson.dumps(game_view(game, None, open_view=True))


@pytest.mark.parametrize(("game_id", "seats"), GAMES)
def test_random_play_ends_and_the_replay_equals_the_live_game(game_id: str, seats: int) -> None:
    table = played(game_id, seats)
    assert table.game.status == FINISHED and table.game.result is not None
    assert len(table.game.result["places"]) == seats
    assert replay(table.log) == table.game


@pytest.mark.parametrize(("game_id", "seats"), GAMES)
def test_every_event_survives_a_json_round_trip(game_id: str, seats: int) -> None:
    for event in played(game_id, seats).log:
        assert RecordedEvent.from_dict(json.loads(json.dumps(event.to_dict()))) == event


@pytest.mark.parametrize(("game_id", "seats"), GAMES)
def test_the_finished_log_passes_the_audit(game_id: str, seats: int) -> None:
    report = audit([event.to_dict() for event in played(game_id, seats).log])
    assert report.ok, report.to_dict()


@pytest.mark.parametrize(("game_id", "seats"), GAMES)
def test_every_view_and_every_redacted_log_renders_at_the_end(game_id: str, seats: int) -> None:
    table = played(game_id, seats)
    render(table.game, seats)
    for seat in [*range(seats), None]:
        assert len(json.dumps(redact_log(game_id, table.log, seat))) > 0
    assert redact_log(game_id, table.log, None, open_log=True) == [event.to_dict() for event in table.log]


@pytest.mark.parametrize(("game_id", "seats"), GAMES)
def test_every_view_renders_at_every_position(game_id: str, seats: int) -> None:
    log = played(game_id, seats).log
    game = Game()
    for position in range(1, len(log) + 1):
        # Replay's catch-up path from the previous prefix, as the service's cache reads on.
        game = replay(log[position - 1 : position], game)
        assert game.version == position
        render(game, seats)
