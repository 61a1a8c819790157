"""C2SP signed notes and tlog checkpoints: the text a log signs, and how a reader checks it.

A checkpoint (c2sp.org/tlog-checkpoint) is the note text
`<origin>\\n<size>\\n<base64 root>\\n`; a signed note (c2sp.org/signed-note) is
that text, a blank line, and one line per signature,
`— <key name> <base64(key hash || signature)>`. For Ed25519 the key hash is
the first 4 bytes of SHA-256(name || 0x0A || 0x01 || public key), and a
verifier key is written `<name>+<key hash in hex>+<base64(0x01 || public key)>`.
The cryptography itself is handed in (`Verifier`): this module only frames it.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from collections.abc import Callable
from dataclasses import dataclass

from mypy_extensions import mypyc_attr

from domain.errors import DomainError
from domain.transparency.merkle import HASH_SIZE

ED25519 = 0x01
SIGNATURE_PREFIX = "\u2014 "  # an em dash and a space
MAX_NOTE = 1 << 16


class NoteError(DomainError):
    """A note or checkpoint that is malformed, or whose signature does not verify."""

    code = "bad_note"


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Checkpoint:
    """A log's size and root hash, under its origin (the log's name)."""

    origin: str
    size: int
    root: bytes

    def body(self) -> str:
        """Return the checkpoint's note text."""
        return f"{self.origin}\n{self.size}\n{base64.b64encode(self.root).decode()}\n"


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class VerifierKey:
    """A note verifier key: a name and an Ed25519 public key."""

    name: str
    public_key: bytes

    @property
    def key_hash(self) -> bytes:
        """Return the 4-byte key hash a signature line names the key by."""
        return key_hash(self.name, self.public_key)

    def text(self) -> str:
        """Return the key in the signed-note `vkey` form."""
        encoded = base64.b64encode(bytes([ED25519]) + self.public_key).decode()
        return f"{self.name}+{self.key_hash.hex()}+{encoded}"


# (public key, message, signature) -> whether the signature is good; the caller's Ed25519.
Verifier = Callable[[bytes, bytes, bytes], bool]


def is_key_name(name: str) -> bool:
    """Tell whether `name` may name a key: not empty, no "+", no whitespace or other control character."""
    return bool(name) and "+" not in name and all(char.isprintable() and not char.isspace() for char in name)


def key_hash(name: str, public_key: bytes) -> bytes:
    """Return an Ed25519 key's hash: the first 4 bytes of SHA-256(name || 0x0A || 0x01 || key)."""
    return hashlib.sha256(name.encode() + b"\n" + bytes([ED25519]) + public_key).digest()[:4]


def signature_line(name: str, public_key: bytes, signature: bytes) -> str:
    """Return a note's signature line for `signature` by the named key."""
    return f"{SIGNATURE_PREFIX}{name} {base64.b64encode(key_hash(name, public_key) + signature).decode()}\n"


def signed_note(body: str, name: str, public_key: bytes, signature: bytes) -> str:
    """Return `body` signed: the text, a blank line, and the signature line."""
    return f"{body}\n{signature_line(name, public_key, signature)}"


def parse_vkey(text: str) -> VerifierKey:
    """Read a verifier key written `<name>+<hash hex>+<base64(0x01 || key)>`."""
    # A name holds no "+"; the base64 key may.
    parts = text.strip().split("+", 2)
    if len(parts) < 3:
        raise NoteError("a verifier key is <name>+<hash>+<key>")
    name, claimed, raw = key_parts(*parts, kind="verifier")
    key = VerifierKey(name, raw)
    if key.key_hash != claimed:
        raise NoteError("the verifier key's hash does not match its name and key")
    return key


def key_parts(name: str, hash_hex: str, encoded: str, *, kind: str) -> tuple[str, bytes, bytes]:
    """Return a key text's name, the key hash it claims and its 32 Ed25519 key bytes, or raise NoteError.

    Verifier and signer keys are written alike after their prefix:
    `<name>+<hash hex>+<base64(0x01 || key bytes)>`; `kind` names which, in the errors.
    """
    try:
        raw = base64.b64decode(encoded, validate=True)
        claimed = bytes.fromhex(hash_hex)
    except (binascii.Error, ValueError):
        raise NoteError(f"a {kind} key whose hash or key is not hex and base64") from None
    if not is_key_name(name):
        raise NoteError("a key name is printable, with no spaces and no +")
    if len(raw) != 33 or raw[0] != ED25519:
        raise NoteError(f"only Ed25519 {kind} keys are read here")
    return name, claimed, raw[1:]


def open_note(note: str, key: VerifierKey, verify: Verifier) -> str:
    """Return a signed note's text once a good signature by `key` is found on it; else raise `NoteError`."""
    if len(note) > MAX_NOTE:
        raise NoteError("the note is too long")
    body, blank, signatures = note.rpartition("\n\n")
    if not blank or not signatures.endswith("\n"):
        raise NoteError("not a signed note: no blank line before the signatures, or no final newline")
    body += "\n"
    for line in signatures[:-1].split("\n"):
        if not line.startswith(SIGNATURE_PREFIX):
            raise NoteError("a signature line does not start with an em dash")
        name, _, encoded = line[len(SIGNATURE_PREFIX) :].rpartition(" ")
        if name != key.name:
            continue  # another key's signature (a witness's, say): not ours to check
        try:
            raw = base64.b64decode(encoded, validate=True)
        except binascii.Error:
            raise NoteError("a signature that is not base64") from None
        if raw[:4] == key.key_hash and verify(key.public_key, body.encode(), raw[4:]):
            return body
        raise NoteError(f"the signature by {key.name} does not verify")
    raise NoteError(f"the note carries no signature by {key.name}")


def parse_checkpoint(body: str) -> Checkpoint:
    """Read a checkpoint's note text (extension lines after the root are allowed and ignored)."""
    lines = body.split("\n")
    if len(lines) < 4 or lines[-1] != "":
        raise NoteError("a checkpoint is <origin>, <size> and <base64 root>, a line each")
    origin, size_text, root_text = lines[:3]
    if not origin or not size_text.isdigit() or (size_text != "0" and size_text.startswith("0")):
        raise NoteError("a checkpoint's origin is empty or its size is not a decimal number")
    try:
        root_hash = base64.b64decode(root_text, validate=True)
    except binascii.Error:
        raise NoteError("a checkpoint's root is not base64") from None
    if len(root_hash) != HASH_SIZE:
        raise NoteError(f"a checkpoint's root is not {HASH_SIZE} bytes")
    return Checkpoint(origin, int(size_text), root_hash)


def open_checkpoint(note: str, key: VerifierKey, verify: Verifier) -> Checkpoint:
    """Return the checkpoint of a signed note, once its signature by `key` verifies."""
    return parse_checkpoint(open_note(note, key, verify))
