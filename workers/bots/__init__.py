"""Bots choose an action from what their seat may see — never from the full state.

Each game has a module here with `heuristic(view, legal, rng) -> action`;
`random` is shared: uniform over the legal actions. `view` is the seat's
projected view (`projections.game.game_view`), `legal` its legal actions,
`rng` a `random.Random` seeded from the game id, version and seat so a bot's
play is reproducible.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping
from typing import Any

BOT_KINDS = ("random", "heuristic")
Bot = Callable[[Mapping[str, Any], list[dict[str, Any]], random.Random], dict[str, Any]]

_MODULES = {
    "life-is-life": "life_is_life",
    "animals-on-board": "animals_on_board",
    "bloede-kuh": "bloede_kuh",
    "zop-zoo": "zop_zoo",
}


def random_bot(view: Mapping[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Play uniformly at random among the legal actions."""
    return rng.choice(legal)


def bot_for(game_id: str, kind: str) -> Bot:
    """Return the bot of a kind for a game."""
    if kind == "random":
        return random_bot
    if kind != "heuristic":
        raise KeyError(kind)
    module = importlib.import_module(f"workers.bots.{_MODULES[game_id]}")
    return module.heuristic


def bot_rng(game_id: str, version: int, seat: int) -> random.Random:
    """Return the reproducible random source of one bot decision."""
    return random.Random(f"{game_id}:{version}:{seat}")
