"""The lobby is paged: `GET /games?limit=&cursor=` walks every game once, newest first."""

from __future__ import annotations


def test_the_game_list_pages_through_every_game_newest_first(client):
    created = [
        client.post("/games", json={"game": "toy", "seats": [{"name": "ann"}, {"name": "bob"}]}).json["id"]
        for _ in range(5)
    ]
    seen: list[str] = []
    cursor: int | None = 0
    while cursor is not None:
        page = client.get(f"/games?limit=2&cursor={cursor}").json
        assert len(page["games"]) <= 2
        seen += [game["id"] for game in page["games"]]
        cursor = page["next"]
    assert sorted(seen) == sorted(created) and len(seen) == 5


def test_the_default_page_is_the_newest_fifty_and_says_there_is_no_more(client):
    client.post("/games", json={"game": "toy", "seats": [{"name": "ann"}, {"name": "bob"}]})
    page = client.get("/games").json
    assert len(page["games"]) == 1 and page["next"] is None


def test_a_page_outside_its_bounds_is_a_400(client):
    assert client.get("/games?limit=0").status_code == 400
    assert client.get("/games?limit=101").status_code == 400
    assert client.get("/games?cursor=-1").status_code == 400


def _create(client, count: int) -> list[str]:
    seats = [{"name": "ann"}, {"name": "bob"}]
    return [client.post("/games", json={"game": "toy", "seats": seats}).json["id"] for _ in range(count)]


def test_games_created_while_a_client_pages_do_not_repeat_or_hide_the_older_ones(client):
    older = _create(client, 6)
    first = client.get("/games?limit=2").json
    _create(client, 3)  # newer than every game the client is paging through
    seen = [game["id"] for game in first["games"]]
    cursor = first["next"]
    while cursor is not None:
        page = client.get(f"/games?limit=2&cursor={cursor}").json
        seen += [game["id"] for game in page["games"]]
        _create(client, 1)
        cursor = page["next"]
    assert seen == older[::-1]


def test_a_cursor_past_the_end_of_a_shrunk_list_still_ends(client):
    _create(client, 3)
    pages = 0
    cursor: int | None = 50  # a cursor from a longer list (games archived since)
    while cursor is not None and pages < 10:
        cursor = client.get(f"/games?limit=2&cursor={cursor}").json["next"]
        pages += 1
    assert cursor is None
