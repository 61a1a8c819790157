"""How much room is there above Zop Zoo's heuristic? A peeking search, for measurement only.

The bot here reads the TRUE state (the black deck's order included), which no
service bot may: it lives under research/ and nothing else imports it.
With the deck known, the rest of a round played by the heuristic for every
seat is fixed (chance enters only when an empty deck is refilled), so each
candidate move is played out to the round's end once (a refilled round:
`REFILL_PLAYOUTS` times, on the same dice for every candidate) and judged:

- `round`: by winning the round, then by the lead in the totals;
- `blind`: as `round`, but honestly: the deck is reshuffled for each of
  `BLIND_DEALS` deals (the same deals for every candidate), as the seat's
  belief would deal it; the control for what peeking is worth;
- `game`: by the chance of winning the game from the round's end, estimated by
  `FUTURE_PLAYOUTS` heuristic playouts of the later rounds, on the same dice
  for every candidate and cached by the totals and the next round's starter.

The heuristic's move stands unless another is strictly better. Games run head
to head in 2 seats (the peeking bot in seat g mod 2 of game g), and every
decision with more than one legal action is counted by type, with how often
the peeking search leaves the heuristic's move.
Run: .venv/bin/python -m research.zop_zoo_ceiling [games] [round|blind|game] [future playouts] [action types searched,
e.g. place_wild or give,take_card,swap; the heuristic plays the others]
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter
from typing import Any

from domain import simulate
from domain.chance import DrawnChance
from domain.games.zop_zoo import RULES, board
from domain.games.zop_zoo.state import PLAYING, State
from domain.values import changed
from projections import projection_for
from workers.bots import zop_zoo as heuristic_bot

SEAT_VIEW = projection_for("zop-zoo").seat_view
OPTIONS = {"target": 800, "card_set": None}
REFILL_PLAYOUTS = 16
FUTURE_PLAYOUTS = 200
BLIND_DEALS = 100


def heuristic(state: State, seat: int, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """Play the heuristic on the seat's view of a state."""
    if len(legal) == 1:
        return legal[0]
    return heuristic_bot.heuristic({"state": SEAT_VIEW(state, seat), "you": seat}, legal, random.Random(0))


class Counted:
    """A chance source that notes whether it was ever drawn from."""

    def __init__(self, seed: int) -> None:
        self.used = False
        self.rng = random.Random(seed)

    def randrange(self, n: int) -> int:
        self.used = True
        return self.rng.randrange(n)


def to_round_end(state: State, seat: int, action: dict[str, Any], seed: int) -> tuple[State, bool]:
    """Play `action`, then the heuristic for every seat, to the round's end; tell whether chance was drawn."""
    counted = Counted(seed)
    chance = DrawnChance(counted.randrange)
    state = simulate.apply(RULES, state, seat, action, chance)
    while state.phase == PLAYING:
        actor = state.turn
        state = simulate.apply(RULES, state, actor, heuristic(state, actor, RULES.legal_actions(state, actor)), chance)
    return state, counted.used


FUTURE: dict[tuple[Any, ...], float] = {}


def future_value(state: State, seat: int) -> float:
    """Return the seat's chance of winning the game from a round's end (ties count half)."""
    if RULES.result(state) is not None:
        return share(state, seat)
    key = (state.totals, state.results[-1].winner, seat)
    if key not in FUTURE:
        total = 0.0
        for number in range(FUTURE_PLAYOUTS):
            chance = DrawnChance(random.Random(number).randrange)
            end, _ = simulate.play_out(RULES, state, heuristic, chance)
            total += share(end, seat)
        FUTURE[key] = total / FUTURE_PLAYOUTS
    return FUTURE[key]


def share(state: State, seat: int) -> float:
    """Return the seat's share of a finished game's win: 1 alone in first place, 0.5 sharing it, else 0."""
    result = RULES.result(state)
    assert result is not None, "only a finished game is shared out"
    places = result.places
    if places[seat] != 1:
        return 0.0
    return 1.0 if places.count(1) == 1 else 0.5


def round_value(state: State, seat: int) -> float:
    """Return 1 for winning the round, else 0, plus a small share of the lead in the totals."""
    other = max(total for s, total in enumerate(state.totals) if s != seat)
    won = state.results[-1].winner == seat
    return (1.0 if won else 0.0) + (state.totals[seat] - other) / 100_000


