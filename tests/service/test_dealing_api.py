"""Dealing over HTTP: disclosed in every answer that describes a game, contributions on the record, fixed games unrated."""

from __future__ import annotations

import json

import pytest

from domain.audit import audit
from domain.chance import seed_of
from service.cli import main as menagerie

ANN, BOB = "0f" * 16, "e1" * 16


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def created(client, seats, **extra) -> dict:
    response = client.post("/games", json={"game": "toy", "seats": seats, **extra})
    assert response.status_code == 201, response.json
    return response.json


def play_to_the_end(client, game: dict) -> list[dict]:
    """Play the game's named seats to the end; return the answers to their actions (their receipts)."""
    tokens = {seat["seat"]: seat["token"] for seat in game["seats"]}
    answers = []
    view = client.get(f"/games/{game['id']}").json
    while view["status"] != "finished":
        seat = view["to_act"][0]
        mine = client.get(f"/games/{game['id']}", headers=auth(tokens[seat])).json
        answer = client.post(
            f"/games/{game['id']}/actions", json={"action": mine["legal_actions"][0]}, headers=auth(tokens[seat])
        )
        assert answer.status_code == 200, answer.json
        answers.append(answer.json)
        view = client.get(f"/games/{game['id']}").json
    return answers


def export_lines(client, game_id: str) -> list[dict]:
    """Return the export's header and events (its default answer: one JSON document)."""
    document = client.get(f"/games/{game_id}/export").json
    return [document["header"], *document["events"]]


def test_dealing_is_shared_without_a_seed_and_fixed_with_one_in_every_description(client):
    shared = created(client, [{"name": "ann", "entropy": ANN}, {"name": "bob"}])
    fixed = created(client, [{"name": "ann"}, {"name": "bob"}], seed="practice")
    lobby = {game["id"]: game for game in client.get("/games").json["games"]}
    for game, dealing in ((shared, "shared"), (fixed, "fixed")):
        assert game["dealing"] == dealing
        assert client.get(f"/games/{game['id']}").json["dealing"] == dealing
        assert lobby[game["id"]]["dealing"] == dealing
        play_to_the_end(client, game)
        assert export_lines(client, game["id"])[0]["dealing"] == dealing
    assert seed_of(client.get(f"/games/{fixed['id']}").json["seed"]) == "practice"


def test_contributions_are_public_in_the_log_and_a_fixed_game_drops_them(client):
    shared = created(client, [{"name": "ann", "entropy": ANN}, {}])
    joined = client.post(f"/games/{shared['id']}/join", json={"name": "bob", "entropy": BOB})
    assert joined.status_code == 201
    seated = [e["data"] for e in client.get(f"/games/{shared['id']}/events").json["events"] if e["type"] == "SeatTaken"]
    assert [seat.get("entropy") for seat in seated] == [ANN, BOB]
    fixed = created(client, [{"name": "ann", "entropy": ANN}, {"name": "bob"}], seed="practice")
    events = client.get(f"/games/{fixed['id']}/events").json["events"]
    assert not any("entropy" in e["data"] for e in events if e["type"] == "SeatTaken")


def test_entropy_that_is_not_a_humans_hex_is_a_400(client):
    for seat in ({"bot": "random", "entropy": ANN}, {"entropy": ANN}, {"name": "ann", "entropy": "xyz" * 12}):
        answer = client.post("/games", json={"game": "toy", "seats": [seat, {"name": "bob"}]})
        assert answer.status_code == 400 and answer.json["error"]["code"] == "invalid_request", seat
    game = created(client, [{"name": "ann"}, {}])
    short = client.post(f"/games/{game['id']}/join", json={"name": "bob", "entropy": "ab"})
    assert short.status_code == 400


def test_a_changed_contribution_fails_the_audit(client):
    game = created(client, [{"name": "ann", "entropy": ANN}, {"name": "bob", "entropy": BOB}])
    play_to_the_end(client, game)
    events = export_lines(client, game["id"])[1:]
    assert audit(events).ok
    seat_taken = next(e for e in events if e["type"] == "SeatTaken")
    seat_taken["data"]["entropy"] = "00" * 16
    report = audit(events)
    assert not report.ok and report.failed_at == seat_taken["seq"]


def test_a_fixed_game_is_not_rated_and_a_shared_one_is(client, fake_services):
    outcomes = {}
    tokens = [client.post("/players", json={"handle": handle}).json["token"] for handle in ("ann", "bob")]
    for dealing, extra in (("shared", {}), ("fixed", {"seed": "practice"})):
        game = created(client, [{"player_token": token} for token in tokens], **extra)
        play_to_the_end(client, game)
        outcomes[dealing] = fake_services.ratings.rate_game(game["id"])
    assert outcomes["fixed"] == "unrated" and outcomes["shared"] in ("rated", "duplicate")


def test_receipts_prove_what_the_service_acknowledged(client, tmp_path, capsys):
    game = created(client, [{"name": "ann"}, {"name": "bob"}])
    receipts = play_to_the_end(client, game)  # each action's answer, kept as it came
    export = tmp_path / "game.ndjson"
    export.write_text(client.get(f"/games/{game['id']}/export").get_data(as_text=True))
    kept = tmp_path / "receipts.ndjson"
    kept.write_text("".join(json.dumps(answer) + "\n" for answer in receipts))
    capsys.readouterr()
    assert menagerie(["audit", str(export), "--receipts", str(kept)]) == 0
    count = sum(len(answer["events"]) for answer in receipts)
    assert f", {count} receipts, of {count} events from " in capsys.readouterr().out
    # The service's log now says otherwise than it told a player at one event.
    wrong = receipts[2]["events"][0]
    receipts[2]["events"][0] = {**wrong, "hash": "0" * 64}
    kept.write_text("".join(json.dumps(answer) + "\n" for answer in receipts))
    capsys.readouterr()
    assert menagerie(["audit", str(export), "--receipts", str(kept)]) == 1
    assert f"at event {wrong['seq']}: event {wrong['seq']} is not the one the service acknowledged" in (
        capsys.readouterr().out
    )


