"""Points for placings: a row of points per table size; shared placings split evenly.

The default row gives a win 60 points and last place 0, the places between
evenly spaced. A win is then worth the same at every table size, which matters
when a Swiss round mixes tables of 4 and 5; and 60 is divisible by every gap
(1 to 5), so every default row is whole numbers. A bye is worth the mean of the
largest table's row (30 by default): what an average placing earns.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from domain.tournament.errors import InvalidTournament

WIN_POINTS = 60


def default_row(size: int) -> list[int]:
    """Return the default points of a table of `size`, best place first."""
    if size < 2:
        return [WIN_POINTS][:size]
    return [round(WIN_POINTS * (size - 1 - i) / (size - 1)) for i in range(size)]


def resolve(sizes: Sequence[int], custom: Mapping[str, Sequence[float]] | None) -> dict[str, list[float]]:
    """Return a row for every table size, the organiser's where given, else the default."""
    custom = dict(custom or {})
    unknown = sorted(set(custom) - {str(size) for size in sizes})
    if unknown:
        raise InvalidTournament(
            f"scoring given for table sizes that are not played: {', '.join(unknown)}", sizes=unknown
        )
    rows: dict[str, list[float]] = {}
    for size in sizes:
        row = list(custom.get(str(size), default_row(size)))
        if len(row) != size:
            raise InvalidTournament(f"the scoring row for tables of {size} needs {size} numbers", size=size)
        if any(isinstance(p, bool) or not isinstance(p, (int, float)) or p < 0 for p in row):
            raise InvalidTournament("points are numbers of at least 0", size=size)
        if any(a < b for a, b in zip(row, row[1:])):
            raise InvalidTournament("a better place may not earn fewer points", size=size)
        rows[str(size)] = row
    return rows


def table_points(row: Sequence[float], places: Sequence[int]) -> tuple[Fraction, ...]:
    """Return each seat's points; seats sharing a place split the points of the positions they span."""
    order = sorted(range(len(places)), key=lambda seat: places[seat])
    points: dict[int, Fraction] = {}
    position = 0
    while position < len(order):
        place = places[order[position]]
        group = [seat for seat in order[position:] if places[seat] == place]
        share = sum((Fraction(row[position + k]) for k in range(len(group))), Fraction(0)) / len(group)
        for seat in group:
            points[seat] = share
        position += len(group)
    return tuple(points[seat] for seat in range(len(places)))


def bye_points(rows: Mapping[str, Sequence[float]]) -> Fraction:
    """Return what a bye is worth: the mean of the largest table's row."""
    row = rows[str(max(int(size) for size in rows))]
    return sum((Fraction(p) for p in row), Fraction(0)) / len(row)
