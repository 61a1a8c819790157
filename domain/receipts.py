"""Receipts: the events the service acknowledged or sent to a client, each with its `seq` and `hash`.

A client that keeps them can prove later that a published history differs
from what it was told: a stream (a game's or a tournament's) that disagrees
with a receipt was rewritten after the service said otherwise. A receipts file
holds one JSON object a line; one with none proves nothing, so it is an error,
never a vacuous pass.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from domain.export import ExportFormatError, json_objects


def read_receipts(lines: Iterable[str]) -> list[dict[str, Any]]:
    """Read a receipts file; raise ExportFormatError naming the first line that is no receipt, or an empty file.

    A line is an acknowledged event (its `seq` and `hash`, the rest ignored) or
    an answer that holds them: an action's (`events`), a create's seat's or a
    join's (`receipt`, the seat's SeatTaken), a registration's (`receipt`, the
    entrant's PlayerRegistered).
    """
    receipts: list[dict[str, Any]] = []
    for number, _line, value in json_objects(lines):
        held = value["events"] if "events" in value else [value["receipt"]] if "receipt" in value else [value]
        if not isinstance(held, list) or not held:
            raise ExportFormatError(number, "an answer with no events")
        for item in held:
            if not (isinstance(item, Mapping) and _is_seq(item.get("seq")) and _is_hash(item.get("hash"))):
                raise ExportFormatError(
                    number, "not a receipt (an event's seq, a whole number, and hash, 64 hex digits)"
                )
            receipts.append({"seq": item["seq"], "hash": item["hash"]})
    if not receipts:
        raise ExportFormatError(1, "no receipts: a receipts file holds the events the service acknowledged")
    return receipts


def receipt_failure(
    raw: Sequence[Mapping[str, Any]], receipts: Sequence[Mapping[str, Any]]
) -> tuple[int | None, str] | None:
    """Return where and why the first receipt disagrees with a stored stream (a game's or a tournament's), or None."""
    if not receipts:
        return None, "no receipts to check"
    for receipt in receipts:
        if not _is_seq(receipt.get("seq")) or not _is_hash(receipt.get("hash")):
            return None, f"a receipt that is not one: {_brief(json.dumps(receipt))}"
        seq = int(receipt["seq"])
        if not 1 <= seq <= len(raw):
            return seq, f"a receipt names event {seq}, which the log does not hold"
        if raw[seq - 1].get("hash") != receipt["hash"]:
            return seq, f"event {seq} is not the one the service acknowledged"
    return None


def receipts_checked(receipts: Sequence[Mapping[str, Any]]) -> str:
    """Say what a set of receipts that all held covered, with counts, for a PASS."""
    named = sorted({receipt["seq"] for receipt in receipts})
    return f"{len(receipts)} receipts, of {len(named)} events from {named[0]} to {named[-1]}"


def _is_seq(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def _is_hash(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)


def _brief(data: str) -> str:
    return data if len(data) <= 200 else data[:200] + "…"
