"""What a result in the log is: the statement a finished game's or tournament's leaf holds."""

from __future__ import annotations

from typing import Any


def result_statement(kind: str, result_id: str, final_version: int, final_hash: str) -> dict[str, Any]:
    """Return a result's statement: its id, its type (game or tournament), its last version and last hash."""
    return {"id": result_id, "type": kind, "final_version": final_version, "final_hash": final_hash}
