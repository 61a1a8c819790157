"""One move, however it came: `POST /games/{id}/actions`, or an `act` message on the game's socket.

Both call `play`, so each rule of a move is checked once, in one order: the
game (404), the seat's token (401/403), the request's options (the HTTP
query), the Idempotency-Key, the body (400), the action's form (400, or 422
for another game's), then the command itself (409, 422). A carrier says only
where each part of the request is (`MoveRequest`); the rate limit on moves is
counted on one counter per client address for both (service/http/limits.py).
"""

from __future__ import annotations

import re
from typing import Any, Protocol

from service.errors import InvalidIdempotencyKey
from service.http.actions import load_action
from service.http.auth import seat_for
from service.http.requests import checked, services
from service.http.schemas import ACTION, plain_action_body
from service.http.views import view_after

_IDEMPOTENCY_KEY = re.compile(r"^[\x21-\x7e]{1,200}$")


class MoveRequest(Protocol):
    """Where a move's parts are: each read when `play` comes to it, so the first problem is the one answered."""

    def wants_view(self) -> bool:
        """Tell whether the answer should hold the mover's view after the move (400 if the ask is malformed)."""

    def idempotency_key(self) -> str | None:
        """Return the Idempotency-Key sent, if any, unchecked."""

    def body(self) -> Any:
        """Return the body as parsed JSON, unchecked (400 if it is not JSON)."""


def checked_idempotency_key(key: str | None) -> str | None:
    """Return an Idempotency-Key if it is a valid one (1 to 200 visible ASCII characters), None for none; else 400."""
    if key is not None and (type(key) is not str or not _IDEMPOTENCY_KEY.match(key)):
        raise InvalidIdempotencyKey("Idempotency-Key must be 1 to 200 visible ASCII characters")
    return key


def play(game_id: str, token: str | None, asked: MoveRequest) -> dict[str, Any]:
    """Play the token's seat's action in the game; return the answer (with the view after it, when asked for)."""
    s = services()
    game = s.repository.cached(game_id)
    seat = seat_for(game, token)
    # What does not match openapi.yaml (the query, the key, the body) is a 400 before the move is judged (422).
    view = asked.wants_view()
    idempotency_key = checked_idempotency_key(asked.idempotency_key())
    data = checked(ACTION, asked.body(), plain_action_body)
    action = load_action(game.type, data["action"])
    result = s.games.act(
        game_id, seat, action, expected_version=data["expected_version"], idempotency_key=idempotency_key
    )
    if view:
        # The mover's next decision needs its view: in the answer, it needs no second request.
        result["view"] = view_after(game_id, result["version"], seat)
    return result
