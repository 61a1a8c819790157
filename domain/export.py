"""The export format: NDJSON, a header line then one event a line, as stored.

Header: `{"format": "menagerie-game/1", "id", "game", "rules_version",
"options", "seats": [{"seat", "name", "bot"}] (and "player", a bound seat's account id),
"dealing", "seed_commitment", "status", "version", "redacted"}`, and, for a finished game the
house signed, `"signature"` (`domain.results`). Nothing in the header is trusted: an audit
reads the same facts from the chained events and fails where they differ, and
checks the signature's statement against the chain. A redacted export (a seat's, during play) cannot be
audited (its hidden values are missing), but its chain can be checked: each
event carries what was hashed (`sealed`, `commitments`) and the seat's own
openings (see `domain.commitments`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from domain.errors import DomainError
from domain.game import FINISHED, Game

FORMAT = "menagerie-game/1"
EVENT_KEYS = frozenset({"seq", "type", "actor", "data", "time", "command_id", "v", "hash"})
# Every field a header may have; `signature` is the house's signature over the game's result,
# which its own check verifies (an audit of the chain leaves it alone).
HEADER_KEYS = frozenset(
    {
        "format",
        "id",
        "game",
        "rules_version",
        "options",
        "seats",
        "dealing",
        "seed_commitment",
        "status",
        "version",
        "redacted",
        "signature",
    }
)


class ExportFormatError(DomainError):
    """A file that is not a whole, well-formed export; names the line."""

    code = "bad_export"

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}", line=line)
        self.line = line


def seat_line(seat: int, name: str | None, bot: str | None, player: str | None) -> dict[str, Any]:
    """Return a seat as a header lists it: its account's id only where it has one, so older headers read the same."""
    line: dict[str, Any] = {"seat": seat, "name": name, "bot": bot}
    if player is not None:
        line["player"] = player
    return line


def header(game: Game, *, redacted: bool, signature: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Return the header line of a game's export (with the house's signature of its result, if given)."""
    head = {
        "format": FORMAT,
        "id": game.id,
        "game": game.type,
        "rules_version": game.rules_version,
        "options": game.options,
        "seats": [seat_line(i, s.name, s.bot, s.player) for i, s in enumerate(game.seats)],
        "dealing": game.disclosed_dealing,
        "seed_commitment": game.seed_commitment,
        "status": game.status,
        "version": game.version,
        "redacted": redacted,
    }
    if signature is not None:
        head["signature"] = dict(signature)
    return head


def export_lines(head: Mapping[str, Any], events: Iterable[Mapping[str, Any]]) -> Iterator[str]:
    """Yield the NDJSON lines of an export."""
    yield json.dumps(head, sort_keys=True) + "\n"
    for event in events:
        yield json.dumps(event, sort_keys=True) + "\n"


def json_objects(lines: Iterable[str]) -> Iterator[tuple[int, str, dict[str, Any]]]:
    """Yield each non-blank line with its number and its JSON object; raise ExportFormatError on any other line."""
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as error:
            raise ExportFormatError(number, f"not JSON ({error.msg})") from None
        if not isinstance(value, dict):
            raise ExportFormatError(number, "not a JSON object")
        yield number, line, value


def check_event(number: int, value: Mapping[str, Any]) -> None:
    """Raise ExportFormatError unless line `number` holds a stored event's keys."""
    missing = EVENT_KEYS - set(value)
    if missing:
        raise ExportFormatError(number, f"not an event (missing {', '.join(sorted(missing))})")


def read_export(lines: Iterable[str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Parse an export; raise ExportFormatError naming the first bad line."""
    head: dict[str, Any] | None = None
    events: list[dict[str, Any]] = []
    for number, _line, value in json_objects(lines):
        if head is None:
            if value.get("format") != FORMAT:
                raise ExportFormatError(number, f"not a {FORMAT} header")
            head = value
            continue
        check_event(number, value)
        events.append(value)
    if head is None:
        raise ExportFormatError(1, "empty file")
    if len(events) != head.get("version"):
        raise ExportFormatError(
            len(events) + 1,
            f"truncated: the header announces {head.get('version')} events, the file holds {len(events)}",
        )
    return head, events


def is_complete(head: Mapping[str, Any]) -> bool:
    """Tell whether an export holds a finished game's whole, unredacted log."""
    return head.get("status") == FINISHED and not head.get("redacted")
