"""A finished tournament's bundle audits offline; each kind of tampering fails at the right place."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from domain.events import GENESIS_HASH, chain_hash
from domain.tournament.audit import audit_bundle
from domain.tournament.bundle import Bundle, bundle_lines, read_bundle
from service.bootstrap import Services
from service.cli import main
from tests.support.services import on_every_store

redis_client = on_every_store()


def run_toy(services: Services, seed: str) -> Bundle:
    """Run an all-bot Swiss toy tournament of 9 players and 3 rounds; return its bundle."""
    created, _ = services.tournaments.create("toy", rounds=3, table_sizes=[3], seed=seed)
    for _ in range(9):
        services.tournaments.register(created.id, bot="random")
    services.tournaments.start(created.id)
    assert services.tournaments.load(created.id).status == "finished"
    return read_bundle(services.tournament_files.export(created.id))


@pytest.fixture
def bundle(fake_services: Services) -> Bundle:
    return run_toy(fake_services, "audit-seed")


def rehash(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Recompute the chain, as a forger who changed events would."""
    previous = GENESIS_HASH
    for event in events:
        event["hash"] = chain_hash(previous, {k: v for k, v in event.items() if k != "hash"})
        previous = event["hash"]
    return events


def other_places(places: list[int]) -> list[int]:
    """Return places that differ from `places` (reversing a tie or a palindrome would not)."""
    return [1, 2, 3] if places != [1, 2, 3] else [3, 2, 1]


def first(events: list[dict[str, Any]], type_: str, **data: Any) -> dict[str, Any]:
    return next(e for e in events if e["type"] == type_ and all(e["data"].get(k) == v for k, v in data.items()))


def batch_command(events: list[dict[str, Any]], event: dict[str, Any]) -> dict[str, Any]:
    """Return the command on the first event of the batch holding `event`."""
    return next(e for e in events if e["command_id"] == event["command_id"] and "command" in e)["command"]


def test_an_untouched_bundle_passes_offline_and_through_the_api(bundle, fake_services, tmp_path, capsys):
    report = audit_bundle(bundle)
    assert report.ok and report.games == 9, report
    path = tmp_path / "t.ndjson"
    path.write_text("".join(bundle_lines(bundle.head, bundle.events, bundle.games.values())))
    assert main(["audit-tournament", str(path)]) == 0
    assert capsys.readouterr().out.startswith("PASS toy tournament")


def test_a_changed_result_fails_at_its_result(bundle):
    events = copy.deepcopy(bundle.events)
    recorded = first(events, "ResultRecorded", round=1)
    recorded["data"]["places"] = other_places(recorded["data"]["places"])
    naive = audit_bundle(Bundle(bundle.head, events, bundle.games))
    assert not naive.ok and naive.failed_at == recorded["seq"] and "hash chain" in naive.reason
    for result in batch_command(events, recorded)["results"]:
        if result["game_id"] == recorded["data"]["game_id"]:
            result["places"] = recorded["data"]["places"]
    forged = audit_bundle(Bundle(bundle.head, rehash(events), bundle.games))
    assert not forged.ok and forged.failed_at == recorded["seq"] and forged.game_id == recorded["data"]["game_id"]
    assert "GameEnded" in forged.reason


def test_a_swapped_table_fails_at_the_pairing(bundle):
    events = copy.deepcopy(bundle.events)
    left, right = first(events, "TableSeated", round=2, table=0), first(events, "TableSeated", round=2, table=1)
    left["data"]["entrants"][0], right["data"]["entrants"][0] = (
        right["data"]["entrants"][0],
        left["data"]["entrants"][0],
    )
    report = audit_bundle(Bundle(bundle.head, rehash(events), bundle.games))
    assert not report.ok and report.failed_at == left["seq"] and "TableSeated differs" in report.reason


def test_a_dropped_game_fails_at_its_result(bundle):
    recorded = first(bundle.events, "ResultRecorded", round=2)
    games = {g: f for g, f in bundle.games.items() if g != recorded["data"]["game_id"]}
    report = audit_bundle(Bundle(bundle.head, bundle.events, games))
    assert not report.ok and report.failed_at == recorded["seq"] and "not in the bundle" in report.reason


