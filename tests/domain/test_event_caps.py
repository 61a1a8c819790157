"""Every game ends: players who loop meet their game type's event cap, and the game ends with its standing, audited.

The two loops seen in play are legal (the rulebooks allow them, as the first
tests here show), so no rule stops them: the cap does. A client that always
posts `legal_actions[0]` loops in Life is Life (one card traded back and forth)
and in Zop Zoo (the MOLE on the discard pile dug again and again); the other
two games end by themselves, so their caps are met here by lowering them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from domain.audit import audit
from domain.chance import Chance, seed_commitment
from domain.errors import OptionsError, RuleError
from domain.game import Game, replay
from domain.games import rules_for
from domain.games.life_is_life import RULES as LIFE_IS_LIFE
from domain.rules import EVENT_CAP, normalise_options
from tests.support.life_is_life import arranged
from tests.support.tables import Table, new_table, play
from tests.support.zop_zoo import RULES as ZOP_ZOO
from tests.support.zop_zoo import act, table, types

USE_MOLE = {"type": "use_mole"}
DRAW = {"type": "draw"}
GAMES = ("life-is-life", "animals-on-board", "bloede-kuh", "zop-zoo")
LOOPING = [("life-is-life", 3, {"RowTraded"}), ("zop-zoo", 2, {"DiscardPileDug", "TurnEnded"})]
LOOP_CAP = 400
# A cap every game type meets before its rules end it, with the first legal action every time.
LOW_CAP = 40


def lower_caps(monkeypatch: pytest.MonkeyPatch, rules: Any, cap: int) -> None:
    """Give a game type the same cap at every seat count."""
    monkeypatch.setattr(rules, "event_caps", dict.fromkeys(range(rules.min_seats, rules.max_seats + 1), cap))


def first_legal(game: Game) -> tuple[int, dict[str, Any]]:
    """Play as a client that always posts `legal_actions[0]`."""
    seat = min(game.to_act)
    return seat, game.legal_actions(seat)[0]


def capped(table: Table) -> dict[str, Any]:
    """Return the result of a game that ended at its cap (and check that it did, with its standing)."""
    ended = table.log[-1]
    assert ended.type == "GameEnded" and table.game.status == "finished"
    result = ended.data["result"]
    assert result["ended_by"] == EVENT_CAP
    before = replay(table.log[:-1])
    assert result == replace(before.rules.standing(before.rules_state), ended_by=EVENT_CAP).to_dict()
    return result


# --- the loops are legal ----------------------------------------------------------------


def test_a_mole_on_the_discard_pile_is_reused_even_after_a_dig_that_found_nothing() -> None:
    # Rulebook, MOLE cards on top of the discard pile: "Your turn ends after digging, whether
    # successful or not, the MOLE card remains on top of the discard pile — the next player may
    # re-use the MOLE card." Only specialty cards are "used once"; a MOLE is not one.
    state = table([["w:lion"], ["w:zebra"]], discard=["b:dragon", "b:mole-3"], deck=["b:eagle"])
    events, after = act(state, USE_MOLE)
    assert types(events) == ["DiscardPileDug", "TurnEnded"] and events[0].data["taken"] == []
    assert after.discard == ("b:dragon", "b:mole-3") and "b:mole-3" not in after.spent
    assert ZOP_ZOO.legal_actions(after, 1) == [USE_MOLE, DRAW]


def test_a_card_laid_down_may_be_taken_back_at_once_and_the_tableau_be_as_it_was() -> None:
    # Rulebook, trading: the only limit is that "the cards that you lay down from your hand must have
    # at least one different animal card from the cards that you pick up from the tableau".
    rows = [["mouse"], ["bear", "mole"], ["sheep"] * 3, ["goat"] * 4]
    state = arranged([["cat"], ["mouse"], []], rows=rows)
    state = _trade(state, 0, "cat")  # the cat for the mouse
    state = _trade(state, 1, "mouse")  # the mouse for the cat: back as dealt
    assert [list(row) for row in state.rows] == rows


def _trade(state: Any, seat: int, card: str) -> Any:
    events = LIFE_IS_LIFE.decide(state, seat, {"type": "trade", "row": 1, "cards": [card]}, Chance("trades", 0))
    for event in events:
        state = LIFE_IS_LIFE.evolve(state, event)
    return state


# --- the cap ends them ------------------------------------------------------------------


@pytest.mark.parametrize(("game_id", "seats", "loop"), LOOPING)
def test_a_client_posting_the_first_legal_action_loops_until_the_cap_ends_the_game(
    game_id: str, seats: int, loop: set[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The real caps are thousands of events; a fraction of a second's worth shows the same.
    lower_caps(monkeypatch, rules_for(game_id), LOOP_CAP)
    table = play(new_table(game_id, seats, seed=f"loop-{game_id}"), first_legal, max_steps=LOOP_CAP)
    assert table.log[0].data["event_cap"] == LOOP_CAP
    # The loop, long before the cap: the same moves over and over, nothing else happening.
    assert {event.type for event in table.log[LOOP_CAP // 2 : -1]} == loop
    # The batch that reaches the cap is the last: one move's events past it at most.
    assert LOOP_CAP <= len(table.log) <= LOOP_CAP + 2
    capped(table)
    assert audit([event.to_dict() for event in table.log]).ok


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_type_ends_at_its_cap_with_its_standing_and_the_audit_passes(
    game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = rules_for(game_id)
    lower_caps(monkeypatch, rules, LOW_CAP)
    table = play(new_table(game_id, rules.min_seats, seed=f"cap-{game_id}"), first_legal, max_steps=LOW_CAP)
    assert LOW_CAP <= len(table.log) < 2 * LOW_CAP
    result = capped(table)
    assert len(result["places"]) == rules.min_seats
    report = audit([event.to_dict() for event in table.log])
    assert report.ok, report.reason
    assert replay(table.log) == table.game


def test_the_cap_a_game_was_created_under_holds_when_its_rules_cap_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    lower_caps(monkeypatch, LIFE_IS_LIFE, LOW_CAP)
    table = play(new_table("life-is-life", 3, seed="recorded"), first_legal, max_steps=LOW_CAP)
    lower_caps(monkeypatch, LIFE_IS_LIFE, 10 * LOW_CAP)
    assert audit([event.to_dict() for event in table.log]).ok
    assert LOW_CAP <= len(table.log) < 2 * LOW_CAP


def test_a_game_from_before_caps_is_held_to_its_rules_cap_and_audits(monkeypatch: pytest.MonkeyPatch) -> None:
    lower_caps(monkeypatch, LIFE_IS_LIFE, LOW_CAP)
    old = Table(seed="before-caps")
    old.run({**_create(old.seed), "event_cap": None})
    assert "event_cap" not in old.log[0].data
    play(old, first_legal, max_steps=LOW_CAP)
    assert capped(old) and audit([event.to_dict() for event in old.log]).ok


def test_a_recorded_cap_is_a_whole_number() -> None:
    with pytest.raises(RuleError, match="event_cap"):
        Table(seed="bad").run({**_create("bad"), "event_cap": "many"})


def _create(seed: str) -> dict[str, Any]:
    return {
        "kind": "create",
        "id": "g1",
        "game": "life-is-life",
        "seats": [{"name": f"p{i}", "bot": None, "token_sha256": None} for i in range(3)],
        "options": {},
        "seed_commitment": seed_commitment(seed),
    }


# --- standings ----------------------------------------------------------------------


def test_life_is_life_stopped_ranks_players_in_by_lives_above_those_out_by_phase() -> None:
    state = replace(arranged([[], [], [], []]), lives=(3, 1, 3, 0), out_in_phase=(None, None, None, 2))
    assert LIFE_IS_LIFE.standing(state).places == (1, 3, 1, 4)


def test_zop_zoo_stopped_ranks_by_the_totals_of_the_rounds_won() -> None:
    state = table([["w:lion"], ["w:zebra"], ["w:eagle"]], totals=[120, 300, 120])
    standing = ZOP_ZOO.standing(state)
    assert standing.places == (2, 1, 2) and standing.detail["totals"] == [120, 300, 120]


def test_a_game_its_rules_end_records_no_reason() -> None:
    rules = rules_for("animals-on-board")
    finished = play(new_table("animals-on-board", 2, seed="short"), first_legal, max_steps=rules.event_caps[2])
    assert len(finished.log) < rules.event_caps[2]
    assert "ended_by" not in finished.log[-1].data["result"]


# --- the options that lengthen a game -----------------------------------------------------


@pytest.mark.parametrize(("seats", "target"), [(2, 1000), (3, 800), (6, 800)])
def test_zop_zoo_plays_to_the_rulebooks_largest_target_for_the_table(seats: int, target: int) -> None:
    assert normalise_options(ZOP_ZOO, {"target": target}, seats)["target"] == target
    with pytest.raises(OptionsError, match="target"):
        normalise_options(ZOP_ZOO, {"target": target + 1}, seats)
