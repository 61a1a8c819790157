"""Print what the transparency log costs a request: a signed checkpoint and proofs, by the log's size.

For logs of 1,000, 10,000 and 100,000 results (statements like a finished
game's), the time to sign the present checkpoint (read every leaf hash, hash
the tree, sign), an inclusion proof of a leaf in the middle, and a consistency
proof from half the log to all of it: each reads every leaf hash with one
LRANGE and hashes the tree once, so the three grow alike, linearly. On
fakeredis by default; with REDIS_URL on that Redis (under a prefix of its own,
removed afterwards). Best of 3.

On the shared 2-core development machine (loaded), with the real Redis: a
checkpoint took 2.3 ms at 1,000 results, 29 ms at 10,000 and 0.56 s at
100,000; a proof 3-4 ms, 22-32 ms and 0.74-0.79 s; an append 0.7-0.9 ms
whatever the size. Past some tens of thousands of results, caching the hashes
of complete subtrees (they never change) is the next step.

Run: .venv/bin/python -m bench.bench_tlog
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Callable

import fakeredis
import redis

from service.adapters.note_keys import new_signer
from service.adapters.tlog import RedisLeaves, log_key
from service.application.transparency import TransparencyLog

SIZES = (1_000, 10_000, 100_000)


def best(run: Callable[[], object], rounds: int = 3) -> float:
    """The best time of `rounds` runs, in milliseconds."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times) * 1000


def main() -> None:
    """Fill a log to each size, and print the time of a checkpoint and of each proof."""
    url = os.environ.get("REDIS_URL")
    client = redis.Redis.from_url(url) if url else fakeredis.FakeRedis()
    prefix = f"bench-tlog-{uuid.uuid4().hex[:8]}"
    signer = new_signer("bench.example/results")
    log = TransparencyLog(RedisLeaves(client, prefix), signer, signer.name)
    print(f"store: {'Redis at ' + url if url else 'fakeredis'}")
    print(f"{'results':>8} {'append ms':>10} {'checkpoint ms':>14} {'inclusion ms':>13} {'consistency ms':>15}")
    appended = 0
    try:
        for size in SIZES:
            start = time.perf_counter()
            for n in range(appended, size):
                log.append_result({"id": f"g{n:08d}", "type": "game", "final_version": 200, "final_hash": "ab" * 32})
            append_ms = (time.perf_counter() - start) * 1000 / (size - appended)
            appended = size
            print(
                f"{size:>8} {append_ms:>10.3f} {best(log.signed_checkpoint):>14.1f}"
                f" {best(lambda s=size: log.inclusion(s // 2, s)):>13.1f}"
                f" {best(lambda s=size: log.consistency(s // 2, s)):>15.1f}"
            )
    finally:
        client.delete(*(log_key(prefix, name) for name in ("leaves", "entries", "ids")))


if __name__ == "__main__":
    main()
