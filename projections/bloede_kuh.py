"""What each viewer sees of Blöde Kuh: own hand, counts of the others, public piles' tops.

Hidden: every hand (its owner only), the draw pile's order (nobody), a horse
choice (its chooser only, until the pass; then each seat learns only the card
it gave and the card it received).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.events import Event
from domain.games.bloede_kuh.cards import ROUNDS, SPECIES
from domain.games.bloede_kuh.hidden import HIDDEN
from domain.games.bloede_kuh.state import HORSE, PIG, NwiCard, State
from domain.values import FrozenDict
from projections.concealment import conceal, dropped


def _hand(state: State, seat: int) -> dict[str, int]:
    return dict(zip(SPECIES, state.hands[seat]))


def _pending(state: State, seat: int | None) -> dict[str, Any] | None:
    if state.awaiting == PIG:
        return {"choice": PIG, "waiting": sorted(state.waiting)}
    if state.awaiting == HORSE:
        chosen = [other for other, card in enumerate(state.choices) if card is not None]
        pending: dict[str, Any] = {"choice": HORSE, "waiting": sorted(state.waiting), "chosen": chosen}
        if seat is not None and state.choices[seat] is not None:
            pending["your_card"] = state.choices[seat]
        return pending
    return None


def _public(state: State, seat: int | None) -> dict[str, Any]:
    # One pass over the NWI cards (a bot reads a view every move).
    nwi: list[list[dict[str, Any]]] = [[] for _ in range(state.seats)]
    for card in state.nwi:
        nwi[card.holder].append(_SHOWN[card.species, card.round])
    return {
        "round": state.round,
        "dealer": state.dealer,
        "turn": state.turn,
        "phase": state.phase,
        "hand_counts": [sum(hand) for hand in state.hands],
        "draw_size": len(state.draw),
        "discard_top": state.discard[-1] if state.discard else None,
        "discard_size": len(state.discard),
        "nwi": nwi,
        "nwi_holders": state.holders(),
        "minus": list(state.minus),
        "totals": state.totals(),
        "pending": _pending(state, seat),
        "rounds": [result.to_dict() for result in state.results],
    }


# Every NWI card as a view shows it (it does not show the holder), built once, read-only and shared by every view.
_SHOWN = {
    (species, round_): FrozenDict(NwiCard(species, round_, 0).to_dict())
    for species in SPECIES
    for round_ in range(1, ROUNDS + 1)
}


def seat_view(state: State, seat: int | None) -> dict[str, Any]:
    """Return what `seat` sees: its own hand and everything public."""
    view = _public(state, seat)
    view["hand"] = _hand(state, seat) if seat is not None else None
    return view


# A bot reads the whole view (`Projection.bot_view`).
bot_view = seat_view


def open_view(state: State) -> dict[str, Any]:
    """Return the whole state, every hand, the draw pile and the horse choices shown."""
    view = _public(state, None)
    view["hands"] = [_hand(state, other) for other in range(state.seats)]
    view["draw"] = list(state.draw)
    view["discard"] = list(state.discard)
    if state.awaiting == HORSE:
        view["pending"]["choices"] = list(state.choices)
    return view


def redact(event: Event, seat: int | None) -> Mapping[str, Any]:
    """Return the event's data as `seat` may see it (see `HIDDEN`): hidden values dropped, sizes shown."""
    data = conceal(event, seat, HIDDEN.get(event.type), dropped)
    if event.type == "CardsDealt":
        return {
            "round": data["round"],
            "dealer": data["dealer"],
            "hand_counts": [len(hand) for hand in event.data["hands"]],
            "hand": list(data["hands"][seat]) if seat is not None else None,
            "draw_size": len(event.data["draw"]),
        }
    if event.type == "DrawPileRefilled":
        return {"draw_size": len(event.data["draw"])}
    if event.type == "HorseCardsPassed":
        return _horse_passed(event.data["cards"], data["cards"], seat)
    return data


def _horse_passed(cards: list[str | None], shown: list[str | None], seat: int | None) -> dict[str, Any]:
    # Who passed is public (a seat without cards passes nothing); what, only to the two seats concerned.
    out: dict[str, Any] = {"seats": [other for other, card in enumerate(cards) if card is not None]}
    if seat is not None:
        out["gave"] = shown[seat]
        out["received"] = shown[(seat - 1) % len(shown)]
    return out
