"""Audits catch every kind of tampering, at the right event; old event shapes stay readable."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from domain.audit import audit, audit_export, identity
from domain.commitments import FIRST_SEALED
from domain.events import GENESIS_HASH, Event, RecordedEvent, chain_hash
from domain.export import ExportFormatError, read_export
from domain.game import replay
from domain.sealing import Sealer
from tests.support.tables import new_table, play_randomly

FIXTURE = Path(__file__).parent.parent / "fixtures" / "life_is_life_v1.ndjson"
GAMES = {"life-is-life": 4, "animals-on-board": 3, "bloede-kuh": 4, "zop-zoo": 3}


@pytest.fixture(scope="module", params=sorted(GAMES))
def finished(request) -> list[dict]:
    table = play_randomly(
        new_table(request.param, GAMES[request.param], seed=f"audit-{request.param}"), random.Random(7)
    )
    return [event.to_dict() for event in table.log]


def rehash(events: list[dict]) -> list[dict]:
    """Recompute the chain and its commitments, as a forger who controls the store and has the seed would."""
    previous = GENESIS_HASH
    scheme = events[0].get("chain", 1)
    seal = Sealer(events[0]["data"]["game"], events[-1]["data"]["seed"], scheme)
    for seq, event in enumerate(events, start=1):
        event["seq"] = seq
        event.pop("commitments", None)
        if scheme >= FIRST_SEALED:
            event["commitments"] = seal(seq, Event(event["type"], event["data"], event["actor"]), event.get("command"))
        event["hash"] = chain_hash(previous, {k: v for k, v in event.items() if k != "hash"})
        previous = event["hash"]
    return events


def first_deal(events: list[dict]) -> int:
    """Index of the first event after GameStarted that names cards (every game deals there)."""
    started = next(i for i, e in enumerate(events) if e["type"] == "GameStarted")
    return next(i for i in range(started + 1, len(events)) if len(set(_strings(events[i]["data"]))) >= 2)


def change_one_card(events: list[dict], index: int) -> None:
    """Swap two different strings somewhere inside the event's data."""
    text = json.dumps(events[index]["data"])
    words = sorted(set(_strings(events[index]["data"])))
    a, b = words[0], words[-1]
    swapped = text.replace(f'"{a}"', '"\0"').replace(f'"{b}"', f'"{a}"').replace('"\0"', f'"{b}"')
    assert swapped != text
    events[index]["data"] = json.loads(swapped)


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def test_an_untouched_game_passes(finished):
    report = audit(finished)
    assert report.ok and report.events == len(finished) and report.failed_at is None


def test_a_changed_card_breaks_the_hash_chain_at_that_event(finished):
    events = copy.deepcopy(finished)
    index = first_deal(events)
    change_one_card(events, index)
    report = audit(events)
    assert not report.ok and report.failed_at == index + 1 and "hash chain" in report.reason


def test_a_changed_card_with_the_chain_recomputed_is_caught_by_re_dealing_from_the_seed(finished):
    events = copy.deepcopy(finished)
    index = first_deal(events)
    change_one_card(events, index)
    report = audit(rehash(events))
    assert not report.ok and report.failed_at == index + 1 and "differs from what the rules give" in report.reason


