"""Games recorded under rules version 1 of Blöde Kuh and Zop Zoo still replay, render and audit.

The fixtures are finished games recorded by the code before issue 13's
corrected rulings (Blöde Kuh's lazy refill, Zop Zoo's scoring of covered
minus cards): their GameCreated says rules_version "1", and their first
events (CardsDealt, ZooSetUp) are of schema version 1, which did not record
it. Replayed and re-executed under rules 1 they give exactly what was
recorded; under rules 2 the same commands give other events.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from domain.audit import audit, audit_export
from domain.events import GENESIS_HASH, RecordedEvent, chain_hash
from domain.export import read_export
from domain.game import FINISHED, Game, replay
from projections.game import game_view, redact_log

FIXTURES = Path(__file__).parent.parent / "fixtures"
# fixture file -> the event rules 2 decides where rules 1 decided something else
OLD_GAMES = {"bloede_kuh_v1.ndjson": "DrawPileRefilled", "zop_zoo_v1.ndjson": "RoundWon"}


def load(name: str) -> tuple[dict, list[dict]]:
    """Read a fixture export: its header and its events as stored."""
    return read_export((FIXTURES / name).read_text().splitlines())


def rehash(events: list[dict]) -> list[dict]:
    """Recompute the hash chain after a change, as a forger controlling the store would."""
    previous = GENESIS_HASH
    for event in events:
        event["hash"] = chain_hash(previous, {key: value for key, value in event.items() if key != "hash"})
        previous = event["hash"]
    return events


@pytest.mark.parametrize("name", sorted(OLD_GAMES))
def test_an_old_game_replays_under_its_own_rules_and_passes_its_audit(name: str) -> None:
    head, events = load(name)
    assert head["rules_version"] == "1" and events[0]["data"]["rules_version"] == "1"
    setup = next(event for event in events if event["type"] in ("CardsDealt", "ZooSetUp"))
    assert setup["v"] == 1 and "rules_version" not in setup["data"]
    game = replay(RecordedEvent.from_dict(event) for event in events)
    assert game.status == FINISHED and game.result == events[-1]["data"]["result"]
    assert game.rules_version == "1" and game.rules_state.rules_version == "1"
    assert audit(events).ok and audit_export(head, events).ok


@pytest.mark.parametrize(("name", "differs_at"), sorted(OLD_GAMES.items()))
def test_under_rules_2_the_same_commands_give_other_events(name: str, differs_at: str) -> None:
    _, events = load(name)
    # Relabel the game as a rules 2 game, everywhere the version is recorded.
    events[0]["data"]["rules_version"] = "2"
    for event in events:
        if event["type"] in ("CardsDealt", "ZooSetUp"):
            event["data"]["rules_version"], event["v"] = "2", 2
    report = audit(rehash(events))
    assert not report.ok and "differs from what the rules give" in report.reason
    assert f"the rules give ({differs_at}," in report.reason


@pytest.mark.parametrize("name", sorted(OLD_GAMES))
def test_every_position_of_an_old_game_renders_for_every_viewer(name: str) -> None:
    head, events = load(name)
    recorded = [RecordedEvent.from_dict(event) for event in events]
    seats = range(len(head["seats"]))
    game = Game()
    for event in recorded:
        game = replay([event], game)
        for seat in [*seats, None]:
            json.dumps(game_view(game, seat))
        json.dumps(game_view(game, None, open_view=True))
    for seat in [*seats, None]:
        json.dumps(redact_log(head["game"], recorded, seat))
