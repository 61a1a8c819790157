"""Print the CPU time of one `mcts` move per game and seat count: median, 95th percentile and most.

Plays the ladder's games (`bench.bench_bots.play`: seats rotate mcts, heuristic,
random, on the fast path) and times every mcts decision with the process's CPU
clock, so another process on the machine does not count. Budget: the game's
default, or the iterations given. A move the bot answers without searching
(Zop Zoo's fixed mole choices) takes microseconds; the `searched` columns count
and take the median of the moves that took over SEARCHED_S only.
Run: .venv/bin/python -m bench.bench_mcts_move [games per table] [mcts iterations, 0 = default] [game:seats ...]
"""

from __future__ import annotations

import statistics
import sys
import time
from typing import Any

from bench.bench_bots import TABLES, play
from workers.bots import BOTS, SEARCH
from workers.bots.mcts import bot as mcts_bot

SEARCHED_S = 0.002  # far above an unsearched answer, far below any search at the default budgets


def main() -> None:
    """Time the mcts moves of a few games per table and print a Markdown table."""
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    iterations = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    tables = sys.argv[3:] or TABLES
    print(f"games per table: {games}; mcts iterations: {iterations or 'default'}")
    print("| game | seats | iterations | moves | median s | p95 s | most s | searched | median searched s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for table in tables:
        game, seats = table.split(":")[0], int(table.split(":")[1])
        search = mcts_bot(SEARCH[game], iterations or None)
        times: list[float] = []

        def timed(view: Any, legal: Any, rng: Any, search: Any = search, times: list[float] = times) -> Any:
            start = time.process_time()
            action = search(view, legal, rng)
            times.append(time.process_time() - start)
            return action

        timed.reads_log = True  # type: ignore[attr-defined]
        bots = {**BOTS[game], "mcts": timed}
        for number in range(games):
            play(game, seats, number, bots)
        ordered = sorted(times)
        p95 = ordered[int(0.95 * (len(ordered) - 1))]
        searched = [t for t in times if t > SEARCHED_S] or [0.0]
        print(
            f"| {game} | {seats} | {iterations or SEARCH[game].iterations} | {len(times)} "
            f"| {statistics.median(times):.3f} | {p95:.3f} | {max(times):.3f} "
            f"| {len([t for t in times if t > SEARCHED_S])} | {statistics.median(searched):.3f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