def test_a_game_from_another_tournament_fails_where_it_is_linked(bundle, fake_services):
    other = run_toy(fake_services, "another-seed")
    events = copy.deepcopy(bundle.events)
    linked = first(events, "GameLinked", round=1, table=0)
    ours = linked["data"]["game_id"]
    theirs = first(other.events, "GameLinked", round=1, table=0)["data"]["game_id"]
    # The forger renames our game to theirs everywhere in the stream and rehashes it.
    text = json.dumps(events).replace(ours, theirs)
    games = {g: f for g, f in bundle.games.items() if g != ours} | {theirs: other.games[theirs]}
    report = audit_bundle(Bundle(bundle.head, rehash(json.loads(text)), games))
    assert not report.ok and report.failed_at == linked["seq"] and report.game_id == theirs
    assert "not dealt from this tournament's seed" in report.reason


def test_a_tampered_game_inside_the_bundle_fails_its_own_audit(bundle):
    recorded = first(bundle.events, "ResultRecorded", round=3)
    game = bundle.games[recorded["data"]["game_id"]]
    events = copy.deepcopy(game.events)
    events[-1]["data"]["result"]["places"] = other_places(events[-1]["data"]["result"]["places"])
    games = {**bundle.games, recorded["data"]["game_id"]: type(game)(game.head, events)}
    report = audit_bundle(Bundle(bundle.head, bundle.events, games))
    assert not report.ok and report.failed_at == recorded["seq"] and "fails its audit" in report.reason


def test_an_unfinished_tournament_has_no_bundle_yet(client):
    created = client.post("/tournaments", json={"game": "toy", "rounds": 1}).json
    for path in ("export", "audit"):
        response = client.get(f"/tournaments/{created['id']}/{path}")
        assert response.status_code == 403 and response.json["error"]["code"] == "tournament_in_play"


def test_a_game_swapped_for_another_with_the_same_seats_and_result_fails(bundle, fake_services):
    recorded = first(bundle.events, "ResultRecorded", round=2)
    ours = recorded["data"]["game_id"]
    assert recorded["data"]["final_hash"] == bundle.games[ours].events[-1]["hash"]
    # Another tournament with the same seed plays the same seats; its game at this table stands in for ours.
    twin = run_toy(fake_services, "audit-seed")
    theirs = first(twin.events, "ResultRecorded", round=2, table=recorded["data"]["table"])["data"]["game_id"]
    games = {**bundle.games, ours: twin.games[theirs]}
    report = audit_bundle(Bundle(bundle.head, bundle.events, games))
    linked = first(bundle.events, "GameLinked", game_id=ours)
    # Each game's secret is salted from its own tournament's: the twin was not dealt for this table.
    assert not report.ok and report.failed_at == linked["seq"] and report.game_id == ours


def test_a_game_whose_chain_ends_elsewhere_than_recorded_fails(bundle):
    events = copy.deepcopy(bundle.events)
    recorded = first(events, "ResultRecorded", round=1)
    recorded["data"]["final_hash"] = "0" * 64
    # The forger changes the command too, so that re-executing it gives the changed event.
    for result in batch_command(events, recorded)["results"]:
        if result["game_id"] == recorded["data"]["game_id"]:
            result["final_hash"] = "0" * 64
    report = audit_bundle(Bundle(bundle.head, rehash(events), bundle.games))
    assert not report.ok and report.failed_at == recorded["seq"]
    assert "does not end at the hash the tournament recorded" in report.reason


def test_a_tournament_command_with_a_field_its_kind_does_not_have_fails_even_rechained(bundle):
    events = copy.deepcopy(bundle.events)
    started = first(events, "RoundStarted")
    batch_command(events, started)["note"] = "harmless?"
    report = audit_bundle(Bundle(bundle.head, rehash(events), bundle.games))
    owner = next(e for e in events if e["command_id"] == started["command_id"] and "command" in e)
    assert not report.ok and report.failed_at == owner["seq"] and "has a field no" in report.reason
    assert report.reason.endswith(": note")


def test_a_tournament_event_with_a_free_text_command_id_fails_even_rechained(bundle):
    events = copy.deepcopy(bundle.events)
    events[1]["command_id"] = "the organiser's favourite"
    report = audit_bundle(Bundle(bundle.head, rehash(events), bundle.games))
    assert not report.ok and report.failed_at == 2 and "not of the service's form" in report.reason


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("id", "t-0123456789abcdef"),
        ("game", "life-is-life"),
        ("seed_commitment", "0" * 64),
        ("status", "active"),
        ("format", "menagerie-tournament/2"),
        ("note", "trust me"),
    ],
)
def test_a_bundle_whose_header_says_otherwise_than_its_chain_fails(bundle, key, value):
    report = audit_bundle(Bundle({**bundle.head, key: value}, bundle.events, bundle.games))
    assert not report.ok and report.failed_at == 1 and f" {key}" in report.reason


