"""Which values of a game's events and commands are hidden, and sealing them with the game's seed.

The core's own declarations are here: a seat's token hash (nobody), the token
hashes of a create or join command (nobody) and a seat's action (that seat: it
can be a private choice, a kept tile or a horse card). Each game declares the
rest in its `hidden.py`, as `Rules.hidden`. `domain.commitments` says how the
values are committed; the redaction in `projections/` reads the same tables.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from domain.commitments import NOBODY, SEAT, Declaration, Hidden, HiddenValue, commit, commitment_key, hidden_values
from domain.events import Event
from domain.games import rules_for

CORE_HIDDEN: Declaration = {
    "SeatTaken": (Hidden("token_sha256", NOBODY),),
}
COMMAND_HIDDEN: Declaration = {
    "create": (Hidden("seats.*.token_sha256", NOBODY),),
    "join": (Hidden("token_sha256", NOBODY),),
    "act": (Hidden("action", SEAT),),
}


@functools.cache
def declaration(game_type: str) -> Declaration:
    """Return every hidden field of a game's events, the core's included."""
    try:
        own: Declaration = getattr(rules_for(game_type), "hidden", {})
    except KeyError:
        own = {}
    return {**own, **CORE_HIDDEN}


def hidden_in(
    declared: Declaration, type_: str, data: Mapping[str, Any], actor: Any, command: Mapping[str, Any] | None
) -> list[HiddenValue]:
    """Return the hidden values of one event (its data's, then the command's it carries)."""
    fields = declared.get(type_)
    found = hidden_values("data", fields, data, actor) if fields else []
    if command is not None:
        command_fields = COMMAND_HIDDEN.get(command.get("kind", ""))
        if command_fields:
            found += hidden_values("command", command_fields, command, actor)
    return found


class Sealer:
    """Commit the hidden values of a game's events with keys from its secret seed."""

    def __init__(self, game_type: str, seed: str) -> None:
        self.declared = declaration(game_type)
        self.seed = seed

    def __call__(self, seq: int, event: Event, command: Mapping[str, Any] | None) -> dict[str, str]:
        """Return the commitments of the event recorded at `seq`, by path."""
        return {
            hidden.path: commit(commitment_key(self.seed, seq, hidden.path), hidden.value)
            for hidden in hidden_in(self.declared, event.type, event.data, event.actor, command)
        }

    def keys_for(self, seq: int, paths: list[str]) -> dict[str, str]:
        """Return the keys of some commitments of event `seq`, hex (a seat's openings of its own values)."""
        return {path: commitment_key(self.seed, seq, path).hex() for path in paths}
