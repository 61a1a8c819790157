"""Animals on Board's determinisation and search hooks.

Hidden: each other seat's face-down tiles (its kept setup tile and any
face-down tile it took), its setup hand and choice while tiles are kept, the
face-down tile in the centre, and the bag. Every tile is either seen by the
seat (its own ark and hand, the face-up tiles of every ark, the centre) or in
one of those places, and nothing the seat saw tells one unseen tile from
another; so the unseen tiles are dealt uniformly into the hidden places.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from domain.games.animals_on_board import RULES
from domain.games.animals_on_board.state import KEEP, Player, State
from domain.games.animals_on_board.tiles import DEALT, HIDDEN, ordered, tiles_of
from domain.values import changed
from workers.bots.mcts import Game, Values, places_to_values

ROLLOUT_CAP = 400


def believe(view: Mapping[str, Any], log: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Read the public state and this seat's own tiles from the view; list the unseen tiles."""
    seat, v = view["you"], view["state"]
    me = v["you"]
    seen = set(me["ark"]) | set(me["hand"])
    for player in v["players"]:
        seen.update(player["face_up"])
    seen.update(t for group in v["centre"] for t in group if t != HIDDEN)
    unseen = [t for t in tiles_of(v["species"]) if t not in seen]
    first_out = None
    for entry in log:  # who took a group first this round (the start flag moves to them)
        if entry["type"] == "RoundStarted":
            first_out = None
        elif entry["type"] == "GroupTaken" and entry["data"].get("first_out"):
            first_out = entry["actor"]
    keeping = v["phase"] == KEEP
    players = v["players"]
    state = State(
        seats=len(players),
        species=tuple(v["species"]),
        left_out=tuple(v["left_out"]),
        bag=frozenset(),
        players=(),
        hands=(),
        # Other seats' choices are secret while tiles are kept, and never shown after.
        kept=tuple(me["kept"] if p["seat"] == seat else (HIDDEN if p["chosen"] and keeping else None) for p in players),
        phase=v["phase"],
        centre=(),
        round=v["round"],
        starter=v["start_flag"],
        current=v["current"],
        final_turn=v["final_turn"],
        dropped=frozenset(p["seat"] for p in players if p["dropped_out"]),
        first_out=first_out,
        announced=frozenset(p["seat"] for p in players if p["announced"]),
    )
    return {"state": state, "view": v, "seat": seat, "unseen": unseen}


def sample(belief: Mapping[str, Any], rng: random.Random) -> State:
    """Deal the unseen tiles: the other seats' hidden tiles (and setup hands), the centre's face-down tile, the bag."""
    state: State = belief["state"]
    v, seat = belief["view"], belief["seat"]
    pool = list(belief["unseen"])
    rng.shuffle(pool)
    players, hands, kept = [], [], list(state.kept)
    for p in v["players"]:
        other = p["seat"]
        if other == seat:
            me = v["you"]
            players.append(Player(tuple(me["ark"]), frozenset(me["hidden"]), me["crates"]))
            hands.append(tuple(me["hand"]))
            continue
        hidden, pool = pool[: p["hidden_count"]], pool[p["hidden_count"] :]
        players.append(Player(ordered(p["face_up"] + hidden), frozenset(hidden), p["crates"]))
        if state.phase == KEEP:
            hand, pool = pool[:DEALT], pool[DEALT:]
            hands.append(ordered(hand))
            if kept[other] == HIDDEN:
                kept[other] = hand[rng.randrange(len(hand))]
    face_down: str | None = None
    centre = []
    for group in v["centre"]:
        tiles = list(group)
        if HIDDEN in group:
            face_down, pool = pool[0], pool[1:]
            tiles = [face_down if t == HIDDEN else t for t in group]
        centre.append(ordered(tiles))
    return changed(
        state,
        players=tuple(players),
        hands=tuple(hands) if state.phase == KEEP else (),
        kept=tuple(kept),
        centre=tuple(centre),
        face_down=face_down,
        bag=frozenset(pool[: v["draw_pile"]]),
    )


def evaluate(start: State, state: State, moves: int) -> Values | None:
    """Play to the departure (or a cap, then count the arks' tiles), and value the places."""
    result = RULES.result(state)
    if result is not None:
        return places_to_values(result.places)
    if moves > ROLLOUT_CAP:
        return [0.5] * state.seats
    return None


GAME = Game(rules=RULES, believe=believe, sample=sample, evaluate=evaluate, iterations=40)
