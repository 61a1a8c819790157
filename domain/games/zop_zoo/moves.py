"""Zop Zoo's moves: whose turn it is, the choices of the pending decision, and the events of each action."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from domain.batch import ActionHandler, Batch
from domain.chance import Chance
from domain.errors import RuleError
from domain.events import Event
from domain.games.zop_zoo import board
from domain.games.zop_zoo.board import BESIDE, DRAW, MOLE, SPECIALTY, SPECIALTY_ACTIONS, TAKE, WILD, Pending
from domain.games.zop_zoo.cards import PAIRS, SPECIALTIES
from domain.games.zop_zoo.state import MAX_SEATS, PLAYING, State, evolve
from domain.games.zop_zoo.steps import check_win

# Who may act on a turn: its player alone, as the set `to_act` returns.
ONE_SEAT = tuple(frozenset({seat}) for seat in range(MAX_SEATS))


class MustUse(RuleError):
    """A card on offer must be used (a matching discard, a usable specialty, a drawn card)."""

    code = "must_use"


class NotOnOffer(RuleError):
    """The action needs a card that is not on offer now."""

    code = "not_on_offer"


def to_act(state: State) -> frozenset[int]:
    """Return the player whose turn it is (no one between rounds)."""
    return ONE_SEAT[state.turn] if state.phase == PLAYING else frozenset()


def legal_actions(state: State, seat: int) -> list[dict[str, Any]]:
    """Return the choices of the pending decision."""
    now = board.pending(state)
    if now is None or seat != state.turn:
        return []
    if now.decision == DRAW:
        return [{"type": "draw"}]
    if now.decision == TAKE:
        return [{"type": "take_discard"}]
    if now.decision == WILD:
        return [{"type": "place_wild", "card": card} for card in board.uncovered(state, seat)]
    if now.decision == MOLE:
        decline = {"type": "decline_mole"} if now.source == "deck" else {"type": "draw"}
        return [{"type": "use_mole"}, decline]
    if now.card is None:  # a specialty on offer always names its card
        return []
    return board.specialty_moves(state, seat, now.card)


def decide(state: State, seat: int, action: Mapping[str, Any], chance: Chance) -> list[Event]:
    """Judge the player's well-formed action (`ACTION_FORMS`) and return its events."""
    handler = _ACTIONS[action["type"]]
    if state.phase != PLAYING:
        raise RuleError("no one acts between rounds: the next round must be dealt first")
    batch = Batch(state, seat, evolve)
    handler(batch, seat, action, chance)
    return batch.events


# --- drawing ------------------------------------------------------------------


def _draw(batch: Batch[State], seat: int, action: Mapping[str, Any], chance: Chance) -> None:
    now = _pending(batch.state)
    if not may_draw(now):
        raise _must_finish(batch.state, now)
    state = batch.state
    if not state.deck:
        if len(state.discard) < 2:
            raise RuleError("nothing to draw: the black deck is empty and the discard pile cannot refill it")
        # The discard pile's top card stays; the rest is shuffled into a new black deck.
        batch.emit("BlackDeckRefilled", {"deck": chance.shuffle(state.discard[:-1])})
    card = batch.state.deck[0]
    batch.emit("CardDrawn", {"seat": batch.actor, "card": card})
    _resolve_drawn(batch, card)


def may_draw(now: Pending) -> bool:
    """Tell whether the player may draw: nothing else is on offer, or a MOLE on the discard pile is declined."""
    return now.decision == DRAW or (now.decision == MOLE and now.source == "discard")


class DrawnFate(NamedTuple):
    """Where a drawn card goes with no choice left: `place` in the row (a starting card, or BESIDE), or `discarded`.

    Neither: its player chooses (a wild card's place, a MOLE, a specialty card's use).
    """

    place: str | None = None
    discarded: bool = False


# The two fates that name no place: the card is discarded, or its player chooses what it does.
DISCARDED, CHOSEN = DrawnFate(discarded=True), DrawnFate()


def drawn_fate(state: State, seat: int, card: str) -> DrawnFate:
    """Return what becomes of `card`, drawn by `seat`, before anyone chooses."""
    kind = state.cards.cards[card].kind
    if kind in PAIRS or kind == "side_bonus":
        place = board.place_for(state, seat, card)
        return DISCARDED if place is None else DrawnFate(place=place)
    if kind == "wild" and not board.uncovered(state, seat):
        return DISCARDED
    if kind in SPECIALTIES and (card in state.spent or not board.can_use(state, seat, card)):
        return DISCARDED
    return CHOSEN


