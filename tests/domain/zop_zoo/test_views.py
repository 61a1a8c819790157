"""What viewers see: the whole table but the black deck's order; events as stored replay to the same state."""

from __future__ import annotations

import json
import random

import pytest

from domain import simulate
from domain.chance import Chance, DrawnChance
from domain.events import Event
from projections.game import redact_log
from projections.zop_zoo import bot_view, open_view, seat_view
from tests.support.tables import new_table
from tests.support.zop_zoo import RULES, act, table

# --- What viewers see: the whole table but the black deck's order; events as stored replay to the same state.


def test_a_view_shows_every_row_the_piles_the_pending_decision_and_the_points() -> None:
    state = table(
        [["w:lion/b:lion", "w:skunk", "w:eagle"], ["w:giraffe/b:giraffe", "w:octopus"]],
        bonuses=[["b:bonus-mammal"], []],
        deck=["b:eagle", "b:dragon", "b:zebra"],
        discard=["b:zebra", "b:mole-1"],
        totals=[120, -40],
    )
    view = seat_view(state, 1)
    assert view["round"] == 1 and view["turn"] == 0 and view["black_deck_size"] == 3
    assert [card["id"] for card in view["discard_pile"]] == ["b:zebra", "b:mole-1"]
    assert view["pending"] == {
        "seat": 0,
        "decision": "mole",
        "card": state.cards["b:mole-1"].to_dict(),
        "source": "discard",
        "dig_finds": [],
    }
    me, other = view["players"]
    assert [stack["card"] for stack in me["row"]] == ["w:lion", "w:skunk", "w:eagle"]
    assert [stack["worth"] for stack in me["row"]] == [10, -100, None]
    assert me["round_points"] == {"as_winner": 10 - 100 + 10, "as_other": -100 + 10}
    assert other["row"][0]["category"] == "MAMMAL" and other["row"][0]["cover"]["id"] == "b:giraffe"
    assert (me["total"], other["total"]) == (120, -40)
    assert view == seat_view(state, None) == seat_view(state, 0)
    assert open_view(state)["black_deck"] == ["b:eagle", "b:dragon", "b:zebra"]
    json.dumps(view)


def test_the_drawn_card_is_shown_in_its_event_and_in_the_pending_decision() -> None:
    state = table([["w:lion", "w:eagle"], ["w:zebra"]], deck=["b:beast-3", "b:dragon"])
    events, after = act(state, {"type": "draw"})
    assert events[0].data["card"] == "b:beast-3"
    pending = seat_view(after, 1)["pending"]
    assert pending["decision"] == "place_wild" and pending["card"]["name"] == "BEAST"


def test_round_results_are_shown_after_a_round() -> None:
    state = table([["w:lion/b:lion", "w:eagle"], ["w:zebra"]], deck=["b:eagle"])
    _, after = act(state, {"type": "draw"})
    view = seat_view(after, 0)
    assert view["results"] == [{"round": 1, "winner": 0, "scores": [30, 0]}]
    assert view["pending"] is None and view["phase"] == "round_won"


def test_the_open_log_shows_the_deck_order_and_a_seats_log_only_its_size() -> None:
    game = new_table("zop-zoo", 3, seed="logs")
    dealt = next(event for event in game.log if event.type == "RoundDealt")
    open_log = redact_log("zop-zoo", [dealt], None, open_log=True)[0]["data"]
    seat_log = redact_log("zop-zoo", [dealt], 1)[0]["data"]
    assert open_log["deck"] == dealt.data["deck"]
    assert "deck" not in seat_log and seat_log["deck_size"] == 74
    assert seat_log["rows"] == dealt.data["rows"]


def test_events_read_back_from_json_fold_to_the_same_state() -> None:
    rng = random.Random(3)
    events = RULES.setup(4, {"target": 300, "card_set": None}, Chance("json", 0))
    state = live = None
    for event in events:
        live = RULES.evolve(live, event)
    while RULES.result(live) is None:
        chance = Chance("json", len(events))
        if RULES.system_due(live):
            batch = RULES.advance(live, chance)
        else:
            (seat,) = RULES.to_act(live)
            batch = RULES.decide(live, seat, rng.choice(RULES.legal_actions(live, seat)), chance)
        for event in batch:
            live = RULES.evolve(live, event)
        events += batch
    for event in events:
        state = RULES.evolve(state, Event(event.type, json.loads(json.dumps(event.data)), event.actor))
    assert state == live


def test_views_share_card_descriptions_that_no_reader_can_change() -> None:
    state = table([["w:lion/b:lion", "w:skunk"], ["w:giraffe"]], discard=["b:zebra"])
    first, second = seat_view(state, 0), seat_view(state, 1)
    stack = first["players"][0]["row"][0]
    assert stack is second["players"][0]["row"][0], "built once per card set"
    with pytest.raises(TypeError):
        stack["worth"] = 0
    with pytest.raises(TypeError):
        first["discard_pile"][0]["value"] = 0
    assert seat_view(state, 0) == first
    assert state.cards.describe("b:zebra") == first["discard_pile"][0] and type(state.cards.describe("b:zebra")) is dict


@pytest.mark.parametrize("seats", [2, 4, 6])
def test_a_bots_view_reads_as_the_seats_view_at_every_move_of_a_game(seats: int) -> None:
    rng = random.Random(seats)
    chance = DrawnChance(rng.randrange)
    checked = 0

    def compare(state: object, seat: int, legal: list[dict[str, object]]) -> dict[str, object]:
        nonlocal checked
        lazy = bot_view(state, seat)
        # Read in another order than built, and a part twice: each part is built once, as `seat_view` builds it.
        assert lazy["pending"] == lazy["pending"]
        assert list(lazy) == list(seat_view(state, seat)) and len(lazy) == len(seat_view(state, seat))
        plain = {key: [dict(player) for player in value] if key == "players" else value for key, value in lazy.items()}
        assert plain == seat_view(state, seat)
        checked += 1
        return rng.choice(legal)

    state = simulate.start(RULES, seats, {"target": 800, "card_set": None}, chance)
    state, _ = simulate.play_out(RULES, state, compare, chance)
    assert simulate.outcome(RULES, state) is not None and checked >= 20
