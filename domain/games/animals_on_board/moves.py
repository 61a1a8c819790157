"""Animals on Board: what a seat may do now, and the validation of what it sends."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.batch import ActionHandler, Batch
from domain.chance import Chance
from domain.errors import RuleError
from domain.events import SYSTEM, Event
from domain.games.animals_on_board.state import KEEP, OVER, PLAY, State, evolve, public_group
from domain.games.animals_on_board.tiles import FULL_ARK, MAX_CRATES

# A group of n tiles has 2**(n-1) - 1 distinct splits: up to 7 tiles (63) they
# are listed one by one; a bigger group gets one template item.
SPLIT_LIST_LIMIT = 64
CHOOSE = "first: any non-empty proper subset of tiles, or null for a split drawn at random"


def can_split(state: State) -> bool:
    """Tell whether some group in the centre has at least 2 tiles."""
    return any(len(group) >= 2 for group in state.centre)


def can_take(state: State, seat: int) -> bool:
    """Tell whether the seat can pay for some group in the centre."""
    crates = state.players[seat].crates
    return any(len(group) <= crates for group in state.centre)


def can_act(state: State, seat: int) -> bool:
    """Tell whether the seat could split or take on a turn now."""
    return can_split(state) or can_take(state, seat)


def to_act(state: State) -> frozenset[int]:
    """Return the seats that may act now."""
    if state.phase == KEEP:
        return frozenset(seat for seat, tile in enumerate(state.kept) if tile is None)
    if state.phase == PLAY and state.current is not None:
        return frozenset({state.current})
    return frozenset()


def legal_actions(state: State, seat: int) -> list[dict[str, Any]]:
    """Return every action the seat may post now (big groups' splits as one template)."""
    if state.phase == KEEP:
        return [{"type": "keep", "tile": t} for t in state.hands[seat]] if state.kept[seat] is None else []
    if state.phase != PLAY or seat != state.current:
        return []
    actions: list[dict[str, Any]] = []
    for g, group in enumerate(state.centre):
        if len(group) < 2:
            continue
        names = public_group(state, group)
        if 2 ** (len(names) - 1) - 1 > SPLIT_LIST_LIMIT:
            actions.append({"type": "split", "group": g, "first": None, "tiles": names, "choose": CHOOSE})
            continue
        # Every subset of the head, by doubling: subset m holds the head's tile i when bit i of m is set.
        # The last tile always stays in the second group: no mirror images.
        firsts: list[list[str]] = [[]]
        for name in names[:-1]:
            firsts += [first + [name] for first in firsts]
        del firsts[0]  # the empty one
        actions += [{"type": "split", "group": g, "first": first} for first in firsts]
    crates = state.players[seat].crates
    actions += [{"type": "take", "group": g} for g, group in enumerate(state.centre) if len(group) <= crates]
    return actions or [{"type": "forfeit"}]


def decide(state: State, seat: int, action: Mapping[str, Any], chance: Chance) -> list[Event]:
    """Judge a seat's well-formed action (`ACTION_FORMS`) and return its events, or raise RuleError."""
    if state.phase == OVER:
        raise RuleError("the game is over; the arks have departed")
    batch = Batch(state, seat, evolve)
    _ACTIONS[action["type"]](batch, seat, action, chance)
    return batch.events


def _check_turn(state: State, seat: int, kind: str) -> None:
    if state.phase == KEEP:
        raise RuleError(f"{kind}: setup first: every player keeps one of their three tiles on their ark")
    if state.phase != PLAY:
        raise RuleError(f"{kind}: no round is under way; the next round must be set out first")
    if seat in state.dropped:
        raise RuleError(f"{kind}: seat {seat} took a group and dropped out of this round; no more turns until the next")
    if seat != state.current:
        raise RuleError(f"{kind}: it is seat {state.current}'s turn, not seat {seat}'s")


def _keep(batch: Batch[State], seat: int, action: Mapping[str, Any], chance: Chance) -> None:
    state = batch.state
    if state.phase != KEEP:
        raise RuleError("keep: the tile for the ark is chosen only at setup")
    if state.kept[seat] is not None:
        raise RuleError("keep: you have already chosen the tile for your ark")
    tile = action["tile"]
    if tile not in state.hands[seat]:
        raise RuleError(f"keep: tile must be one of your three drawn tiles {list(state.hands[seat])}")
    batch.emit("TileKept", {"tile": tile})


def _group(state: State, action: Mapping[str, Any], verb: str) -> int:
    g: int = action["group"]
    if not 0 <= g < len(state.centre):
        raise RuleError(f"{verb}: group must be the index of a group in the centre, 0 to {len(state.centre) - 1}")
    return g


def _split(batch: Batch[State], seat: int, action: Mapping[str, Any], chance: Chance) -> None:
    _turn(batch, seat, "GroupSplit", split(batch.state, seat, action, chance))


def split(state: State, seat: int, action: Mapping[str, Any], chance: Chance) -> dict[str, Any]:
    """Validate a split and return its event's data, but for who plays next."""
    _check_turn(state, seat, "split")
    g = _group(state, action, "split")
    names = public_group(state, state.centre[g])
    if len(names) < 2:
        raise RuleError(f"split: group {g} has only one tile; only a group of 2 or more tiles can be split")
    first = action.get("first")
    if first is None:
        mask = 1 + chance.below(2 ** (len(names) - 1) - 1)
        first = [n for i, n in enumerate(names[:-1]) if mask >> i & 1]
    _check_first(first, names, g)
    chosen = set(first)
    player = state.players[seat]
    crates, returned = player.crates + 1, False
    if crates > MAX_CRATES:  # the 6th crate: return one instead, leaving 4
        crates, returned = MAX_CRATES - 1, True
    elif state.supply == 0:  # cannot happen with 20 crates and at most 5 each; kept safe
        crates = player.crates
    data = {
        "group": g,
        "first": [n for n in names if n in chosen],
        "second": [n for n in names if n not in chosen],
        "crates": crates,
        "crate_returned": returned,
    }
    return data


def _check_first(first: list[str], names: list[str], g: int) -> None:
    for name in first:
        if name not in names:
            raise RuleError(f"split: tile {name!r} is not in group {g}")
    if len(set(first)) < len(first):
        raise RuleError("split: a tile is named twice in first")
    if not first:
        raise RuleError("split: the first new group would be empty; both new groups need at least one tile")
    if len(first) == len(names):
        raise RuleError("split: the second new group would be empty; both new groups need at least one tile")


def _take(batch: Batch[State], seat: int, action: Mapping[str, Any], chance: Chance) -> None:
    _turn(batch, seat, "GroupTaken", take(batch.state, seat, action, chance))


def take(state: State, seat: int, action: Mapping[str, Any], chance: Chance) -> dict[str, Any]:
    """Validate a take and return its event's data, but for who plays next."""
    _check_turn(state, seat, "take")
    g = _group(state, action, "take")
    group = state.centre[g]
    crates = state.players[seat].crates
    if len(group) > crates:
        raise RuleError(
            f"take: group {g} has {len(group)} tiles and costs one crate per tile; you have {crates} crates"
        )
    count = len(state.players[seat].tiles) + len(group)
    data = {
        "group": g,
        "tiles": public_group(state, group),
        "face_down": state.face_down if state.face_down in group else None,
        "paid": len(group),
        "crates": crates - len(group),
        "first_out": state.first_out is None,
        "tile_count": count,
        "announced": count >= FULL_ARK,
    }
    return data


def _forfeit(batch: Batch[State], seat: int, action: Mapping[str, Any], chance: Chance) -> None:
    _turn(batch, seat, "TurnForfeited", forfeit(batch.state, seat, action, chance))


def forfeit(state: State, seat: int, action: Mapping[str, Any], chance: Chance) -> dict[str, Any]:
    """Validate a forfeit and return its event's data, but for who plays next."""
    _check_turn(state, seat, "forfeit")
    if can_act(state, seat):
        raise RuleError("forfeit: a turn is forfeited only when you can neither split a group nor pay for one")
    return {}


def _turn(batch: Batch[State], seat: int, kind: str, data: dict[str, Any]) -> None:
    """Emit a turn's event with who plays next, and end the round when it is over."""
    before = batch.state
    # Who plays next depends on the board the turn leaves: look at it before passing the turn on.
    moved = evolve(before, Event(kind, {**data, "next": None, "final_turn": False}, seat))
    next_seat, final, reason = after_turn(moved, seat, before.final_turn)
    batch.emit(kind, {**data, "next": next_seat, "final_turn": final})
    if reason is not None:
        counts = [len(p.tiles) for p in batch.state.players]
        data = {"round": before.round, "reason": reason, "tile_counts": counts, "game_over": max(counts) >= FULL_ARK}
        batch.emit("RoundEnded", data, SYSTEM)


def after_turn(state: State, seat: int, was_final: bool) -> tuple[int | None, bool, str | None]:
    """Return who plays after `seat`'s turn left `state`, whether it is their final turn, and why the round ends (else None)."""
    if was_final:
        return None, False, "the last player in the round had their final turn"
    order = [(seat + i) % state.seats for i in range(1, state.seats + 1)]
    remaining = [s for s in order if s not in state.dropped]
    if not any(can_act(state, s) for s in remaining):  # ruling: nobody can act, the round ends
        return None, False, "no player left in the round can act"
    return remaining[0], len(remaining) == 1, None


_ACTIONS: dict[str, ActionHandler[State]] = {"keep": _keep, "split": _split, "take": _take, "forfeit": _forfeit}


# The forms of every action of this game, whatever the state (see `domain.rules.Rules.actions`).
ACTION_FORMS: Mapping[str, Mapping[str, str]] = {
    "keep": {"tile": "str"},
    # `first` null (or left out) asks for a split drawn at random; `tiles` and `choose` are the
    # template's own fields, so a legal action posted back as it came is well-formed.
    "split": {"group": "int", "first": "[str]?", "tiles": "[str]?", "choose": "str?"},
    "take": {"group": "int"},
    "forfeit": {},
}
