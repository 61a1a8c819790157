"""Animals on Board: the state as a frozen value, and `evolve`, the fold of its events."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from mypy_extensions import mypyc_attr

from domain.events import Event
from domain.games.animals_on_board.tiles import CRATES, HIDDEN, START_CRATES, Departure, ordered, tiles_of
from domain.values import changed, detached

KEEP, BETWEEN, PLAY, OVER = "keep", "between", "play", "over"


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Player:
    """One seat's ark and personal supply."""

    tiles: tuple[str, ...] = ()  # canonical order; includes hidden ones
    hidden: frozenset[str] = frozenset()  # the setup tile and any face-down tile taken
    crates: int = START_CRATES


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class State:
    """The whole game; `centre` groups hold real tile ids, `face_down` names the hidden one."""

    seats: int
    species: tuple[str, ...]
    left_out: tuple[str, ...]
    bag: frozenset[str]
    players: tuple[Player, ...]
    hands: tuple[tuple[str, ...], ...]  # setup draws, until revealed
    kept: tuple[str | None, ...]
    phase: str = KEEP
    centre: tuple[tuple[str, ...], ...] = ()
    face_down: str | None = None
    round: int = 0
    starter: int = 0
    current: int | None = None
    final_turn: bool = False
    dropped: frozenset[int] = frozenset()
    first_out: int | None = None
    announced: frozenset[int] = frozenset()
    game_over: bool = False
    departures: tuple[Departure, ...] = ()

    @property
    def supply(self) -> int:
        """Crates left in the general supply."""
        return CRATES - sum(p.crates for p in self.players)


def public_group(state: State, group: tuple[str, ...]) -> list[str]:
    """Name a group's tiles as a player sees them: the face-down tile is "hidden", last."""
    names = list(group)
    if state.face_down in group:  # a tile is in a group at most once
        names.remove(state.face_down)
        names.append(HIDDEN)
    return names


def real_tiles(state: State, names: list[str]) -> tuple[str, ...]:
    """Turn public names back into tile ids."""
    if HIDDEN in names:
        names = [state.face_down if n == HIDDEN else n for n in names]  # type: ignore[misc]
    return ordered(names)


def evolve(state: State | None, event: Event) -> State:
    """Apply one event; never fails on a valid stream."""
    return _HANDLERS[event.type](state, event)


def _set_up(_: State | None, event: Event) -> State:
    data = event.data
    hands = tuple(tuple(h) for h in data["hands"])
    dealt = {t for h in hands for t in h}
    # The first state (and players) of a game, which every later one copies (see `domain.values.detached`).
    return detached(
        State(
            seats=data["seats"],
            species=tuple(data["species"]),
            left_out=tuple(data["left_out"]),
            bag=frozenset(tiles_of(data["species"])) - dealt,
            players=tuple(detached(Player()) for _ in hands),
            hands=hands,
            kept=(None,) * len(hands),
            starter=data["starting_player"],
        )
    )


def _kept(state: State, event: Event) -> State:
    data = event.data
    actor = int(event.actor)
    kept = list(state.kept)
    kept[actor] = data["tile"]
    return changed(state, kept=tuple(kept))


def _revealed(state: State, event: Event) -> State:
    data = event.data
    # Every seat has kept a tile by now: the reveal waits for all of them.
    players = tuple(
        changed(p, tiles=(t,), hidden=frozenset({t})) for p, t in zip(state.players, state.kept) if t is not None
    )
    centre = ordered(t for ts in data["tiles"] for t in ts)
    return changed(state, players=players, hands=(), centre=(centre,), phase=BETWEEN)


def _round_started(state: State, event: Event) -> State:
    data = event.data
    drawn = list(data["drawn"])
    face_down = data["face_down"] or state.face_down
    if data["face_down"]:
        drawn.append(data["face_down"])
    group = ordered([t for g in state.centre for t in g] + drawn)
    return changed(
        state,
        bag=state.bag - set(drawn),
        centre=(group,),
        face_down=face_down,
        phase=PLAY,
        round=data["round"],
        starter=data["starter"],
        current=data["starter"],
        final_turn=False,
        dropped=frozenset(),
        first_out=None,
    )


def flow(state: State, data: Mapping[str, Any]) -> State:
    """Pass the turn on as a turn's event says (`next`, `final_turn`): the last step of its evolve."""
    return changed(state, current=data["next"], final_turn=data["final_turn"])


def _split(state: State, event: Event) -> State:
    data = event.data
    actor = int(event.actor)
    g = data["group"]
    first, second = real_tiles(state, data["first"]), real_tiles(state, data["second"])
    centre = state.centre[:g] + (first, second) + state.centre[g + 1 :]
    players = _with(state.players, actor, crates=data["crates"])
    return flow(changed(state, centre=centre, players=players), data)


def _taken(state: State, event: Event) -> State:
    data = event.data
    actor = int(event.actor)
    g = data["group"]
    group = state.centre[g]
    player = state.players[actor]
    hidden = player.hidden | {t for t in group if t == state.face_down}
    players = _with(state.players, actor, tiles=ordered(player.tiles + group), hidden=hidden, crates=data["crates"])
    state = changed(
        state,
        centre=state.centre[:g] + state.centre[g + 1 :],
        face_down=None if state.face_down in group else state.face_down,
        players=players,
        dropped=state.dropped | {actor},
        first_out=actor if state.first_out is None else state.first_out,
        starter=actor if state.first_out is None else state.starter,
        announced=state.announced | ({actor} if data["announced"] else set()),
    )
    return flow(state, data)


def _forfeited(state: State, event: Event) -> State:
    return flow(state, event.data)


def _round_ended(state: State, event: Event) -> State:
    data = event.data
    return changed(state, phase=BETWEEN, current=None, final_turn=False, game_over=data["game_over"])


def _departed(state: State, event: Event) -> State:
    data = event.data
    departures = tuple(Departure.from_dict(d) for d in data["arks"])
    return changed(state, phase=OVER, departures=departures)


def _with(players: tuple[Player, ...], seat: int, **changes: Any) -> tuple[Player, ...]:
    return players[:seat] + (changed(players[seat], **changes),) + players[seat + 1 :]


_HANDLERS: dict[str, Callable[[Any, Event], State]] = {
    "GameSetUp": _set_up,
    "TileKept": _kept,
    "SetupTilesRevealed": _revealed,
    "RoundStarted": _round_started,
    "GroupSplit": _split,
    "GroupTaken": _taken,
    "TurnForfeited": _forfeited,
    "RoundEnded": _round_ended,
    "ArksDeparted": _departed,
}
