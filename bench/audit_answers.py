"""Follow an audit route's answer to the report, for the benches that check every game they play.

A long game or a large tournament is audited by a job: the route answers 202
with the job (`AuditJob`), polled at `/audits/{id}` until it is done. Small
ones answer 200 with the report at once.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

Fetch = Callable[[str], tuple[int, Any]]


def audit_report(fetch: Fetch, api: str, path: str, patience_s: float = 600) -> tuple[int, Any]:
    """GET an audit route; return (200, report) once there is one, or the status and body that ended the wait."""
    status, answer = fetch(f"{api}{path}")
    end = time.monotonic() + patience_s
    while status == 202 and time.monotonic() < end:
        time.sleep(0.5)
        status, answer = fetch(f"{api}/audits/{answer['id']}")
        if status == 200 and answer["status"] == "done":
            return 200, answer["result"]
        if status == 200 and answer["status"] in ("queued", "running"):
            status = 202
    return status, answer
