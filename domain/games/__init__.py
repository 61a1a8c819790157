"""The registry of games: every game the service hosts, imported by name, by id.

Each game is a package of the same shape (see `domain/rules.py`); its
`__init__` ends with `RULES`, the object listed here. The table is built when
this module is imported, so every thread sees it whole.
"""

from __future__ import annotations

from domain.games import animals_on_board, bloede_kuh, life_is_life, zop_zoo
from domain.rules import Rules

RULES: dict[str, Rules] = {game.RULES.id: game.RULES for game in (life_is_life, animals_on_board, bloede_kuh, zop_zoo)}


def rules_for(game_id: str) -> Rules:
    """Return a game's rules by id (KeyError for an unknown id)."""
    return RULES[game_id]


def register(rules: Rules) -> None:
    """Add a game that is not one of the service's own (tests register their toy game)."""
    RULES[rules.id] = rules
