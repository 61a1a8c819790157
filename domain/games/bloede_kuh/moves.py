"""Blöde Kuh's moves: who may act now, what they may do, and the events of doing it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from domain.batch import ActionHandler, Batch
from domain.chance import Chance
from domain.errors import RuleError
from domain.events import Event
from domain.games.bloede_kuh.cards import SPECIES, count, minus_points
from domain.games.bloede_kuh.state import HORSE, MAX_SEATS, PIG, PLAY, State, evolve

SOURCES = ("draw", "discard")


# Who may act on a turn: its player alone, as the set `to_act` returns.
ONE_SEAT = tuple(frozenset({seat}) for seat in range(MAX_SEATS))


def to_act(state: State) -> frozenset[int]:
    """Return the seats that may act: the turn's player, or every seat whose choice is awaited."""
    if state.phase != PLAY:
        return frozenset()
    if state.awaiting is not None:
        return state.waiting
    return ONE_SEAT[state.turn]


def legal_actions(state: State, seat: int) -> list[dict[str, Any]]:
    """Return every action `seat` may post now."""
    if seat not in to_act(state):
        return []
    hand = state.hands[seat]
    held = [species for species, cards in zip(SPECIES, hand) if cards]
    if state.awaiting == PIG:
        return [{"type": "take", "from": source} for source in _sources(state)]
    if state.awaiting == HORSE:
        return [{"type": "pass_card", "card": species} for species in held]
    actions: list[dict[str, Any]] = [{"type": "discard", "card": species} for species in held]
    actions += [{"type": "discard_pair", "cards": [s, s]} for s, cards in zip(SPECIES, hand) if cards >= 2]
    sources = _sources(state)
    actions += [{"type": "pass", "from": source} for source in sources] if sources else [{"type": "pass"}]
    return actions


def _sources(state: State) -> list[str]:
    # Rules 1 refilled an empty draw pile from the discard pile only when a card
    # was drawn, so drawing worked while either pile held a card; under rules 2
    # the draw pile is empty only while the discard pile is empty too.
    sources = []
    if state.draw or (state.rules_version == "1" and state.discard):
        sources.append("draw")
    if state.discard:
        sources.append("discard")
    return sources


def decide(state: State, seat: int, action: Mapping[str, Any], chance: Chance) -> list[Event]:
    """Judge a seat's well-formed action (`ACTION_FORMS`) and return its events, or raise RuleError saying why."""
    if state.phase != PLAY:
        raise RuleError("the round is over: nobody acts until the next deal")
    if seat not in to_act(state):
        raise _not_asked(state, seat)
    kind = action["type"]
    if state.awaiting is not None:
        wanted, why = _AWAITED[state.awaiting]
        _expect(kind, wanted, why)
    elif kind not in _TURN_ACTIONS:
        raise RuleError(f"unknown action type {kind!r}: expected discard, discard_pair or pass")
    batch = Batch(state, seat, evolve)
    _ACTIONS[kind](batch, seat, action, chance)
    return batch.events


def _not_asked(state: State, seat: int) -> RuleError:
    if state.awaiting == HORSE and state.choices[seat] is not None:
        return RuleError(f"seat {seat} has already chosen its card for the horse pass")
    return RuleError(f"seat {seat} may not act now", to_act=sorted(to_act(state)))


def _expect(kind: Any, wanted: str, why: str) -> None:
    if kind != wanted:
        raise RuleError(f"{why}: the action must be {{'type': '{wanted}'}}, not type {kind!r}")


def _card(action: Mapping[str, Any], key: str, state: State, seat: int) -> str:
    card = action.get(key)
    if card not in SPECIES:
        raise RuleError(f"{key} must be one of {', '.join(SPECIES)}, not {card!r}")
    if not count(state.hands[seat], card):
        raise RuleError(f"there is no {card} in seat {seat}'s hand")
    return cast(str, card)  # one of SPECIES


def _pair(action: Mapping[str, Any], state: State, seat: int) -> str:
    cards = action["cards"]
    if len(cards) != 2 or any(card not in SPECIES for card in cards):
        raise RuleError(f"a pair is two cards, each one of {', '.join(SPECIES)}, as 'cards': [card, card]")
    if cards[0] != cards[1]:
        raise RuleError(f"a pair must be of one species, not {cards[0]} and {cards[1]}")
    card: str = cards[0]
    if count(state.hands[seat], card) < 2:
        raise RuleError(f"seat {seat} does not hold two cards of {card}")
    return card


def _source(action: Mapping[str, Any]) -> str:
    source = action.get("from")
    if source not in SOURCES:
        raise RuleError(f"'from' must be 'draw' or 'discard', not {source!r}")
    return cast(str, source)  # one of SOURCES


def _take_for_pig(batch: Batch[State], seat: int, action: Mapping[str, Any], chance: Chance) -> None:
    """Take a card for the pig (its player's left neighbour), which ends the pig player's turn."""
    _take(batch, seat, _source(action), chance)
    _end_turn(batch)


