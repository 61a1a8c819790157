"""Life is Life's determinisation and search hooks.

Hidden: the other hands and the set-aside cards. The seat knows its hand,
the rows, and `known`, the cards each player took from the tableau and has
not laid down since — exactly the least each hand must hold, given every
public trade. So: the unseen cards (the deck less its hand, the rows and every
`known`) are dealt at random, each other hand getting its `known` cards plus
enough unseen ones to reach its size, the rest set aside.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from domain.games.life_is_life import RULES
from domain.games.life_is_life.cards import DECK, ROW_SIZES, life_losses, totals
from domain.games.life_is_life.moves import may_knock
from domain.games.life_is_life.state import State
from domain.values import changed
from workers.bots import life_is_life as heuristic
from workers.bots.mcts import Game, Values, places_to_values, spread

ROLLOUT_MOVES = 3  # turns per player a rollout plays before the phase is judged by its majorities
KNOCK = 0.25  # a rollout player knocks this often when it may
SHORTLIST = 8  # trades the search weighs: the heuristic's best ones


def believe(view: Mapping[str, Any], log: Sequence[Mapping[str, Any]]) -> tuple[State, list[list[str]], list[str]]:
    """Build the public state from the view; list each hand's sure cards and the unseen ones."""
    seat, v = view["you"], view["state"]
    players = v["players"]
    declared = v["sudden_death"]
    state = State(
        players=players,
        advanced=v["advanced"],
        lives=tuple(v["lives"]),
        out_in_phase=tuple(v["out_in_phase"]),
        phase=v["phase"],
        starter=v["starter"],
        turn=v["turn"],
        hands=(),
        rows=tuple(tuple(row) for row in v["rows"]),
        set_aside=(),
        known=tuple(tuple(cards) for cards in v["known"]),
        traded=frozenset(s for s, t in enumerate(v["traded"]) if t),
        knocker=v["knocker"],
        knocked=frozenset(s for s, k in enumerate(v["knocked"]) if k),
        turns=v["turns"],
        phase_over=v["phase_over"],
        declared=None if declared is None else (declared["seat"], tuple(declared["species"])),
    )
    sure = [list(v["hand"]) if s == seat else list(v["known"][s]) for s in range(players)]
    seen = Counter(v["hand"]) + Counter(card for row in v["rows"] for card in row)
    for other in range(players):
        if other != seat:
            seen.update(sure[other])
    unseen = sorted((Counter(DECK) - seen).elements())
    return changed_sizes(state, v), sure, unseen


def changed_sizes(state: State, v: Mapping[str, Any]) -> State:
    """Remember the hand sizes and the set-aside count in the empty hands, to fill them later."""
    # `changed`, not State(**state.__dict__): the dict may hold facts remembered of the old state.
    return changed(
        state,
        hands=tuple(("",) * n for n in v["hand_counts"]),
        set_aside=("",) * v["set_aside_count"],
    )


def sample(belief: tuple[State, list[list[str]], list[str]], rng: random.Random) -> State:
    """Deal the unseen cards: each hand its sure cards plus random ones, the rest set aside."""
    state, sure, unseen = belief
    pool = list(unseen)
    rng.shuffle(pool)
    hands = []
    for seat, size in enumerate(len(hand) for hand in state.hands):
        extra = size - len(sure[seat])
        hands.append(tuple(sorted(sure[seat] + pool[:extra])))
        del pool[:extra]
    return changed(state, hands=tuple(hands), set_aside=tuple(sorted(pool)))


def rollout(state: State, seat: int, rng: random.Random) -> dict[str, Any] | None:
    """Knock now and then; else lay random cards on a random row (the rules refuse a non-trade)."""
    if may_knock(state, seat) and rng.random() < KNOCK:
        return {"type": "knock"}
    row = rng.randrange(len(ROW_SIZES))
    return {"type": "trade", "row": row + 1, "cards": sorted(rng.sample(state.hands[seat], ROW_SIZES[row]))}


def evaluate(start: State, state: State, moves: int) -> Values | None:
    """Judge by lives once the phase is over, or by the majorities the hands hold after a short rollout."""
    result = RULES.result(state)
    if result is not None:
        return places_to_values(result.places)
    if state.phase != start.phase:
        return _lives(state, state.lives)
    if moves < ROLLOUT_MOVES * len(state.remaining) and not state.phase_over:
        return None
    if state.declared is not None:
        lives = [life - (0 if s == state.declared[0] else 1) for s, life in enumerate(state.lives)]
        return _lives(state, lives)
    losses = life_losses(totals({s: state.hands[s] for s in state.remaining}))
    return _lives(state, [life - losses.get(s, 0) for s, life in enumerate(state.lives)])


def _lives(state: State, lives: Sequence[int]) -> list[float]:
    """Value lives: players out score nothing; the rest spread by lives left."""
    alive = [max(0, life) if state.out_in_phase[s] is None else 0 for s, life in enumerate(lives)]
    return [0.5 * v + 0.5 * (a > 0) for v, a in zip(spread(alive), alive)]


def shortlist(view: Mapping[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> list[dict[str, Any]]:
    """Keep the knock and the trades the heuristic rates best (a sudden death is taken at once)."""
    ranked = heuristic.rank(view, legal, rng)
    if ranked.sudden_death is not None:
        return [ranked.sudden_death]
    keep = [action for _, action in ranked.trades[:SHORTLIST]]
    return keep + ([ranked.knock] if ranked.knock is not None else [])


GAME = Game(
    rules=RULES, believe=believe, sample=sample, evaluate=evaluate, rollout=rollout, shortlist=shortlist, iterations=80
)
