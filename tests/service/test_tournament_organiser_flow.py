"""A 24-player Swiss Blöde Kuh tournament run through the API by its organiser, then audited offline.

Three humans among 21 bots; one human withdraws mid-game, the organiser
withdraws another, a late entrant joins in round 1, and one bot table's
result is annulled and replayed. The bundle audits with the CLI alone, and
the ratings rebuilt from it equal the live leaderboard.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from service.cli import main


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def view(client, tournament_id: str, token: str | None = None) -> dict[str, Any]:
    response = client.get(f"/tournaments/{tournament_id}", headers=auth(token) if token else {})
    assert response.status_code == 200, response.json
    return response.json


def my_open_game(client, tournament_id: str, token: str, round_: int) -> dict[str, Any] | None:
    """Return the entrant's game of round `round_` if it is in play and the table has no result yet."""
    mine = view(client, tournament_id, token)
    if mine["status"] != "active" or mine["round"] != round_:
        return None
    current = mine["rounds"][-1]
    open_tables = {t["game_id"] for t in current["tables"] if t["places"] is None and not t["void"]}
    return next((g for g in mine["your_games"] if g["game_id"] in open_tables), None)


def play_round(client, tournament_id: str, round_: int, tokens: list[str]) -> None:
    """Play the humans' open games of a round to their ends, in turn (they may share a table)."""
    while True:
        moved = waiting = False
        for token in tokens:
            game = my_open_game(client, tournament_id, token, round_)
            if game is None:
                continue
            seat = auth(game["token"])
            state = client.get(f"/games/{game['game_id']}", headers=seat).json
            if state["status"] == "finished" or not state["legal_actions"]:
                waiting = True
                continue
            action = {"action": state["legal_actions"][0]}
            posted = client.post(f"/games/{game['game_id']}/actions", json=action, headers=seat)
            assert posted.status_code == 200, posted.json
            moved = True
        if not moved:
            assert not waiting, "a human game waits on someone who is not playing"
            return


