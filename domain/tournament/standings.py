"""Standings: points from the recorded placings, then the tiebreaks, in this order.

1. points (the scoring rows; shared placings split evenly; a bye earns `bye_points`);
2. opponents' points — the sum, over every table an entrant played, of each
   opponent's current points (Buchholz, as in chess Swiss events): a player who
   met strong opposition ranks above one who met weak;
3. wins — games finished in first place, a shared first counting as a win;
4. rating — the entrant's ordinal in the latest ratings snapshot recorded in
   the tournament's own stream (so standings are recomputable from its events);
5. registration order, only to list players who are equal on all four; they
   share a rank.

A table whose result was annulled as void scores nothing for anyone and is
not a game played; a forfeited table scores by its forfeit places but counts
no wins. A withdrawn entrant keeps their place in the standings; a
disqualified one is listed below everyone else (ranked among themselves).

Everything is exact (`Fraction`), so a rebuild can never differ in the last digit.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from mypy_extensions import mypyc_attr

from domain.tournament.scoring import bye_points, table_points
from domain.tournament.state import DISQUALIFIED, Tournament


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Standing:
    """One entrant's line in the standings."""

    entrant: int
    rank: int
    points: Fraction
    opponents: Fraction
    wins: int
    rating: float
    games: int
    byes: int
    status: str = "active"

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON-native line (points as numbers; exact halves stay exact)."""
        return {
            "rank": self.rank,
            "entrant": self.entrant,
            "points": _number(self.points),
            "opponents_points": _number(self.opponents),
            "wins": self.wins,
            "rating": self.rating,
            "games": self.games,
            "byes": self.byes,
            "status": self.status,
        }


def _number(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else float(value)


def points_by_entrant(tournament: Tournament) -> dict[int, Fraction]:
    """Return every entrant's points so far."""
    points: dict[int, Fraction] = {e.index: Fraction(0) for e in tournament.entrants}
    bye = bye_points(tournament.scoring) if tournament.scoring else Fraction(0)
    for round_ in tournament.played:
        for entrant in round_.byes:
            points[entrant] += bye
        for table in round_.tables:
            if not table.counts or table.places is None:
                continue
            row = tournament.scoring[str(len(table.entrants))]
            for entrant, earned in zip(table.entrants, table_points(row, table.places)):
                points[entrant] += earned
    return points


def standings(tournament: Tournament) -> list[Standing]:
    """Return the standings, best first."""
    points = points_by_entrant(tournament)
    met: dict[int, list[int]] = defaultdict(list)
    wins: dict[int, int] = defaultdict(int)
    games: dict[int, int] = defaultdict(int)
    byes: dict[int, int] = defaultdict(int)
    for round_ in tournament.played:
        for entrant in round_.byes:
            byes[entrant] += 1
        for table in round_.tables:
            if not table.counts or table.places is None:
                continue
            for entrant, place in zip(table.entrants, table.places):
                games[entrant] += 1
                wins[entrant] += place == 1 and not table.forfeited
                met[entrant] += [other for other in table.entrants if other != entrant]
    ratings = tournament.ratings

    def key(entrant: int) -> tuple[bool, Fraction, Fraction, int, float]:
        opponents = sum((points[o] for o in met[entrant]), Fraction(0))
        out = tournament.entrants[entrant].status == DISQUALIFIED
        return (out, -points[entrant], -opponents, -wins[entrant], -ratings.get(entrant, 0.0))

    keys = {e.index: key(e.index) for e in tournament.entrants}
    order = sorted(keys, key=lambda entrant: (keys[entrant], entrant))
    lines, rank = [], 0
    for position, entrant in enumerate(order):
        if position == 0 or keys[entrant] != keys[order[position - 1]]:
            rank = position + 1
        lines.append(
            Standing(
                entrant=entrant,
                rank=rank,
                points=points[entrant],
                opponents=-keys[entrant][2],
                wins=wins[entrant],
                rating=ratings.get(entrant, 0.0),
                games=games[entrant],
                byes=byes[entrant],
                status=tournament.entrants[entrant].status,
            )
        )
    return lines
