"""A load client that plays every seat of a game the way a seat's own client should: one request a move.

The action's answer holds the mover's view after the move, so a seat never
reads the game after its own move. It reads its view only when it is to act
and the view it holds is older than the game: the wait for its turn, which a
stream that delivers views will make a push instead of a request.
"""

from __future__ import annotations

import time
from typing import Any

from bench.bench_http import Client


class TableClient(Client):
    """One keep-alive connection playing every seat of whole games, a seat reading its view only to act."""

    def play(self, game: str, seats: int, deadline: float, moves: int | None = None) -> None:
        """Play a new game until it ends, the deadline passes or this client has posted `moves` moves."""
        table = self.new_table(game, seats)
        if table is None:
            return
        game_id, tokens = table
        known: dict[int, dict[str, Any]] = {}  # each seat's latest view: from its last answer or read
        latest = 0  # the newest version any seat's view showed
        seat = 0
        while time.monotonic() < deadline and (moves is None or len(self.posts) < moves):
            view = known.get(seat)
            if view is None or view["version"] < latest or not view["legal_actions"]:
                # The wait for this seat's turn: a read (a stream that brings views would make it a push).
                view = self.read_view(game_id, tokens[seat])
                known[seat], latest = view, max(latest, view.get("version", 0))
                if view.get("status") == "finished":
                    return
                if not view.get("to_act"):
                    time.sleep(0.005)  # the worker is taking a system step
                    continue
                if seat not in view["to_act"] or not view.get("legal_actions"):
                    seat = view["to_act"][0]
                    continue
            status, answer = self.post_first_legal(game_id, tokens[seat], view, query="?view=true")
            if status != 200:
                known.pop(seat, None)
                continue
            after = answer["view"]
            known[seat], latest = after, max(latest, after["version"])
            if after["status"] == "finished":
                return
            # Who acts next is in the mover's view; no one (a system step is due) means this seat looks again.
            seat = after["to_act"][0] if after["to_act"] else seat