def test_an_organiser_runs_a_24_player_bloede_kuh_swiss_to_the_end_and_anyone_can_audit_it(client, tmp_path, capsys):
    # 21 bots at tables of 3 can fill 7 all-bot tables at once: a deployment that hosts such organisers allows 7.
    client.application.config["BOT_GAMES_PER_ADDRESS"] = 7
    # A week's move clock: the humans who wait must not be stood in for by the steward however slow the run.
    settings = {"game": "bloede-kuh", "rounds": 3, "late_entry_until": 2, "options": {"clock": {"move_s": 604800}}}
    created = client.post("/tournaments", json=settings).json
    tid, organiser = created["id"], auth(created["organiser_token"])
    # Three accounts (rated) and, later, a guest (dan: his tables are not rated).
    accounts = {name: client.post("/players", json={"handle": name}).json for name in ("ann", "bob", "cat")}
    humans = {
        name: client.post(f"/tournaments/{tid}/register", json={"player_token": account["token"]}).json
        for name, account in accounts.items()
    }
    for index in range(21):
        kind = "heuristic" if index % 2 else "random"
        assert client.post(f"/tournaments/{tid}/register", json={"bot": kind}, headers=organiser).status_code == 201
    assert client.post(f"/tournaments/{tid}/start", headers=organiser).status_code == 200

    # Round 1: dan enters late; a bot table is replayed; bob leaves mid-game by his own token.
    # In that order: bob's leaving forfeits his table, and when the draw seats all three humans
    # there (it does now and then) the round is over at once and late entry with it.
    dan = client.post(f"/tournaments/{tid}/register", json={"name": "dan"})
    assert dan.status_code == 201, dan.json
    dan = dan.json
    human_tables = {t["table"] for t in view(client, tid)["rounds"][0]["tables"] if {0, 1, 2} & set(t["entrants"])}
    bot_table = next(t for t in view(client, tid)["rounds"][0]["tables"] if t["table"] not in human_tables)
    assert bot_table["places"] is not None
    annulled = client.post(
        f"/tournaments/{tid}/annul",
        json={"round": 1, "table": bot_table["table"], "reason": "a card was missing", "replay": True},
        headers=organiser,
    )
    assert annulled.status_code == 200, annulled.json
    replayed = next(t for t in view(client, tid)["rounds"][0]["tables"] if t["table"] == bot_table["table"])
    assert replayed["annulled_games"] == [bot_table["game_id"]] and replayed["game_id"] != bot_table["game_id"]
    assert replayed["places"] is not None  # bots played the replay at once
    assert my_open_game(client, tid, humans["bob"]["token"], 1) is not None
    left = client.post(
        f"/tournaments/{tid}/withdraw", json={"reason": "feeling ill"}, headers=auth(humans["bob"]["token"])
    )
    assert left.status_code == 200, left.json
    bob = humans["bob"]["entrant"]
    assert next(p for p in left.json["players"] if p["entrant"] == bob)["status"] == "withdrawn"
    assert any(bob in t["forfeited"] for t in left.json["rounds"][0]["tables"])
    play_round(client, tid, 1, [humans["ann"]["token"], humans["cat"]["token"]])

    # Round 2: the organiser withdraws cat mid-game; ann and dan play.
    now = view(client, tid)
    assert now["round"] == 2
    assert dan["entrant"] in {e for t in now["rounds"][1]["tables"] for e in t["entrants"]} | set(
        now["rounds"][1]["byes"]
    )
    cat = humans["cat"]["entrant"]
    withdrawn = client.post(
        f"/tournaments/{tid}/withdraw", json={"entrant": cat, "reason": "left early"}, headers=organiser
    )
    assert withdrawn.status_code == 200, withdrawn.json
    for round_ in (2, 3):
        play_round(client, tid, round_, [humans["ann"]["token"], dan["token"]])

    final = view(client, tid)
    assert final["status"] == "finished"
    seated_later = {e for r in final["rounds"][1:] for t in r["tables"] for e in t["entrants"]}
    assert bob not in seated_later and cat not in {e for t in final["rounds"][2]["tables"] for e in t["entrants"]}
    assert [c["type"] for c in final["corrections"]] == ["ResultAnnulled", "PlayerWithdrawn", "PlayerWithdrawn"]

    # The organiser's lists and printouts.
    listed = client.get("/tournaments?status=finished&game=bloede-kuh").json
    assert [t["id"] for t in listed["tournaments"]] == [tid] and listed["next"] is None
    sheet = client.get(f"/tournaments/{tid}/standings", headers={"Accept": "text/csv"})
    assert sheet.status_code == 200 and sheet.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(sheet.get_data(as_text=True))))
    assert len(rows) == 25 and [r["name"] for r in rows] == [s["name"] for s in final["standings"]]
    printed = client.get(f"/tournaments/{tid}/rounds/2/pairings", headers={"Accept": "text/plain"})
    # Tables and seats counted from 1 for people, each table with the API's number (the one `annul` takes).
    text = printed.get_data(as_text=True)
    tables = client.get(f"/tournaments/{tid}/rounds/2/pairings").json["tables"]
    assert printed.mimetype == "text/plain" and tables[0]["table"] == 0 and tables[0]["seats"][0]["seat"] == 0
    listed = [f"Table {t['table'] + 1} (API table {t['table']})" for t in tables]
    assert [line.split("   ")[0] for line in text.splitlines() if line.startswith("Table ")] == listed
    first = tables[0]["seats"][0]
    assert f"  seat 1: {first['name']}" in text.splitlines()
    # A browser following the page's link (it prefers HTML to JSON) gets the same sheet; a client the JSON.
    browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
    followed = client.get(f"/tournaments/{tid}/rounds/2/pairings", headers={"Accept": browser})
    assert followed.mimetype == "text/plain" and followed.get_data(as_text=True) == text
    for accept in ("*/*", "application/json"):
        assert client.get(f"/tournaments/{tid}/rounds/2/pairings", headers={"Accept": accept}).json["tables"] == tables
    # A printed sheet links each game's page (people read it), never its JSON.
    assert tables[0]["page_url"].endswith(f"/#/game/{tables[0]['game_id']}") and tables[0]["page_url"] in text
    assert "/games/" not in text

    # The bundle audits offline, and the ratings rebuilt from it equal the live leaderboard.
    # Its 20-odd games are more than the server audits in the request: a job, polled at its Location.
    asked = client.get(f"/tournaments/{tid}/audit")
    assert asked.status_code == 202
    assert client.get(asked.headers["Location"]).json["result"]["ok"] is True
    path = tmp_path / "bundle.ndjson"
    path.write_bytes(client.get(f"/tournaments/{tid}/export").get_data())
    capsys.readouterr()
    assert main(["audit-tournament", str(path)]) == 0, capsys.readouterr().out
    assert main(["ratings", "rebuild", str(path)]) == 0
    rebuilt = json.loads(capsys.readouterr().out.splitlines()[-1])
    live = client.get("/leaderboards/bloede-kuh").json
    # Offline, an account is known by its id; the live board shows its handle beside the id.
    assert rebuilt["rated_games"] == live["rated_games"]
    assert [(r["player_id"] or r["player"], r["mu"], r["sigma"]) for r in rebuilt["players"]] == [
        (r["player_id"] or r["player"], r["mu"], r["sigma"]) for r in live["players"]
    ]
    assert {r["player"] for r in live["players"] if r["player_id"]} <= {"ann", "bob", "cat"}
    assert any(r["player_id"] for r in live["players"]) and "dan" not in {r["player"] for r in live["players"]}
