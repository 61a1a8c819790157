"""Bearer tokens: handed out once, recorded only as their SHA-256."""

from __future__ import annotations

import hashlib
import secrets


def token_sha256(token: str) -> str:
    """Return the hash under which a token is recorded."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_secret() -> str:
    """Return the random part of a new token."""
    return secrets.token_hex(16)
