"""Life is Life views and event redaction: a hand only to its owner, set-aside cards to nobody."""

from __future__ import annotations

from domain.events import Event
from projections.game import game_view, redact_log
from projections.life_is_life import open_view, redact, seat_view
from tests.support.life_is_life import KNOCK, act, arranged, step, trade
from tests.support.tables import new_table

# --- Life is Life views and event redaction: a hand only to its owner, set-aside cards to nobody.

ROWS = [["dog"], ["bear", "mole"], ["sheep"] * 3, ["goat"] * 4]


def test_a_seat_sees_its_own_hand_and_only_counts_of_the_rest() -> None:
    state = arranged([["cat"], ["mouse"], ["pig"]], rows=ROWS)
    view = seat_view(state, 1)
    assert view["hand"] == list(state.hands[1])
    assert view["hand_counts"] == [10, 10, 10] and view["set_aside_count"] == 20
    assert view["rows"] == [list(row) for row in state.rows]
    assert "hands" not in view and "set_aside" not in view
    assert view["lives"] == [5, 5, 5] and view["out"] == [False, False, False]
    assert view["turn"] == 0 and view["starter"] == 0 and view["phase"] == 1


def test_a_spectator_sees_no_hand() -> None:
    view = seat_view(arranged([[], [], []], rows=ROWS), None)
    assert view["hand"] is None and view["may_knock"] is False


def test_the_open_view_shows_every_hand_and_the_set_aside_cards() -> None:
    state = arranged([[], [], []], rows=ROWS)
    view = open_view(state)
    assert view["hands"] == [list(hand) for hand in state.hands]
    assert len(view["set_aside"]) == 20


def test_the_view_tells_who_knocked_and_who_may_knock() -> None:
    state = arranged([["cat"], ["mouse"], ["pig"]], rows=ROWS)
    state, _ = act(state, 0, trade(1, "cat"))
    state, _ = act(state, 1, trade(1, "mouse"))
    state, _ = act(state, 2, trade(1, "pig"))
    assert seat_view(state, 0)["may_knock"] is True
    state, _ = act(state, 0, KNOCK)
    view = seat_view(state, 2)
    assert view["knocker"] == 0 and view["knocked"] == [True, False, False] and view["last_round"] is True
    assert view["traded"] == [True, True, True] and view["turns"] == 4
    assert view["known"][0] == ["dog"]  # the row seat 0 took is public knowledge


def test_a_deal_is_redacted_to_the_seats_own_hand() -> None:
    table = new_table("life-is-life", 3)
    dealt = next(event for event in table.log if event.type == "PhaseDealt").event
    for seat in (0, 1, 2):
        data = redact(dealt, seat)
        assert data["hands"][seat] == dealt.data["hands"][seat]
        assert [hand for index, hand in enumerate(data["hands"]) if index != seat] == [None, None]
        assert data["set_aside"] is None and data["set_aside_count"] == 20
        assert data["hand_counts"] == [10, 10, 10]
    spectator = redact(dealt, None)
    assert spectator["hands"] == [None, None, None] and spectator["rows"] == dealt.data["rows"]


def test_the_log_through_the_core_hides_other_hands() -> None:
    table = new_table("life-is-life", 4)
    log = redact_log("life-is-life", table.log, 2)
    dealt = next(entry for entry in log if entry["type"] == "PhaseDealt")
    assert [hand is None for hand in dealt["data"]["hands"]] == [True, True, False, True]
    assert game_view(table.game, 2)["state"]["hand"] == list(table.game.rules_state.hands[2])


def test_a_sudden_death_reveals_only_the_combination() -> None:
    state = arranged([["cat"] * 3, [], []], rows=[["cat"], ["dog"] * 2, ["sheep"] * 3, ["goat"] * 4])
    state, events = act(state, 0, trade(1, "giraffe"))
    assert redact(events[1], 2) == {"seat": 0, "species": ["cat"]}
    assert seat_view(state, 2)["sudden_death"] == {"seat": 0, "species": ["cat"]}
    state, _ = step(state)
    scoring = seat_view(state, 2)["last_scoring"]
    assert scoring == {"phase": 1, "lost": [0, 1, 1], "gained": [0, 0, 0], "kind": "sudden_death",
                       "declarer": 0, "species": ["cat"]}  # fmt: skip


def test_a_normal_scoring_shows_the_hands_laid_face_up() -> None:
    state = arranged([[], [], []], rows=ROWS, knocker=0, turn=2, traded=[0])
    hands = [list(hand) for hand in state.hands]
    state, _ = act(state, 2, KNOCK)
    state, events = step(state)
    assert redact(events[0], 1)["hands"] == hands  # PhaseScored is public
    scoring = seat_view(state, None)["last_scoring"]
    assert scoring["kind"] == "majority" and scoring["hands"] == hands
    assert scoring["points"] == events[0].data["points"]
    assert scoring["lost"] == events[1].data["lost"]


def test_public_events_pass_unchanged() -> None:
    event = Event("RowTraded", {"seat": 0, "row": 1, "laid": ["cat"], "taken": ["dog"]}, 0)
    assert redact(event, 1) == event.data and redact(event, None) == event.data
