"""Fault injection for the fault tests: die or hang at a named point, as a `kill -9` would find a process.

`MENAGERIE_FAULT=<exit|hang>@<point>` arms it; nothing happens without it.
The points are where a crash hurts most: `after-append` (events stored, the
next step not yet enqueued) and `before-step-append` (a worker holding a step
job). Tests only; a deployment never sets it.
"""

from __future__ import annotations

import os
import threading

# Read once: a process is armed from its start (the fault tests set it in a
# server's or worker's environment), and the points lie on every append's path.
_FAULT = os.environ.get("MENAGERIE_FAULT", "")


def crash_point(name: str) -> None:
    """Exit at once (no cleanup, like `kill -9`) or hang forever here, if MENAGERIE_FAULT names this point."""
    if not _FAULT:
        return
    action, _, point = _FAULT.partition("@")
    if point != name:
        return
    if action == "exit":
        os._exit(137)
    if action == "hang":
        threading.Event().wait()
