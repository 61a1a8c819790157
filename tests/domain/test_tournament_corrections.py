"""Withdrawals, disqualifications, late entry and annulled results, in pure domain code."""

from __future__ import annotations

import pytest

from domain.chance import seed_commitment
from domain.tournament import standings
from domain.tournament.errors import NotAnnullable, NotPlaying, RegistrationClosed
from tests.support.tournaments import Ledger


def started(players: int = 8, late_entry_until: int = 0) -> Ledger:
    ledger = Ledger(seed="t-seed")
    ledger.run(
        {
            "kind": "create",
            "id": "t-0000000000000000",
            "game": "life-is-life",
            "format": "swiss",
            "rounds": 3,
            "table_sizes": [4],
            "scoring": {},
            "max_players": None,
            "options": {},
            "seed_commitment": seed_commitment("t-seed"),
            "organiser_sha256": None,
            "late_entry_until": late_entry_until,
        }
    )
    ledger.register(*[f"p{i}" for i in range(players)])
    ledger.start()
    ledger.link_all()
    return ledger


def test_a_withdrawal_mid_game_forfeits_the_table_and_leaves_the_next_rounds():
    ledger = started()
    table = ledger.tournament.current.tables[0]
    leaver = table.entrants[1]
    batch = ledger.run({"kind": "withdraw", "entrant": leaver, "by": "entrant", "reason": "train to catch"})
    assert [e.type for e in batch] == ["PlayerWithdrawn", "TableForfeited"]
    forfeited = ledger.tournament.current.tables[0]
    assert forfeited.places == tuple(4 if e == leaver else 1 for e in table.entrants)
    assert forfeited.forfeited == (leaver,)
    other = ledger.tournament.current.tables[1]
    ledger.run({"kind": "record", "results": [{"game_id": other.game_id, "places": [1, 2, 3, 4]}], "ratings": {}})
    assert ledger.tournament.current.number == 2
    seated = {e for t in ledger.tournament.current.tables for e in t.entrants} | set(ledger.tournament.current.byes)
    assert leaver not in seated
    with pytest.raises(NotPlaying):
        ledger.run({"kind": "withdraw", "entrant": leaver, "by": "organiser", "reason": "again"})
    assert ledger.replayed() == ledger.tournament


def test_a_forfeit_scores_the_stayers_the_top_places_and_no_wins():
    ledger = started()
    leaver = ledger.tournament.current.tables[0].entrants[0]
    ledger.run({"kind": "disqualify", "entrant": leaver, "reason": "marked cards"})
    lines = {line.entrant: line for line in standings(ledger.tournament)}
    stayers = [e for e in ledger.tournament.current.tables[0].entrants if e != leaver]
    assert all(lines[e].points == 40 and lines[e].wins == 0 for e in stayers)
    assert lines[leaver].status == "disqualified" and lines[leaver].rank == 8


def test_late_entry_is_open_until_the_round_the_organiser_set():
    ledger = started(late_entry_until=2)
    ledger.register("late")
    late = ledger.tournament.entrants[-1]
    assert late.joined_round == 1
    ledger.finish_round([[1, 2, 3, 4], [1, 2, 3, 4]])
    assert ledger.tournament.current.number == 2
    seated = {e for t in ledger.tournament.current.tables for e in t.entrants} | set(ledger.tournament.current.byes)
    assert late.index in seated
    with pytest.raises(RegistrationClosed):
        ledger.register("too-late")


def test_an_annulled_result_is_void_or_replayed_and_stays_in_the_stream():
    ledger = started()
    first = ledger.tournament.current.tables[0]
    ledger.run({"kind": "record", "results": [{"game_id": first.game_id, "places": [1, 2, 3, 4]}], "ratings": {}})
    batch = ledger.run({"kind": "annul", "round": 1, "table": 0, "reason": "misdeal", "replay": True})
    assert batch[0].type == "ResultAnnulled" and batch[0].data["places"] == [1, 2, 3, 4]
    replayed = ledger.tournament.current.tables[0]
    assert replayed.game_id is None and replayed.places is None and replayed.annulled == (first.game_id,)
    ledger.run({"kind": "link", "round": 1, "table": 0, "game_id": "g-replay"})
    second = ledger.tournament.current.tables[1].game_id
    results = [{"game_id": "g-replay", "places": [2, 1, 3, 4]}, {"game_id": second, "places": [1, 2, 3, 4]}]
    ledger.run({"kind": "record", "results": results, "ratings": {}})
    assert ledger.tournament.current.number == 2
    with pytest.raises(NotAnnullable):
        ledger.run({"kind": "annul", "round": 1, "table": 0, "reason": "late", "replay": True})
    ledger.run({"kind": "annul", "round": 1, "table": 1, "reason": "collusion", "replay": False})
    void = ledger.tournament.played[0].tables[1]
    assert void.void and void.places == (1, 2, 3, 4)
    assert all(line.games == 0 for line in standings(ledger.tournament) if line.entrant in void.entrants)
    assert [c["type"] for c in ledger.tournament.corrections] == ["ResultAnnulled", "ResultAnnulled"]
    assert ledger.replayed() == ledger.tournament
