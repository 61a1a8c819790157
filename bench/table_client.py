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
        status, created = self.call(
            "POST", "/games", {"game": game, "seats": [{"name": f"p{i}"} for i in range(seats)]}
        )
        if status != 201:
            self.errors += 1
            return
        tokens = [seat["token"] for seat in created["seats"]]
        game_id = created["id"]
        known: dict[int, dict[str, Any]] = {}  # each seat's latest view: from its last answer or read
        latest = 0  # the newest version any seat's view showed
        seat = 0
        while time.monotonic() < deadline and (moves is None or len(self.posts) < moves):
            view = known.get(seat)
            if view is None or view["version"] < latest or not view["legal_actions"]:
                view = self._wait_for_turn(game_id, tokens[seat])
                known[seat], latest = view, max(latest, view.get("version", 0))
                if view.get("status") == "finished":
                    return
                if not view.get("to_act"):
                    time.sleep(0.005)  # the worker is taking a system step
                    continue
                if seat not in view["to_act"] or not view.get("legal_actions"):
                    seat = view["to_act"][0]
                    continue
            body = {"action": view["legal_actions"][0], "expected_version": view["version"]}
            start = time.perf_counter()
            status, answer = self.call("POST", f"/games/{game_id}/actions?view=true", body, token=tokens[seat])
            self.posts.append(time.perf_counter() - start)
            if status != 200:
                self.errors += status >= 500
                known.pop(seat, None)
                continue
            after = answer["view"]
            known[seat], latest = after, max(latest, after["version"])
            if after["status"] == "finished":
                return
            # Who acts next is in the mover's view; no one (a system step is due) means this seat looks again.
            seat = after["to_act"][0] if after["to_act"] else seat

    def _wait_for_turn(self, game_id: str, token: str) -> dict[str, Any]:
        """Read a seat's view (the one read a seat makes: when it must act and holds an older view)."""
        start = time.perf_counter()
        _, view = self.call("GET", f"/games/{game_id}", token=token)
        self.gets.append(time.perf_counter() - start)
        return view