def _resolve_drawn(batch: Batch[State], card: str) -> None:
    """Play the drawn card where no choice is left; leave it in hand for a choice."""
    seat = batch.state.turn
    fate = drawn_fate(batch.state, seat, card)
    if fate.discarded:
        _discard_and_end(batch, card)
    elif fate.place == BESIDE:
        batch.emit("SideBonusTaken", {"seat": seat, "card": card})
        check_win(batch, (seat,))
    elif fate.place is not None:
        batch.emit("CardMatched", {"seat": seat, "card": card, "onto": fate.place})
        check_win(batch, (seat,))


def _discard_and_end(batch: Batch[State], card: str) -> None:
    batch.emit("CardDiscarded", {"seat": batch.state.turn, "card": card})
    _end_turn(batch)


def _end_turn(batch: Batch[State]) -> None:
    state = batch.state
    batch.emit("TurnEnded", {"next": (state.turn + 1) % state.seats})


# --- the discard pile -----------------------------------------------------------


def _take_discard(batch: Batch[State], seat: int, action: Mapping[str, Any], chance: Chance) -> None:
    now = _pending(batch.state)
    if now.decision != TAKE:
        top = batch.state.top
        shown = "empty" if top is None else f"topped by {_name(batch.state, top)}"
        raise NotOnOffer(f"there is nothing to take: the discard pile is {shown}, which does not fit your row now")
    # Keep taking while the new top card fits too; then the turn ends.
    while (top := batch.state.top) is not None and (place := board.place_for(batch.state, seat, top)) is not None:
        batch.emit("DiscardTaken", {"seat": seat, "card": top, "onto": None if place == BESIDE else place})
        if check_win(batch, (seat,)):
            return
    _end_turn(batch)


# --- wild cards and MOLEs ---------------------------------------------------------


def _place_wild(batch: Batch[State], seat: int, action: Mapping[str, Any], chance: Chance) -> None:
    now = _pending(batch.state)
    if now.decision != WILD or now.card is None:
        raise NotOnOffer("there is no wild card to place: a wild card is placed just after it is drawn")
    state = batch.state
    onto: str = action["card"]
    if onto not in state.cards.cards:
        raise RuleError("place_wild needs 'card': the id of one of your uncovered starting cards")
    holder = board.owner(state, onto)
    if holder != seat:
        where = "in no row" if holder is None else f"in seat {holder}'s row"
        raise RuleError(f"{onto} is {where}: a wild card goes on one of your own starting cards")
    stack = next(s for s in state.rows[seat] if s.base == onto)
    if stack.cover is not None:
        raise RuleError(f"{onto} is already covered by {stack.cover}: a wild card goes on an uncovered starting card")
    batch.emit("WildPlaced", {"seat": seat, "card": now.card, "onto": onto})
    check_win(batch, (seat,))


def _use_mole(batch: Batch[State], seat: int, action: Mapping[str, Any], chance: Chance) -> None:
    now = _pending(batch.state)
    if now.decision != MOLE or now.card is None:
        raise NotOnOffer(
            "there is no MOLE on offer: use one just after drawing it, or when it tops the discard pile at your turn's start"
        )
    state = batch.state
    finds = board.mole_finds(state)
    batch.emit("DiscardPileDug", {"seat": seat, "mole": now.card, "source": now.source, "taken": finds})
    if check_win(batch, (seat,)):
        return
    # A drawn MOLE that found something lets its player draw again; any other dig ends the turn.
    if now.source == "discard" or not finds:
        _end_turn(batch)


def _decline_mole(batch: Batch[State], seat: int, action: Mapping[str, Any], chance: Chance) -> None:
    now = _pending(batch.state)
    if now.decision != MOLE or now.source != "deck" or now.card is None:
        raise NotOnOffer("there is no drawn MOLE to decline (a MOLE on the discard pile is declined by drawing)")
    _discard_and_end(batch, now.card)


# --- specialty cards --------------------------------------------------------------


