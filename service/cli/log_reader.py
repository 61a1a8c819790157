"""Reading a transparency log over HTTP, and the checks a reader makes: signatures, inclusion, consistency.

Everything is verified here, on the reader's side, with the domain's rules; the server is not trusted.
"""

from __future__ import annotations

import base64
import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from domain.transparency import merkle
from domain.transparency.notes import Checkpoint, NoteError, VerifierKey, open_checkpoint, parse_vkey
from service.adapters.note_keys import verify_ed25519

# GET `path` (with its query) from the log's server: the status and the body.
Fetch = Callable[[str], tuple[int, bytes]]
TIMEOUT_S = 30
PAGE = 1000  # entries a request, the most the log serves at once


class LogUnreadable(Exception):
    """The log's server did not answer as a log does (down, or not a Menagerie log): nothing was judged."""


class LogAlarm(Exception):
    """What a reader must not accept: a bad signature, a fork, a shrunk log, a rewritten or missing entry."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind = kind


def http_fetch(base_url: str) -> Fetch:
    """Return a fetch from the server at `base_url` (its root, e.g. http://host:8000)."""
    root = base_url.rstrip("/")

    def fetch(path: str) -> tuple[int, bytes]:
        try:
            with urllib.request.urlopen(root + path, timeout=TIMEOUT_S) as response:
                return int(response.status), bytes(response.read())
        except urllib.error.HTTPError as error:
            return int(error.code), error.read()
        except (urllib.error.URLError, OSError) as error:
            raise LogUnreadable(f"{root}{path}: {error}") from None

    return fetch


def b64decode_all(values: list[Any]) -> list[bytes]:
    """Decode a proof's base64 hashes."""
    return [base64.b64decode(value) for value in values]


@dataclass
class LogReader:
    """A log's routes, read through `fetch`, each answer checked for its form."""

    fetch: Fetch

    def text(self, path: str) -> str:
        """Return a text answer (200 only)."""
        status, body = self.fetch(path)
        if status != 200:
            raise LogUnreadable(f"GET {path} answered {status}: {body[:200]!r}")
        return body.decode()

    def json(self, path: str) -> dict[str, Any]:
        """Return a JSON object answer (200 only)."""
        try:
            value = json.loads(self.text(path))
        except json.JSONDecodeError:
            raise LogUnreadable(f"GET {path} answered something that is not JSON") from None
        if not isinstance(value, dict):
            raise LogUnreadable(f"GET {path} answered JSON that is not an object")
        return value

    def key(self) -> VerifierKey:
        """Return the key the server says it signs with (trust it on first use only)."""
        try:
            return parse_vkey(self.text("/log/key"))
        except NoteError as error:
            raise LogUnreadable(f"GET /log/key: {error.message}") from None

    def checkpoint(self, key: VerifierKey) -> tuple[Checkpoint, str]:
        """Return the present checkpoint and its note, once its signature by `key` verifies."""
        note = self.text("/log/checkpoint")
        try:
            return open_checkpoint(note, key, verify_ed25519), note
        except NoteError as error:
            raise LogAlarm(
                "BAD SIGNATURE", f"the checkpoint does not verify with {key.text()}: {error.message}"
            ) from None

    def entry(self, index: int) -> bytes:
        """Return entry `index` as served; a log that cannot serve an entry below its signed size is an alarm."""
        status, body = self.fetch(f"/log/entries/{index}")
        if status == 404:
            raise LogAlarm("MISSING ENTRY", f"entry {index} is below the signed size but the log does not serve it")
        if status != 200:
            raise LogUnreadable(f"GET /log/entries/{index} answered {status}")
        return body

    def entries(self, start: int, end: int) -> list[bytes]:
        """Return entries [start, end) as served, a page at a time; fewer below the signed size is an alarm."""
        found: list[bytes] = []
        while start + len(found) < end:
            at = start + len(found)
            page = self.json(f"/log/entries?start={at}&limit={min(PAGE, end - at)}")["entries"]
            if not page:
                raise LogAlarm("MISSING ENTRY", f"entry {at} is below the signed size but the log does not serve it")
            found.extend(entry.encode() for entry in page)
        return found[: end - start]

    def consistency(self, first: int, second: int) -> list[bytes]:
        """Return the served consistency proof from `first` to `second` leaves."""
        return b64decode_all(self.json(f"/log/proof/consistency?from={first}&to={second}")["proof"])


def prove_included(reader: LogReader, checkpoint: Checkpoint, result_id: str) -> tuple[int, dict[str, Any]]:
    """Return the index and statement of a result, once its inclusion in `checkpoint`'s tree is verified."""
    status, body = reader.fetch(
        f"/log/proof/inclusion?id={urllib.parse.quote(result_id, safe='')}&size={checkpoint.size}"
    )
    if status in (404, 422):
        raise LogAlarm("NOT IN LOG", f"{result_id} is not in the log's tree of {checkpoint.size} entries")
    if status != 200:
        raise LogUnreadable(f"the inclusion proof of {result_id} answered {status}")
    proof = json.loads(body)
    entry = reader.entry(int(proof["index"]))
    try:
        merkle.verify_inclusion(
            int(proof["index"]),
            checkpoint.size,
            merkle.leaf_hash(entry),
            b64decode_all(proof["proof"]),
            checkpoint.root,
        )
    except merkle.ProofError as error:
        raise LogAlarm("BAD PROOF", f"{result_id}'s entry is not proved in the signed tree: {error.message}") from None
    return int(proof["index"]), json.loads(entry)


def is_url(source: str) -> bool:
    """Tell a log's address from a file naming one."""
    return source.startswith(("http://", "https://"))


def check_in_log(source: str, key_text: str | None, statement: dict[str, Any]) -> str:
    """Check that `statement` is in the log; return what was checked, or raise `LogAlarm` / `LogUnreadable`.

    `source` is the log's address (its present checkpoint is fetched; the key is
    `key_text`, or the one the server names), or a `menagerie monitor` state file
    (its address, its pinned key, and the checkpoint it last accepted).
    """
    if is_url(source):
        reader = LogReader(http_fetch(source))
        key = parse_vkey(key_text) if key_text else reader.key()
        checkpoint, _ = reader.checkpoint(key)
        trusted = "the key given" if key_text else "the key the log names"
    else:
        with open(source, encoding="utf-8") as file:
            state = json.load(file)
        key = parse_vkey(state["key"])
        reader = LogReader(http_fetch(state["url"]))
        try:
            checkpoint = open_checkpoint(state["checkpoint"], key, verify_ed25519)
        except NoteError as error:
            raise LogAlarm("BAD SIGNATURE", f"{source}'s checkpoint: {error.message}") from None
        trusted = "the monitor's pinned key"
    index, logged = prove_included(reader, checkpoint, str(statement["id"]))
    if logged != statement:
        raise LogAlarm(
            "ANOTHER RESULT",
            f"the log holds {json.dumps(logged, sort_keys=True)} for {statement['id']}, not this file's"
            f" {json.dumps(statement, sort_keys=True)}",
        )
    return (
        f"in the log {checkpoint.origin} at entry {index} of {checkpoint.size}"
        f" (checkpoint signed by {key.name}+{key.key_hash.hex()}, {trusted})"
    )
