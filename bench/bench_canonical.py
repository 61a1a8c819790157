"""Print the canonical encoder's time a call: the standard library's alone, and with the fast path (orjson when exact).

For one seeded game of each type (heuristic and random bots, recorded as the
service records them, with a real clock's time stamp), every event as the store
encodes it (`canonical_bytes(event.to_dict())`): how many the fast path takes,
and the mean time an event two ways. "alone": each event encoded over and over,
as the service encodes an event just built (its objects in the CPU's caches).
"in a row": the whole log once after the other, each event cold; the fast path
walks a value twice (marshal, then orjson), so it gains less there. Then a
typical event (the median size) and two small values of the kind committed to.
Best of 7 (timeit, the GC off); the machine's load still moves the figures, so
compare within a line.

Run: .venv/bin/python -m bench.bench_canonical
"""

from __future__ import annotations

import timeit
from collections.abc import Callable
from typing import Any

from domain.canonical import _fast_bytes, _standard, canonical_bytes
from tests.support.tables import new_table, play_bots
from tests.workers.test_fast_path_regression import OPTIONS

GAMES = [("life-is-life", 4), ("animals-on-board", 3), ("bloede-kuh", 4), ("zop-zoo", 3)]
TIME = "2026-05-09T07:35:25.123Z"  # as service.application.clock writes it (the tables write no milliseconds)
Encode = Callable[[Any], bytes]


def standard_bytes(value: Any) -> bytes:
    """The standard library's encoding alone, as canonical_bytes was before its fast path."""
    return _standard(value).encode("ascii")


def alone(encode: Encode, values: list[Any]) -> float:
    """The mean over the values of each one's best time, encoded 20 times in a row, in microseconds."""
    total = 0.0
    for value in values:
        total += min(timeit.repeat(lambda value=value: encode(value), number=20, repeat=7)) / 20
    return total / len(values) * 1e6


def in_a_row(encode: Encode, values: list[Any]) -> float:
    """The best mean time a value, the values encoded one after the other, in microseconds."""
    best = min(timeit.repeat(lambda: [encode(value) for value in values], number=1, repeat=7))
    return best / len(values) * 1e6


def line(label: str, values: list[Any]) -> str:
    fast = sum(_fast_bytes(value) is not None for value in values)
    figures = [f"{label:40} {fast:5}/{len(values):<5} fast"]
    for way in (alone, in_a_row) if len(values) > 1 else (alone,):
        before, after = way(standard_bytes, values), way(canonical_bytes, values)
        figures.append(f"{way.__name__} {before:5.2f} -> {after:5.2f} us (x{before / after:.2f})")
    return "   ".join(figures)


def main() -> None:
    everything = []
    for game, seats in GAMES:
        kinds = ["heuristic" if seat % 2 == 0 else "random" for seat in range(seats)]
        table = play_bots(new_table(game, seats, OPTIONS[game], seed=f"canonical-{game}"), kinds, verbatim=False)
        events = [{**event.to_dict(), "time": TIME} for event in table.log]
        everything.extend(events)
        print(line(f"{game} ({seats} seats), every event", events))
    median = sorted(everything, key=lambda event: len(standard_bytes(event)))[len(everything) // 2]
    print(line(f"the median event ({len(standard_bytes(median))} B)", [median]))
    print(line("a hand of five cards", [["w:lion", "w:zebra", "b:eagle", "w:octopus", "b:shark"]]))
    print(line("an action", [{"type": "give", "card": "w:zebra", "to": 1}]))


if __name__ == "__main__":
    main()