def _pass_for_horse(batch: Batch[State], seat: int, action: Mapping[str, Any], chance: Chance) -> None:
    """Choose the card to pass on for the horse; the last choice passes them all at once."""
    batch.emit("HorseCardChosen", {"seat": seat, "card": _card(action, "card", batch.state, seat)})
    if not batch.state.waiting:
        batch.emit("HorseCardsPassed", {"cards": list(batch.state.choices)})
        _end_turn(batch)


def _take(batch: Batch[State], seat: int, source: str, chance: Chance) -> None:
    state = batch.state
    if source == "discard":
        if not state.discard:
            raise RuleError("the discard pile is empty: there is no card to take from it")
    elif not state.draw:
        if not state.discard or state.rules_version != "1":
            raise RuleError("the draw pile is empty: there is no card to draw")
        # Rules 1: the refill waited for a card to be drawn.
        batch.emit("DrawPileRefilled", {"draw": chance.shuffle(state.discard)})
    pile = batch.state.draw if source == "draw" else batch.state.discard
    batch.emit("CardTaken", {"seat": seat, "from": source, "card": pile[-1]})
    _refill_at_once(batch, chance)


def _refill_at_once(batch: Batch[State], chance: Chance) -> None:
    """Refill an emptied draw pile from the whole discard pile before anyone acts again (rules 2)."""
    state = batch.state
    if state.rules_version != "1" and not state.draw and state.discard:
        batch.emit("DrawPileRefilled", {"draw": chance.shuffle(state.discard)})


def _discard(batch: Batch[State], seat: int, action: Mapping[str, Any], chance: Chance) -> None:
    """Discard a card and do what it says (the pig, the horse, the cow), else end the turn."""
    card = _card(action, "card", batch.state, seat)
    batch.emit("CardDiscarded", {"seat": seat, "card": card})
    # With both piles empty the refill waited for this discard; it comes before the card's action.
    _refill_at_once(batch, chance)
    state = batch.state
    if card == "pig":
        batch.emit("ChoiceAwaited", {"choice": PIG, "seats": [state.left_of(seat)]})
        return
    if card == "horse" and any(state.hands[seat]):
        # Not when the horse was the player's last card: then nothing is passed.
        holders = [other for other, hand in enumerate(state.hands) if any(hand)]
        batch.emit("ChoiceAwaited", {"choice": HORSE, "seats": holders})
        return
    if card == "cow":
        _take(batch, seat, "draw", chance)
    _end_turn(batch)


def _discard_pair(batch: Batch[State], seat: int, action: Mapping[str, Any], chance: Chance) -> None:
    """Discard a pair: the species' NWI card moves to the left of its holder (or of the player)."""
    card = _pair(action, batch.state, seat)
    holder = batch.state.holder_of(card)
    to = batch.state.left_of(seat if holder is None else holder)
    batch.emit("PairDiscarded", {"seat": seat, "card": card, "nwi_from": holder, "nwi_to": to})
    _refill_at_once(batch, chance)
    _end_turn(batch)


def _pass(batch: Batch[State], seat: int, action: Mapping[str, Any], chance: Chance) -> None:
    """Pass: take a card from a pile, or (both piles empty) nothing."""
    if not _sources(batch.state):
        if action.get("from") is not None:
            raise RuleError(
                "the draw pile and the discard pile are both empty: pass without 'from', the take is skipped"
            )
        batch.emit("Passed", {"seat": seat})
    else:
        source = _source(action)
        batch.emit("Passed", {"seat": seat})
        _take(batch, seat, source, chance)
    _end_turn(batch)


def _end_turn(batch: Batch[State]) -> None:
    """End the turn's player's turn; the round ends if that player's hand is empty."""
    state = batch.state
    player = state.turn
    if any(state.hands[player]):
        batch.emit("TurnEnded", {"next": state.left_of(player)})
        return
    cards_left = [sum(hand) for hand in state.hands]
    batch.emit(
        "RoundScored",
        {
            "round": state.round,
            "ender": player,
            "cards_left": cards_left,
            "minus": minus_points(cards_left),
            "nwi_removed": [species for species, holder in state.holders().items() if holder is None],
        },
    )


_ACTIONS: dict[str, ActionHandler[State]] = {
    "discard": _discard,
    "discard_pair": _discard_pair,
    "pass": _pass,
    "take": _take_for_pig,
    "pass_card": _pass_for_horse,
}
# The actions of a turn; while a choice is awaited, only its action (the action and why it is the one).
_TURN_ACTIONS = ("discard", "discard_pair", "pass")
_AWAITED = {
    PIG: ("take", "the left neighbour of the pig's player must take a card"),
    HORSE: ("pass_card", "every seat with cards must choose a card to pass for the horse"),
}


# The forms of every action of this game, whatever the state (see `domain.rules.Rules.actions`).
ACTION_FORMS: Mapping[str, Mapping[str, str]] = {
    "discard": {"card": "str"},
    "discard_pair": {"cards": "[str]"},
    "pass": {"from": "str?"},
    "take": {"from": "str"},
    "pass_card": {"card": "str"},
}
