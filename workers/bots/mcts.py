"""Information-set Monte Carlo tree search with determinisation, for every game.

The bot sees what its seat may see — its view and its redacted event log —
and nothing else. Each iteration (after OpenSpiel's `ismcts.py`, Cowling,
Powley and Whitehouse 2011):

1. *determinise*: the game's sampler deals the hidden cards at random, but
   only in ways that agree with the view and the log (`<game>_sampler.py`);
2. *select*: walk one tree shared by all determinisations, keyed by the
   moves played since the root. A node's moves need not all be legal in
   every determinisation, so UCB counts a child's availability, not its
   parent's visits (the "subset-armed bandit" of ISMCTS);
3. *expand* one new move, then *roll out* on the fast path
   (`domain.simulate`) with a cheap policy up to the game's horizon (the end
   of the phase or round, or the game), and *evaluate* every seat in [0, 1];
4. *back up* each node's value for the seat that chose there.

A game whose random rollouts say little (Animals on Board, Blöde Kuh, Zop
Zoo) searches *flat* instead, to improve on its heuristic (Tesauro and
Galperin's rollout policy, Ginsberg's GIB): each deal, every candidate move
is played out by the heuristic for every seat — each on its view of the deal
— with the same dice, so the luck of a deal falls on every candidate alike;
the heuristic's own move stands unless another did clearly better on average.

A simultaneous choice (Blöde Kuh's horse pass, Animals on Board's keep) is
searched as our seat choosing first: the others' choices are hidden from us
anyway, and the rules accept them in any order. The search draws only from
the `rng` it is handed (seeded from the game, its version and the seat), and
its budget is a number of iterations, not a time, so the same game and step
give the same move on any machine.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain import simulate
from domain.chance import DrawnChance
from domain.errors import RuleError
from domain.rules import Rules

Action = Mapping[str, Any]
# An action as a hashable, order-free key: its fields sorted, lists as tuples.
ActionKey = tuple[tuple[str, Hashable], ...]
Values = Sequence[float]
# Read once per move what the seat knows (its view and redacted log) into a belief...
Believe = Callable[[Mapping[str, Any], Sequence[Mapping[str, Any]]], Any]
# ... and deal the hidden cards of a state that agrees with it, once per iteration.
Sampler = Callable[[Any, random.Random], Any]
# Propose a rollout move from a determinised state (None: uniform over the legal actions).
Rollout = Callable[[Any, int, random.Random], Action | None]
# Return every seat's value once the horizon is reached (start state, state now, moves played), else None.
Evaluate = Callable[[Any, Any, int], Values | None]
# Narrow a long list of legal moves to the ones worth searching.
Shortlist = Callable[[Mapping[str, Any], list[dict[str, Any]], random.Random], list[dict[str, Any]]]
# A bot's policy: an action for the seat whose view this is (a game's heuristic).
Policy = Callable[[Mapping[str, Any], list[dict[str, Any]], random.Random], dict[str, Any]]
# A seat's view of a state (a projection's `bot_view`).
SeatView = Callable[[Any, int], Mapping[str, Any]]

EXPLORATION = 0.7  # UCB's constant for values in [0, 1]
FLAT_MARGIN = 0.02  # a flat search leaves the heuristic's move only for one this much better on average


@dataclass(frozen=True)
class Game:
    """What the search needs of one game: its rules and its hooks."""

    rules: Rules
    believe: Believe
    sample: Sampler
    evaluate: Evaluate
    rollout: Rollout | None = None
    shortlist: Shortlist | None = None
    iterations: int = 200  # the default budget (playouts): under 0.5 s a move on one core
    # Search flat: every candidate played out on the same deals and dice, no tree; `prior`'s move stands unless beaten.
    flat: bool = False
    prior: Policy | None = None
    # Flat only: `prior`'s move also stands unless another's paired lead over it is this many standard errors
    # (0: the margin alone). Where most candidates are alike, it keeps the search from following the noise.
    confidence: float = 0.0


@dataclass
class _Child:
    visits: int = 0
    total: float = 0.0
    available: int = 0
    node: _Node | None = None


@dataclass
class _Node:
    children: dict[ActionKey, _Child] = field(default_factory=dict)


def key_of(action: Action) -> ActionKey:
    """Return a hashable, order-free key for a JSON action."""
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in action.items()))


def choose(
    game: Game,
    view: Mapping[str, Any],
    log: Sequence[Mapping[str, Any]],
    legal: list[dict[str, Any]],
    rng: random.Random,
    iterations: int | None = None,
) -> dict[str, Any]:
    """Search from the seat's information and return the most visited of its legal actions."""
    if len(legal) == 1:
        return legal[0]
    seat = view["you"]
    candidates = game.shortlist(view, legal, rng) if game.shortlist else legal
    if len(candidates) == 1:
        return candidates[0]
    allowed: dict[ActionKey, Mapping[str, Any]] = {key_of(action): action for action in candidates}
    belief = game.believe(view, log)
    if game.flat:
        favourite: ActionKey | None = None
        if game.prior:
            action = game.prior(view, legal, rng)
            favourite = key_of(action)
            allowed.setdefault(favourite, action)
        return dict(allowed[_flat(game, belief, seat, allowed, favourite, rng, iterations or game.iterations)])
    root = _Node()
    for _ in range(iterations or game.iterations):
        state = game.sample(belief, rng)
        _iterate(game, root, state, seat, allowed, rng)
    stats = [(child.visits, child.total / max(child.visits, 1), key) for key, child in root.children.items()]
    best = max(stats, key=lambda s: (s[0], s[1]), default=None)
    return dict(allowed[best[2]]) if best else candidates[0]


