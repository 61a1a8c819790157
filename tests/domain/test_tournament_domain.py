"""The tournament aggregate: commands refused with clear errors, a full run as events, replay equals live."""

from __future__ import annotations

import pytest

from domain.errors import OptionsError, RuleError
from domain.tournament import decide, standings
from domain.tournament.errors import (
    AlreadyRegistered,
    GameNotInTournament,
    InvalidTournament,
    NotRegistering,
    RegistrationClosed,
    ResultAlreadyRecorded,
    TableAlreadyLinked,
    TooFewPlayers,
    TournamentFull,
)
from tests.support.tournaments import new_ledger


def test_a_tournament_is_its_events_from_creation_to_the_end():
    ledger = new_ledger("bloede-kuh", rounds=2)
    ledger.register("ann", "bob", "cy", "dee", "eve", "fay", "gus")
    started = ledger.start()
    assert [e.type for e in started] == ["RoundStarted", "TableSeated", "TableSeated"]
    ledger.link_all()
    batch = ledger.finish_round([[1, 2, 3, 4], [3, 2, 1]])
    assert [e.type for e in batch] == ["ResultRecorded", "ResultRecorded", "RoundStarted", "TableSeated", "TableSeated"]
    ledger.link_all()
    last = ledger.finish_round([[1, 2, 3, 4], [1, 2, 3]], ratings={"0": 3.5})
    assert [e.type for e in last][-1] == "TournamentFinished"
    finished = ledger.tournament
    assert finished.status == "finished" and finished.seed == "t-seed"
    assert list(last[-1].data["standings"]) == [s.entrant for s in standings(finished)]
    assert ledger.replayed() == finished
    assert standings(ledger.replayed()) == standings(finished)


def test_results_may_arrive_table_by_table():
    ledger = new_ledger("life-is-life", rounds=1)
    ledger.register(*"abcdefg")
    ledger.start()
    ledger.link_all()
    tables = ledger.tournament.current.tables
    first = ledger.run({"kind": "record", "results": [{"game_id": tables[0].game_id, "places": [1, 2, 3, 4]}]})
    assert [e.type for e in first] == ["ResultRecorded"]
    second = ledger.run({"kind": "record", "results": [{"game_id": tables[1].game_id, "places": [1, 1, 3]}]})
    assert [e.type for e in second] == ["ResultRecorded", "TournamentFinished"]


def refused(ledger, command, error):
    version = ledger.tournament.version
    with pytest.raises(error) as raised:
        decide(ledger.tournament, command, ledger.seed)
    assert ledger.tournament.version == version
    return raised.value


def register(name=None, bot=None):
    return {"kind": "register", "name": name, "bot": bot, "token_sha256": None}


def test_registering_twice_is_refused_whatever_the_case():
    ledger = new_ledger()
    ledger.register("Ann")
    error = refused(ledger, register("ann"), AlreadyRegistered)
    assert error.code == "already_registered" and "ann" in error.message


def test_registering_after_the_start_is_refused():
    ledger = new_ledger()
    ledger.register("ann", "bob", "cy")
    ledger.start()
    assert refused(ledger, register("dee"), RegistrationClosed).code == "registration_closed"
    assert refused(ledger, {"kind": "start"}, NotRegistering).code == "already_started"


def test_registering_beyond_capacity_is_refused():
    ledger = new_ledger(format="round-robin")  # life-is-life: one table of at most 5
    ledger.register(*"abcde")
    assert refused(ledger, register(bot="random"), TournamentFull).details == {"max_players": 5}


def test_bot_names_are_unique_and_bot_identities_are_reserved():
    ledger = new_ledger()
    ledger.run(register(bot="heuristic"))
    ledger.run(register(bot="heuristic"))
    assert [e.name for e in ledger.tournament.entrants] == ["heuristic-1", "heuristic-2"]
    refused(ledger, register("bot:heuristic"), RuleError)


@pytest.mark.parametrize("format, players", [("swiss", 2), ("round-robin", 2)])
def test_starting_with_too_few_players_is_refused(format, players):
    ledger = new_ledger(format=format)
    ledger.register(*[f"p{i}" for i in range(players)])
    error = refused(ledger, {"kind": "start"}, TooFewPlayers)
    assert error.code == "too_few_players" and error.details == {"players": players}


def test_a_result_for_a_game_not_in_the_tournament_is_refused():
    ledger = new_ledger()
    ledger.register(*"abc")
    ledger.start()
    ledger.link_all()
    error = refused(
        ledger, {"kind": "record", "results": [{"game_id": "elsewhere", "places": [1, 2, 3]}]}, GameNotInTournament
    )
    assert error.code == "game_not_in_tournament" and error.details == {"game_id": "elsewhere"}


def test_a_result_is_recorded_once_and_a_table_linked_once():
    ledger = new_ledger(rounds=2)
    ledger.register(*"abcdefg")
    ledger.start()
    ledger.link_all()
    game_id = ledger.tournament.current.tables[0].game_id
    ledger.run({"kind": "record", "results": [{"game_id": game_id, "places": [1, 2, 3, 4]}]})
    refused(
        ledger, {"kind": "record", "results": [{"game_id": game_id, "places": [1, 2, 3, 4]}]}, ResultAlreadyRecorded
    )
    refused(ledger, {"kind": "link", "round": 1, "table": 0, "game_id": "again"}, TableAlreadyLinked)


@pytest.mark.parametrize(
    "settings",
    [
        {"game": "chess"},
        {"rounds": 0},
        {"table_sizes": [2, 3]},
        {"format": "knockout"},
        {"scoring": {"4": [3, 2, 1]}},
        {"scoring": {"4": [1, 2, 3, 4]}},
        {"scoring": {"9": [1] * 9}},
        {"format": "round-robin", "max_players": 6},
        {"options": {"no_such_option": True}},
    ],
)
def test_settings_no_tournament_can_have_are_refused_as_bad_requests(settings):
    base = {"game": "life-is-life", "rounds": 2}
    with pytest.raises(OptionsError):
        new_ledger(**{**base, **settings})


def test_invalid_tournament_is_a_bad_request_not_a_rule_error():
    assert issubclass(InvalidTournament, OptionsError) and not issubclass(InvalidTournament, RuleError)
