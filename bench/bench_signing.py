"""Print what the house's signature costs: a signature, a verification, and a finished game's signing follow-up.

"sign" and "verify" are one Ed25519 signature and one verification of a
result statement (`domain.results`) with the `cryptography` package. "follow-up"
is `ResultSignatures.game` on a finished game with none kept: the signature and
its two store commands (SET NX, GET) on an in-process fakeredis, so the figure
leaves out the network's round trips. "kept" is the same call once one is kept
(one GET), which every export and audit of a finished game pays. Best of 7
(timeit); the machine's load still moves the figures.

Run: .venv/bin/python -m bench.bench_signing
"""

from __future__ import annotations

import timeit
from collections.abc import Callable

import fakeredis

from domain.results import Statement
from service.adapters.house_keys import ephemeral
from service.adapters.store import EventStore
from service.application.signatures import ResultSignatures

STATEMENT = Statement("0123456789abcdef", "game", 812, "ab" * 32)
N = 500


def best_us(call: Callable[[], object], number: int = N) -> float:
    """Return the best mean time of a call over 7 runs, in microseconds."""
    return min(timeit.repeat(call, number=number, repeat=7)) / number * 1e6


def main() -> None:
    keys = ephemeral()
    message = STATEMENT.message()
    signature = keys.sign(message)
    print(f"sign       {best_us(lambda: keys.sign(message)):7.1f} us")
    print(f"verify     {best_us(lambda: keys.verify(keys.current_key_id, message, signature)):7.1f} us")
    store = EventStore(fakeredis.FakeRedis(), "bench")
    signatures = ResultSignatures(keys, store)
    counter = iter(range(10**9))

    def fresh() -> None:
        signatures.sign(Statement(f"g{next(counter)}", "game", 812, "ab" * 32))

    print(f"follow-up  {best_us(fresh):7.1f} us (sign and keep, fakeredis)")
    print(f"kept       {best_us(lambda: signatures.sign(STATEMENT)):7.1f} us (read the kept one, fakeredis)")


if __name__ == "__main__":
    main()
