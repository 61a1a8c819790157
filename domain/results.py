"""What a signed result is, and what an auditor checks of one; never a key.

A result statement names a finished game or tournament by what its chain says:
`{"id", "type" ("game" | "tournament"), "final_version", "final_hash"}`. The
house signs `MESSAGE_PREFIX` followed by the statement's canonical JSON
(`domain.canonical`), and the signature travels as

    {"key_id", "algorithm": "ed25519", "statement", "signature_b64"}

in an export's header (`domain.export`) and a bundle's (`domain.tournament.bundle`).
A key id is the first 8 bytes of the SHA-256 of the raw 32-byte public key, in
hex, so a verifier can say which key signed.

An auditor's checks (`check_signature`), in order: the signature is well formed;
its statement is exactly the one the chain gives (a signature over another game,
version or hash proves nothing about this file); and, given the house's public
keys (a `Verifier`), the key is one of them and the signature verifies over the
statement. Without keys a signature is only "present": the file says it was
signed, nobody has checked by whom.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from mypy_extensions import mypyc_attr

from domain.canonical import canonical_bytes

GAME, TOURNAMENT = "game", "tournament"
ALGORITHM = "ed25519"
# What is signed starts with this line, so that a result's signature can never be
# taken for the house key's signature over anything else it signs (a transparency
# log's checkpoint, say), whose text starts otherwise.
MESSAGE_PREFIX = b"menagerie-result/1\n"
KEY_ID_BYTES = 8
SIGNATURE_KEYS = frozenset({"key_id", "algorithm", "statement", "signature_b64"})

# What an auditor can say of a signature.
UNSIGNED, PRESENT, VERIFIED, FAILED = "unsigned", "present", "verified", "failed"


class Verifier(Protocol):
    """Public keys an auditor trusts: the house's, from its well-known route or a file."""

    def knows(self, key_id: str) -> bool:
        """Tell whether a key of this id is among the keys."""

    def verify(self, key_id: str, message: bytes, signature: bytes) -> bool:
        """Tell whether the key `key_id` signed `message` with `signature`."""


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Statement:
    """What the house signs of a finished game or tournament: its identity and where its chain ends."""

    id: str
    type: str
    final_version: int
    final_hash: str

    def to_dict(self) -> dict[str, Any]:
        """Return the statement as JSON."""
        return {"id": self.id, "type": self.type, "final_version": self.final_version, "final_hash": self.final_hash}

    def message(self) -> bytes:
        """Return the bytes the house signs."""
        return MESSAGE_PREFIX + canonical_bytes(self.to_dict())


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class SignatureCheck:
    """What an audit found of a signature: unsigned, present (not checked), verified, or failed (why)."""

    status: str
    key_id: str | None = None
    reason: str | None = None

    @property
    def ok(self) -> bool:
        """Tell whether nothing is wrong with the signature (an unsigned or unchecked one is not wrong)."""
        return self.status != FAILED

    def to_dict(self) -> dict[str, Any]:
        """Return the check as JSON."""
        return {"status": self.status, "key_id": self.key_id, "reason": self.reason}


NOT_SIGNED = SignatureCheck(UNSIGNED)


def key_id(public_key: bytes) -> str:
    """Return a public key's id: the first bytes of the SHA-256 of its raw bytes, in hex."""
    return hashlib.sha256(public_key).hexdigest()[: KEY_ID_BYTES * 2]


def chain_statement(kind: str, raw_events: Sequence[Mapping[str, Any]]) -> Statement:
    """Return the statement a stored log gives: the id its first event names, its length and its last hash."""
    created = raw_events[0].get("data", {}) if raw_events else {}
    last = raw_events[-1].get("hash") if raw_events else None
    return Statement(str(created.get("id")), kind, len(raw_events), str(last))


def signature_record(statement: Statement, signer_key_id: str, signature: bytes) -> dict[str, Any]:
    """Return the signature as it travels in a header."""
    return {
        "key_id": signer_key_id,
        "algorithm": ALGORITHM,
        "statement": statement.to_dict(),
        "signature_b64": base64.b64encode(signature).decode("ascii"),
    }


def check_signature(record: Any, chained: Statement, verifier: Verifier | None = None) -> SignatureCheck:
    """Check a header's signature against what the chain says, and against the keys if given."""
    if record is None:
        # Given keys, the auditor asks who published the result: an unsigned one cannot say.
        return NOT_SIGNED if verifier is None else SignatureCheck(FAILED, None, "the result is not signed")
    if not isinstance(record, Mapping) or set(record) != SIGNATURE_KEYS:
        return SignatureCheck(FAILED, None, f"the signature is not an object of {', '.join(sorted(SIGNATURE_KEYS))}")
    signer = record["key_id"]
    if not isinstance(signer, str) or record["algorithm"] != ALGORITHM:
        return SignatureCheck(FAILED, None, f"the signature names no key or an algorithm other than {ALGORITHM}")
    if record["statement"] != chained.to_dict():
        return SignatureCheck(
            FAILED, signer, f"the signed statement {_brief(record['statement'])} is not the chain's {chained.to_dict()}"
        )
    try:
        signature = base64.b64decode(str(record["signature_b64"]), validate=True)
    except (binascii.Error, ValueError):
        return SignatureCheck(FAILED, signer, "the signature is not base64")
    if verifier is None:
        return SignatureCheck(PRESENT, signer)
    if not verifier.knows(signer):
        return SignatureCheck(FAILED, signer, f"signed by key {signer}, which is not among the given public keys")
    if not verifier.verify(signer, chained.message(), signature):
        return SignatureCheck(FAILED, signer, f"the signature does not verify with key {signer}")
    return SignatureCheck(VERIFIED, signer)


def _brief(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 200 else text[:200] + "…"
