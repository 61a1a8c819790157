"""The house keys: Ed25519 keys (the `cryptography` package) that sign what the service publishes.

Kept where the operator says, `MENAGERIE_KEYS_DIR`, a folder (0700) holding:

- `keys.json` — which key is current, and every key the house ever signed with:
  `{"current": key_id, "keys": [{"key_id", "algorithm", "public_key_b64",
  "created", "retired"}]}` (`retired` is null, or when the key stopped signing);
- `<key_id>.pem` — each key's private key (PKCS#8 PEM, 0600). Only the current
  key's is read; a retired key's may be moved offline, its public key stays
  published from `keys.json` and still verifies what it signed.

`menagerie keys new` creates the first key, `menagerie keys rotate` makes a new
one current and retires the old, `menagerie keys show` prints the public keys
(the same document `GET /.well-known/menagerie-keys` serves).

Without a keys folder each process makes an ephemeral key at start, which
dies with it, and publishes its public key in the store (`<prefix>:house-keys`,
`SharedEphemeralKeys`), so the API and its workers verify each other's
signatures. Only then are keys read from the store: with a keys folder the
folder alone says which keys are the house's, so whoever can write to Redis
cannot add a key of their own.

A key's id is `domain.results.key_id` of its raw 32-byte public key.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import os
import stat
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from domain.results import ALGORITHM, key_id
from service.adapters.connections import ConfigError

log = logging.getLogger(__name__)

MANIFEST = "keys.json"
WELL_KNOWN = "/.well-known/menagerie-keys"
CURRENT, RETIRED = "current", "retired"
# How long `--key URL` waits for the house's answer.
FETCH_TIMEOUT_S = 10


class KeysError(ConfigError):
    """A keys folder or a public-key document that cannot be used; says why, never a key's secret.

    A `ConfigError`, so that a service given a broken keys folder stops at start with the reason.
    """


@dataclass(frozen=True)
class PublicKey:
    """One house key as published: its id, raw public key, when it was made and whether it still signs."""

    key_id: str
    raw: bytes
    created: str
    retired: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Return the key as the well-known route lists it."""
        return {
            "key_id": self.key_id,
            "algorithm": ALGORITHM,
            "public_key_b64": base64.b64encode(self.raw).decode("ascii"),
            "created": self.created,
            "status": RETIRED if self.retired else CURRENT,
        }


class PublicKeys:
    """Public keys alone: what an auditor verifies with (a `domain.results.Verifier`)."""

    def __init__(self, keys: Iterable[PublicKey]) -> None:
        self._keys = {key.key_id: key for key in keys}
        self._verifiers = {kid: Ed25519PublicKey.from_public_bytes(key.raw) for kid, key in self._keys.items()}

    def knows(self, key_id: str) -> bool:
        """Tell whether a key of this id is among these."""
        return key_id in self._keys

    def verify(self, key_id: str, message: bytes, signature: bytes) -> bool:
        """Tell whether the key `key_id` signed `message` with `signature` (False for an unknown key)."""
        verifier = self._verifiers.get(key_id)
        if verifier is None:
            return False
        try:
            verifier.verify(signature, message)
        except InvalidSignature:
            return False
        return True

    def public_keys(self) -> list[dict[str, Any]]:
        """Return every key as the well-known route lists it, the current first."""
        ordered = sorted(self._keys.values(), key=lambda key: (key.retired is not None, key.created))
        return [key.to_dict() for key in ordered]


class HouseKeys(PublicKeys):
    """The house's keys: the current private key that signs, and every public key it signed with."""

    def __init__(self, current: Ed25519PrivateKey, keys: Sequence[PublicKey]) -> None:
        super().__init__(keys)
        self._private = current
        self._current_raw = raw_public(current)
        self.current_key_id = key_id(self._current_raw)
        if not self.knows(self.current_key_id):
            raise KeysError("the current private key is not among the listed public keys")

    def sign(self, message: bytes) -> bytes:
        """Sign with the current key (Ed25519 is deterministic: one message, one signature)."""
        return self._private.sign(message)

    def current_public_key(self) -> bytes:
        """Return the current key's raw 32-byte Ed25519 public key (what a C2SP signed note names)."""
        return self._current_raw


