"""Where audit jobs keep their state (one Redis key each), and the embedded server's audit thread.

An audit's record is one small JSON value under its own hash tag, so it
lives on one shard of a cluster and a request, the job and a later poll
read and write it with single-key commands. Beside it, a finished target's
result is kept without expiry (a few hundred bytes): the audit's id digests
the final state, so that result can never change.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from typing import Any

import orjson

from service.adapters.connections import StoreRedis
from service.adapters.slots import aggregate_key

log = logging.getLogger(__name__)


class AuditRecords:
    """Audit records under a key prefix, each with its time to live."""

    def __init__(self, redis: StoreRedis, prefix: str) -> None:
        self.redis = redis
        self.prefix = prefix

    def _key(self, audit_id: str) -> str:
        return aggregate_key(self.prefix, audit_id, "audit")

    def get(self, audit_id: str) -> dict[str, Any] | None:
        """Return the record, or None if there is none (never asked, or expired)."""
        raw = self.redis.get(self._key(audit_id))
        return None if raw is None else dict(orjson.loads(raw))

    def create(self, record: dict[str, Any], ttl_s: int) -> bool:
        """Write a new record unless one exists; tell whether this call wrote it."""
        return bool(self.redis.set(self._key(record["id"]), orjson.dumps(record), nx=True, ex=ttl_s))

    def replace(self, record: dict[str, Any], ttl_s: int) -> None:
        """Write a record over whatever is there, for `ttl_s` seconds."""
        self.redis.set(self._key(record["id"]), orjson.dumps(record), ex=ttl_s)

    def update(self, record: dict[str, Any]) -> bool:
        """Rewrite a record that still exists, keeping its time to live; tell whether it existed."""
        return bool(self.redis.set(self._key(record["id"]), orjson.dumps(record), xx=True, keepttl=True))

    def result(self, audit_id: str) -> dict[str, Any] | None:
        """Return the kept result of a finished game's or tournament's audit, or None if none is kept."""
        raw = self.redis.get(aggregate_key(self.prefix, audit_id, "result"))
        return None if raw is None else dict(orjson.loads(raw))

    def keep_result(self, audit_id: str, report: dict[str, Any]) -> None:
        """Keep the result of a finished target's audit for good: its id names the final state, which cannot change."""
        self.redis.set(aggregate_key(self.prefix, audit_id, "result"), orjson.dumps(report))


class AuditThread:
    """Run audits one at a time on a thread of their own (the embedded server).

    Not on the embedded jobs thread: an audit of a large tournament takes
    seconds, and every game's bot turns would wait behind it.
    """

    def __init__(self, run: Callable[[str], object]) -> None:
        self._run = run
        self._queue: queue.SimpleQueue[str] = queue.SimpleQueue()
        threading.Thread(target=self._work, name="menagerie-audits", daemon=True).start()

    def audit(self, audit_id: str, run: int) -> None:
        """Queue an audit (its record says what to audit; `run` only names a job)."""
        self._queue.put(audit_id)

    def _work(self) -> None:
        while True:
            audit_id = self._queue.get()
            try:
                self._run(audit_id)
            except Exception:  # noqa: BLE001 — like a failed RQ job: its record says so, the thread goes on
                log.exception("audit %s failed", audit_id)
