"""The bots as the game service sees them: given a game and a bot seat, the action it plays."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.game import Game
from projections.game import game_view
from workers.bots import bot_for, bot_rng

# The seat's event log as that seat may see it (`projections.game.redact_log`), read by the service.
SeatLog = Callable[[Game, int], list[dict[str, Any]]]


class BotPlayers:
    """Choose a bot seat's action from that seat's own view (and, for a searching bot, its redacted log), never from the state."""

    def __init__(self, seat_log: SeatLog | None = None) -> None:
        self.seat_log = seat_log

    def reads_log(self, game: Game, seat: int) -> bool:
        """Tell whether the bot in `seat` reads its seat's event log (a searching bot), not only its view."""
        return bool(
            getattr(bot_for(game.type, game.seats[seat].bot or "random", game.mcts_iterations), "reads_log", False)
        )

    def choose(self, game: Game, seat: int, kind: str | None = None) -> dict[str, Any]:
        """Return the action the bot in `seat` (or a bot of `kind` standing in for the seat) plays now."""
        view = game_view(game, seat)
        bot = bot_for(game.type, kind or game.seats[seat].bot or "random", game.mcts_iterations)
        if getattr(bot, "reads_log", False):
            view["log"] = self.seat_log(game, seat) if self.seat_log else []
        return bot(view, view["legal_actions"], bot_rng(game.id, game.version, seat))
