"""Animals on Board's determinisation and search hooks.

Hidden: each other seat's face-down tiles (its kept setup tile and any
face-down tile it took), its setup hand and choice while tiles are kept, the
face-down tile in the centre, and the bag. Every tile is either seen by the
seat (its own ark and hand, the face-up tiles of every ark, the centre) or in
one of those places, and nothing the seat saw tells one unseen tile from
another; so the unseen tiles are dealt uniformly into the hidden places.

The search is flat (`mcts.Game.flat`) over the heuristic's best takes and
splits: the heuristic plays every seat out to the round's end, judged by the
arks as they would depart then, and its move stands unless another does better.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from domain.games.animals_on_board import RULES
from domain.games.animals_on_board.state import KEEP, Player, State
from domain.games.animals_on_board.tiles import DEALT, HIDDEN, depart, ordered, tiles_of
from domain.values import changed
from projections import projection_for
from workers.bots import animals_on_board as heuristic
from workers.bots.mcts import Game, Values, guided, key_of, places_to_values, spread

ROLLOUT_CAP = 400
PAIR_HOPE = 3.0  # a pair when a round ends: worth a little, it may become a herd (as the heuristic weighs it)
SHORTLIST = 6  # moves the search weighs: the heuristic's best takes and splits


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
    """Value the places at the departure, or once the round is over as the arks would depart now."""
    result = RULES.result(state)
    if result is not None:
        return places_to_values(result.places)
    if state.round != start.round or moves > ROLLOUT_CAP:
        scores = []
        for player in state.players:
            departure = depart(player.tiles, player.crates)
            scores.append(departure.total + PAIR_HOPE * len(departure.discarded_pairs) / 2)
        places = [1 + sum(other > mine for other in scores) for mine in scores]
        return [0.5 * p + 0.5 * s for p, s in zip(places_to_values(places), spread(scores))]
    return None


def shortlist(view: Mapping[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> list[dict[str, Any]]:
    """Keep the takes and splits the heuristic rates best (of a 7-tile group's 63 splits, a handful)."""
    if not any(a["type"] == "split" for a in legal):
        return legal
    state = view["state"]
    me, centre = state["you"], state["centre"]
    gain = heuristic.Gains(list(me["ark"]), any(p["announced"] for p in state["players"]))
    rated: dict[Any, tuple[float, dict[str, Any]]] = {}
    for action in legal:
        if action["type"] == "take":
            rated[key_of(action)] = (gain(centre[action["group"]]), action)
    for g, first, value in heuristic.rated_splits(gain, me["crates"], centre, legal):
        action = _listed(centre, {"type": "split", "group": g, "first": first})
        rated.setdefault(key_of(action), (value, action))
    ranked = [action for _, action in sorted(rated.values(), key=lambda r: -r[0])][:SHORTLIST]
    favourite = prior(view, legal, rng)
    return ranked if favourite in ranked else [favourite, *ranked]


def prior(view: Mapping[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Return the heuristic's choice, a split in the form the rules list it."""
    return _listed(view["state"]["centre"], heuristic.heuristic(view, legal, rng))


def _listed(centre: Sequence[Sequence[str]], action: dict[str, Any]) -> dict[str, Any]:
    """Write a split as the rules list it: `first` is the part without the group's last tile, in the group's order."""
    if action["type"] != "split" or action["first"] is None:
        return action
    group = centre[action["group"]]
    first = set(action["first"])
    if group[-1] in first:
        first = set(group) - first
    return {"type": "split", "group": action["group"], "first": [t for t in group[:-1] if t in first]}


GAME = Game(
    rules=RULES,
    believe=believe,
    sample=sample,
    evaluate=evaluate,
    rollout=guided(RULES, projection_for("animals-on-board").bot_view, heuristic.heuristic),
    shortlist=shortlist,
    prior=prior,
    flat=True,
    iterations=150,
)
