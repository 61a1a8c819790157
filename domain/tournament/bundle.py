"""The tournament bundle: one NDJSON file with the tournament's stream and every game it recorded.

Line 1 is the header `{"format": "menagerie-tournament/1", "id", "game",
"status", "version", "seed_commitment", "games": [game ids]}` (and the
house's `"signature"` of the tournament's result, `domain.results`); then the
tournament's events, one a line, exactly as stored (`version` of them); then,
for each game in `games`, that game's own export (`menagerie-game/1`: its
header line, then its events). A line holding `format` starts a section; an
event never does. No header is chained: an audit checks every field of the
bundle's header and of each game's against the chains.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mypy_extensions import mypyc_attr

from domain.export import FORMAT as GAME_FORMAT
from domain.export import ExportFormatError, check_event, export_lines, json_objects, read_export

FORMAT = "menagerie-tournament/1"
# Every field a bundle header may have; `signature` is the house's signature over the tournament's
# result, which its own check verifies (an audit of the chains leaves it alone).
HEADER_KEYS = frozenset({"format", "id", "game", "status", "version", "seed_commitment", "games", "signature"})


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class GameFile:
    """One game's export inside a bundle."""

    head: Mapping[str, Any]
    events: list[dict[str, Any]]


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Bundle:
    """A parsed bundle: header, the tournament's stored events, and the games by id."""

    head: Mapping[str, Any]
    events: list[dict[str, Any]]
    games: dict[str, GameFile]


def recorded_games(events: Iterable[Mapping[str, Any]]) -> list[str]:
    """Return the ids of the games a tournament's stored events record results of, first recorded first."""
    return list(dict.fromkeys(e["data"]["game_id"] for e in events if e["type"] == "ResultRecorded"))


def bundle_lines(
    head: Mapping[str, Any], events: Sequence[Mapping[str, Any]], games: Iterable[GameFile]
) -> Iterator[str]:
    """Yield the NDJSON lines of a bundle."""
    yield json.dumps({**head, "format": FORMAT}, sort_keys=True) + "\n"
    for event in events:
        yield json.dumps(event, sort_keys=True) + "\n"
    for game in games:
        yield from export_lines(game.head, game.events)


def read_bundle(lines: Iterable[str]) -> Bundle:
    """Parse a bundle; raise ExportFormatError naming the first bad line."""
    sections: list[tuple[int, Any, list[str]]] = []
    head: dict[str, Any] | None = None
    events: list[dict[str, Any]] = []
    for number, line, value in json_objects(lines):
        if head is None:
            if value.get("format") != FORMAT:
                raise ExportFormatError(number, f"not a {FORMAT} header")
            head = value
        elif value.get("format") == GAME_FORMAT:
            sections.append((number, value, [line]))
        elif sections:
            sections[-1][2].append(line)
        else:
            check_event(number, value)
            events.append(value)
    if head is None:
        raise ExportFormatError(1, "empty file")
    if len(events) != head.get("version"):
        raise ExportFormatError(
            len(events) + 2,
            f"the header announces {head.get('version')} tournament events, the file holds {len(events)}",
        )
    games: dict[str, GameFile] = {}
    for number, _head, game_lines in sections:
        try:
            parsed_head, game_events = read_export(game_lines)
        except ExportFormatError as error:
            raise ExportFormatError(number + error.line - 1, error.message.split(": ", 1)[-1]) from None
        if str(parsed_head.get("id")) in games:
            raise ExportFormatError(number, f"game {parsed_head.get('id')} appears twice")
        games[str(parsed_head.get("id"))] = GameFile(parsed_head, game_events)
    return Bundle(head, events, games)
