"""The bots as the game service sees them: given a game and a bot seat, the action it plays."""

from __future__ import annotations

from typing import Any

from domain.game import Game
from projections.game import game_view
from workers.bots import bot_for, bot_rng


class BotPlayers:
    """Choose a bot seat's action from that seat's own view, never from the state."""

    def choose(self, game: Game, seat: int) -> dict[str, Any]:
        """Return the action the bot in `seat` plays now."""
        view = game_view(game, seat)
        bot = bot_for(game.type, game.seats[seat].bot or "random")
        return bot(view, view["legal_actions"], bot_rng(game.id, game.version, seat))