def test_a_dropped_event_is_caught_where_it_was(finished):
    events = copy.deepcopy(finished)
    del events[len(events) // 2]
    report = audit(events)
    assert not report.ok and report.failed_at == len(finished) // 2 + 1
    forged = audit(rehash(copy.deepcopy(events)))
    assert not forged.ok and forged.failed_at <= len(finished) // 2 + 2


def test_two_reordered_events_are_caught(finished):
    events = copy.deepcopy(finished)
    i = len(events) // 2
    events[i], events[i + 1] = events[i + 1], events[i]
    report = audit(events)
    assert not report.ok and report.failed_at == i + 1
    forged = audit(rehash(copy.deepcopy(events)))
    assert not forged.ok and forged.failed_at in (i + 1, i + 2)


def test_a_swapped_seed_is_caught_at_the_reveal(finished):
    events = copy.deepcopy(finished)
    events[-1]["data"]["seed"] = "another seed"
    report = audit(rehash(events))
    assert not report.ok and report.failed_at == len(events) and "commitment" in report.reason


def test_a_swapped_seed_and_commitment_is_caught_at_the_first_deal(finished):
    from domain.chance import seed_commitment

    events = copy.deepcopy(finished)
    events[-1]["data"]["seed"] = "another seed"
    events[0]["data"]["seed_commitment"] = seed_commitment("another seed")
    events[0]["command"]["seed_commitment"] = seed_commitment("another seed")
    report = audit(rehash(events))
    started = next(e for e in events if e["type"] == "GameStarted")
    failed = events[report.failed_at - 1]
    assert not report.ok and "differs from what the rules give" in report.reason
    assert failed["seq"] > started["seq"] and failed["command_id"] == started["command_id"]  # the opening deal


def test_an_illegal_move_is_refused_by_the_rules(finished):
    events = copy.deepcopy(finished)
    index = next(i for i, e in enumerate(events) if (e.get("command") or {}).get("kind") == "act")
    events[index]["command"]["action"] = {"type": "no-such-move"}
    report = audit(rehash(events))
    assert not report.ok and report.failed_at == index + 1 and "refuse" in report.reason


def test_an_unfinished_game_cannot_be_audited(finished):
    report = audit(finished[:-1])
    assert not report.ok and "not over" in report.reason


def test_an_older_event_shape_is_upcast_on_read():
    head, events = read_export(FIXTURE.read_text().splitlines())
    assert events[0]["type"] == "GameCreated" and events[0]["v"] == 1 and "rules_version" not in events[0]["data"]
    created = RecordedEvent.from_dict(events[0])
    assert created.v == 2 and created.data["rules_version"] == "1"
    game = replay(RecordedEvent.from_dict(e) for e in events)
    assert game.status == "finished" and game.result["winners"] == [0]
    assert audit(events).ok


@pytest.mark.parametrize(
    "text, line",
    [
        ("", 1),
        ("not json\n", 1),
        ('{"format": "something-else"}\n', 1),
        ('{"format": "menagerie-game/1", "version": 2}\n[1]\n', 2),
        ('{"format": "menagerie-game/1", "version": 2}\n{"seq": 1}\n', 2),
    ],
)
def test_a_malformed_export_names_the_line(text, line):
    with pytest.raises(ExportFormatError) as raised:
        read_export(text.splitlines())
    assert raised.value.line == line and f"line {line}" in raised.value.message


def test_a_truncated_export_is_refused():
    lines = FIXTURE.read_text().splitlines()[:-3]
    with pytest.raises(ExportFormatError) as raised:
        read_export(lines)
    assert "truncated" in raised.value.message


def test_an_event_with_a_field_no_event_has_fails_even_rechained(finished):
    events = copy.deepcopy(finished)
    events[3]["note"] = "harmless?"
    report = audit(rehash(events))
    assert not report.ok and report.failed_at == 4 and "no event has: note" in report.reason


def full_header(events: list[dict]) -> dict:
    """Return the header the service exports for a finished game's log."""
    return {
        "format": "menagerie-game/1",
        **identity(events),
        "status": "finished",
        "version": len(events),
        "redacted": False,
    }


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("id", "0123456789abcdef"),
        ("game", "toy"),
        ("dealing", "shared"),
        ("rules_version", "0"),
        ("seed_commitment", "0" * 64),
        ("options", {"advanced": True, "target": 1}),
        ("status", "active"),
        ("version", 3),
        ("redacted", True),
        ("format", "menagerie-game/2"),
    ],
)
def test_an_export_whose_header_says_otherwise_than_its_chain_fails(finished, key, value):
    head = full_header(finished)
    assert audit_export(head, finished).ok
    report = audit_export({**head, key: value}, finished)
    assert not report.ok and report.failed_at == 1 and f"header's {key}" in report.reason


