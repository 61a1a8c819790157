"""The transparency log over HTTP: a finished game's result is provably in the signed log; bad asks are 400/404."""

from __future__ import annotations

import base64
import json

import pytest

from domain.transparency import merkle
from domain.transparency.notes import open_checkpoint, parse_vkey
from service.adapters.note_keys import verify_ed25519


def _finished_game(client, seed: str) -> str:
    created = client.post("/games", json={"game": "toy", "seats": [{"bot": "random"}] * 2, "seed": seed})
    assert created.status_code == 201, created.json
    assert client.get(f"/games/{created.json['id']}").json["status"] == "finished"
    return created.json["id"]


def _checkpoint(client):
    key = parse_vkey(client.get("/log/key").text)
    response = client.get("/log/checkpoint")
    assert response.mimetype == "text/plain" and response.headers["Cache-Control"] == "no-store"
    return open_checkpoint(response.text, key, verify_ed25519)


def test_a_finished_game_is_in_the_signed_log_with_a_verifiable_inclusion_proof(client):
    first, second = _finished_game(client, "one"), _finished_game(client, "two")
    checkpoint = _checkpoint(client)
    assert checkpoint.size == 2
    proof = client.get(f"/log/proof/inclusion?id={second}&size={checkpoint.size}").json
    entry = client.get(f"/log/entries/{proof['index']}")
    statement = json.loads(entry.data)
    last = client.get(f"/games/{second}/events").json["events"][-1]
    assert statement == {"id": second, "type": "game", "final_version": last["seq"], "final_hash": last["hash"]}
    leaf = merkle.leaf_hash(entry.data)
    assert base64.b64decode(proof["leaf_hash"]) == leaf
    merkle.verify_inclusion(
        proof["index"], proof["size"], leaf, [base64.b64decode(p) for p in proof["proof"]], checkpoint.root
    )
    assert client.get(f"/log/proof/inclusion/{proof['index']}?size={checkpoint.size}").json == proof
    assert client.get(f"/log/proof/inclusion?id={first}").json["index"] != proof["index"]


def test_the_first_checkpoint_is_consistent_with_a_later_one(client):
    _finished_game(client, "a")
    old = _checkpoint(client)
    _finished_game(client, "b")
    _finished_game(client, "c")
    new = _checkpoint(client)
    proof = client.get(f"/log/proof/consistency?from={old.size}&to={new.size}").json
    assert (proof["from"], proof["to"]) == (1, 3)
    merkle.verify_consistency(old.size, new.size, old.root, new.root, [base64.b64decode(p) for p in proof["proof"]])
    assert client.get(f"/log/proof/consistency?from={old.size}").json == proof


def test_entries_are_served_a_page_at_a_time_as_the_exact_text_their_leaves_hash(client):
    games = [_finished_game(client, f"page{n}") for n in range(3)]
    page = client.get("/log/entries?start=1&limit=5").json
    assert page["start"] == 1 and [json.loads(entry)["id"] for entry in page["entries"]] == games[1:]
    for index, entry in enumerate(page["entries"], start=1):
        assert entry.encode() == client.get(f"/log/entries/{index}").data
        proof = client.get(f"/log/proof/inclusion/{index}").json
        assert base64.b64decode(proof["leaf_hash"]) == merkle.leaf_hash(entry.encode())
    assert client.get("/log/entries?start=3").json == {"start": 3, "entries": []}


def test_the_empty_log_has_the_empty_root(client):
    assert _checkpoint(client).root == merkle.EMPTY_ROOT


@pytest.mark.parametrize(
    ("url", "status", "code"),
    [
        ("/log/entries/1", 404, "log_entry_not_found"),
        ("/log/entries/-1", 404, "not_found"),
        ("/log/entries/99999999999999999999999", 404, "log_entry_not_found"),
        ("/log/proof/inclusion?id=nope", 404, "log_entry_not_found"),
        ("/log/proof/inclusion", 400, "invalid_request"),
        ("/log/proof/inclusion?id=", 400, "invalid_request"),
        ("/log/proof/inclusion/0?id=x", 400, "invalid_request"),
        ("/log/proof/inclusion/-1", 404, "not_found"),
        ("/log/proof/inclusion/0?size=2", 422, "bad_log_range"),
        ("/log/proof/inclusion/1?size=1", 422, "bad_log_range"),
        ("/log/proof/inclusion/1", 422, "bad_log_range"),
        ("/log/proof/inclusion/0?size=zero", 400, "invalid_request"),
        ("/log/entries", 400, "invalid_request"),
        ("/log/entries?start=0&limit=1001", 400, "invalid_request"),
        ("/log/entries?start=-1", 400, "invalid_request"),
        ("/log/proof/consistency", 400, "invalid_request"),
        ("/log/proof/consistency?from=0", 400, "invalid_request"),
        ("/log/proof/consistency?from=1&to=5", 422, "bad_log_range"),
        ("/log/proof/consistency?from=2", 422, "bad_log_range"),
        ("/log/proof/consistency?from=1&extra=1", 400, "invalid_request"),
    ],
)
def test_bad_asks_get_a_json_error_and_change_nothing(client, url, status, code):
    _finished_game(client, "only")
    before = client.get("/log/checkpoint").text
    response = client.get(url)
    assert (response.status_code, response.json["error"]["code"]) == (status, code)
    assert client.get("/log/checkpoint").text == before
