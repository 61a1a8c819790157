"""Blöde Kuh's determinisation and search hooks.

Hidden: the other hands (their sizes are public), the draw pile, and the
horse cards the others have chosen. The seat's log shows the discard pile
card by card, and which cards each player took from it: those stay in that
hand until it lays such a card down or passes an unseen card on a horse
(then we forget what it held, as we cannot tell what went). A card we passed
on a horse is known to be in our left neighbour's hand. So each other hand
holds its known cards plus unseen ones; the draw pile holds the rest.

The search is flat (`mcts.Game.flat`): the heuristic plays every seat out to
the round's end, and the heuristic's move stands unless another scores better.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from domain.games.bloede_kuh import RULES
from domain.games.bloede_kuh.cards import full_deck, hand_of
from domain.games.bloede_kuh.state import HORSE, NwiCard, RoundResult, State
from domain.values import changed
from projections import projection_for
from workers.bots import bloede_kuh as heuristic
from workers.bots.mcts import Game, Values, guided, places_to_values, spread

ROLLOUT_CAP = 300


def believe(view: Mapping[str, Any], log: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Read the public state from the view, and from the log the discard pile and the cards known in each hand."""
    seat, v = view["you"], view["state"]
    seats = len(v["hand_counts"])
    discard: list[str] = []
    known: list[Counter[str]] = [Counter() for _ in range(seats)]
    for entry in log:
        kind, data = entry["type"], entry["data"]
        if kind == "CardsDealt" or kind == "DrawPileRefilled":
            discard = []
            if kind == "CardsDealt":
                known = [Counter() for _ in range(seats)]
        elif kind == "CardDiscarded":
            discard.append(data["card"])
            _forget(known[data["seat"]], data["card"], 1)
        elif kind == "PairDiscarded":
            discard += [data["card"]] * 2
            _forget(known[data["seat"]], data["card"], 2)
        elif kind == "CardTaken" and data.get("from") == "discard":
            discard.pop()
            known[data["seat"]][data["card"]] += 1
        elif kind == "HorseCardsPassed":
            _horse(known, data, seat, seats)
    hand = [species for species, count in v["hand"].items() for _ in range(count)]
    known[seat] = Counter(hand)
    unseen = Counter(full_deck()) - Counter(discard)
    for other in range(seats):
        unseen -= known[other]
    pending = v["pending"] or {}
    return {
        "state": State(
            seats=seats,
            round=v["round"],
            dealer=v["dealer"],
            turn=v["turn"],
            phase=v["phase"],
            draw=("",) * v["draw_size"],
            discard=tuple(discard),
            awaiting=pending.get("choice"),
            waiting=frozenset(pending.get("waiting", ())),
            nwi=tuple(
                NwiCard(card["species"], card["round"], holder)
                for holder, cards in enumerate(v["nwi"])
                for card in cards
            ),
            minus=tuple(v["minus"]),
            results=tuple(
                RoundResult(r["round"], r["ender"], tuple(r["cards_left"]), tuple(r["minus"]), tuple(r["nwi_removed"]))
                for r in v["rounds"]
            ),
        ),
        "sizes": v["hand_counts"],
        "known": [sorted(k.elements()) for k in known],
        "unseen": sorted(unseen.elements()),
        "chosen": pending.get("chosen", []) if pending.get("choice") == HORSE else [],
        "mine": (seat, pending.get("your_card")),
    }


def _forget(known: Counter[str], card: str, n: int) -> None:
    known[card] = max(0, known[card] - n)


def _horse(known: list[Counter[str]], data: Mapping[str, Any], seat: int, seats: int) -> None:
    """A horse pass: we know what we gave and got; every other giver may have given a known card."""
    for giver in data["seats"]:
        if giver == seat:
            continue
        if (giver + 1) % seats == seat and data.get("received") is not None:
            _forget(known[giver], data["received"], 1)
        else:
            known[giver].clear()
    left = (seat + 1) % seats
    if data.get("gave") is not None and left != seat:
        known[left][data["gave"]] += 1


def sample(belief: Mapping[str, Any], rng: random.Random) -> State:
    """Deal the unseen cards to the other hands (after their known ones) and the draw pile; pick hidden horse cards."""
    state: State = belief["state"]
    pool = list(belief["unseen"])
    rng.shuffle(pool)
    hands, choices = [], [None] * state.seats
    for other, size in enumerate(belief["sizes"]):
        known = belief["known"][other]
        extra = max(0, size - len(known))
        cards = known[:size] + pool[:extra]
        del pool[:extra]
        hands.append(hand_of(cards))
        if other in belief["chosen"]:
            choices[other] = cards[rng.randrange(len(cards))] if cards else None
    seat, mine = belief["mine"]
    if mine is not None:
        choices[seat] = mine
    draw = tuple(pool[: len(state.draw)])
    return changed(state, hands=tuple(hands), draw=draw, choices=tuple(choices))


def evaluate(start: State, state: State, moves: int) -> Values | None:
    """Score at the end of the round (or the game): the totals so far, fewer is better."""
    result = RULES.result(state)
    if result is not None:
        return places_to_values(result.places)
    if state.round != start.round or moves > ROLLOUT_CAP:
        return spread(state.totals(), higher_is_better=False)
    return None


GAME = Game(
    rules=RULES,
    believe=believe,
    sample=sample,
    evaluate=evaluate,
    rollout=guided(RULES, projection_for("bloede-kuh").bot_view, heuristic.heuristic),
    prior=heuristic.heuristic,
    flat=True,
    iterations=200,
)
