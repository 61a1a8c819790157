"""Event schema versions: every chain of upcasters is complete, and a new field costs one upcaster.

The registry is checked at start for gaps, duplicates and cycles. A field
added to one event type (here the toy game's `Added`, in a fixture that plays
the part of a branch) needs the rules that write and read it and one upcaster:
games stored before still replay, and still audit on their bytes as stored.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from domain.audit import audit
from domain.batch import Batch
from domain.chance import Chance
from domain.commitments import verify_published
from domain.errors import RuleError
from domain.events import RecordedEvent
from domain.export import read_export
from domain.game import replay
from domain.upcasters import UPCASTERS, Step, UpcasterError, Upcasters, check_upcasters
from domain.values import changed
from projections.game import redact_log
from tests import toy_game
from tests.support.tables import new_table, play_randomly


def _same(data: Mapping[str, Any]) -> Mapping[str, Any]:
    return data


def test_the_registered_upcasters_chain_without_gap_duplicate_or_cycle() -> None:
    check_upcasters()


@pytest.mark.parametrize("type_", UPCASTERS.types())
def test_every_registered_chain_reaches_its_types_current_version(type_: str) -> None:
    current = UPCASTERS.current_version(type_)
    assert current > 1
    for version in range(1, current):
        v, _ = UPCASTERS.upcast(type_, version, {})
        assert v == current


def test_the_core_and_the_games_register_their_older_event_forms() -> None:
    assert {"GameCreated", "CardsDealt", "ZooSetUp"} <= set(UPCASTERS.types())
    assert UPCASTERS.upcast("CardsDealt", 1, {"round": 1}) == (2, {"round": 1, "rules_version": "1"})


def test_an_event_of_the_current_version_or_of_a_type_with_no_upcasters_is_read_as_stored() -> None:
    data = {"round": 1, "rules_version": "2"}
    assert UPCASTERS.upcast("CardsDealt", 2, data) == (2, data)
    assert UPCASTERS.upcast("NoSuchEvent", 1, data) == (1, data)


@pytest.mark.parametrize(
    ("steps", "problem"),
    [
        pytest.param([Step("Added", 1, _same, 2), Step("Added", 3, _same, 4)], "no upcaster from version 2", id="gap"),
        pytest.param(
            [Step("Added", 1, _same, 2), Step("Added", 1, _same, 2)], "two upcasters from version 1", id="twice"
        ),
        pytest.param([Step("Added", 1, _same, 2), Step("Added", 2, _same, 1)], "leads back to 1, a cycle", id="cycle"),
        pytest.param([Step("Added", 1, _same, 3)], "skips to 3", id="skip"),
        pytest.param([Step("Added", 0, _same, 1)], "below 1", id="below-one"),
    ],
)
def test_a_registry_that_does_not_chain_fails_the_check_and_names_the_problem(steps: list[Step], problem: str) -> None:
    with pytest.raises(UpcasterError) as raised:
        check_upcasters(Upcasters(steps))
    assert "Added" in str(raised.value) and problem in str(raised.value)


def test_a_cycle_cannot_make_a_read_loop() -> None:
    registry = Upcasters([Step("Added", 1, _same, 2), Step("Added", 2, _same, 1)])
    assert registry.upcast("Added", 1, {}) == (2, {})


def test_the_decorator_registers_a_step_up_by_one_and_returns_the_function() -> None:
    registry = Upcasters()

    @registry.upcaster("Added", 1)
    def lift(data: Mapping[str, Any]) -> Mapping[str, Any]:
        return {**data, "doubled": False}

    assert registry.steps == (Step("Added", 1, lift, 2),) and registry.current_version("Added") == 2
    assert lift({"n": 1}) == {"n": 1, "doubled": False}
    check_upcasters(registry)


@pytest.mark.parametrize("name", ["life_is_life_v1.ndjson", "bloede_kuh_v1.ndjson", "zop_zoo_v1.ndjson"])
def test_the_open_log_of_a_game_with_upcast_events_still_proves_its_chain(name: str) -> None:
    head, stored = read_export((Path(__file__).parent.parent / "fixtures" / name).read_text().splitlines())
    read = [RecordedEvent.from_dict(event) for event in stored]
    lifted = [event for event, raw in zip(read, stored, strict=True) if event.v != raw.get("v", 1)]
    published = redact_log(head["game"], read, None, open_log=True)
    assert lifted and all(event.data["rules_version"] == "1" for event in lifted)
    assert verify_published(published) is None
    assert all(published[event.seq - 1]["sealed"]["v"] == 1 for event in lifted)


# --- a new field, as a branch would add it -----------------------------------------


def stored_toy_game(seed: str) -> list[dict[str, Any]]:
    """Play a toy game to the end and return its events as the store keeps them (JSON)."""
    table = play_randomly(new_table(toy_game.GAME_ID, 2, {"goal": 12}, seed=seed), random.Random(seed))
    return [json.loads(json.dumps(event.to_dict())) for event in table.log]


@pytest.fixture(scope="module")
def old_game() -> list[dict[str, Any]]:
    """A toy game stored before the branch: every `Added` of version 1, without the new field."""
    return stored_toy_game("before-the-field")


@pytest.fixture
def registry() -> Iterator[Upcasters]:
    """The one registry, restored to what it held after the test."""
    before = UPCASTERS.steps
    yield UPCASTERS
    UPCASTERS.reset(before)


@pytest.fixture
def new_field(monkeypatch: pytest.MonkeyPatch) -> None:
    """The branch's rules: `Added` records `doubled` (always false so far), and `evolve` reads it."""

    def add(batch: Batch[toy_game.State], seat: int, action: Mapping[str, Any], chance: Chance) -> None:
        if action.get("n") not in (1, 2) or isinstance(action.get("n"), bool):
            raise RuleError("add 1 or 2")
        batch.emit("Added", {"n": action["n"], "doubled": False})

    def added(state: toy_game.State, event: Any) -> toy_game.State:
        n = event.data["n"] * (2 if event.data["doubled"] else 1)  # a KeyError on any event still of version 1
        return changed(
            state,
            total=state.total + n,
            turn=(state.turn + 1) % state.seats,
            moves=state.moves + 1,
            last_mover=event.actor,
        )

    monkeypatch.setitem(toy_game._ACTIONS, "add", add)
    monkeypatch.setitem(toy_game._HANDLERS, "Added", added)


