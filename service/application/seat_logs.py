"""Each bot seat's redacted event log, kept per process and extended with what is new.

A searching bot reads its seat's whole redacted log at every move. Read and
redacted from the start each time, a move in a game of n events costs O(n), and
the game O(n²): a long Zop Zoo game between two mcts seats slowed to seconds a
move. A seat's view of a recorded event never changes while the game is in
play, so the log read for the last move is kept and only the events since are
read and redacted.
"""

from __future__ import annotations

from typing import Any

from domain.game import Game
from projections.game import redact_log
from service.adapters.cache import Bounded
from service.adapters.store import EventStore

# Seats of games in play in one worker process; a few hundred bots' logs.
CAPACITY = 256


class SeatLogs:
    """`seat_logs(game, seat)`: the seat's redacted log up to `game.version`, read incrementally."""

    def __init__(self, store: EventStore, capacity: int = CAPACITY) -> None:
        self.store = store
        self._kept: Bounded[tuple[str, int], tuple[int, list[dict[str, Any]]]] = Bounded(capacity)

    def __call__(self, game: Game, seat: int) -> list[dict[str, Any]]:
        """Return the log as `seat` may see it, event 1 to `game.version`."""
        key = (game.id, seat)
        kept = self._kept.get(key)
        # A game read at an older version than the kept log (a late job) starts afresh.
        version, log = kept if kept is not None and kept[0] <= game.version else (0, [])
        events = self.store.read(game.id, after=version, upto=game.version)
        if len(events) != game.version - version:
            # The game holds events the store does not yet: a log read now would miss them, and be kept so.
            raise RuntimeError(f"game {game.id} is at version {game.version}, its stream at {version + len(events)}")
        new = redact_log(game.type, events, seat)
        log = log + new  # a new list: a caller holding the previous one keeps what it was given
        self._kept.put(key, (game.version, log), keep=lambda old, fresh: fresh[0] >= old[0])
        return list(log)