def raw_public(private: Ed25519PrivateKey) -> bytes:
    """Return a private key's raw 32-byte public key."""
    return private.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def ephemeral(now: str | None = None) -> HouseKeys:
    """Make a key for this process alone (no keys folder): it signs until the process ends."""
    private = Ed25519PrivateKey.generate()
    raw = raw_public(private)
    return HouseKeys(private, [PublicKey(key_id(raw), raw, now or _now())])


def from_env(redis: Any, prefix: str, environ: Mapping[str, str] | None = None) -> HouseKeys:
    """Return the keys of MENAGERIE_KEYS_DIR, or an ephemeral key published in the store (and say so in the log)."""
    folder = (os.environ if environ is None else environ).get("MENAGERIE_KEYS_DIR")
    if folder:
        keys = load(folder)
        log.info("house key %s from %s signs finished games and tournaments", keys.current_key_id, folder)
        return keys
    shared = SharedEphemeralKeys(ephemeral(), redis, f"{prefix}:house-keys")
    log.warning(
        "MENAGERIE_KEYS_DIR is not set: ephemeral house key %s signs, for this process's life only"
        " (docs/operators.md, House keys)",
        shared.current_key_id,
    )
    return shared


class SharedEphemeralKeys(HouseKeys):
    """An ephemeral key whose public key is published in the store, beside every other process's of the deployment.

    It signs with its own key, and knows and lists every key published under
    the store's key, so a result signed by a worker verifies on the API.
    """

    def __init__(self, own: HouseKeys, redis: Any, key: str) -> None:
        super().__init__(own._private, [PublicKey(own.current_key_id, own.current_public_key(), _now())])
        self._redis, self._store_key = redis, key
        self._entry = {"public_key_b64": base64.b64encode(own.current_public_key()).decode("ascii"), "created": _now()}
        self._published_own = False

    def sign(self, message: bytes) -> bytes:
        """Sign with this process's key, once its public key is published (before the first signature leaves)."""
        if not self._published_own:
            # Not at start: a process may start while the store is down, and one that never signs needs no entry.
            self._redis.hset(self._store_key, self.current_key_id, json.dumps(self._entry))
            self._published_own = True
        return super().sign(message)

    def _published(self) -> PublicKeys:
        found = []
        for raw in (self._redis.hgetall(self._store_key) or {}).values():
            try:
                found.append(_public_key(json.loads(raw), retired_field=False))
            except (KeysError, ValueError):
                continue  # not a key: never trusted, never listed
        return PublicKeys(found)

    def knows(self, key_id: str) -> bool:
        """Tell whether this process or another of the deployment published the key."""
        return super().knows(key_id) or self._published().knows(key_id)

    def verify(self, key_id: str, message: bytes, signature: bytes) -> bool:
        """Verify with this process's key, or with a key another process published."""
        if super().knows(key_id):
            return super().verify(key_id, message, signature)
        return self._published().verify(key_id, message, signature)

    def public_keys(self) -> list[dict[str, Any]]:
        """Return this process's key first, then every other the deployment's processes published."""
        own = super().public_keys()
        return own + [key for key in self._published().public_keys() if key["key_id"] != self.current_key_id]


# --- the keys folder -------------------------------------------------------


def load(folder: str) -> HouseKeys:
    """Read a keys folder: the current private key and every public key."""
    manifest = _read_manifest(folder)
    keys = _listed(manifest)
    current = manifest.get("current")
    path = _pem_path(folder, str(current))
    try:
        mode = os.stat(path).st_mode
        with open(path, "rb") as pem:
            private = serialization.load_pem_private_key(pem.read(), password=None)
    except OSError as error:
        raise KeysError(f"the current key's private key {path} cannot be read ({error.strerror})") from None
    except ValueError:
        raise KeysError(f"{path} is not a PEM private key") from None
    if not isinstance(private, Ed25519PrivateKey):
        raise KeysError(f"{path} is not an Ed25519 key")
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        log.warning("%s can be read by others than its owner: chmod 600 it", path)
    return FolderKeys(private, keys, folder)


