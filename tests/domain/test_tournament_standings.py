"""Scoring and standings on hand-made results: points, shared placings, byes and the tiebreak ladder."""

from __future__ import annotations

from fractions import Fraction
from types import MappingProxyType

import pytest

from domain.tournament.scoring import bye_points, default_row, resolve, table_points
from domain.tournament.standings import standings
from domain.tournament.state import Entrant, Round, Table, Tournament
from tests.support.tournaments import new_ledger


def test_default_rows_give_a_win_60_and_last_place_nothing_at_every_size():
    assert [default_row(n) for n in range(2, 7)] == [
        [60, 0],
        [60, 30, 0],
        [60, 40, 20, 0],
        [60, 45, 30, 15, 0],
        [60, 48, 36, 24, 12, 0],
    ]


@pytest.mark.parametrize(
    "places, expected",
    [
        ([1, 2, 3, 4], [60, 40, 20, 0]),
        ([1, 1, 3, 4], [50, 50, 20, 0]),  # two share first: (60 + 40) / 2 each
        ([1, 2, 2, 4], [60, 30, 30, 0]),
        ([2, 1, 2, 2], [20, 60, 20, 20]),
        ([1, 1, 1, 4], [40, 40, 40, 0]),
        ([1, 1, 1, 1], [30, 30, 30, 30]),
    ],
)
def test_shared_placings_split_the_points_of_the_places_they_span(places, expected):
    assert table_points(default_row(4), places) == tuple(Fraction(p) for p in expected)


def test_a_bye_is_worth_the_mean_of_the_largest_tables_row():
    assert bye_points(resolve([3, 4, 5], None)) == 30
    assert bye_points(resolve([3, 4], {"4": [5, 3, 1, 0]})) == Fraction(9, 4)


def hand_made(rounds: list[list[tuple[tuple[int, ...], tuple[int, ...]]]], players: int, ratings=None) -> Tournament:
    """A tournament of 3-seat tables with the default row, from (entrants, places) per table."""
    played = tuple(
        Round(
            n + 1,
            (),
            MappingProxyType(ratings or {}),
            tuple(Table(i, e, f"g{n}{i}", p) for i, (e, p) in enumerate(tables)),
        )
        for n, tables in enumerate(rounds)
    )
    entrants = tuple(Entrant(i, "ABCDEF"[i]) for i in range(players))
    # Rows as the state holds them (tuples), which the compiled rules check.
    scoring = MappingProxyType({size: tuple(row) for size, row in resolve([2, 3], None).items()})
    return Tournament(scoring=scoring, entrants=entrants, played=played)


def ranking(tournament: Tournament) -> list[tuple[str, int, int]]:
    return [("ABCDEF"[s.entrant], s.rank, int(s.points)) for s in standings(tournament)]


A, B, C, D, E, F = range(6)


def test_points_then_opponents_points_then_wins():
    t = hand_made(
        [
            [((A, B, C), (1, 2, 3)), ((D, E, F), (1, 2, 3))],
            [((A, E, F), (3, 1, 2)), ((B, C, D), (2, 3, 1))],
        ],
        6,
    )
    # A: 60 + 0; B: 30 + 30 — level on points and on opponents' points
    # (A met B, C, E, F: 60 + 0 + 90 + 30; B met A, C, C, D: 60 + 0 + 0 + 120),
    # so A's win puts A ahead.
    lines = {("ABCDEF"[s.entrant]): s for s in standings(t)}
    assert lines["A"].opponents == lines["B"].opponents == 180
    assert ranking(t) == [("D", 1, 120), ("E", 2, 90), ("A", 3, 60), ("B", 4, 60), ("F", 5, 30), ("C", 6, 0)]


def test_opponents_points_break_a_tie_on_points():
    # Two-seat tables: C and D both win once, but C's opponents scored more.
    t = hand_made([[((A, B), (1, 2)), ((C, D), (1, 2))], [((A, C), (1, 2)), ((B, D), (2, 1))]], 4)
    lines = {("ABCDEF"[s.entrant]): s for s in standings(t)}
    assert (lines["C"].points, lines["D"].points) == (60, 60)
    assert (lines["C"].opponents, lines["D"].opponents) == (180, 60)
    assert ranking(t) == [("A", 1, 120), ("C", 2, 60), ("D", 3, 60), ("B", 4, 0)]


def test_rating_breaks_a_tie_on_everything_else_and_equal_lines_share_a_rank():
    results = [[((A, B, C), (1, 2, 3)), ((D, E, F), (1, 2, 3))]]
    level = hand_made(results, 6)
    assert ranking(level)[:2] == [("A", 1, 60), ("D", 1, 60)]
    rated = hand_made(results, 6, ratings={A: 1.5, D: 4.0})
    assert ranking(rated)[:2] == [("D", 1, 60), ("A", 2, 60)]


def test_a_tied_placing_and_a_bye_recorded_through_events():
    ledger = new_ledger("life-is-life", rounds=2, table_sizes=[4])
    ledger.register(*[f"p{i}" for i in range(10)])
    ledger.start()
    first = ledger.tournament.current
    assert len(first.byes) == 2 and [len(t.entrants) for t in first.tables] == [4, 4]
    ledger.link_all()
    ledger.finish_round([[1, 1, 3, 4], [1, 2, 3, 4]])
    lines = {s.entrant: s for s in standings(ledger.tournament)}
    shared = first.tables[0].entrants[:2]
    assert [lines[e].points for e in shared] == [50, 50]
    assert [lines[e].wins for e in shared] == [1, 1]
    assert all(lines[e].points == 30 and lines[e].byes == 1 and lines[e].games == 0 for e in first.byes)
    second = ledger.tournament.current
    assert set(second.byes).isdisjoint(first.byes), "nobody sits out twice while others have not"
