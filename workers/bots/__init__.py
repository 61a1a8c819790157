"""Bots choose an action from what their seat may see — never from the full state.

Each game has a module here with `heuristic(view, legal, rng) -> action`;
`random` is shared: uniform over the legal actions. `view` is the seat's
projected view (`projections.game.game_view`), `legal` its legal actions,
`rng` a `random.Random` seeded from the game id, version and seat so a bot's
play is reproducible. `mcts` (`workers/bots/mcts.py`) searches; it reads its
seat's redacted event log too, which `BotPlayers` puts under `view["log"]`. `BOTS` lists every game's bots by kind; each game's
rules declare the same kinds (`Rules.bots`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from workers.bots import (
    animals_on_board,
    animals_on_board_sampler,
    bloede_kuh,
    bloede_kuh_sampler,
    life_is_life,
    life_is_life_sampler,
    zop_zoo,
    zop_zoo_sampler,
)
from workers.bots.mcts import bot as mcts_bot

Bot = Callable[[Mapping[str, Any], list[dict[str, Any]], random.Random], dict[str, Any]]


def random_bot(view: Mapping[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Play uniformly at random among the legal actions."""
    return rng.choice(legal)


# What the search needs of each game: its sampler, fast-path rules and default budget.
SEARCH = {
    "life-is-life": life_is_life_sampler.GAME,
    "animals-on-board": animals_on_board_sampler.GAME,
    "bloede-kuh": bloede_kuh_sampler.GAME,
    "zop-zoo": zop_zoo_sampler.GAME,
}

BOTS: dict[str, dict[str, Bot]] = {
    "life-is-life": {"random": random_bot, "heuristic": life_is_life.heuristic},
    "animals-on-board": {"random": random_bot, "heuristic": animals_on_board.heuristic},
    "bloede-kuh": {"random": random_bot, "heuristic": bloede_kuh.heuristic},
    "zop-zoo": {"random": random_bot, "heuristic": zop_zoo.heuristic},
}
for _game, _search in SEARCH.items():
    BOTS[_game]["mcts"] = mcts_bot(_search)


def bot_for(game_id: str, kind: str, iterations: int | None = None) -> Bot:
    """Return the bot of a kind for a game (KeyError for an unknown game or kind).

    `iterations` is the game's `mcts_iterations` option: the search budget of its mcts seats.
    """
    if kind == "mcts" and iterations is not None:
        return mcts_bot(SEARCH[game_id], iterations)
    return BOTS[game_id][kind]


def bot_rng(game_id: str, version: int, seat: int) -> random.Random:
    """Return the reproducible random source of one bot decision."""
    return random.Random(f"{game_id}:{version}:{seat}")