def test_an_export_whose_header_renames_a_seat_fails(finished):
    head = full_header(finished)
    head["seats"][1] = {**head["seats"][1], "name": "mallory"}
    report = audit_export(head, finished)
    assert not report.ok and "header's seats" in report.reason and "mallory" in report.reason


def test_an_export_header_with_a_field_no_header_has_fails_but_a_signature_is_left_to_its_check(finished):
    head = full_header(finished)
    assert not audit_export({**head, "note": "trust me"}, finished).ok
    assert "no header has: note" in audit_export({**head, "note": "trust me"}, finished).reason
    # A signature is no header field: a malformed one fails as a signature.
    report = audit_export({**head, "signature": {"alg": "ed25519"}}, finished)
    assert not report.ok and report.reason.startswith("signature:")
    assert "every header field against the chain" in audit_export(head, finished).checks


def test_a_command_with_a_field_its_kind_does_not_have_fails_even_rechained(finished):
    events = copy.deepcopy(finished)
    moved = next(e for e in events if (e.get("command") or {}).get("kind") == "act")
    moved["command"]["note"] = "harmless?"
    report = audit(rehash(events))
    assert not report.ok and report.failed_at == moved["seq"]
    assert report.reason == "the act command has a field no act command has: note"


def test_a_command_that_is_not_an_object_fails_even_rechained(finished):
    events = copy.deepcopy(finished)
    events[0]["command"] = ["create"]
    previous = GENESIS_HASH
    for event in events:  # the chain alone: a sealer cannot read such a command either
        event["hash"] = previous = chain_hash(previous, {k: v for k, v in event.items() if k != "hash"})
    report = audit(events)
    assert not report.ok and report.failed_at == 1 and "not a JSON object" in report.reason


@pytest.mark.parametrize(
    "time", [{"at": "2026-01-01T00:00:00Z"}, "yesterday", "2026-13-01T00:00:00Z", "2026-01-01T00:00:00+02:00", 0]
)
def test_a_time_that_is_not_an_rfc_3339_utc_string_fails_even_rechained(finished, time):
    events = copy.deepcopy(finished)
    events[4]["time"] = time
    report = audit(rehash(events))
    assert not report.ok and report.failed_at == 5 and "not an RFC 3339 time" in report.reason


@pytest.mark.parametrize("command_id", ["from the house, with love", "C" * 32, "c4", 7])
def test_a_command_id_not_of_the_services_form_fails_even_rechained(finished, command_id):
    events = copy.deepcopy(finished)
    batch = [e for e in events if e["command_id"] == events[4]["command_id"]]
    for event in batch:
        event["command_id"] = command_id
    report = audit(rehash(events))
    assert not report.ok and report.failed_at == batch[0]["seq"] and "not of the service's form" in report.reason


@pytest.mark.parametrize("v", [[1], "1", 0, True, 99, None])
def test_a_schema_version_its_event_type_never_had_fails_even_rechained(finished, v):
    events = copy.deepcopy(finished)
    events[4]["v"] = v
    report = audit(rehash(events))
    assert not report.ok and report.failed_at == 5 and "schema version" in report.reason


def test_the_service_forms_of_time_and_command_id_pass(finished):
    events = copy.deepcopy(finished)
    for event in events:
        event["time"] = "2026-11-28T05:07:09.123Z"
    assert audit(rehash(events)).ok


@pytest.mark.parametrize("name", ["bloede_kuh_v1.ndjson", "life_is_life_v1.ndjson", "zop_zoo_v1.ndjson"])
def test_a_game_recorded_before_these_checks_passes_with_its_own_header(name):
    head, events = read_export((FIXTURE.parent / name).read_text().splitlines())
    report = audit_export(head, events)
    assert report.ok, report.reason