class FolderKeys(HouseKeys):
    """A keys folder's keys: signs with the key current at start, and reads the folder's public keys afresh.

    So a process started before a rotation lists the new key and verifies what
    a process started after it signed, before it is restarted itself.
    """

    def __init__(self, current: Ed25519PrivateKey, keys: Sequence[PublicKey], folder: str) -> None:
        super().__init__(current, keys)
        self._folder = folder

    def _afresh(self) -> PublicKeys | None:
        try:
            return PublicKeys(_listed(_read_manifest(self._folder)))
        except KeysError:
            return None  # a folder that cannot be read now: the keys read at start still stand

    def knows(self, key_id: str) -> bool:
        """Tell whether the folder lists the key (read again when it is not one read at start)."""
        if super().knows(key_id):
            return True
        found = self._afresh()
        return found is not None and found.knows(key_id)

    def verify(self, key_id: str, message: bytes, signature: bytes) -> bool:
        """Verify with a key read at start, or with one the folder lists now."""
        if super().knows(key_id):
            return super().verify(key_id, message, signature)
        found = self._afresh()
        return found is not None and found.verify(key_id, message, signature)

    def public_keys(self) -> list[dict[str, Any]]:
        """Return the keys the folder lists now, the current first."""
        found = self._afresh()
        return found.public_keys() if found is not None else super().public_keys()


def create(folder: str) -> str:
    """Create a keys folder's first key; refuse if the folder already has a current key. Return the key's id."""
    if os.path.exists(os.path.join(folder, MANIFEST)):
        raise KeysError(f"{folder} already holds house keys: `menagerie keys rotate` makes a new current one")
    os.makedirs(folder, mode=0o700, exist_ok=True)
    made = _new_key(folder)
    _write_manifest(folder, made.key_id, [made])
    return made.key_id


def rotate(folder: str) -> tuple[str, str]:
    """Make a new current key and retire the old one (still published); return (old id, new id)."""
    manifest = _read_manifest(folder)
    keys = _listed(manifest)
    old = str(manifest.get("current"))
    made = _new_key(folder)
    now = _now()
    keys = [replace(key, retired=key.retired or now) for key in keys] + [made]
    _write_manifest(folder, made.key_id, keys)
    return old, made.key_id


def published(folder: str) -> dict[str, Any]:
    """Return a keys folder's public keys as the well-known route serves them (no private key is read)."""
    return {"keys": PublicKeys(_listed(_read_manifest(folder))).public_keys()}


