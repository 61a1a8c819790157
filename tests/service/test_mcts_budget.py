"""The mcts seats' search budget is a game option: recorded with the game, shown in its view, bounded."""

from __future__ import annotations

import pytest

from domain.audit import audit
from workers.bots import BOTS, bot_for


def test_an_all_mcts_game_with_a_small_budget_plays_to_the_end_and_audits(client, fake_services):
    # A low target keeps the game short: an mcts move reads its seat's whole log, so a long game is slow.
    options = {"mcts_iterations": 3, "target": 60}
    body = {"game": "zop-zoo", "seats": [{"bot": "mcts"}, {"bot": "mcts"}], "options": options, "seed": "budget"}
    created = client.post("/games", json=body)
    assert created.status_code == 201, created.json
    view = client.get(f"/games/{created.json['id']}").json
    assert view["status"] == "finished" and view["mcts_iterations"] == 3
    assert audit(fake_services.store.read_raw(created.json["id"])).ok
    # The log says it too (and the spec-checking client holds it to openapi.yaml's GameCreated).
    log = client.get(f"/games/{created.json['id']}/events").json
    assert log["events"][0]["data"]["mcts_iterations"] == 3


def test_without_the_option_the_view_says_the_default_budget(client):
    created = client.post("/games", json={"game": "zop-zoo", "seats": [{"name": "ann"}, {"bot": "mcts"}]}).json
    assert client.get(f"/games/{created['id']}").json["mcts_iterations"] is None


@pytest.mark.parametrize("iterations", [0, 201, 2000, "many", True])
def test_a_budget_out_of_range_is_refused_and_nothing_is_created(client, iterations):
    body = {"game": "zop-zoo", "seats": [{"bot": "mcts"}, {"bot": "mcts"}], "options": {"mcts_iterations": iterations}}
    response = client.post("/games", json=body)
    assert response.status_code == 422 and response.json["error"]["code"] == "invalid_options"
    assert client.get("/games").json["games"] == []


def test_a_budget_makes_a_bot_of_its_own_and_no_budget_the_shared_default():
    assert bot_for("zop-zoo", "mcts") is BOTS["zop-zoo"]["mcts"]
    assert bot_for("zop-zoo", "mcts", 5) is not BOTS["zop-zoo"]["mcts"]
    assert bot_for("zop-zoo", "heuristic", 5) is BOTS["zop-zoo"]["heuristic"]
