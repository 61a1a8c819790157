"""Zop Zoo's determinisation and search hooks: the only secret is the black deck's order.

Every black card is in a row, beside one, on the discard pile, in the drawing
player's hand or in the deck; the redacted log shows all but the deck. So the
deck holds exactly the black cards seen nowhere else, in an order nobody
knows: a uniform shuffle of them is a state the seat cannot tell from the real one.

The search is flat (`mcts.Game.flat`): the heuristic plays every seat out to
the round's end, and the heuristic's move stands unless another leads by more
than the margin and by two standard errors of the paired difference (most of a
wild card's places are alike to the search, so it would otherwise follow the noise).
`shortlist` leaves the plain MOLE choices to the heuristic and searches a few moves
of the rest, so the playouts go where a choice is open.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from domain.events import Event
from domain.game import CORE_EVENTS
from domain.games.zop_zoo import RULES
from domain.games.zop_zoo.state import State
from domain.values import changed
from projections import projection_for
from workers.bots import zop_zoo as heuristic
from workers.bots.mcts import Game, Values, ahead, guided, places_to_values

_DECK_EVENTS = ("RoundDealt", "BlackDeckRefilled")


def believe(view: Mapping[str, Any], log: Sequence[Mapping[str, Any]]) -> tuple[State, list[str]]:
    """Replay the redacted log with a blank deck of the right size; list the cards the deck must hold."""
    state: Any = None
    for entry in log:
        if entry["type"] in CORE_EVENTS:
            continue
        data = entry["data"]
        if entry["type"] in _DECK_EVENTS:
            data = {**data, "deck": [None] * data["deck_size"]}
        state = RULES.evolve(state, Event(entry["type"], data, entry["actor"]))
    seen = Counter(card for row in state.rows for stack in row if stack.cover for card in [stack.cover])
    seen.update(card for bonuses in state.bonuses for card in bonuses)
    seen.update(state.discard)
    if state.drawn is not None:
        seen[state.drawn] += 1
    unknown = list((Counter(state.cards.black) - seen).elements())
    return state, sorted(unknown)


def sample(belief: tuple[State, list[str]], rng: random.Random) -> State:
    """Deal the unseen black cards into the deck in a random order."""
    state, unknown = belief
    deck = list(unknown)
    rng.shuffle(deck)
    return changed(state, deck=tuple(deck[: len(state.deck)]))


def evaluate(start: State, state: State, moves: int) -> Values | None:
    """Value the places at the end of the game, else at the end of the round each seat's lead in the totals."""
    result = RULES.result(state)
    if result is not None:
        return places_to_values(result.places)
    if state.round != start.round or moves > ROLLOUT_CAP:
        return ahead(state.totals, LEAD)
    return None


def shortlist(view: Mapping[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> list[dict[str, Any]]:
    """Keep the moves worth searching: where a MOLE's use is plain, the heuristic's; else a few.

    - A MOLE drawn from the deck: using it takes what it finds and draws again, and with
      nothing found it ends the turn just as declining does; one on the discard pile that
      finds nothing only ends the turn. Only a find on the discard pile (dig, or draw) is a choice.
    - A wild card: the heuristic's card (the cheapest that still keeps the row from winning)
      or the worst uncovered minus card, which saves its points if someone else wins the round.
      Most other cards are alike to the search (their matches are somewhere in the deck).
    - A HYENA, RACCOON or EARTHWORM: the heuristic's best few (of up to a hundred with 4 seats).
    """
    kind = legal[0]["type"]
    if kind == "use_mole":
        pending = view["state"].get("pending") or {}
        if pending.get("source") == "deck" or not pending.get("dig_finds"):
            return [heuristic.heuristic(view, legal, rng)]
        return legal
    if kind == "place_wild":
        row = {stack["card"]: stack for stack in view["state"]["players"][view["you"]]["row"]}
        choice = heuristic.heuristic(view, legal, rng)
        minus = [action for action in legal if row[action["card"]]["base"]["kind"] == "minus"]
        worst = min(minus, key=lambda action: row[action["card"]]["base"]["value"], default=choice)
        return [choice] if worst == choice else [choice, worst]
    if kind in ("give", "take_card", "swap"):
        return heuristic.ranked(view, legal)[:SPECIALTY_SHORTLIST]
    return legal


ROLLOUT_CAP = 400
LEAD = 150.0  # points ahead that make a round's end look about three to one good
SPECIALTY_SHORTLIST = 4

GAME = Game(
    rules=RULES,
    believe=believe,
    sample=sample,
    evaluate=evaluate,
    rollout=guided(RULES, projection_for("zop-zoo").bot_view, heuristic.heuristic),
    shortlist=shortlist,
    prior=heuristic.heuristic,
    flat=True,
    iterations=140,
    confidence=2.0,
)
