"""`menagerie monitor URL`: watch a transparency log, and fail loudly when it is forked or rewritten.

The monitor keeps, in its state file, the last checkpoint it accepted and the
leaf hash of every entry it has read. Each run it fetches the new checkpoint
and checks, in order: the signature (by the key pinned on the first run); that
the log did not shrink (a dropped entry); that the new tree extends the old one
(an RFC 9162 consistency proof; otherwise a fork, naming a rewritten entry
where it finds one); that every entry it read before still hashes to the leaf it
had (a rewritten entry); and that the new entries hash to the new signed root.
Only a run that passes every check moves the state on.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import sys
import time
from dataclasses import dataclass
from typing import Any

from domain.transparency import merkle
from domain.transparency.notes import Checkpoint, NoteError, VerifierKey, parse_checkpoint, parse_vkey
from service.cli.log_reader import LogAlarm, LogReader, LogUnreadable, http_fetch

STATE_FORMAT = "menagerie-log-monitor/1"


def add_parser(commands: Any) -> None:
    """Add `menagerie monitor` to the `menagerie` parser."""
    monitor = commands.add_parser(
        "monitor",
        help="watch a transparency log: exit 1, loudly, on a fork, a dropped or rewritten entry, a bad signature",
    )
    monitor.add_argument("url", help="the log's server, e.g. http://127.0.0.1:8000")
    monitor.add_argument("--state", default="menagerie-monitor.json", help="where the last checkpoint seen is kept")
    monitor.add_argument("--once", action="store_true", help="check once and exit (0: all is well)")
    monitor.add_argument("--every", type=float, default=60.0, metavar="SECONDS", help="how often to check (default 60)")
    monitor.add_argument(
        "--key", help="the log's verifier key (or a file holding it); by default the one the server names, on first use"
    )


@dataclass
class MonitorState:
    """What the monitor has accepted: the log's key, its last checkpoint (a signed note), and every leaf read."""

    url: str
    key: VerifierKey
    note: str
    checkpoint: Checkpoint
    leaves: list[bytes]

    def to_json(self) -> dict[str, Any]:
        """Return the state as the state file holds it."""
        return {
            "format": STATE_FORMAT,
            "url": self.url,
            "key": self.key.text(),
            "checkpoint": self.note,
            "leaves": [base64.b64encode(leaf).decode() for leaf in self.leaves],
        }

    @classmethod
    def from_json(cls, value: dict[str, Any]) -> MonitorState:
        """Read a state file's contents."""
        if value.get("format") != STATE_FORMAT:
            raise ValueError(f"not a {STATE_FORMAT} state file")
        body = value["checkpoint"].rpartition("\n\n")[0] + "\n"
        leaves = [base64.b64decode(leaf) for leaf in value["leaves"]]
        return cls(value["url"], parse_vkey(value["key"]), value["checkpoint"], parse_checkpoint(body), leaves)


def check(reader: LogReader, url: str, key: VerifierKey, state: MonitorState | None) -> tuple[MonitorState, str]:
    """Check the log's present checkpoint against what was accepted before; return the new state and a summary."""
    new, note = reader.checkpoint(key)
    old_leaves = state.leaves if state is not None else []
    if state is not None:
        old = state.checkpoint
        if new.origin != old.origin:
            raise LogAlarm("ORIGIN CHANGED", f"the log was {old.origin!r} and now calls itself {new.origin!r}")
        if new.size < old.size:
            raise LogAlarm(
                "DROPPED ENTRIES", f"the log shrank from {old.size} to {new.size} entries: signed history was removed"
            )
        if old.size and not _extends(reader, old, new):
            rewritten = _first_rewritten(reader, old_leaves)
            if rewritten is not None:
                raise LogAlarm(
                    "REWRITTEN ENTRY",
                    f"entry {rewritten} no longer hashes to the leaf it had, and the log's tree of {new.size}"
                    f" does not extend the tree of {old.size} it signed before",
                )
            raise LogAlarm(
                "FORK",
                f"the log's tree of {new.size} entries does not extend the tree of {old.size} it signed before"
                f" (root {base64.b64encode(old.root).decode()}): two histories carry its signature",
            )
        rewritten = _first_rewritten(reader, old_leaves)
        if rewritten is not None:
            raise LogAlarm("REWRITTEN ENTRY", f"entry {rewritten} no longer hashes to the leaf it had when first read")
    leaves = old_leaves + [merkle.leaf_hash(entry) for entry in reader.entries(len(old_leaves), new.size)]
    if merkle.root(leaves) != new.root:
        raise LogAlarm(
            "ENTRIES DO NOT MATCH", f"the {new.size} entries served do not hash to the signed root of the checkpoint"
        )
    since = f"consistent with {state.checkpoint.size}" if state is not None else "first checkpoint"
    summary = (
        f"OK {new.origin} size {new.size} root {base64.b64encode(new.root).decode()} ({since};"
        f" {new.size - len(old_leaves)} new entries checked, {len(old_leaves)} rechecked)"
    )
    return MonitorState(url, key, note, new, leaves), summary


def _extends(reader: LogReader, old: Checkpoint, new: Checkpoint) -> bool:
    if new.size == old.size:
        return new.root == old.root
    try:
        merkle.verify_consistency(old.size, new.size, old.root, new.root, reader.consistency(old.size, new.size))
    except merkle.ProofError:
        return False
    return True


def _first_rewritten(reader: LogReader, leaves: list[bytes]) -> int | None:
    served = reader.entries(0, len(leaves))
    return next((i for i, (leaf, entry) in enumerate(zip(leaves, served)) if merkle.leaf_hash(entry) != leaf), None)


def run(args: argparse.Namespace, reader: LogReader | None = None) -> int:
    """Run the monitor: 0 when all is well (with --once), 1 on an alarm, 2 when the log cannot be read."""
    reader = reader or LogReader(http_fetch(args.url))
    try:
        state = _load(args.state)
        if state is not None and state.url != args.url:
            print(f"menagerie monitor: {args.state} watches {state.url}, not {args.url}", file=sys.stderr)
            return 2
        key = state.key if state is not None else _first_key(reader, args.key)
    except (OSError, ValueError, KeyError, NoteError, LogUnreadable) as error:
        print(f"menagerie monitor: {error}", file=sys.stderr)
        return 2
    while True:
        try:
            state, summary = check(reader, args.url, key, state)
        except LogAlarm as alarm:
            print(f"\n!!! MONITOR ALARM: {alarm} !!!\n(the state in {args.state} is left as it was)", file=sys.stderr)
            return 1
        except LogUnreadable as error:
            print(f"menagerie monitor: cannot read the log: {error}", file=sys.stderr)
            if args.once:
                return 2
        else:
            _save(args.state, state)
            print(summary, flush=True)
            if args.once:
                return 0
        time.sleep(args.every)


def _first_key(reader: LogReader, given: str | None) -> VerifierKey:
    if given is None:
        key = reader.key()
        print(f"trusting the key the log names, on first use: {key.text()}", file=sys.stderr)
        return key
    text = given
    if os.path.exists(given):
        with open(given, encoding="utf-8") as file:
            text = file.read()
    return parse_vkey(text)


def _load(path: str) -> MonitorState | None:
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as file:
        return MonitorState.from_json(json.load(file))


def _save(path: str, state: MonitorState) -> None:
    partial = f"{path}.partial"
    with open(partial, "w", encoding="utf-8") as file:
        json.dump(state.to_json(), file)
    os.replace(partial, path)
