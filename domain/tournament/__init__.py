"""Tournaments as aggregates: state and evolve, decide, pairing, scoring and standings.

A tournament has its own event stream, exactly like a game: every registration,
round, table, linked game and recorded result is an event, and the tournament
is their fold. Nothing here does I/O; the service links games and feeds results.
"""

from domain.tournament.decide import decide
from domain.tournament.standings import Standing, standings
from domain.tournament.state import ACTIVE, FINISHED, REGISTERING, ROUND_ROBIN, SWISS, Tournament, evolve, replay

__all__ = [
    "ACTIVE",
    "FINISHED",
    "REGISTERING",
    "ROUND_ROBIN",
    "SWISS",
    "Standing",
    "Tournament",
    "decide",
    "evolve",
    "replay",
    "standings",
]
