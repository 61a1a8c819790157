"""The move clock is a core option of every game; a timeout is a command like any move."""

from __future__ import annotations

from functools import reduce

import pytest

from domain.chance import seed_commitment
from domain.errors import OptionsError, RuleError
from domain.events import record
from domain.game import Game, decide, evolve, replay
from domain.tournament.decide import DEFAULT_CLOCK
from domain.tournament.decide import create as create_tournament

SEED = "clock-seed"


def play(game: Game, command: dict) -> Game:
    events = record(
        decide(game, command, SEED),
        after_seq=game.version,
        previous_hash=game.last_hash,
        time="t",
        command_id="c",
        command=command,
    )
    return reduce(evolve, events, game)


def created(clock: object = None, seats: int = 3) -> Game:
    options = {} if clock is None else {"clock": clock}
    command = {
        "kind": "create",
        "id": "g1",
        "game": "life-is-life",
        "seats": [{"name": f"p{i}", "bot": None, "token_sha256": None} for i in range(seats)],
        "options": options,
        "seed_commitment": seed_commitment(SEED),
    }
    return play(Game(), command)


def test_the_clock_is_recorded_in_game_created_beside_the_games_own_options():
    game = created({"move_s": 60})
    assert game.clock == {"move_s": 60}
    assert "clock" not in (game.options or {})
    assert game.clock_running


def test_a_game_without_a_clock_records_none_and_no_clock_runs():
    game = created()
    assert game.clock is None
    assert not game.clock_running


@pytest.mark.parametrize("clock", [{"move_s": 0}, {"move_s": "60"}, {"move_s": True}, {"moves": 3}, 60, []])
def test_a_malformed_clock_is_an_options_error(clock):
    with pytest.raises(OptionsError):
        created(clock)


def test_a_timeout_plays_the_stand_ins_action_for_the_seat_after_a_timed_out_event():
    game = created({"move_s": 60})
    [seat] = game.to_act
    action = game.legal_actions(seat)[0]
    events = decide(game, {"kind": "timeout", "seat": seat, "at": game.version, "action": action}, SEED)
    assert events[0].type == "TimedOut" and events[0].data == {"seat": seat}
    assert events[1:] == decide(game, {"kind": "act", "seat": seat, "action": action}, SEED)


def test_a_stale_timeout_changes_nothing():
    game = created({"move_s": 60})
    [seat] = game.to_act
    action = game.legal_actions(seat)[0]
    moved = play(game, {"kind": "act", "seat": seat, "action": action})
    late = {"kind": "timeout", "seat": seat, "at": game.version, "action": action}
    assert decide(moved, late, SEED) == []


def test_a_timeout_in_a_game_without_a_clock_is_refused():
    game = created()
    [seat] = game.to_act
    with pytest.raises(RuleError):
        decide(game, {"kind": "timeout", "seat": seat, "at": game.version, "action": {}}, SEED)


def test_a_stand_ins_illegal_action_is_refused_like_any_move():
    game = created({"move_s": 60})
    [seat] = game.to_act
    with pytest.raises(RuleError):
        decide(game, {"kind": "timeout", "seat": seat, "at": game.version, "action": {"type": "nonsense"}}, SEED)


def test_a_timed_out_game_replays_to_the_same_game():
    game = created({"move_s": 60})
    [seat] = game.to_act
    command = {"kind": "timeout", "seat": seat, "at": game.version, "action": game.legal_actions(seat)[0]}
    events = record(
        decide(game, command, SEED),
        after_seq=game.version,
        previous_hash=game.last_hash,
        time="t",
        command_id="c",
        command=command,
    )
    assert replay(events, game) == reduce(evolve, events, game)


def tournament_options(options: dict | None) -> dict:
    command = {
        "kind": "create",
        "id": "t1",
        "game": "life-is-life",
        "rounds": 1,
        "seed_commitment": seed_commitment("s"),
    }
    if options is not None:
        command["options"] = options
    [event] = create_tournament(command, "s")
    return dict(event.data["options"])


def test_a_tournament_sets_a_default_clock_for_its_games():
    assert tournament_options(None)["clock"] == DEFAULT_CLOCK
    assert tournament_options({"clock": {"move_s": 30}})["clock"] == {"move_s": 30}
    assert tournament_options({"clock": None})["clock"] is None
