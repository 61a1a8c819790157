"""A heuristic Life is Life bot: play for sure majorities and sudden death, knock when ahead.

It reads only its seat's view: its hand, the tableau, and the public memory
of the cards each other player took from the tableau (`known`). Cards nobody
has seen are spread over the hidden cards in proportion to their number.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from domain.games.life_is_life.cards import ADVANCED_SUDDEN_DEATH, HAND_SIZE, SUDDEN_DEATH, VALUES

# How much of the tableau a rival may still pick up before the phase ends.
TABLEAU_REACH = 0.4
# Turns per player after which the bot knocks unless it would surely lose.
PATIENCE = 12


def heuristic(view: Mapping[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Take a sudden death at once; else the trade that best raises the expected points, or knock."""
    ranked = rank(view, legal, rng)
    if ranked.sudden_death is not None:
        return ranked.sudden_death
    best_value, best = ranked.trades[0] if ranked.trades else (float("-inf"), None)
    knock = ranked.knock
    if knock is not None and (
        best is None or _should_knock(view["state"], ranked.model, ranked.hand, best_value - ranked.now)
    ):
        return knock
    return best if best is not None else rng.choice(legal)


class Ranked(NamedTuple):
    """The heuristic's reading of a turn: a sudden death to take, or every trade by its estimate (best first)."""

    sudden_death: dict[str, Any] | None
    trades: list[tuple[float, dict[str, Any]]]
    knock: dict[str, Any] | None
    now: float
    model: _Model
    hand: dict[str, int]


def rank(view: Mapping[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> Ranked:
    """Estimate every trade's expected points (the search shortlists the best of them)."""
    state, me = view["state"], view["you"]
    model = _Model(state, me)
    hand = dict.fromkeys(VALUES, 0) | Counter(state["hand"])
    # The knock, when allowed, is listed last: look from the end.
    knock = next((action for action in reversed(legal) if action["type"] == "knock"), None)
    base = {name: model.worth(name, hand[name], model.tableau[name]) for name in VALUES}
    now = sum(base.values())
    rows = [dict(Counter(row)) for row in state["rows"]]
    combos = ADVANCED_SUDDEN_DEATH if state["advanced"] else SUDDEN_DEATH
    # A trade moves at most 4 cards of a species: only combinations that close can declare.
    watch = [(name, VALUES[name] - hand[name]) for name in combos if VALUES[name] - hand[name] <= 4]
    # Hundreds of trades share few species counts: remember each estimate's change once.
    change: dict[tuple[str, int], float] = {}
    draw = rng.random
    tableau = model.tableau
    trades = []
    for action in legal:
        if action["type"] != "trade":
            continue
        # What the trade changes per species: cards taken minus cards laid.
        delta = rows[action["row"] - 1].copy()
        for card in action["cards"]:
            delta[card] = delta.get(card, 0) - 1
        # The whole hand after the trade declares, as the rules check it (cards.sudden_death).
        for name, need in watch:
            if delta.get(name, 0) == need:
                return Ranked(action, [], knock, now, model, hand)
        value = now + draw() * 1e-3
        # Added up in the order of `delta`, so that every value is the same float as ever.
        for key in delta.items():
            if not key[1]:
                continue  # a species laid and taken alike keeps its estimate
            step = change.get(key)
            if step is None:
                name, by = key
                step = change[key] = model.worth(name, hand[name] + by, tableau[name] - by) - base[name]
            value += step
        trades.append((value, action))
    trades.sort(key=lambda item: item[0], reverse=True)
    return Ranked(None, trades, knock, now, model, hand)


def _should_knock(state: Mapping[str, Any], model: _Model, hand: Mapping[str, int], gain: float) -> bool:
    """Pass in the last round unless a trade helps; knock when not last and trades help little."""
    if state["last_round"]:
        return gain <= 0
    points = model.points(hand)
    mine = points.pop(model.me)
    others = list(points.values())
    not_lowest = mine > min(others)
    players = len(model.rivals) + 1
    if state["turns"] >= 4 * PATIENCE * players:
        return True
    return not_lowest and (mine >= max(others) or gain < 1.0 or state["turns"] >= PATIENCE * players)


class _Model:
    """What the seat believes about the other hands."""

    def __init__(self, state: Mapping[str, Any], me: int) -> None:
        self.me = me
        self.advanced = state["advanced"]
        self.rivals = [seat for seat, out in enumerate(state["out"]) if not out and seat != me]
        self.least = 2 if len(self.rivals) == 1 else 1
        # Counts of every species, zeros included: plain dicts, as a Counter's missing key costs a call.
        self.tableau = _counts(card for row in state["rows"] for card in row)
        self.known = {seat: _counts(state["known"][seat]) for seat in self.rivals}
        hidden = {seat: HAND_SIZE - len(state["known"][seat]) for seat in self.rivals}
        pool = max(sum(hidden.values()) + state["set_aside_count"], 1)
        seen = _counts(state["hand"])
        for counts in (self.tableau, *self.known.values()):
            for name, count in counts.items():
                seen[name] += count
        unseen = {name: max(0, value - seen[name]) for name, value in VALUES.items()}
        self.expected = {
            seat: {name: known[name] + unseen[name] * hidden[seat] / pool for name in VALUES}
            for seat, known in self.known.items()
        }
        self.threat = {name: max((e[name] for e in self.expected.values()), default=0.0) for name in VALUES}
        combos = ADVANCED_SUDDEN_DEATH if self.advanced else SUDDEN_DEATH
        # A combination is still open while no rival is known to hold one of its cards.
        self.open_sudden_death = {n for n in combos if all(self.known[s][n] == 0 for s in self.rivals)}

    def worth(self, name: str, count: int, tableau: int) -> float:
        """Return what holding `count` of a species is expected to bring, a coming sudden death included."""
        threat = self.threat[name] + TABLEAU_REACH * tableau
        value = VALUES[name] * _chance(count, threat, self.least)
        if name in self.open_sudden_death:
            value += {1: 4.0, 2: 1.5}.get(VALUES[name] - count, 0.0)
        return value

    def points(self, hand: Mapping[str, int]) -> dict[int, float]:
        """Return the expected points of every player still in, this seat holding `hand`."""
        counts = {seat: dict(e) for seat, e in self.expected.items()}
        counts[self.me] = {name: float(hand[name]) for name in VALUES}
        out = {}
        for seat, mine in counts.items():
            out[seat] = sum(
                worth * _chance(mine[name], max(c[name] for s, c in counts.items() if s != seat), self.least)
                for name, worth in VALUES.items()
            )
        return out


def _counts(cards: Iterable[str]) -> dict[str, int]:
    """Count cards per species, every species listed."""
    counts = dict.fromkeys(VALUES, 0)
    for card in cards:
        counts[card] += 1
    return counts


def _chance(count: float, threat: float, least: int) -> float:
    """Rough chance that `count` cards (an expectation for a rival) beat a rival expected to hold `threat`."""
    if count <= 0 or (count < least and float(count).is_integer()):
        return 0.0
    # A fractional expectation below the minimum still scores sometimes.
    scale = 1.0 if count >= least else count / least
    return scale * min(1.0, max(0.0, 0.5 + 0.35 * (count - threat)))
