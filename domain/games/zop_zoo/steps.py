"""Zop Zoo's system steps: setup, the deal, the round win (checked after every change) and its scoring, the result."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from domain.batch import Batch
from domain.chance import Chance
from domain.errors import OptionsError, RuleError
from domain.events import SYSTEM, Event
from domain.games.zop_zoo import cards
from domain.games.zop_zoo.board import round_points, row_won, stack_facts
from domain.games.zop_zoo.cards import STARTING_CARDS
from domain.games.zop_zoo.state import OVER, ROUND_WON, RULES_VERSIONS, State, evolve
from domain.rules import Result

# The largest target for a table: the publisher's 1000 for 2 players, else the standard 800 (it suggests
# 600 for 5-6). Each round a winner gains and the others lose their minus cards, so a larger table takes
# more rounds to a target: a 5-seat game to 1000 took up to 130 rounds (bench/game_lengths.py).
TARGET_MAX = 1000
TARGET_MAX_MORE_SEATS = 800


def target_max(seats: int) -> int:
    """Return the largest target a game of this many seats may set."""
    return TARGET_MAX if seats <= 2 else TARGET_MAX_MORE_SEATS


def check_options(options: Mapping[str, Any], seats: int) -> None:
    """Raise OptionsError for a target past the table's largest, or a card set of the wrong form or too small."""
    target = options.get("target")
    if isinstance(target, int) and target > target_max(seats):
        raise OptionsError(
            f"option target must be at most {target_max(seats)} for {seats} players "
            f"(the rulebook's largest: 1000 for 2 players, 800 for more)",
            option="target",
        )
    raw = options.get("card_set")
    cards.check_fits(cards.parse(cards.bundled() if raw is None else raw), seats)


def setup(seats: int, options: Mapping[str, Any], chance: Chance) -> list[Event]:
    """Record the card set, target and rules version (a replay needs nothing else), draw the starter, deal round 1."""
    raw = options.get("card_set")
    card_set = cards.bundled() if raw is None else raw
    data = {
        "seats": seats,
        "target": options["target"],
        "card_set": dict(card_set),
        "rules_version": options.get("rules_version", RULES_VERSIONS[-1]),
    }
    set_up = Event("ZooSetUp", data, SYSTEM)
    batch = Batch(evolve(None, set_up), SYSTEM, evolve)
    deal(batch, chance, round_=1, starter=chance.below(seats))
    return [set_up, *batch.events]


def system_due(state: State) -> bool:
    """Tell whether the next round must be dealt."""
    return state.phase == ROUND_WON


def advance(state: State, chance: Chance) -> list[Event]:
    """Deal the next round; the last round's winner is dealt first and starts."""
    if not system_due(state):
        raise RuleError("no round is waiting to be dealt")
    batch = Batch(state, SYSTEM, evolve)
    deal(batch, chance, round_=state.round + 1, starter=state.results[-1].winner)
    return batch.events


def result(state: State) -> Result | None:
    """Rank by total once a round has ended with someone at the target; ties share a place."""
    if state.phase != OVER:
        return None
    return standing(state)


def standing(state: State) -> Result:
    """Rank by the totals of the rounds won so far, as the result does; a round in play scores nothing yet."""
    totals = state.totals
    places = tuple(1 + sum(other > mine for other in totals) for mine in totals)
    detail = {
        "totals": list(totals),
        "target": state.target,
        "rounds": [{"round": r.round, "winner": r.winner, "scores": list(r.scores)} for r in state.results],
    }
    return Result(places, detail)


def deal(batch: Batch[State], chance: Chance, round_: int, starter: int) -> None:
    """Shuffle both decks, deal six starting cards each one at a time from the starter, then check for a win."""
    state = batch.state
    white = chance.shuffle(state.cards.white)
    dealt = STARTING_CARDS * state.seats
    rows: list[list[str]] = [[] for _ in range(state.seats)]
    for index, card in enumerate(white[:dealt]):
        rows[(starter + index) % state.seats].append(card)
    batch.emit(
        "RoundDealt",
        {
            "round": round_,
            "starter": starter,
            "rows": rows,
            "set_aside": white[dealt:],
            "deck": chance.shuffle(state.cards.black),
        },
    )
    check_win(batch)


def check_win(batch: Batch[State], changed: Collection[int] | None = None) -> bool:
    """End the round if a seat has all its starting cards worth points (from the player to act on).

    `changed`: the seats whose rows (or side bonuses) the last event changed; None, every
    seat (a deal). Every change is checked as it is made, so no other row can have been
    won since the last check: only these need asking.
    """
    state = batch.state
    facts, rows, seats, turn = stack_facts(state.cards), state.rows, state.seats, state.turn
    for offset in range(seats):
        seat = (turn + offset) % seats
        if (changed is None or seat in changed) and row_won(facts, rows[seat]):
            scores = [score(state, other, other == seat) for other in range(state.seats)]
            totals = [total + gained for total, gained in zip(state.totals, scores)]
            batch.emit(
                "RoundWon",
                {
                    "round": state.round,
                    "winner": seat,
                    "scores": scores,
                    "totals": totals,
                    "game_over": max(totals) >= state.target,
                },
            )
            return True
    return False


def score(state: State, seat: int, winner: bool) -> int:
    """Score a seat's round: every card for the winner; uncovered minus cards and side bonuses for the others."""
    as_winner, as_other = round_points(state, seat)
    return as_winner if winner else as_other
