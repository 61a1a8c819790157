"""A stand-in's move is as private as the seat's own: random games whose move clocks run out leak nothing.

Every game is played at random with a move clock, and about half the human
moves are made by a stand-in after a timeout, as the service records them.
After every batch, while the game is in play, every seat's and a spectator's
view and log (what the stream and an export during play carry: the
redacted events, their sealed forms and openings) are checked:

- every hidden value another viewer may not see stands in the sealed form
  only as its commitment, and is neither shown nor opened to that viewer;
- no seat's action, played by the seat or by its stand-in, appears in
  another viewer's view or log, in any form.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from domain.audit import audit, audit_export
from domain.canonical import canonical_json
from domain.commitments import CHAIN_VERSION, published_sealed_form, verify_published
from domain.events import GENESIS_HASH, Event, RecordedEvent, chain_hash
from domain.export import read_export
from domain.game import FINISHED
from domain.sealing import Sealer, UndeclaredCommand, declaration, hidden_in
from projections.game import game_view, redact_event
from tests.support.tables import Table, new_table

GAMES = [("life-is-life", 3), ("animals-on-board", 3), ("bloede-kuh", 4), ("zop-zoo", 2)]
CLOCK = {"clock": {"move_s": 60}}


def _at(record: Any, path: str) -> Any:
    for part in path.split("."):
        record = record[int(part)] if isinstance(record, list) else record.get(part)
        if record is None:
            return None
    return record


def play_with_clocks_running_out(table: Table, rng: random.Random, max_steps: int = 20_000):
    """Play at random to the end, a stand-in taking about half the moves; yield after every batch."""
    for _ in range(max_steps):
        game = table.game
        if game.status == FINISHED:
            return
        if game.system_due:
            table.advance()
        else:
            seat = rng.choice(sorted(game.to_act))
            action = rng.choice(game.legal_actions(seat))
            if rng.random() < 0.5 and game.clock_running and seat in game.humans_to_act():
                batch = table.run({"kind": "timeout", "seat": seat, "at": game.version, "action": action})
                assert batch[0].type == "TimedOut"
            else:
                table.act(seat, action)
        if table.game.status != FINISHED:
            yield table
    raise AssertionError(f"game not over after {max_steps} steps")


def private_actions(log: list[RecordedEvent]) -> list[tuple[int, str]]:
    """Return every seat action of the log (its own or its stand-in's) as (seat, canonical JSON)."""
    return [
        (event.command["seat"], canonical_json(event.command["action"]))
        for event in log
        if event.command is not None and event.command.get("kind") in ("act", "timeout")
    ]


def others_actions(log: list[RecordedEvent], viewer: int | None) -> set[str]:
    """Return the actions other seats played, but those the viewer played too (its own log opens them)."""
    actions = private_actions(log)
    own = {action for seat, action in actions if seat == viewer}
    return {action for seat, action in actions if seat != viewer} - own


def assert_nothing_hidden_reaches(game_type: str, seed: str, log: list[RecordedEvent], viewer: int | None) -> None:
    declared = declaration(game_type)
    shown_log = [redact_event(game_type, event, viewer, seed=seed) for event in log]
    assert verify_published(shown_log) is None, "the viewer's own log must check out"
    for event, shown in zip(log, shown_log):
        sealed = published_sealed_form(shown)
        for hidden in hidden_in(declared, event.type, event.data, event.actor, event.command, event.chain):
            if viewer is not None and viewer in hidden.seers:
                continue
            assert _at(sealed, hidden.path) == event.commitments[hidden.path], f"{hidden.path} of #{event.seq}"
            assert hidden.path not in (shown.get("openings") or {})
            where, _, rest = hidden.path.partition(".")
            assert _at(shown.get(where) or {}, rest) != hidden.value, f"{hidden.path} of #{event.seq} shown"
    text = json.dumps(shown_log, sort_keys=True, separators=(",", ":"))
    for action in others_actions(log, viewer):
        assert action not in text, f"another seat's action {action} reached viewer {viewer}"


@pytest.mark.parametrize("game_type, seats", GAMES, ids=[game for game, _ in GAMES])
@pytest.mark.parametrize("seed", [1, 2])
def test_no_hidden_value_reaches_another_viewer_when_clocks_run_out(game_type: str, seats: int, seed: int) -> None:
    rng = random.Random(seed)
    table = new_table(game_type, seats, CLOCK, seed=f"clock-{game_type}-{seed}")
    stood_in = checked = 0
    for _ in play_with_clocks_running_out(table, rng):
        stood_in = sum(1 for event in table.log if event.type == "TimedOut")
        # Every batch is checked early on; later every tenth, which keeps the test to seconds.
        if len(table.log) > 60 and rng.random() > 0.1:
            continue
        checked += 1
        for viewer in [*range(seats), None]:
            assert_nothing_hidden_reaches(game_type, table.seed, table.log, viewer)
            # The viewer's own legal actions may well equal another seat's past move.
            view = canonical_json({**game_view(table.game, viewer), "legal_actions": []})
            assert not [action for action in others_actions(table.log, viewer) if action in view]
    assert stood_in > 0 and checked > 0


# --- the chain scheme a stand-in's move is committed under --------------------------------

CHAIN_2 = Path(__file__).parent.parent / "fixtures" / "animals_on_board_chain2_timeouts.ndjson"


def test_a_game_recorded_under_scheme_2_with_stand_ins_in_the_clear_still_audits() -> None:
    head, events = read_export(CHAIN_2.read_text().splitlines())
    timeouts = [e for e in events if (e.get("command") or {}).get("kind") == "timeout"]
    assert events[0]["chain"] == 2 and timeouts
    assert all("command.action" not in (e.get("commitments") or {}) for e in timeouts)
    assert audit_export(head, events).ok


def clocked_game_to_the_end(seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    table = new_table("animals-on-board", 3, CLOCK, seed=f"scheme-{seed}")
    for _ in play_with_clocks_running_out(table, rng):
        pass
    assert table.game.status == FINISHED
    return [event.to_dict() for event in table.log]


def test_a_stand_ins_move_is_committed_from_scheme_3_and_the_audit_holds_it_to_that() -> None:
    events = clocked_game_to_the_end(3)
    timeouts = [i for i, e in enumerate(events) if (e.get("command") or {}).get("kind") == "timeout"]
    assert events[0]["chain"] == CHAIN_VERSION == 3 and timeouts
    assert all("command.action" in events[i]["commitments"] for i in timeouts)
    assert audit(events).ok
    # A forger who drops the commitment and rehashes (as scheme 2 would have chained it) is caught.
    forged = copy.deepcopy(events)
    del forged[timeouts[0]]["commitments"]["command.action"]
    previous = GENESIS_HASH
    for event in forged:
        event["hash"] = chain_hash(previous, {k: v for k, v in event.items() if k != "hash"})
        previous = event["hash"]
    report = audit(forged)
    assert not report.ok and report.failed_at == timeouts[0] + 1 and "command.action was not committed" in report.reason


def test_sealing_a_command_of_an_undeclared_kind_is_refused() -> None:
    seal = Sealer("animals-on-board", "seed")
    with pytest.raises(UndeclaredCommand):
        seal(1, Event("TimedOut", {"seat": 0}, "system"), {"kind": "nudge", "seat": 0, "action": {"type": "keep"}})