def test_a_bundle_whose_header_lists_its_games_in_another_order_fails(bundle):
    head = {**bundle.head, "games": list(reversed(bundle.head["games"]))}
    report = audit_bundle(Bundle(head, bundle.events, bundle.games))
    assert not report.ok and "header's games" in report.reason


def test_a_bundle_header_with_a_signature_is_left_to_the_signature_check(bundle):
    report = audit_bundle(Bundle({**bundle.head, "signature": {"alg": "ed25519"}}, bundle.events, bundle.games))
    assert not report.ok and report.reason.startswith("signature:")
    assert any("header field" in check for check in audit_bundle(bundle).checks)


@pytest.mark.parametrize(
    ("key", "change"),
    [
        ("seats", lambda seats: [{**seats[0], "name": "mallory", "bot": None}, *seats[1:]]),
        ("dealing", lambda dealing: "shared" if dealing == "fixed" else "fixed"),
        ("options", lambda options: {**(options or {}), "extra": 1}),
        ("seed_commitment", lambda _: "0" * 64),
        ("rules_version", lambda _: "0"),
    ],
)
def test_a_game_section_whose_header_says_otherwise_than_its_chain_fails(bundle, key, change):
    recorded = first(bundle.events, "ResultRecorded", round=3)
    game_id = recorded["data"]["game_id"]
    game = bundle.games[game_id]
    head = {**game.head, key: change(copy.deepcopy(game.head[key]))}
    games = {**bundle.games, game_id: type(game)(head, game.events)}
    report = audit_bundle(Bundle(bundle.head, bundle.events, games))
    assert not report.ok and report.failed_at == recorded["seq"] and report.game_id == game_id
    assert f"header's {key}" in report.reason


def test_an_edited_bundle_header_fails_on_the_command_line(bundle, tmp_path, capsys):
    path = tmp_path / "t.ndjson"
    head = {**bundle.head, "game": "zop-zoo"}
    path.write_text("".join(bundle_lines(head, bundle.events, bundle.games.values())))
    assert main(["audit-tournament", str(path)]) == 1
    assert "FAIL" in capsys.readouterr().out


def test_an_entrants_receipts_hold_against_the_bundle_and_a_rewritten_one_fails(fake_services, tmp_path, capsys):
    created, _ = fake_services.tournaments.create("toy", rounds=3, table_sizes=[3], seed="receipts-seed")
    answers = [fake_services.tournaments.register(created.id, bot="random") for _ in range(9)]
    fake_services.tournaments.start(created.id)
    bundle = read_bundle(fake_services.tournament_files.export(created.id))
    mine = answers[4]["receipt"]
    assert mine["type"] == "PlayerRegistered" and mine["hash"] == bundle.events[mine["seq"] - 1]["hash"]
    path, kept = tmp_path / "t.ndjson", tmp_path / "receipts.ndjson"
    path.write_text("".join(bundle_lines(bundle.head, bundle.events, bundle.games.values())))
    # The entrant keeps its registration's answer, then each ResultRecorded the tournament's stream sent.
    results = [event for event in bundle.events if event["type"] == "ResultRecorded"]
    kept.write_text("".join(json.dumps(line) + "\n" for line in [answers[4], *results]))
    capsys.readouterr()
    assert main(["audit-tournament", str(path), "--receipts", str(kept)]) == 0
    assert f"{1 + len(results)} receipts, of {1 + len(results)} events from {mine['seq']} to" in capsys.readouterr().out
    forged = {**results[-1], "hash": "0" * 64}
    kept.write_text("".join(json.dumps(line) + "\n" for line in [answers[4], *results[:-1], forged]))
    assert main(["audit-tournament", str(path), "--receipts", str(kept)]) == 1
    out = capsys.readouterr().out
    assert f"at tournament event {forged['seq']}: event {forged['seq']} is not the one the service acknowledged" in out
    kept.write_text("")
    assert main(["audit-tournament", str(path), "--receipts", str(kept)]) == 2
    assert "no receipts" in capsys.readouterr().err


@pytest.mark.parametrize("time", [{"at": "noon"}, "2026-02-30T12:00:00Z", "12:00"])
def test_a_tournament_event_whose_time_is_not_rfc_3339_fails_even_rechained(bundle, time):
    events = copy.deepcopy(bundle.events)
    events[2]["time"] = time
    report = audit_bundle(Bundle(bundle.head, rehash(events), bundle.games))
    assert not report.ok and report.failed_at == 3 and "not an RFC 3339 time" in report.reason