def peek(state: State, seat: int, legal: list[dict[str, Any]], mode: str, seed: int) -> tuple[dict[str, Any], bool]:
    """Return the peeking search's move and whether it differs in value from the heuristic's."""
    favourite = heuristic(state, seat, legal)
    values = []
    judge = future_value if mode == "game" else round_value
    if mode == "blind":
        return blind(state, seat, legal, favourite, seed)
    for action in legal:
        runs = 1
        end, used = to_round_end(state, seat, action, seed)
        total = judge(end, seat)
        if used:
            runs = REFILL_PLAYOUTS
            for extra in range(1, runs):
                end, _ = to_round_end(state, seat, action, seed + extra)
                total += judge(end, seat)
        values.append(total / runs)
    mine = values[legal.index(favourite)]
    best = max(range(len(legal)), key=lambda i: values[i])
    if values[best] > mine + 1e-9:
        return legal[best], True
    return favourite, len(set(values)) > 1


def blind(
    state: State, seat: int, legal: list[dict[str, Any]], favourite: dict[str, Any], seed: int
) -> tuple[dict[str, Any], bool]:
    """The same search without peeking: the deck reshuffled for each of `BLIND_DEALS` deals, shared by the candidates.

    The deck holds exactly the black cards seen nowhere else, so a shuffle of it is
    what the seat's belief deals (`workers.bots.zop_zoo_sampler`).
    """
    rng = random.Random(seed)
    values = [0.0] * len(legal)
    for deal in range(BLIND_DEALS):
        deck = list(state.deck)
        rng.shuffle(deck)
        dealt = changed(state, deck=tuple(deck))
        for index, action in enumerate(legal):
            end, _ = to_round_end(dealt, seat, action, seed + deal)
            values[index] += round_value(end, seat)
    mine = values[legal.index(favourite)]
    best = max(range(len(legal)), key=lambda i: values[i])
    if values[best] > mine + 1e-9:
        return legal[best], True
    return favourite, len(set(values)) > 1


def kind_of(state: State, legal: list[dict[str, Any]]) -> str:
    """Name a decision's type; a MOLE's by where it lies and whether its dig finds anything."""
    kind = legal[0]["type"]
    if kind == "use_mole":
        now = board.pending(state)
        assert now is not None
        kind = f"mole_{now.source}_{'finds' if board.mole_finds(state) else 'none'}"
    return kind


def plain(state: State, legal: list[dict[str, Any]]) -> bool:
    """Tell whether a choice is plain: a drawn MOLE (use it iff it finds), or a MOLE that finds nothing."""
    if legal[0]["type"] != "use_mole":
        return False
    now = board.pending(state)
    return now is not None and (now.source == "deck" or not board.mole_finds(state))


def main() -> None:
    """Play the peeking bot against the heuristic head to head and print the figures."""
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    mode = sys.argv[2] if len(sys.argv) > 2 else "game"
    global FUTURE_PLAYOUTS
    FUTURE_PLAYOUTS = int(sys.argv[3]) if len(sys.argv) > 3 else FUTURE_PLAYOUTS
    only = set(sys.argv[4].split(",")) if len(sys.argv) > 4 else None
    decisions: Counter[str] = Counter()
    searched: Counter[str] = Counter()
    differs: Counter[str] = Counter()
    changed: Counter[str] = Counter()
    score = 0.0
    start = time.perf_counter()
    for number in range(games):
        peeker = number % 2
        chance = DrawnChance(random.Random(f"ceiling:{number}").randrange)
        state = simulate.start(RULES, 2, OPTIONS, chance)
        step = 0
        while True:
            state = simulate.settle(RULES, state, chance)
            if RULES.result(state) is not None:
                break
            seat = state.turn
            legal = RULES.legal_actions(state, seat)
            step += 1
            if len(legal) == 1:
                action = legal[0]
            else:
                kind = kind_of(state, legal)
                decisions[kind] += 1
                if seat == peeker and not plain(state, legal) and (only is None or legal[0]["type"] in only):
                    searched[kind] += 1
                    action, spread = peek(state, seat, legal, mode, hash((number, step)) & 0xFFFFFFFF)
                    differs[kind] += spread
                    changed[kind] += action != heuristic(state, seat, legal)
                else:
                    action = heuristic(state, seat, legal)
            state = simulate.apply(RULES, state, seat, action, chance)
        score += share(state, peeker)
        if (number + 1) % 20 == 0:
            rate = score / (number + 1)
            print(
                f"{number + 1} games: searching seat wins {rate:.3f} ({time.perf_counter() - start:.0f} s)", flush=True
            )
    rate = score / games
    half = 1.96 * (rate * (1 - rate) / games) ** 0.5
    print(
        f"mode {mode}, searched {','.join(sorted(only)) if only else 'all'}, future playouts {FUTURE_PLAYOUTS}, {games} games: searching seat wins {rate:.3f} ± {half:.3f}"
    )
    print("| decision | per game (both seats) | searched (peeking seat) | candidates differ | move changed |")
    print("|---|---|---|---|---|")
    for kind in sorted(decisions):
        print(f"| {kind} | {decisions[kind] / games:.2f} | {searched[kind]} | {differs[kind]} | {changed[kind]} |")


if __name__ == "__main__":
    main()
