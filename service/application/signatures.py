"""The house signs what it publishes: every finished game's and tournament's result, once.

`domain.results` says what a signed result is; the keys are an adapter
(`service.adapters.house_keys`) behind the `HouseSigner` port below. A result
is signed when its game or tournament ends (the follow-ups in
`service.bootstrap`), and again, lazily, whenever it is exported and finds no
signature kept: a follow-up lost to a crash is made good by the first reader.
The signature is kept beside the game in the store (`EventStore.keep_signature`),
first one wins, so signing twice stores one (Ed25519 would give the same bytes
anyway, unless the key was rotated in between).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Protocol

from domain.game import Game
from domain.results import FAILED, GAME, TOURNAMENT, Statement, check_signature, signature_record
from domain.tournament.state import Tournament
from service.adapters.store import EventStore
from service.errors import ImportRefused

log = logging.getLogger(__name__)


class HouseSigner(Protocol):
    """The house keys as the application uses them (and a transparency log may sign its checkpoints with)."""

    current_key_id: str

    def sign(self, message: bytes) -> bytes:
        """Sign with the current key."""

    def current_public_key(self) -> bytes:
        """Return the current key's raw 32-byte Ed25519 public key."""

    def public_keys(self) -> list[dict[str, Any]]:
        """Return every key the house signed with, current and retired, as published."""

    def knows(self, key_id: str) -> bool:
        """Tell whether a key of this id is the house's."""

    def verify(self, key_id: str, message: bytes, signature: bytes) -> bool:
        """Tell whether the house key `key_id` signed `message` with `signature`."""


@dataclass(frozen=True)
class ResultSignatures:
    """Sign finished results with the house key, and keep one signature each."""

    keys: HouseSigner
    store: EventStore

    def game(self, game: Game) -> dict[str, Any]:
        """Return the signature of a finished game's result, signing and keeping it if none is kept."""
        return self.sign(Statement(game.id, GAME, game.version, game.last_hash))

    def tournament(self, tournament: Tournament) -> dict[str, Any]:
        """Return the signature of a finished tournament's result, signing and keeping it if none is kept."""
        return self.sign(Statement(tournament.id, TOURNAMENT, tournament.version, tournament.last_hash))

    def sign(self, statement: Statement) -> dict[str, Any]:
        """Return the kept signature of a statement, or sign it and keep that (the first kept wins)."""
        kept = self.store.signature(statement.id)
        if kept is not None and kept.get("statement") == statement.to_dict():
            return kept
        if kept is not None:
            # A finished result never changes: a signature of another statement is not this result's.
            log.warning("the signature kept for %s is of another statement; signing afresh", statement.id)
        record = signature_record(statement, self.keys.current_key_id, self.keys.sign(statement.message()))
        return self.store.keep_signature(statement.id, record, overwrite=kept is not None)

    def adopt(self, record: Any, statement: Statement) -> dict[str, Any]:
        """Keep an imported result's signature as it came; sign an unsigned one now (the house publishes it now).

        The import's audit has already checked the statement against the chain. A
        signature naming a house key must verify (else ImportRefused); one by a key
        the house does not know (another deployment's, an ephemeral one) is kept as
        it is, and its audit here says so.
        """
        if record is None:
            return self.sign(statement)
        checked = check_signature(record, statement, self.keys)
        if checked.status == FAILED and checked.key_id is not None and self.keys.knows(checked.key_id):
            raise ImportRefused(f"the export's signature: {checked.reason}")
        if checked.status == FAILED:
            log.warning("kept the imported signature of %s by key %s, not a house key", statement.id, checked.key_id)
        return self.store.keep_signature(statement.id, dict(record), overwrite=True)

    def kept(self, subject_id: str) -> dict[str, Any] | None:
        """Return the signature kept of a result, if any (never signs)."""
        return self.store.signature(subject_id)
