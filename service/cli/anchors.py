"""What `menagerie audit` and `audit-tournament` hold a file to beyond itself: keys, receipts, the log."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any

from domain.export import ExportFormatError
from domain.receipts import read_receipts
from domain.results import PRESENT, VERIFIED, SignatureCheck, Verifier
from domain.transparency.notes import NoteError
from service.adapters.house_keys import KeysError, public_keys_from
from service.cli import log_reader

KEY_HELP = (
    "the house's public keys, a file or the service's URL (its /.well-known/menagerie-keys): the result's"
    " signature must verify with one of them"
)


class Unusable(Exception):
    """A keys, receipts or log argument that cannot be read (exit 2); says which and why."""


def audit_inputs(key: str | None, receipts: str | None) -> tuple[Verifier | None, list[dict[str, Any]] | None]:
    """Read the house's public keys and a receipts file an audit is given, either None; raise Unusable."""
    try:
        verifier = public_keys_from(key) if key is not None else None
    except KeysError as error:
        raise Unusable(f"--key {error}") from None
    if receipts is None:
        return verifier, None
    try:
        with open(receipts, encoding="utf-8") as lines:
            return verifier, read_receipts(lines)
    except ExportFormatError as error:
        raise Unusable(f"{receipts}: {error.message}") from None


def in_log(log: str, log_key: str | None, statement: Mapping[str, Any]) -> str:
    """Say where the log holds a result; raise log_reader.LogAlarm if it does not, Unusable if it cannot be read."""
    try:
        return log_reader.check_in_log(log, log_key, dict(statement))
    except (log_reader.LogUnreadable, NoteError, KeyError, ValueError) as error:
        raise Unusable(f"{log}: cannot read the log: {error}") from None


def signed_by(check: SignatureCheck) -> str:
    """Say what an audit found of a result's signature, naming the key."""
    if check.status == VERIFIED:
        return f"signature verified: signed by house key {check.key_id}"
    if check.status == PRESENT:
        return f"signed by key {check.key_id} (not verified: give --key)"
    return "unsigned"


def unusable(error: Unusable) -> int:
    """Print why an argument cannot be used; return the exit code for it."""
    print(error, file=sys.stderr)
    return 2
