"""Pairing: legal table sizes always, byes only when no split seats everyone, no repeat meetings when avoidable."""

from __future__ import annotations

from itertools import combinations

import pytest

from domain.chance import Chance
from domain.games import RULES
from domain.tournament.pairing import choose_byes, meetings, repeats, split, swiss
from domain.tournament.state import Entrant, Tournament
from tests.support.tournaments import new_ledger

SEAT_RANGES = {"life-is-life": (3, 5), "animals-on-board": (2, 4), "bloede-kuh": (3, 6), "zop-zoo": (2, 6)}


@pytest.mark.parametrize("game, seats", SEAT_RANGES.items())
def test_every_split_uses_legal_table_sizes_and_seats_everyone_it_can(game, seats):
    low, high = seats
    sizes = list(range(low, high + 1))
    for players in range(1, 200):
        tables, byes = split(players, sizes)
        assert all(low <= size <= high for size in tables), (players, tables)
        assert sum(tables) + byes == players
        assert byes == (players if players < low else 0)
        if tables:
            assert len(tables) == -(-players // high), "as few tables as the sizes allow"
            assert max(tables) - min(tables) <= 1, "as even as the sizes allow"


def test_restricted_table_sizes_leave_byes_when_nothing_else_fits():
    assert split(10, [4]) == ([4, 4], 2)
    assert split(13, [3, 5]) == ([5, 5, 3], 0)
    assert split(7, [3, 5]) == ([3, 3], 1)
    assert split(2, [3, 4, 5]) == ([], 2)


def test_byes_go_to_the_lowest_ranked_among_those_with_the_fewest_byes():
    ranked = [4, 3, 2, 1, 0]  # best first
    assert choose_byes(ranked, 2, {}) == [0, 1]
    assert choose_byes(ranked, 2, {0: 1}) == [1, 2]


def finish_round_by_seat(ledger) -> None:
    """Record each table's places in seat order (seat 0 wins)."""
    ledger.finish_round([list(range(1, len(t.entrants) + 1)) for t in ledger.tournament.current.tables])


def pairs_of(round_) -> list[frozenset[int]]:
    return [frozenset(pair) for table in round_.tables for pair in combinations(table.entrants, 2)]


@pytest.mark.parametrize("game, players, size, rounds", [("life-is-life", 9, 3, 4), ("animals-on-board", 16, 4, 3)])
def test_swiss_never_repeats_a_meeting_when_that_is_avoidable(game, players, size, rounds):
    ledger = new_ledger(game, rounds=rounds, table_sizes=[size])
    ledger.register(*[f"p{i}" for i in range(players)])
    ledger.start()
    for _ in range(rounds - 1):
        ledger.link_all()
        finish_round_by_seat(ledger)
    seen = [pair for round_ in ledger.tournament.played for pair in pairs_of(round_)]
    assert len(seen) == len(set(seen)), "some pair met twice"
    assert all(len(t.entrants) == size for r in ledger.tournament.played for t in r.tables)


def test_swiss_seats_the_top_table_from_the_top_score_group():
    ledger = new_ledger("animals-on-board", rounds=2, table_sizes=[4])
    ledger.register(*[f"p{i}" for i in range(16)])
    ledger.start()
    ledger.link_all()
    winners = {t.entrants[0] for t in ledger.tournament.current.tables}
    finish_round_by_seat(ledger)
    top = ledger.tournament.current.tables[0]
    assert set(top.entrants) == winners


def test_swiss_minimises_repeats_when_some_are_unavoidable():
    # 7 players at tables of 4 (A) and 3 (B): the best round 2 seats two of A and two of B
    # at the 4, two of A and one of B at the 3 — three pairs meet again, and no fewer can.
    ledger = new_ledger("life-is-life", rounds=2)
    ledger.register(*[f"p{i}" for i in range(7)])
    ledger.start()
    ledger.link_all()
    finish_round_by_seat(ledger)
    met = meetings(Tournament(played=ledger.tournament.played[:1]))
    assert sum(repeats(t.entrants, met) for t in ledger.tournament.current.tables) == 3


def test_round_robin_gives_every_round_a_new_seat_order_and_every_player_every_seat():
    ledger = new_ledger("life-is-life", rounds=4, format="round-robin", max_players=4)
    ledger.register("ann", "bob", "cy", "dee")
    ledger.start()
    for _ in range(3):
        ledger.link_all()
        finish_round_by_seat(ledger)
    orders = [r.tables[0].entrants for r in ledger.tournament.played]
    assert len(set(orders)) == 4
    for seat in range(4):
        assert sorted(order[seat] for order in orders) == [0, 1, 2, 3]


def test_pairing_is_derived_from_the_seed():
    def first_round(seed: str):
        ledger = new_ledger("bloede-kuh", seed=seed)
        ledger.register(*[f"p{i}" for i in range(12)])
        ledger.start()
        return [t.entrants for t in ledger.tournament.current.tables]

    assert first_round("a") == first_round("a")
    assert first_round("a") != first_round("b")


def test_a_thousand_players_are_paired_with_legal_tables():
    # How fast: bench/bench_tournament.py.
    entrants = tuple(Entrant(i, f"p{i}") for i in range(1000))
    ranked = Chance("x", 0).shuffle([e.index for e in entrants])
    sizes, byes = split(1000, [3, 4, 5])
    tables = swiss(ranked, sizes, {}, Chance("x", 1))
    assert byes == 0 and sorted(p for t in tables for p in t) == list(range(1000))
    assert all(3 <= len(t) <= 5 for t in tables)


@pytest.mark.parametrize("game, seats", SEAT_RANGES.items())
def test_every_swiss_round_seats_each_player_once_at_a_legal_table(game, seats):
    if game not in RULES:
        pytest.skip(f"{game} is not registered yet")
    low, high = seats
    for players in range(low, 26, 3):
        ledger = new_ledger(game, rounds=3, seed=f"{game}-{players}")
        ledger.register(*[f"p{i}" for i in range(players)])
        ledger.start()
        for _ in range(3):
            current = ledger.tournament.current
            seated = [e for t in current.tables for e in t.entrants] + list(current.byes)
            assert sorted(seated) == list(range(players)) and not current.byes
            assert all(low <= len(t.entrants) <= high for t in current.tables)
            ledger.link_all()
            finish_round_by_seat(ledger)
        assert ledger.tournament.status == "finished"
