"""The registry of games: every game the service hosts, imported by name, by id.

Each game is a package of the same shape (see `domain/rules.py`); its
`__init__` ends with `RULES`, the object listed here. The table is built when
this module is imported, so every thread sees it whole.
"""

from __future__ import annotations

from domain.games import animals_on_board, bloede_kuh, life_is_life, zop_zoo
from domain.games.animals_on_board import simulation as animals_on_board_simulation
from domain.games.zop_zoo import simulation as zop_zoo_simulation
from domain.rules import Rules

RULES: dict[str, Rules] = {game.RULES.id: game.RULES for game in (life_is_life, animals_on_board, bloede_kuh, zop_zoo)}
# The bots' fast path (`domain.simulate`) plays a game through its `simulation.FAST` where it has one:
# the same rules, with a move's states built fewer times; tests/domain/test_fast_path_agrees.py proves them equal.
FAST_PATHS: dict[str, Rules] = {
    rules.id: rules for rules in (animals_on_board_simulation.FAST, zop_zoo_simulation.FAST)
}


def rules_for(game_id: str) -> Rules:
    """Return a game's rules by id (KeyError for an unknown id)."""
    return RULES[game_id]


def fast_path_for(rules: Rules) -> Rules:
    """Return the game's evaluator for the fast path: its `simulation.FAST`, else its rules.

    Only the registered rules have a fast path: rules of a caller's own (a wrapper that
    notes the events, say) are played as they are.
    """
    fast = FAST_PATHS.get(rules.id)
    return fast if fast is not None and RULES.get(rules.id) is rules else rules


def register(rules: Rules) -> None:
    """Add a game that is not one of the service's own (tests register their toy game)."""
    RULES[rules.id] = rules
