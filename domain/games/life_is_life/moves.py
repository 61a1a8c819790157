"""Life is Life's moves: whose turn it is, what they may do, and the events of doing it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from domain.batch import ActionHandler, Batch
from domain.chance import Chance
from domain.errors import RuleError
from domain.events import Event
from domain.games.life_is_life.cards import ROW_SIZES, VALUES, sudden_death
from domain.games.life_is_life.state import State, evolve


class TradeError(RuleError):
    """A trade the rules do not allow (wrong row, cards not held, same cards as the row)."""


class KnockError(RuleError):
    """A knock before having traded in this phase."""


def to_act(state: State) -> frozenset[int]:
    """Return the seat whose turn it is (none once the phase is over)."""
    if state.turn is None or state.phase_over or state.over:
        return frozenset()
    return frozenset({state.turn})


def legal_actions(state: State, seat: int) -> list[dict[str, Any]]:
    """List every distinct trade, and the knock when it is allowed."""
    if seat not in to_act(state):
        return []
    sets = _distinct_sets(tuple(Counter(state.hands[seat]).items()))  # a sorted hand: sorted species
    actions: list[dict[str, Any]] = []
    for row, cards in enumerate(state.rows, start=1):
        for laid in sets[len(cards)]:
            if laid != cards:
                actions.append({"type": "trade", "row": row, "cards": list(laid)})
    if may_knock(state, seat):
        actions.append({"type": "knock"})
    return actions


@lru_cache(maxsize=1 << 10)
def _distinct_sets(counts: tuple[tuple[str, int], ...]) -> tuple[tuple[tuple[str, ...], ...], ...]:
    """Return, per size up to the longest row, every distinct set of cards of a hand (species and counts, sorted).

    Each size's sets in sorted order: the same as `sorted(set(combinations(hand,
    size)))`, without making the hundreds of combinations of which most are
    alike. A set grows by a species no smaller than its last one, smallest
    first, so each size comes out sorted.
    """
    species = [name for name, _ in counts]
    held = [count for _, count in counts]
    level: list[tuple[tuple[str, ...], int, int]] = [((), 0, 0)]  # a set, its last species' index, how many of it
    out: list[tuple[tuple[str, ...], ...]] = [((),)]
    for _ in range(max(ROW_SIZES)):
        grown = []
        for cards, last, run in level:
            if cards and run < held[last]:
                grown.append((cards + (species[last],), last, run + 1))
            for index in range(last + 1 if cards else 0, len(species)):
                grown.append((cards + (species[index],), index, 1))
        level = grown
        out.append(tuple(cards for cards, _, _ in level))
    return tuple(out)


def decide(state: State, seat: int, action: Mapping[str, Any], chance: Chance) -> list[Event]:
    """Judge a well-formed trade or knock (`ACTION_FORMS`) and return its events."""
    if seat not in to_act(state):
        raise RuleError(f"it is not seat {seat}'s turn")
    batch = Batch(state, seat, evolve)
    _ACTIONS[action["type"]](batch, seat, action, chance)
    return batch.events


def may_knock(state: State, seat: int) -> bool:
    """Knocking needs a trade this phase; in the last round the knock is a pass, always allowed."""
    return state.knocker is not None or seat in state.traded


def _knock(batch: Batch[State], seat: int, action: Mapping[str, Any], chance: Chance) -> None:
    """Knock: the phase's last round begins, or (in the last round) pass."""
    if not may_knock(batch.state, seat):
        raise KnockError("you may knock only after having traded at least once in this phase")
    batch.emit("Knocked", {"seat": seat, "opens_last_round": batch.state.knocker is None})


def _trade(batch: Batch[State], seat: int, action: Mapping[str, Any], chance: Chance) -> None:
    """Trade cards for a row; declare sudden death when the new hand completes one."""
    state = batch.state
    row: int = action["row"]
    if not 1 <= row <= len(ROW_SIZES):
        raise TradeError(f"row must be a whole number from 1 to {len(ROW_SIZES)}, not {row!r}")
    cards: list[str] = action["cards"]
    unknown = sorted({card for card in cards if card not in VALUES})
    if unknown:
        raise TradeError(f"unknown species {', '.join(unknown)}; species are {', '.join(VALUES)}")
    taken = state.rows[row - 1]
    if len(cards) != len(taken):
        raise TradeError(f"row {row} holds {len(taken)} card(s): lay down exactly {len(taken)}, not {len(cards)}")
    laid = Counter(cards)
    held = Counter(state.hands[seat])
    if any(held[card] < count for card, count in laid.items()):
        raise TradeError(f"you do not hold {', '.join(sorted((laid - held).elements()))}")
    ordered = sorted(cards)
    if ordered == sorted(taken):  # the same cards as the row
        raise TradeError(f"the cards laid down must differ from row {row} ({', '.join(taken)}) in at least one card")
    batch.emit("RowTraded", {"seat": seat, "row": row, "laid": ordered, "taken": list(taken)})
    combos = sudden_death(batch.state.hands[seat], state.advanced)
    if combos:
        batch.emit("SuddenDeathDeclared", {"seat": seat, "species": combos})


_ACTIONS: dict[str, ActionHandler[State]] = {"trade": _trade, "knock": _knock}


# The forms of every action of this game, whatever the state (see `domain.rules.Rules.actions`).
ACTION_FORMS: Mapping[str, Mapping[str, str]] = {
    "trade": {"row": "int", "cards": "[str]"},
    "knock": {},
}