def _flat(
    game: Game,
    belief: Any,
    seat: int,
    allowed: dict[ActionKey, Action],
    favourite: ActionKey | None,
    rng: random.Random,
    budget: int,
) -> ActionKey:
    """Play every candidate out on the same deals and dice; return the key of the best (the favourite unless beaten).

    Common deals and dice make the comparison paired: the luck of a deal falls on every
    candidate alike, so few playouts tell the moves apart.
    """
    totals = dict.fromkeys(allowed, 0.0)
    values: dict[ActionKey, list[float]] = {key: [] for key in allowed}
    deals = max(1, budget // len(allowed))
    for _ in range(deals):
        start = game.sample(belief, rng)
        seed = rng.getrandbits(64)
        for key, action in allowed.items():
            value = _play_out(game, start, seat, action, random.Random(seed))[seat]
            totals[key] += value
            values[key].append(value)
    bar = totals[favourite] + FLAT_MARGIN * deals if favourite is not None else -math.inf
    if game.confidence and favourite is not None and deals > 1:
        # Only moves whose paired lead over the favourite is also significant may replace it.
        unsure = {key for key in allowed if not _significant(values[key], values[favourite], game.confidence)}
        totals = {key: total for key, total in totals.items() if key not in unsure or key == favourite}
    best = max(totals, key=lambda key: totals[key])
    return best if favourite is None or totals[best] > bar else favourite


def _significant(mine: Sequence[float], theirs: Sequence[float], z: float) -> bool:
    """Tell whether `mine` leads `theirs` (paired samples) by more than `z` standard errors."""
    diffs = [a - b for a, b in zip(mine, theirs)]
    n = len(diffs)
    mean = sum(diffs) / n
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean > z * math.sqrt(variance / n)


def _play_out(game: Game, start: Any, seat: int, action: Action, rng: random.Random) -> Values:
    """Play `action` and then the rollout policy to the game's horizon; return every seat's value."""
    rules = game.rules
    chance = DrawnChance(rng.randrange)
    state = simulate.apply(rules, start, seat, action, chance)
    moves = 1
    while True:
        state = simulate.settle(rules, state, chance)
        to_act = rules.to_act(state)
        values = game.evaluate(start, state, moves if to_act else 1 << 30)
        if values is not None:
            return values
        assert to_act, "a game's evaluate judges every state nobody can act in"
        actor = min(to_act)
        state = _apply(rules, state, actor, _rollout_move(game, state, actor, rng), chance, rng)
        moves += 1


def _iterate(
    game: Game, root: _Node, start: Any, seat: int, allowed: dict[ActionKey, Action], rng: random.Random
) -> None:
    """Run one determinised simulation through the tree and back its values up."""
    rules = game.rules
    chance = DrawnChance(rng.randrange)
    state, node, path, moves = start, root, [], 0
    actor: int | None = seat  # the root is our seat's choice, even among simultaneous ones
    values: Values | None = None
    in_tree = True
    while True:
        if moves:
            state = simulate.settle(rules, state, chance)
            values = game.evaluate(start, state, moves)
            if values is not None:
                break
            to_act = rules.to_act(state)
            if not to_act:
                values = game.evaluate(start, state, 1 << 30)
                break
            actor = min(to_act)
        assert actor is not None
        if in_tree and node is not None:
            action, child = _select(rules, node, state, actor, allowed if node is root else None, rng)
            path.append((child, actor))
            if child.node is None:  # just expanded: the rest is a rollout
                child.node = _Node()
                in_tree = False
            node = child.node
        else:
            action = _rollout_move(game, state, actor, rng)
        state = _apply(rules, state, actor, action, chance, rng)
        moves += 1
    if values is None:
        return
    for child, who in path:
        child.visits += 1
        child.total += values[who]


def _select(
    rules: Rules, node: _Node, state: Any, actor: int, allowed: dict[ActionKey, Action] | None, rng: random.Random
) -> tuple[Action, _Child]:
    """Pick a move at a tree node: an untried legal one first, else the best by availability-counted UCB."""
    if allowed is not None:
        options = list(allowed.items())
    else:
        options = [(key_of(action), action) for action in rules.legal_actions(state, actor)]
    children = node.children
    untried = []
    for key, _ in options:
        child = children.get(key)
        if child is None:
            child = children[key] = _Child()
        child.available += 1
        if child.visits == 0 and child.node is None:
            untried.append(key)
    actions = dict(options)
    if untried:
        key = untried[rng.randrange(len(untried))]
        return actions[key], children[key]
    best_key, best_score = options[0][0], -math.inf
    for key, _ in options:
        child = children[key]
        score = child.total / max(child.visits, 1) + EXPLORATION * math.sqrt(
            math.log(child.available) / max(child.visits, 1)
        )
        if score > best_score:
            best_key, best_score = key, score
    return actions[best_key], children[best_key]


def _apply(rules: Rules, state: Any, actor: int, action: Action, chance: DrawnChance, rng: random.Random) -> Any:
    """Return the state after `actor` plays `action`, or a random legal move if the rules refuse a proposed one."""
    try:
        return simulate.apply(rules, state, actor, action, chance)
    except RuleError:
        return simulate.apply(rules, state, actor, rng.choice(rules.legal_actions(state, actor)), chance)


def _rollout_move(game: Game, state: Any, actor: int, rng: random.Random) -> Action:
    action = game.rollout(state, actor, rng) if game.rollout else None
    if action is None:
        legal = game.rules.legal_actions(state, actor)
        action = legal[0] if len(legal) == 1 else legal[rng.randrange(len(legal))]
    return action


def guided(rules: Rules, seat_view: SeatView, policy: Policy) -> Rollout:
    """Return a rollout that plays `policy` on each seat's view of the determinised state.

    The state is one the search dealt from its own belief, never the real one, so reading
    any seat's view of it is fair: the policy plays each seat as that seat would see it.
    """

    def rollout(state: Any, seat: int, rng: random.Random) -> Action | None:
        legal = rules.legal_actions(state, seat)
        if len(legal) == 1:
            return legal[0]
        return policy({"state": seat_view(state, seat), "you": seat}, legal, rng)

    return rollout


def places_to_values(places: Sequence[int]) -> list[float]:
    """Map places (1 best) to values in [0, 1]: first 1, last 0, shared places alike."""
    n = len(places)
    return [(n - place) / (n - 1) if n > 1 else 1.0 for place in places]


def spread(scores: Sequence[float], higher_is_better: bool = True) -> list[float]:
    """Map scores to [0, 1] linearly between the worst and the best (all 0.5 when equal)."""
    low, high = min(scores), max(scores)
    if high == low:
        return [0.5] * len(scores)
    if higher_is_better:
        return [(s - low) / (high - low) for s in scores]
    return [(high - s) / (high - low) for s in scores]


def ahead(scores: Sequence[float], scale: float, higher_is_better: bool = True) -> list[float]:
    """Map scores to (0, 1) by each seat's lead over the best other seat: 0.5 level, `scale` ahead about 0.73."""
    sign = 1.0 if higher_is_better else -1.0
    values = []
    for seat, mine in enumerate(scores):
        rival = max(sign * s for other, s in enumerate(scores) if other != seat) if len(scores) > 1 else sign * mine
        values.append(1.0 / (1.0 + math.exp((rival - sign * mine) / scale)))
    return values


def bot(game: Game, iterations: int | None = None) -> Callable[..., dict[str, Any]]:
    """Return the `mcts` bot of a game: `bot(view, legal, rng)`, its redacted log under `view["log"]`."""

    def mcts(view: Mapping[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
        return choose(game, view, view.get("log") or [], legal, rng, iterations)

    mcts.reads_log = True  # type: ignore[attr-defined]  # BotPlayers hands it the seat's redacted log
    return mcts
