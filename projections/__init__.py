"""What each viewer may see. Redaction lives here and only here.

Each game has a module here exposing a `Projection`; `projections.game` wraps
them with the core fields every view and every event log shares.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from domain.events import Event


class Projection(Protocol):
    """One game's redaction of its own state and events."""

    def seat_view(self, state: Any, seat: int | None) -> dict[str, Any]:
        """Return what `seat` sees of the state (None: a spectator, public only)."""

    def open_view(self, state: Any) -> dict[str, Any]:
        """Return the whole state, every hidden card shown (finished games, audits)."""

    def redact(self, event: Event, seat: int | None) -> Mapping[str, Any]:
        """Return the event's data as `seat` may see it (None: a spectator)."""


PROJECTIONS: dict[str, Projection] = {}
_loaded = False


def register(game_id: str, projection: Projection) -> Projection:
    """Add a game's projection to the registry (each module calls this once)."""
    PROJECTIONS[game_id] = projection
    return projection


def projection_for(game_id: str) -> Projection:
    """Return a game's projection by id, importing the game modules on first use."""
    global _loaded
    if not _loaded:
        _loaded = True
        import importlib
        import pkgutil

        import projections as package

        for module in pkgutil.iter_modules(package.__path__):
            if not module.name.startswith("_") and module.name != "game":
                importlib.import_module(f"projections.{module.name}")
    return PROJECTIONS[game_id]
