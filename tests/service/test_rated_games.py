"""What is rated, and that a rebuild from files rates exactly what the live ratings rated.

One test per way ratings were bent: one client at several seats, a guest named
like a bot, a bad deal abandoned, a game counted twice through a relabelled copy,
and a legacy game of undisclosed dealing.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest

from domain.game import Game, Seat
from domain.players import HandleReserved
from domain.ratings import RATED_MOVE_S, leaderboard, rated_identities
from service.cli import main

FIXTURES = Path(__file__).parent.parent / "fixtures"
FINISHED = {"status": "finished", "result": {"places": [1, 2], "winners": [0]}, "dealing": "shared"}


def finished(*seats: Seat, **known) -> Game:
    return Game(**{**FINISHED, "clock": {"move_s": 60}, "seats": seats, **known})


def test_a_shared_clocked_game_of_distinct_accounts_and_bots_is_rated_by_ids():
    game = finished(Seat(player="p-a"), Seat(bot="random"))
    assert rated_identities(game) == ["player:p-a", "bot:random"]


@pytest.mark.parametrize(
    ("why", "game"),
    [
        ("one account at two seats", finished(Seat(player="p-a"), Seat(player="p-a"))),
        ("a guest at the table", finished(Seat(player="p-a"), Seat(name="gus"))),
        ("a fixed deal", finished(Seat(player="p-a"), Seat(player="p-b"), dealing="fixed")),
        ("a legacy deal", finished(Seat(player="p-a"), Seat(player="p-b"), dealing=None)),
        ("no move clock", finished(Seat(player="p-a"), Seat(player="p-b"), clock=None)),
        ("not finished", finished(Seat(player="p-a"), Seat(player="p-b"), status="active", result=None)),
    ],
)
def test_a_game_is_not_rated_with(why, game):
    assert rated_identities(game) is None, why


def account(services, handle: str) -> dict:
    player, _ = services.players.register(handle)
    return {"player": player.id, "handle": player.handle}


def play_out(services, game_id: str, rng: random.Random) -> Game:
    """Play every human seat of a game at random until it ends."""
    while (game := services.repository.load(game_id)).status != "finished":
        seat = rng.choice(game.humans_to_act())
        services.games.act(game_id, seat, rng.choice(game.legal_actions(seat)))
    return game


def test_one_client_playing_three_seats_against_a_victim_moves_no_rating(fake_services):
    # Finding: `farmer` at three seats and `victim` at one, four games: farmer +11.5, victim -6.1.
    farmer, victim = account(fake_services, "farmer"), account(fake_services, "victim")
    rng = random.Random(1)
    for _ in range(4):
        game, _ = fake_services.games.create("toy", [farmer, farmer, victim], {})
        play_out(fake_services, game.id, rng)
        assert fake_services.ratings.rate_game(game.id) == "unrated"
    assert fake_services.ratings.leaderboard("toy")["players"] == []


def test_a_guest_cannot_sit_down_as_the_heuristic_bot(fake_services):
    # Finding: a human seat named `bot:heuristic` moved the heuristic bot's rating.
    with pytest.raises(HandleReserved):
        fake_services.games.create("toy", [{"name": "bot:random"}, {"bot": "random"}], {})


def test_a_game_that_could_be_rated_gets_a_move_clock_so_an_abandoned_deal_is_lost_on_time(fake_services):
    # Finding: a casual game had no clock; one whose human never moved stayed active, unrated, forever.
    ann, bob = account(fake_services, "ann"), account(fake_services, "bob")
    game, _ = fake_services.games.create("toy", [ann, bob], {})
    assert game.clock == {"move_s": RATED_MOVE_S}
    guests, _ = fake_services.games.create("toy", [{"name": "gus"}, {"name": "guy"}], {})
    assert guests.clock is None  # a guest's game is never rated: no clock unless asked for
    while fake_services.repository.load(game.id).status != "finished":
        # Nobody moves: each time the clock runs out, a stand-in plays the late seat's move.
        fake_services.games.resume(game.id, clock_out=lambda: True)
    assert fake_services.ratings.rate_game(game.id) == "duplicate"  # rated when it ended
    assert {row["player"] for row in fake_services.ratings.leaderboard("toy")["players"]} == {"ann", "bob"}


def export(services, game_id: str, path: Path) -> Path:
    path.write_text("".join(services.archive.export(game_id, None)))
    return path


def rebuild(capsys, *paths: Path) -> tuple[int, list[dict]]:
    capsys.readouterr()
    code = main(["ratings", "rebuild", *map(str, paths)])
    return code, [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_a_copy_with_a_relabelled_header_is_refused_and_the_same_game_twice_counts_once(
    fake_services, tmp_path, capsys
):
    # Finding: rebuild counted a game twice when given a copy with a relabelled header.
    ann, bob = account(fake_services, "ann"), account(fake_services, "bob")
    game, _ = fake_services.games.create("toy", [ann, bob], {})
    play_out(fake_services, game.id, random.Random(2))
    original = export(fake_services, game.id, tmp_path / "game.ndjson")
    lines = original.read_text().splitlines()
    head = json.loads(lines[0])
    copy = tmp_path / "copy.ndjson"
    copy.write_text("\n".join([json.dumps({**head, "id": "another"}), *lines[1:]]) + "\n")
    code, _ = rebuild(capsys, original, copy)
    assert code == 1
    twice = tmp_path / "twice.ndjson"
    twice.write_text(original.read_text())
    code, boards = rebuild(capsys, original, twice)
    assert code == 0 and [board["rated_games"] for board in boards] == [1]


def test_a_legacy_game_of_undisclosed_dealing_is_not_rated_by_a_rebuild(capsys):
    # Finding: rebuild rated a legacy game that the audit reports as fixed dealing, unlike the live ratings.
    code, boards = rebuild(capsys, FIXTURES / "zop_zoo_v1.ndjson")
    assert code == 0 and boards == [{"game": "zop-zoo", "players": [], "rated_games": 0}]


def test_live_and_rebuilt_leaderboards_are_equal_over_many_random_games(fake_services, tmp_path, capsys):
    clock = itertools.count()
    fake_services.games.commands.clock = lambda: f"2026-01-01T00:00:00.{next(clock):09d}Z"
    rng = random.Random(7)
    people = [account(fake_services, handle) for handle in ("ann", "bob", "cyd", "dee")]
    choices = [*people, {"name": "gus"}, {"bot": "random"}]
    files = []
    for n in range(40):
        seats = [rng.choice(choices) for _ in range(rng.choice((2, 3)))]
        seed = {"seed": f"fixed-{n}"} if rng.random() < 0.2 else {}
        game, _ = fake_services.games.create("toy", seats, {}, **seed)
        play_out(fake_services, game.id, rng)
        files.append(export(fake_services, game.id, tmp_path / f"{n}.ndjson"))
    live = fake_services.ratings.table("toy")
    assert 0 < live.rated_games < 40  # some rated, some not: the test tells the rule apart
    code, boards = rebuild(capsys, *files, files[0])  # one file twice: still once
    assert code == 0
    assert boards == [{"game": "toy", "rated_games": live.rated_games, "players": leaderboard(live)}]


def test_a_game_says_before_the_first_move_whether_it_will_be_rated(client):
    """A player about to play three seats, or a guest, learns it is unrated from the answer, not from the leaderboard."""
    ann, bob = (client.post("/players", json={"handle": h}).json for h in ("ann", "bob"))

    def created(*seats: dict) -> dict:
        answer = client.post("/games", json={"game": "toy", "seats": list(seats)})
        assert answer.status_code == 201, answer.json
        return answer.json

    rated = created({"player_token": ann["token"]}, {"player_token": bob["token"]})
    twice = created({"player_token": ann["token"]}, {"player_token": ann["token"]})
    guest = created({"player_token": ann["token"]}, {"name": "gus"})
    fixed = client.post(
        "/games", json={"game": "toy", "seats": [{"player_token": ann["token"]}, {"bot": "random"}], "seed": "s"}
    ).json
    assert (rated["rated"], twice["rated"], guest["rated"], fixed["rated"]) == (True, False, False, False)
    assert client.get(f"/games/{rated['id']}").json["rated"] is True
    assert client.get(f"/games/{twice['id']}").json["rated"] is False