def _use_specialty(batch: Batch[State], seat: int, action: Mapping[str, Any], chance: Chance) -> None:
    now = _pending(batch.state)
    state = batch.state
    if now.decision != SPECIALTY or now.card is None:
        top = state.top
        if state.fresh and top is not None and top in state.spent:
            raise RuleError(
                f"the {_name(state, top)} on the discard pile is spent: each specialty card is used only once"
            )
        raise NotOnOffer("there is no specialty card to use now")
    expected = SPECIALTY_ACTIONS[state.cards[now.card].kind]
    if action["type"] != expected:
        raise RuleError(
            f"the card to use is the {_name(state, now.card)}: its action is {expected}, not {action['type']}"
        )
    moves = _moves(state, seat, action)
    batch.emit("SpecialtyUsed", {"seat": seat, "specialty": now.card, "source": now.source, "moves": moves})
    if check_win(batch, {move["from"] for move in moves} | {move["to"] for move in moves}):
        return
    # From the draw pile the turn goes on; from the discard pile it ends (the card stays there, spent).
    if now.source == "discard":
        _end_turn(batch)


def _moves(state: State, seat: int, action: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Validate a give, take_card or swap and return its card moves."""
    if action["type"] == "give":
        to = _other_seat(state, seat, action, "to")
        return [{"card": _piece(state, seat, action, "card"), "from": seat, "to": to}]
    if action["type"] == "take_card":
        source = _other_seat(state, seat, action, "from")
        return [{"card": _piece(state, source, action, "card"), "from": source, "to": seat}]
    other = _other_seat(state, seat, action, "with")
    mine, theirs = _piece(state, seat, action, "card"), _piece(state, other, action, "for")
    return [{"card": mine, "from": seat, "to": other}, {"card": theirs, "from": other, "to": seat}]


def _other_seat(state: State, seat: int, action: Mapping[str, Any], key: str) -> int:
    value: int = action[key]
    if not 0 <= value < state.seats:
        raise RuleError(f"{action['type']} needs '{key}': a seat number from 0 to {state.seats - 1}")
    if value == seat:
        raise RuleError(f"{action['type']} is made with another player, not yourself")
    return value


def _piece(state: State, seat: int, action: Mapping[str, Any], key: str) -> str:
    card: str = action[key]
    if card not in state.cards.cards:
        raise RuleError(f"{action['type']} needs '{key}': the id of a card in a row (a starting card or a side bonus)")
    if board.owner(state, card) != seat:
        raise RuleError(f"{card} is not in seat {seat}'s row")
    if board.piece_worth(state, seat, card) is None:
        raise RuleError(f"{card} is not worth points yet: only cards worth points can be given, taken or switched")
    return card


# --- messages ---------------------------------------------------------------------


def _must_finish(state: State, now: Pending) -> RuleError:
    """Explain why the player cannot draw now."""
    card = _name(state, now.card) if now.card else ""
    if now.decision == TAKE:
        return MustUse(f"the {card} on the discard pile fits your row: you must take it (take_discard)")
    if now.decision == WILD:
        return MustUse(f"place the drawn {card} on one of your uncovered starting cards first (place_wild)")
    if now.decision == MOLE:
        return MustUse(f"decide on the drawn {card} first: use_mole or decline_mole")
    where = "drawn" if now.source == "deck" else "on the discard pile"
    action = SPECIALTY_ACTIONS[state.cards[now.card].kind] if now.card else ""
    return MustUse(f"the {card} {where} must be used, since you can ({action})")


def _pending(state: State) -> Pending:
    """Return the decision the player to act faces (there is one: the round is in play)."""
    now = board.pending(state)
    assert now is not None, "a round in play always has a decision pending"
    return now


def _name(state: State, card: str) -> str:
    return f"{state.cards[card].name} ({card})"


_ACTIONS: dict[str, ActionHandler[State]] = {
    "draw": _draw,
    "take_discard": _take_discard,
    "place_wild": _place_wild,
    "use_mole": _use_mole,
    "decline_mole": _decline_mole,
    "give": _use_specialty,
    "take_card": _use_specialty,
    "swap": _use_specialty,
}


# The forms of every action of this game, whatever the state (see `domain.rules.Rules.actions`).
ACTION_FORMS: Mapping[str, Mapping[str, str]] = {
    "draw": {},
    "take_discard": {},
    "place_wild": {"card": "str"},
    "use_mole": {},
    "decline_mole": {},
    "give": {"card": "str", "to": "int"},
    "take_card": {"card": "str", "from": "int"},
    "swap": {"card": "str", "with": "int", "for": "str"},
}