@pytest.fixture
def upcaster_for_the_field(registry: Upcasters) -> None:
    """The one upcaster the branch adds: a version 1 `Added` was never doubled."""

    @registry.upcaster("Added", 1)
    def _added_v2(data: Mapping[str, Any]) -> Mapping[str, Any]:
        return {**data, "doubled": False}


@pytest.mark.usefixtures("new_field", "upcaster_for_the_field")
def test_with_one_upcaster_a_game_stored_before_a_new_field_replays_and_audits(old_game: list[dict[str, Any]]) -> None:
    check_upcasters()
    stored = copy.deepcopy(old_game)
    added = [event for event in stored if event["type"] == "Added"]
    assert added and all(event["v"] == 1 and "doubled" not in event["data"] for event in added)

    read = [RecordedEvent.from_dict(event) for event in stored]
    assert all(event.v == 2 and event.data["doubled"] is False for event in read if event.type == "Added")
    game = replay(read)
    assert game.status == "finished" and game.rules_state.total >= 12
    assert audit(stored).ok
    assert stored == old_game  # reading and auditing changed nothing stored: the chain covers these bytes


@pytest.mark.usefixtures("new_field", "upcaster_for_the_field")
def test_a_seats_log_of_the_old_game_shows_the_new_field_and_still_proves_its_chain(
    old_game: list[dict[str, Any]],
) -> None:
    read = [RecordedEvent.from_dict(event) for event in old_game]
    seed = old_game[-1]["data"]["seed"]
    for seat in (0, 1, None):
        published = redact_log(toy_game.GAME_ID, read, seat, seed=seed)
        added = [event for event in published if event["type"] == "Added"]
        assert all(event["v"] == 2 and event["data"]["doubled"] is False for event in added)
        assert all(
            event["sealed"]["v"] == 1 and event["sealed"]["data"] == {"n": event["data"]["n"]} for event in added
        )
        assert verify_published(published) is None
    assert verify_published(redact_log(toy_game.GAME_ID, read, None, open_log=True)) is None


@pytest.mark.usefixtures("new_field", "upcaster_for_the_field")
def test_a_game_played_after_the_new_field_records_it_under_version_2_and_audits() -> None:
    stored = stored_toy_game("after-the-field")
    added = [event for event in stored if event["type"] == "Added"]
    assert added and all(event["v"] == 2 and event["data"]["doubled"] is False for event in added)
    assert audit(stored).ok


@pytest.mark.usefixtures("new_field")
def test_without_the_upcaster_the_old_game_neither_replays_nor_audits(old_game: list[dict[str, Any]]) -> None:
    with pytest.raises(KeyError, match="doubled"):
        replay(RecordedEvent.from_dict(event) for event in old_game)
    report = audit(old_game)
    assert not report.ok and "differs from what the rules give" in (report.reason or "")


def test_the_registry_fixture_leaves_the_toy_event_at_version_1() -> None:
    assert UPCASTERS.current_version("Added") == 1 and "Added" not in UPCASTERS.types()
