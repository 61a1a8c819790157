"""The rules object of Life is Life: setup, decisions, system steps and the result."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from itertools import combinations
from typing import Any

from domain.chance import Chance
from domain.errors import RuleError
from domain.events import SYSTEM, Event
from domain.games.life_is_life.cards import (
    DECK,
    HAND_SIZE,
    ROW_SIZES,
    START_LIVES,
    VALUES,
    life_losses,
    majorities,
    sudden_death,
    totals,
)
from domain.games.life_is_life.state import State, evolve
from domain.rules import Option, Result

GAME_ID = "life-is-life"


class TradeError(RuleError):
    """A trade the rules do not allow (wrong row, cards not held, same cards as the row)."""


class KnockError(RuleError):
    """A knock before having traded in this phase."""


class LifeIsLife:
    """Life is Life (Lorenz Kutschke, NSV 2016) for 3 to 5 players."""

    id = GAME_ID
    title = "Life is Life"
    min_seats = 3
    max_seats = 5
    rules_version = "1"
    options = (
        Option(
            "advanced",
            "bool",
            False,
            "Advanced variant: only all 5 rabbits or all 5 pigs end a phase by sudden death, "
            "and the declaring player gains 1 life (no cap).",
        ),
    )

    def check_options(self, options: Mapping[str, Any], seats: int) -> None:
        """Accept every combination: the only option is a free switch."""

    def setup(self, seats: int, options: Mapping[str, Any], chance: Chance) -> list[Event]:
        """Set up lives, draw the first starter and deal the first phase."""
        advanced = bool(options.get("advanced", False))
        starter = chance.below(seats)
        set_up = Event("GameSetUp", {"players": seats, "advanced": advanced, "lives": START_LIVES}, SYSTEM)
        return [set_up, _deal(seats, tuple(range(seats)), 1, starter, chance)]

    def evolve(self, state: State | None, event: Event) -> State:
        """Apply one event."""
        return evolve(state, event)

    def to_act(self, state: State) -> frozenset[int]:
        """Return the seat whose turn it is (none once the phase is over)."""
        if state.turn is None or state.phase_over or state.over:
            return frozenset()
        return frozenset({state.turn})

    def system_due(self, state: State) -> bool:
        """Tell whether a finished phase waits to be scored and the next one dealt."""
        return state.phase_over and not state.over

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        """List every distinct trade, and the knock when it is allowed."""
        if seat not in self.to_act(state):
            return []
        hand = state.hands[seat]
        actions: list[dict[str, Any]] = []
        for row, cards in enumerate(state.rows, start=1):
            for laid in sorted(set(combinations(hand, len(cards)))):
                if laid != cards:
                    actions.append({"type": "trade", "row": row, "cards": list(laid)})
        if may_knock(state, seat):
            actions.append({"type": "knock"})
        return actions

    def decide(self, state: State, seat: int, action: Mapping[str, Any], chance: Chance) -> list[Event]:
        """Validate a trade or a knock and return its events."""
        if seat not in self.to_act(state):
            raise RuleError(f"it is not seat {seat}'s turn")
        kind = action.get("type")
        if kind == "trade":
            return _trade(state, seat, action)
        if kind == "knock":
            if not may_knock(state, seat):
                raise KnockError("you may knock only after having traded at least once in this phase")
            return [Event("Knocked", {"seat": seat, "opens_last_round": state.knocker is None}, seat)]
        raise RuleError(f"unknown action type {kind!r}: expected 'trade' or 'knock'")

    def advance(self, state: State, chance: Chance) -> list[Event]:
        """Score the finished phase, take lives, put players out and deal the next phase."""
        if not self.system_due(state):
            return []
        events, lost, gained = _phase_end(state)
        lives = [max(0, life - lost[s] + gained[s]) for s, life in enumerate(state.lives)]
        events.append(Event("LivesLost", {"lost": lost, "gained": gained, "lives": lives}, SYSTEM))
        remaining = state.remaining
        events += [
            Event("PlayerEliminated", {"seat": seat, "phase": state.phase}, SYSTEM)
            for seat in remaining
            if lives[seat] == 0
        ]
        survivors = tuple(seat for seat in remaining if lives[seat] > 0)
        if len(survivors) >= 2:
            # The starter's left neighbour starts, skipping anyone out (the starter may be out too).
            starter = next(
                (state.starter + step) % state.players
                for step in range(1, state.players + 1)
                if (state.starter + step) % state.players in survivors
            )
            events.append(_deal(state.players, survivors, state.phase + 1, starter, chance))
        return events

    def result(self, state: State) -> Result | None:
        """Rank the last player in first, then by the phase each player went out."""
        if state is None or not state.over:
            return None
        # A player still in ranks after every phase; those out together share a place.
        reach = [out if out is not None else 1 << 30 for out in state.out_in_phase]
        places = tuple(1 + sum(other > mine for other in reach) for mine in reach)
        detail = {
            "lives": list(state.lives),
            "phases": state.phase,
            "out_in_phase": list(state.out_in_phase),
        }
        return Result(places=places, detail=detail)


def may_knock(state: State, seat: int) -> bool:
    """Knocking needs a trade this phase; in the last round the knock is a pass, always allowed."""
    return state.knocker is not None or seat in state.traded


def _phase_end(state: State) -> tuple[list[Event], list[int], list[int]]:
    """Return the scoring events and the lives lost and gained per seat for the finished phase."""
    lost = [0] * state.players
    gained = [0] * state.players
    if state.declared is not None:
        declarer = state.declared[0]
        for seat in state.remaining:
            lost[seat] = 0 if seat == declarer else 1
        if state.advanced:
            gained[declarer] = 1
        return [], lost, gained
    hands = {seat: state.hands[seat] for seat in state.remaining}
    points = totals(hands)
    for seat, loss in life_losses(points).items():
        lost[seat] = loss
    scored = {
        "phase": state.phase,
        "hands": [list(state.hands[s]) if s in hands else None for s in range(state.players)],
        "points": [points.get(s) for s in range(state.players)],
        "majorities": majorities(hands),
    }
    return [Event("PhaseScored", scored, SYSTEM)], lost, gained


def _trade(state: State, seat: int, action: Mapping[str, Any]) -> list[Event]:
    """Validate one trade and return RowTraded, plus SuddenDeathDeclared when it completes one."""
    row = action.get("row")
    if isinstance(row, bool) or not isinstance(row, int) or not 1 <= row <= len(ROW_SIZES):
        raise TradeError(f"row must be a whole number from 1 to {len(ROW_SIZES)}, not {row!r}")
    cards = action.get("cards")
    if not isinstance(cards, (list, tuple)) or not all(isinstance(card, str) for card in cards):
        raise TradeError("cards must be a list of species names")
    unknown = sorted({card for card in cards if card not in VALUES})
    if unknown:
        raise TradeError(f"unknown species {', '.join(unknown)}; species are {', '.join(VALUES)}")
    taken = state.rows[row - 1]
    if len(cards) != len(taken):
        raise TradeError(f"row {row} holds {len(taken)} card(s): lay down exactly {len(taken)}, not {len(cards)}")
    laid, hand = Counter(cards), Counter(state.hands[seat])
    missing = laid - hand
    if missing:
        raise TradeError(f"you do not hold {', '.join(sorted(missing.elements()))}")
    if laid == Counter(taken):
        raise TradeError(f"the cards laid down must differ from row {row} ({', '.join(taken)}) in at least one card")
    events = [Event("RowTraded", {"seat": seat, "row": row, "laid": sorted(cards), "taken": list(taken)}, seat)]
    combos = sudden_death((hand - laid + Counter(taken)).elements(), state.advanced)
    if combos:
        events.append(Event("SuddenDeathDeclared", {"seat": seat, "species": combos}, seat))
    return events


def _deal(players: int, seats: tuple[int, ...], phase: int, starter: int, chance: Chance) -> Event:
    """Shuffle all 60 cards: 10 to each seat still in, the four rows, the rest set aside."""
    deck = chance.shuffle(DECK)
    hands: list[list[str]] = [[] for _ in range(players)]
    for index, seat in enumerate(seats):
        hands[seat] = sorted(deck[index * HAND_SIZE : (index + 1) * HAND_SIZE])
    position = len(seats) * HAND_SIZE
    rows = []
    for size in ROW_SIZES:
        rows.append(sorted(deck[position : position + size]))
        position += size
    data = {"phase": phase, "starter": starter, "hands": hands, "rows": rows, "set_aside": sorted(deck[position:])}
    return Event("PhaseDealt", data, SYSTEM)
