"""A tiny game for testing the core without any real game's rules.

Two or three seats race to 10: on your turn add 1 or 2. Each seat holds one
secret card (dealt from the seed) that nobody else may see. After every 4th
move the system must "score" (a system step) before play goes on.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from domain.chance import Chance
from domain.errors import RuleError
from domain.events import SYSTEM, Event
from domain.rules import Option, Result

GAME_ID = "toy"


@dataclass(frozen=True)
class ToyState:
    seats: int
    secrets: tuple[str, ...]
    total: int = 0
    turn: int = 0
    moves: int = 0
    scored: int = 0
    last_mover: int = -1
    goal: int = 10


class ToyRules:
    id = GAME_ID
    title = "Toy race"
    min_seats = 2
    max_seats = 3
    rules_version = "1"
    options = (Option("goal", "int", 10, "total that ends the game", minimum=3, maximum=100),)

    def check_options(self, options: Mapping[str, Any], seats: int) -> None:
        pass

    def setup(self, seats: int, options: Mapping[str, Any], chance: Chance) -> list[Event]:
        cards = chance.shuffle(["ant", "bee", "cat", "dog", "eel"])[:seats]
        return [Event("SecretsDealt", {"secrets": cards, "goal": options["goal"]})]

    def evolve(self, state: Any, event: Event) -> Any:
        if event.type == "SecretsDealt":
            return ToyState(
                seats=len(event.data["secrets"]), secrets=tuple(event.data["secrets"]), goal=event.data["goal"]
            )
        if event.type == "Added":
            return replace(
                state,
                total=state.total + event.data["n"],
                turn=(state.turn + 1) % state.seats,
                moves=state.moves + 1,
                last_mover=event.actor,
            )
        if event.type == "Scored":
            return replace(state, scored=state.moves)
        return state

    def system_due(self, state: Any) -> bool:
        return state.total < state.goal and state.moves % 4 == 0 and state.moves > state.scored

    def to_act(self, state: Any) -> frozenset[int]:
        if self.system_due(state) or state.total >= state.goal:
            return frozenset()
        return frozenset({state.turn})

    def legal_actions(self, state: Any, seat: int) -> list[dict[str, Any]]:
        return [{"type": "add", "n": 1}, {"type": "add", "n": 2}]

    def decide(self, state: Any, seat: int, action: Mapping[str, Any], chance: Chance) -> list[Event]:
        if action.get("type") != "add" or action.get("n") not in (1, 2) or isinstance(action.get("n"), bool):
            raise RuleError("add 1 or 2")
        return [Event("Added", {"n": action["n"]}, seat)]

    def advance(self, state: Any, chance: Chance) -> list[Event]:
        return [Event("Scored", {"moves": state.moves}, SYSTEM)]

    def result(self, state: Any) -> Result | None:
        if state.total < state.goal:
            return None
        return Result(tuple(1 if s == state.last_mover else 2 for s in range(state.seats)), {"total": state.total})


class ToyProjection:
    def seat_view(self, state: Any, seat: int | None) -> dict[str, Any]:
        return {"total": state.total, "your_secret": state.secrets[seat] if seat is not None else None}

    def open_view(self, state: Any) -> dict[str, Any]:
        return {"total": state.total, "secrets": list(state.secrets)}

    def redact(self, event: Event, seat: int | None) -> Mapping[str, Any]:
        if event.type == "SecretsDealt":
            return {
                "goal": event.data["goal"],
                "secrets": [c if i == seat else None for i, c in enumerate(event.data["secrets"])],
            }
        return event.data


def install() -> None:
    """Register the toy game (idempotent)."""
    import domain.games
    import projections

    domain.games.register(ToyRules())
    projections.PROJECTIONS.setdefault(GAME_ID, ToyProjection())
