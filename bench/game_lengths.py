"""How long do real games get? The figures each game's event caps (`Rules.event_caps`) are derived from.

Plays every game type at every seat count with uniformly random bots and with
heuristic bots (each from its seat's view, as the service hands it), from many
seeds, on the fast path, and prints per table the events a recorded game would
hold (the core's GameCreated, SeatTaken per seat, GameStarted and GameEnded
included) and its rounds or phases: mean, 99th percentile and maximum, beside
the game's cap. Zop Zoo plays to the largest target its option allows, its
longest game. mcts is left out: it plays the heuristic's game more strongly,
not longer, and costs a thousand times as much.
Run: .venv/bin/python -m bench.game_lengths [games per table and bot kind] [game:seats ...]
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

from domain.chance import DrawnChance
from domain.events import Event
from domain.games import RULES, rules_for
from domain.games.zop_zoo.steps import target_max
from projections import projection_for
from workers.bots import BOTS, bot_rng

KINDS = ("random", "heuristic")


def options_for(game: str, seats: int) -> dict[str, Any]:
    """Return the options of a game's longest ordinary play (Zop Zoo: the largest target its table may set)."""
    options = {option.name: option.default for option in rules_for(game).options}
    if game == "zop-zoo":
        options["target"] = target_max(seats)
    return options


def play(game: str, seats: int, number: int, kind: str) -> tuple[int, int]:
    """Play one game with `kind` bots in every seat; return its recorded events and its rounds."""
    rules, projection, bot = rules_for(game), projection_for(game), BOTS[game][kind]
    chance = DrawnChance(random.Random(f"{game}:{seats}:{number}").randrange)
    batch: list[Event] = list(rules.setup(seats, options_for(game, seats), chance))
    state, events, rounds, step = None, 0, 0, 0
    while True:
        for event in batch:
            state = rules.evolve(state, event)
            rounds += event.type in ("PhaseDealt", "RoundStarted", "RoundDealt", "CardsDealt", "RoundBegun")
        events += len(batch)
        if rules.result(state) is not None:
            break
        step += 1
        if rules.system_due(state):
            batch = rules.advance(state, chance)
            continue
        seat = min(rules.to_act(state))
        legal = rules.legal_actions(state, seat)
        if len(legal) == 1:
            action = legal[0]
        else:
            view = {"state": projection.seat_view(state, seat), "you": seat}
            action = bot(view, legal, bot_rng(f"{game}-{number}", step, seat))
        batch = rules.decide(state, seat, action, chance)
    # The core's own events: GameCreated, one SeatTaken a seat, GameStarted, GameEnded.
    return events + seats + 3, rounds


def main() -> None:
    """Print the lengths of every table's games, with the cap beside them."""
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    tables = sys.argv[2:] or [
        f"{game}:{seats}"
        for game, rules in sorted(RULES.items())
        for seats in range(rules.min_seats, rules.max_seats + 1)
    ]
    print(f"games per table and bot kind: {games}")
    print("| game | seats | bots | events mean | p99 | max | rounds max | cap | s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for table in tables:
        game, seats = table.split(":")[0], int(table.split(":")[1])
        for kind in KINDS:
            start = time.perf_counter()
            played = [play(game, seats, number, kind) for number in range(games)]
            lengths = sorted(events for events, _ in played)
            p99 = lengths[min(len(lengths) - 1, int(0.99 * len(lengths)))]
            cap = rules_for(game).event_caps.get(seats, "-")
            print(
                f"| {game} | {seats} | {kind} | {sum(lengths) / len(lengths):.0f} | {p99} | {lengths[-1]} "
                f"| {max(r for _, r in played)} | {cap} | {time.perf_counter() - start:.0f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
