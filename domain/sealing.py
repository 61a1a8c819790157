"""Which values of a game's events and commands are hidden, and sealing them with the game's seed.

The core's own declarations are here: a seat's token hash (nobody), the token
hashes of a create or join command (nobody) and a seat's action, whether the
seat played it or a stand-in played it for the seat when its clock ran out
(that seat: it can be a private choice, a kept tile or a horse card). Each game
declares the rest in its `hidden.py`, as `Rules.hidden`.

Every command kind a game records is declared here, hidden fields or none: a
kind in neither table is refused when sealed, so a new kind cannot reach the
chain (and a spectator's log, which shows the sealed form) in the clear. `domain.commitments` says how the
values are committed; the redaction in `projections/` reads the same tables.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from domain.commitments import (
    CHAIN_VERSION,
    NOBODY,
    SEAT,
    Declaration,
    Hidden,
    HiddenValue,
    commit,
    commitment_key,
    hidden_values,
)
from domain.events import Event
from domain.games import rules_for

CORE_HIDDEN: Declaration = {
    "SeatTaken": (Hidden("token_sha256", NOBODY),),
}
COMMAND_HIDDEN: Declaration = {
    "create": (Hidden("seats.*.token_sha256", NOBODY),),
    "join": (Hidden("token_sha256", NOBODY),),
    "act": (Hidden("action", SEAT),),
    # Scheme 3 on: the stand-in's action is the seat's move, as private as one the seat plays itself.
    "timeout": (Hidden("action", SEAT),),
}
# Command kinds with nothing hidden: a system step carries no field at all.
COMMAND_PUBLIC = frozenset({"advance"})
# Scheme 2 chained a timeout's action in the clear; its games are still read as they were written.
_COMMAND_HIDDEN_2: Declaration = {kind: fields for kind, fields in COMMAND_HIDDEN.items() if kind != "timeout"}


class UndeclaredCommand(ValueError):
    """A command of a kind neither hidden nor public was to be sealed."""


def command_hidden(scheme: int) -> Declaration:
    """Return the hidden fields of each command kind under a chain scheme (commitments: 2 on)."""
    return _COMMAND_HIDDEN_2 if scheme == 2 else COMMAND_HIDDEN


@functools.cache
def declaration(game_type: str) -> Declaration:
    """Return every hidden field of a game's events, the core's included."""
    try:
        own: Declaration = getattr(rules_for(game_type), "hidden", {})
    except KeyError:
        own = {}
    return {**own, **CORE_HIDDEN}


def hidden_in(
    declared: Declaration,
    type_: str,
    data: Mapping[str, Any],
    actor: Any,
    command: Mapping[str, Any] | None,
    scheme: int = CHAIN_VERSION,
) -> list[HiddenValue]:
    """Return the hidden values of one event (its data's, then the command's it carries) under a chain scheme."""
    fields = declared.get(type_)
    found = hidden_values("data", fields, data, actor) if fields else []
    if command is not None:
        command_fields = command_hidden(scheme).get(command.get("kind", ""))
        if command_fields:
            found += hidden_values("command", command_fields, command, actor)
    return found


class Sealer:
    """Commit the hidden values of a game's events with keys from its secret seed."""

    def __init__(self, game_type: str, seed: str, scheme: int = CHAIN_VERSION) -> None:
        self.declared = declaration(game_type)
        self.seed = seed
        self.scheme = scheme

    def __call__(self, seq: int, event: Event, command: Mapping[str, Any] | None) -> dict[str, str]:
        """Return the commitments of the event recorded at `seq`, by path.

        Raises UndeclaredCommand for a command of a kind not declared above.
        """
        if command is not None:
            kind = command.get("kind", "")
            if kind not in COMMAND_HIDDEN and kind not in COMMAND_PUBLIC:
                raise UndeclaredCommand(f"no sealing is declared for {kind!r} commands")
        return {
            hidden.path: commit(commitment_key(self.seed, seq, hidden.path), hidden.value)
            for hidden in hidden_in(self.declared, event.type, event.data, event.actor, command, self.scheme)
        }

    def keys_for(self, seq: int, paths: list[str]) -> dict[str, str]:
        """Return the keys of some commitments of event `seq`, hex (a seat's openings of its own values)."""
        return {path: commitment_key(self.seed, seq, path).hex() for path in paths}
