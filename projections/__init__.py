"""What each viewer may see. Redaction lives here and only here.

Each game has a module here that is its `Projection` (`seat_view`,
`bot_view`, `open_view`, `redact`), listed by game id in `PROJECTIONS` below;
`projections.game` wraps them with the core fields every view and every event
log shares.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from domain.events import Event


class Projection(Protocol):
    """One game's redaction of its own state and events."""

    def seat_view(self, state: Any, seat: int | None) -> dict[str, Any]:
        """Return what `seat` sees of the state (None: a spectator, public only)."""

    def bot_view(self, state: Any, seat: int | None) -> Mapping[str, Any]:
        """Return `seat_view` for a bot, which may build its parts only as they are read (it is not serialised)."""

    def open_view(self, state: Any) -> dict[str, Any]:
        """Return the whole state, every hidden card shown (finished games, audits)."""

    def redact(self, event: Event, seat: int | None) -> Mapping[str, Any]:
        """Return the event's data as `seat` may see it (None: a spectator)."""


# The game modules are imported here, after the protocol they implement.
from projections import animals_on_board, bloede_kuh, life_is_life, zop_zoo  # noqa: E402

PROJECTIONS: dict[str, Projection] = {
    "life-is-life": life_is_life,
    "animals-on-board": animals_on_board,
    "bloede-kuh": bloede_kuh,
    "zop-zoo": zop_zoo,
}


def projection_for(game_id: str) -> Projection:
    """Return a game's projection by id."""
    return PROJECTIONS[game_id]


def register(game_id: str, projection: Projection) -> None:
    """Add a game that is not one of the service's own (tests register their toy game)."""
    PROJECTIONS[game_id] = projection