def _new_key(folder: str) -> PublicKey:
    private = Ed25519PrivateKey.generate()
    raw = raw_public(private)
    made = PublicKey(key_id(raw), raw, _now())
    pem = private.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    # Created 0600 from the start: never a moment when others may read it.
    descriptor = os.open(_pem_path(folder, made.key_id), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as out:
        out.write(pem)
        out.flush()
        os.fsync(out.fileno())
    return made


def _write_manifest(folder: str, current: str, keys: Sequence[PublicKey]) -> None:
    document = {
        "current": current,
        "keys": [
            {
                "key_id": key.key_id,
                "algorithm": ALGORITHM,
                "public_key_b64": base64.b64encode(key.raw).decode("ascii"),
                "created": key.created,
                "retired": key.retired,
            }
            for key in keys
        ],
    }
    path = os.path.join(folder, MANIFEST)
    partial = f"{path}.partial"
    with open(partial, "w", encoding="utf-8") as out:
        json.dump(document, out, indent=2, sort_keys=True)
        out.write("\n")
        out.flush()
        os.fsync(out.fileno())
    os.replace(partial, path)  # a rotation cut short leaves the old manifest whole


def _read_manifest(folder: str) -> dict[str, Any]:
    path = os.path.join(folder, MANIFEST)
    try:
        with open(path, encoding="utf-8") as manifest:
            document = json.load(manifest)
    except FileNotFoundError:
        raise KeysError(f"{folder} holds no house keys: `menagerie keys new` creates the first") from None
    except (OSError, ValueError) as error:
        raise KeysError(f"{path} cannot be read as JSON ({error})") from None
    if not isinstance(document, dict) or not isinstance(document.get("keys"), list):
        raise KeysError(f"{path} is not a house keys manifest")
    return document


def _listed(manifest: Mapping[str, Any]) -> list[PublicKey]:
    """Return a manifest's keys; the current one is never retired, whatever its entry says."""
    keys = [_public_key(entry, retired_field=True) for entry in manifest["keys"]]
    current = manifest.get("current")
    return [replace(key, retired=None) if key.key_id == current else key for key in keys]


def _pem_path(folder: str, kid: str) -> str:
    if not kid.isalnum():
        raise KeysError(f"{kid!r} is not a key id")
    return os.path.join(folder, f"{kid}.pem")


# --- public keys from a file or the house's route --------------------------


def public_keys_from(source: str) -> PublicKeys:
    """Read the house's public keys from a file or a URL (the well-known route; a bare site gets it appended)."""
    if source.startswith(("http://", "https://")):
        return public_keys_document(_fetch(source), source)
    try:
        with open(source, encoding="utf-8") as file:
            document = json.load(file)
    except OSError as error:
        raise KeysError(f"{source}: {error.strerror}") from None
    except ValueError:
        raise KeysError(f"{source} is not JSON") from None
    return public_keys_document(document, source)


def public_keys_document(document: Any, source: str = "the document") -> PublicKeys:
    """Read a public-key document: `{"keys": [...]}` as the well-known route serves it, or one key of it."""
    if isinstance(document, dict) and "keys" in document:
        entries = document["keys"]
    elif isinstance(document, dict) and "public_key_b64" in document:
        entries = [document]
    else:
        raise KeysError(f'{source} holds no public keys (expected {{"keys": [...]}})')
    if not isinstance(entries, list) or not entries:
        raise KeysError(f"{source} lists no public keys")
    return PublicKeys(_public_key(entry, retired_field=False) for entry in entries)


def _public_key(entry: Any, *, retired_field: bool) -> PublicKey:
    """Read one key entry: a manifest's (`retired_field`: when it was retired, or null) or the route's (`status`)."""
    if not isinstance(entry, dict) or entry.get("algorithm", ALGORITHM) != ALGORITHM:
        raise KeysError(f"a key entry is not an {ALGORITHM} key")
    try:
        raw = base64.b64decode(str(entry.get("public_key_b64")), validate=True)
    except (binascii.Error, ValueError):
        raise KeysError("a key's public_key_b64 is not base64") from None
    if len(raw) != 32:
        raise KeysError("a key's public key is not 32 bytes")
    kid = key_id(raw)
    if entry.get("key_id", kid) != kid:
        raise KeysError(f"key {entry.get('key_id')!r} is not the id of its public key ({kid})")
    created = str(entry.get("created", ""))
    # The route says only that a key is retired, not since when: its creation time stands in.
    retired = entry.get("retired") if retired_field else (created if entry.get("status") == RETIRED else None)
    return PublicKey(kid, raw, created, retired)


def _fetch(url: str) -> Any:
    parts = urllib.parse.urlsplit(url)
    if "/.well-known/" not in parts.path:
        url = urllib.parse.urlunsplit(parts._replace(path=parts.path.rstrip("/") + WELL_KNOWN))
    try:
        with urllib.request.urlopen(url, timeout=FETCH_TIMEOUT_S) as answer:  # noqa: S310 (http(s) only, above)
            return json.load(answer)
    except (urllib.error.URLError, OSError) as error:
        raise KeysError(f"{url}: {getattr(error, 'reason', error)}") from None
    except ValueError:
        raise KeysError(f"{url} did not answer JSON") from None


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
