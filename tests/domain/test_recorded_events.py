"""What `record` works out once and keeps is what the general definitions give, on every event of random games.

`record` remembers each event's sealed form (a log shown right after the append
uses it) and its stored JSON (which the store appends), and the hidden values
are found by a walk written for speed: all must agree with the plain
definitions of `domain.commitments`, written out again here, on every event of
every game, whatever the seat.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any

import pytest

from domain.canonical import canonical_bytes
from domain.chance import seed_commitment
from domain.commitments import ACTOR, OWNER, OWNER_AND_NEXT, SEAT, Hidden, sealed_form
from domain.events import GENESIS_HASH, RecordedEvent, chain_hash, record, sealed_of, stored_json
from domain.game import after_decision, decide, replay
from domain.games import RULES
from domain.sealing import COMMAND_HIDDEN, Sealer, declaration, hidden_in
from projections.game import redact_log
from tests.support.tables import Table, play_randomly

GAMES = [
    pytest.param(game_id, seats, id=f"{game_id}-{seats}")
    for game_id, rules in sorted(RULES.items())
    for seats in (rules.min_seats, rules.max_seats)
]


class RecordingTable(Table):
    """A table that keeps its events as `record` made them, not read back through JSON as the store does.

    Each batch is folded as the service folds it (`after_decision`), and by `replay` too: `differed` counts
    the batches where the two games differ.
    """

    differed = 0

    def run(self, command: Mapping[str, Any]) -> list[RecordedEvent]:
        game = self.game
        decided = decide(game, command, self.seed)
        batch = record(
            decided,
            after_seq=game.version,
            previous_hash=game.last_hash,
            time="2026-01-01T00:00:00Z",
            command_id=f"{game.version:032x}",
            command=dict(command),
            seal=Sealer(game.type or command["game"], self.seed),
        )
        self.game = after_decision(game, batch, decided)
        self.differed += self.game != replay(batch, game)
        self.log.extend(batch)
        return batch


def new_recording_table(game_id: str, seats: int, options: Mapping[str, Any] | None = None) -> RecordingTable:
    table = RecordingTable(seed=f"recorded-{game_id}-{seats}")
    table.run(
        {
            "kind": "create",
            "id": "g1",
            "game": game_id,
            "seats": [{"name": f"p{i}", "bot": None, "token_sha256": "ab" * 32} for i in range(seats)],
            "options": dict(options or {}),
            "seed_commitment": seed_commitment(table.seed),
        }
    )
    return table


@cache
def played(game_id: str, seats: int) -> RecordingTable:
    table = new_recording_table(game_id, seats)
    play_randomly(table, random.Random(seats))
    return table


def _read_back(event: RecordedEvent) -> RecordedEvent:
    return RecordedEvent.from_dict(json.loads(json.dumps(event.to_dict())))


@pytest.mark.parametrize(("game_id", "seats"), GAMES)
def test_the_sealed_form_and_json_kept_from_the_record_are_those_the_body_gives(game_id: str, seats: int) -> None:
    previous = GENESIS_HASH
    for event in played(game_id, seats).log:
        assert sealed_of(event) == sealed_form(event.body())
        assert event.hash == chain_hash(previous, event.body())
        assert stored_json(event) == canonical_bytes(event.to_dict())
        stored = _read_back(event)
        assert stored == event and sealed_of(stored) == sealed_of(event) and stored_json(stored) == stored_json(event)
        previous = event.hash


@pytest.mark.parametrize(("game_id", "seats"), GAMES)
def test_a_log_shown_from_the_record_is_the_log_read_back_from_the_store(game_id: str, seats: int) -> None:
    table = played(game_id, seats)
    stored = [_read_back(event) for event in table.log]
    for seat in [*range(seats), None]:
        for seed in (table.seed, None):
            assert redact_log(game_id, table.log, seat, seed=seed) == redact_log(game_id, stored, seat, seed=seed)


@pytest.mark.parametrize(("game_id", "seats"), GAMES)
def test_the_game_after_a_decision_is_its_replay(game_id: str, seats: int) -> None:
    table = played(game_id, seats)
    assert table.game.status == "finished" and table.differed == 0


@pytest.mark.parametrize(("game_id", "seats"), GAMES)
def test_the_game_after_a_timeout_is_its_replay(game_id: str, seats: int) -> None:
    """Every other move a stand-in's, after a run-out clock: a TimedOut first in the batch, GameEnded last in one."""
    table, rng = new_recording_table(game_id, seats, {"clock": {"move_s": 60}}), random.Random(seats)
    while table.game.status != "finished":
        game = table.game
        if game.system_due:
            table.advance()
            continue
        seat = rng.choice(sorted(game.to_act))
        action = rng.choice(game.legal_actions(seat))
        if game.version % 2 and game.clock_running and seat in game.humans_to_act():
            table.run({"kind": "timeout", "seat": seat, "at": game.version, "action": action})
        else:
            table.act(seat, action)
    assert table.differed == 0
    assert any(event.type == "TimedOut" for event in table.log)


# --- the hidden values by the plain definition: every match of each declared path, in order ---


def _plain_matches(
    value: Any, pattern: list[str], done: tuple[str, ...], seat: int | None, seats: int
) -> Iterator[Any]:
    if not pattern:
        yield done, value, seat, seats
        return
    head, rest = pattern[0], pattern[1:]
    if head == "*":
        if isinstance(value, list):
            for i, item in enumerate(value):
                yield from _plain_matches(item, rest, (*done, str(i)), i, len(value))
    elif isinstance(value, Mapping) and head in value:
        yield from _plain_matches(value[head], rest, (*done, head), seat, seats)


def _plain_seers(seen_by: str, seat: int | None, seats: int, record: Mapping[str, Any], actor: Any) -> frozenset[int]:
    if seen_by == OWNER and seat is not None:
        return frozenset({seat})
    if seen_by == OWNER_AND_NEXT and seat is not None:
        return frozenset({seat, (seat + 1) % seats})
    if seen_by == ACTOR and isinstance(actor, int) and not isinstance(actor, bool):
        return frozenset({actor})
    if seen_by == SEAT and isinstance(record.get("seat"), int):
        return frozenset({record["seat"]})
    return frozenset()


def _plain_hidden(prefix: str, fields: tuple[Hidden, ...], record: Mapping[str, Any], actor: Any) -> list[tuple]:
    found = []
    for hidden in fields:
        if hidden.when is not None and record.get(hidden.when[0]) != hidden.when[1]:
            continue
        for parts, value, seat, seats in _plain_matches(record, hidden.path.split("."), (), None, 0):
            if value is not None:
                found.append(
                    (f"{prefix}.{'.'.join(parts)}", value, _plain_seers(hidden.seen_by, seat, seats, record, actor))
                )
    return found


@pytest.mark.parametrize(("game_id", "seats"), GAMES)
def test_the_hidden_values_found_are_those_the_declarations_name(game_id: str, seats: int) -> None:
    declared = declaration(game_id)
    for event in played(game_id, seats).log:
        expected = _plain_hidden("data", declared.get(event.type, ()), event.data, event.actor)
        if event.command is not None:
            kind = event.command.get("kind", "")
            expected += _plain_hidden("command", COMMAND_HIDDEN.get(kind, ()), event.command, event.actor)
        found = hidden_in(declared, event.type, event.data, event.actor, event.command)
        assert [(hidden.path, hidden.value, hidden.seers) for hidden in found] == expected
        assert set(event.commitments or {}) == {path for path, _, _ in expected}
