"""Export files as the commands read them: NDJSON, or the one JSON document the API answers by default."""

from __future__ import annotations

import json
from typing import Any


def export_lines(path: str) -> list[str]:
    """Return the NDJSON lines of a game export or tournament bundle saved in either form.

    `GET /games/{id}/export` answers `{"header", "events"}` and
    `GET /tournaments/{id}/export` `{"lines"}` unless NDJSON is asked for, so a
    file saved from either answer reads the same.
    """
    with open(path, encoding="utf-8") as file:
        text = file.read()
    document = _one_document(text)
    if isinstance(document, dict) and set(document) == {"header", "events"}:
        return [_line(document["header"]), *(_line(event) for event in document["events"])]
    if isinstance(document, dict) and set(document) == {"lines"} and isinstance(document["lines"], list):
        return [_line(value) for value in document["lines"]]
    return text.splitlines(keepends=True)


def _one_document(text: str) -> Any:
    if not text.lstrip().startswith("{"):
        return None
    try:
        return json.loads(text)
    except ValueError:  # NDJSON: more than one document
        return None


def _line(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False) + "\n"
