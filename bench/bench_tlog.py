"""Print what the transparency log costs a request: a signed checkpoint and proofs, by the log's size.

For logs of 1,000, 10,000 and 100,000 results (statements like a finished
game's): an append; the first signed checkpoint of a fresh process ("cold":
it reads every leaf hash and hashes the whole tree, keeping the hashes of
complete subtrees of 256 leaves or more); then, best of 3 with those kept
("warm"), a checkpoint, an inclusion proof of a leaf in the middle and a
consistency proof from half the log to all of it. On fakeredis by default;
with REDIS_URL on that Redis (under a prefix of its own, removed afterwards).

On the shared 2-core development machine (loaded), with the real Redis,
before subtrees were kept every checkpoint and proof cost what "cold" costs
now: 29 ms at 10,000 results and 0.56-0.79 s at 100,000. Now a fresh
process's first checkpoint costs 21 ms at 10,000 and 0.18 s at 100,000 (one
LRANGE of a few hundred leaves for each kept subtree), and then a checkpoint
or a proof about 1 ms at every size (a few short LRANGEs and some 20 hashes);
an append 0.2-0.6 ms.

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
    print(
        f"{'results':>8} {'append ms':>10} {'cold checkpoint ms':>19} {'checkpoint ms':>14} {'inclusion ms':>13}"
        f" {'consistency ms':>15}"
    )
    appended = 0
    try:
        for size in SIZES:
            start = time.perf_counter()
            for n in range(appended, size):
                log.append_result({"id": f"g{n:08d}", "type": "game", "final_version": 200, "final_hash": "ab" * 32})
            append_ms = (time.perf_counter() - start) * 1000 / (size - appended)
            appended = size
            log = TransparencyLog(RedisLeaves(client, prefix), signer, signer.name)  # a fresh process's
            cold = best(log.signed_checkpoint, rounds=1)
            print(
                f"{size:>8} {append_ms:>10.3f} {cold:>19.1f} {best(log.signed_checkpoint):>14.1f}"
                f" {best(lambda s=size, fresh=log: fresh.inclusion(s // 2, s)):>13.1f}"
                f" {best(lambda s=size, fresh=log: fresh.consistency(s // 2, s)):>15.1f}"
            )
    finally:
        client.delete(*(log_key(prefix, name) for name in ("leaves", "entries", "ids")))


if __name__ == "__main__":
    main()
