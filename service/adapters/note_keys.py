"""Ed25519 keys for signed notes: the log's signer (a C2SP `PRIVATE+KEY+...` file, or a new key) and the verifier.

`MENAGERIE_LOG_KEY` names a file holding a signer key in the signed-note
form, `PRIVATE+KEY+<name>+<hash hex>+<base64(0x01 || 32-byte seed)>` (what
Go's `note.GenerateKey` writes). Without it the embedded server makes a key
for its lifetime; a server on a shared Redis keeps the key it made there
(`<prefix>:{tlog}:signer`), so every process signs with the same one, and
warns: an operator sets `MENAGERIE_LOG_KEY`.
"""

from __future__ import annotations

import base64
import logging
import os
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from domain.transparency.notes import ED25519, NoteError, VerifierKey, is_key_name, key_hash, key_parts
from service.adapters.connections import ConfigError, StoreRedis
from service.adapters.tlog import log_key

log = logging.getLogger(__name__)

DEFAULT_NAME = "menagerie.local/results"


@dataclass(frozen=True)
class Ed25519NoteSigner:
    """A named Ed25519 key that signs notes (the application's `NoteSigner`)."""

    name: str
    seed: bytes

    @property
    def public_key(self) -> bytes:
        """Return the raw 32-byte public key."""
        return self._key().public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)

    def sign(self, message: bytes) -> bytes:
        """Return the Ed25519 signature of `message`."""
        return self._key().sign(message)

    def verifier_key(self) -> VerifierKey:
        """Return the key a reader verifies this signer's notes with."""
        return VerifierKey(self.name, self.public_key)

    def text(self) -> str:
        """Return the signer key in the signed-note `PRIVATE+KEY+...` form (a secret: for the key file only)."""
        encoded = base64.b64encode(bytes([ED25519]) + self.seed).decode()
        return f"PRIVATE+KEY+{self.name}+{key_hash(self.name, self.public_key).hex()}+{encoded}"

    def _key(self) -> Ed25519PrivateKey:
        return Ed25519PrivateKey.from_private_bytes(self.seed)

    def __repr__(self) -> str:
        return f"Ed25519NoteSigner({self.name!r})"  # never the seed


def new_signer(name: str = DEFAULT_NAME) -> Ed25519NoteSigner:
    """Return a signer with a new random key."""
    return Ed25519NoteSigner(name, os.urandom(32))


def parse_signer(text: str) -> Ed25519NoteSigner:
    """Read a signer key written `PRIVATE+KEY+<name>+<hash hex>+<base64(0x01 || seed)>`."""
    # A name holds no "+"; the base64 key may.
    parts = text.strip().split("+", 4)
    if len(parts) < 5 or parts[:2] != ["PRIVATE", "KEY"]:
        raise NoteError("a signer key is PRIVATE+KEY+<name>+<hash>+<key>")
    name, claimed, seed = key_parts(*parts[2:], kind="signer")
    signer = Ed25519NoteSigner(name, seed)
    if key_hash(name, signer.public_key) != claimed:
        raise NoteError("the signer key's hash does not match its name and key")
    return signer


def verify_ed25519(public_key: bytes, message: bytes, signature: bytes) -> bool:
    """Return whether `signature` is a good Ed25519 signature of `message` by `public_key`."""
    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    return True


def signer_from_env(redis: StoreRedis | None, prefix: str) -> Ed25519NoteSigner:
    """Return the log's signer: MENAGERIE_LOG_KEY's file; else a key kept in the shared Redis; else a new one."""
    path = os.environ.get("MENAGERIE_LOG_KEY")
    if path:
        try:
            with open(path, encoding="utf-8") as file:
                return parse_signer(file.read())
        except (OSError, NoteError) as error:
            raise ConfigError(f"MENAGERIE_LOG_KEY {path}: {error}") from None
    name = os.environ.get("MENAGERIE_LOG_NAME", DEFAULT_NAME)
    if not is_key_name(name):
        raise ConfigError(f"MENAGERIE_LOG_NAME {name!r}: a key name is printable, with no spaces and no +")
    if redis is None:
        return new_signer(name)
    log.warning("MENAGERIE_LOG_KEY is not set: the log's checkpoints are signed with a key kept in Redis")
    redis.set(log_key(prefix, "signer"), new_signer(name).text(), nx=True)
    stored = redis.get(log_key(prefix, "signer"))
    assert stored is not None
    return parse_signer(stored.decode() if isinstance(stored, bytes) else str(stored))