def test_a_shared_tournaments_entrants_add_entropy_to_its_games_and_a_fixed_one_drops_it(client):
    for extra, dealing in (({}, "shared"), ({"seed": "cup"}, "fixed")):
        created = client.post("/tournaments", json={"game": "toy", "rounds": 1, "table_sizes": [2], **extra}).json
        tid, organiser = created["id"], auth(created["organiser_token"])
        assert created["tournament"]["dealing"] == dealing
        for name, entropy in (("ann", ANN), ("bob", BOB)):
            answer = client.post(f"/tournaments/{tid}/register", json={"name": name, "entropy": entropy})
            assert answer.status_code == 201, answer.json
        assert client.post(f"/tournaments/{tid}/start", headers=organiser).status_code == 200
        game_id = client.get(f"/tournaments/{tid}").json["rounds"][0]["tables"][0]["game_id"]
        events = client.get(f"/games/{game_id}/events").json["events"]
        given = sorted(e["data"].get("entropy") or "" for e in events if e["type"] == "SeatTaken")
        assert given == (sorted([ANN, BOB]) if dealing == "shared" else ["", ""])
        assert client.get(f"/games/{game_id}").json["dealing"] == dealing
    bot = client.post(f"/tournaments/{tid}/register", json={"bot": "random", "entropy": ANN}, headers=organiser)
    assert bot.status_code == 400


@pytest.mark.parametrize(
    ("lines", "reason"),
    [
        ("", "no receipts"),
        ("\n\n", "no receipts"),
        ('{"seq": "3", "hash": "%s"}\n' % ("a" * 64), "line 1: not a receipt"),
        ('{"seq": 3}\n', "line 1: not a receipt"),
        ('{"seq": 3, "hash": "%s"}\n{"events": []}\n' % ("a" * 64), "line 2: an answer with no events"),
        ('{"events": [{"seq": true, "hash": "%s"}]}\n' % ("a" * 64), "line 1: not a receipt"),
        ("[1, 2]\n", "line 1: not a JSON object"),
    ],
)
def test_a_receipts_file_with_no_receipts_or_a_malformed_one_is_an_error_not_a_pass(
    client, tmp_path, capsys, lines, reason
):
    game = created(client, [{"name": "ann"}, {"name": "bob"}])
    play_to_the_end(client, game)
    export = tmp_path / "game.ndjson"
    export.write_text(client.get(f"/games/{game['id']}/export").get_data(as_text=True))
    kept = tmp_path / "receipts.ndjson"
    kept.write_text(lines)
    capsys.readouterr()
    assert menagerie(["audit", str(export), "--receipts", str(kept)]) == 2
    out = capsys.readouterr()
    assert "PASS" not in out.out and reason in out.err


def test_create_and_join_answers_hold_each_seats_receipt_with_the_entropy_it_sent(client, tmp_path, capsys):
    game = created(client, [{"name": "ann", "entropy": ANN}, {}], options={})
    ann = game["seats"][0]["receipt"]
    assert (ann["type"], ann["data"]["seat"], ann["data"]["entropy"]) == ("SeatTaken", 0, ANN)
    key = {"Idempotency-Key": "bob-joins-" + "7" * 40}
    joined = client.post(f"/games/{game['id']}/join", json={"name": "bob", "entropy": BOB}, headers=key)
    assert joined.status_code == 201, joined.json
    bob = joined.json["receipt"]
    assert (bob["type"], bob["data"]["seat"], bob["data"]["entropy"]) == ("SeatTaken", 1, BOB)
    retried = client.post(f"/games/{game['id']}/join", json={"name": "bob", "entropy": BOB}, headers=key)
    assert retried.status_code == 201 and retried.json["receipt"] == bob
    seats = [game["seats"][0], {"seat": 1, "token": joined.json["token"]}]
    answers = play_to_the_end(client, {**game, "seats": seats})
    published = {event["seq"]: event for event in export_lines(client, game["id"])[1:]}
    for receipt in (ann, bob):
        assert published[receipt["seq"]]["hash"] == receipt["hash"]
        assert published[receipt["seq"]]["data"]["entropy"] == receipt["data"]["entropy"]
    export, kept = tmp_path / "game.ndjson", tmp_path / "receipts.ndjson"
    export.write_text(client.get(f"/games/{game['id']}/export").get_data(as_text=True))
    kept.write_text("".join(json.dumps(answer) + "\n" for answer in [game["seats"][0], joined.json, *answers]))
    capsys.readouterr()
    assert menagerie(["audit", str(export), "--receipts", str(kept)]) == 0
    assert f"receipts, of {2 + sum(len(a['events']) for a in answers)} events from {ann['seq']} to" in (
        capsys.readouterr().out
    )


def test_a_fixed_games_seats_get_receipts_without_entropy(client):
    game = created(client, [{"name": "ann"}, {"name": "bob"}], seed="practice")
    receipts = [seat["receipt"] for seat in game["seats"]]
    assert [r["data"]["seat"] for r in receipts] == [0, 1] and all("entropy" not in r["data"] for r in receipts)
