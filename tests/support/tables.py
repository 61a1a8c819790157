"""Helpers for tests that play games in pure domain code, as the service would."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from domain.chance import seed_commitment
from domain.events import GENESIS_HASH, Event, RecordedEvent, Seal, record
from domain.game import Game, decide, evolve, replay
from domain.sealing import Sealer


def as_stored(
    events: list[Event], version: int, last_hash: str, command: Mapping[str, Any], seal: Seal | None = None
) -> list[RecordedEvent]:
    """Record a decided batch after `version` and read it back through JSON, as the store does."""
    batch = record(
        events,
        after_seq=version,
        previous_hash=last_hash or GENESIS_HASH,
        time="2026-01-01T00:00:00Z",
        command_id=f"{version:032x}",  # the service's form: 32 hex digits
        command=dict(command),
        seal=seal,
    )
    return [RecordedEvent.from_dict(json.loads(json.dumps(e.to_dict()))) for e in batch]


@dataclass
class Table:
    """A game played in memory: the recorded log and the live aggregate."""

    seed: str
    game: Game = field(default_factory=Game)
    log: list[RecordedEvent] = field(default_factory=list)

    def run(self, command: Mapping[str, Any]) -> list[RecordedEvent]:
        """Execute a command, record its events through JSON as the store does, and apply them."""
        seal = Sealer(self.game.type or command["game"], self.seed)
        batch = as_stored(decide(self.game, command, self.seed), self.game.version, self.game.last_hash, command, seal)
        for event in batch:
            self.game = evolve(self.game, event)
        self.log.extend(batch)
        return batch

    def act(self, seat: int, action: Mapping[str, Any]) -> list[RecordedEvent]:
        """Play one seat's action."""
        return self.run({"kind": "act", "seat": seat, "action": dict(action)})

    def advance(self) -> list[RecordedEvent]:
        """Take one system step."""
        return self.run({"kind": "advance"})

    def replayed(self) -> Game:
        """Rebuild the game from its log."""
        return replay(self.log)


def new_table(game_type: str, seats: int, options: Mapping[str, Any] | None = None, seed: str = "test-seed") -> Table:
    """Create and start a game with every seat filled by a name."""
    table = Table(seed=seed)
    table.run(
        {
            "kind": "create",
            "id": "g1",
            "game": game_type,
            "seats": [{"name": f"p{i}", "bot": None, "token_sha256": None} for i in range(seats)],
            "options": dict(options or {}),
            "seed_commitment": seed_commitment(seed),
        }
    )
    return table


Choice = Callable[[Game], tuple[int, dict[str, Any]]]


def play(table: Table, choose: Choice, max_steps: int) -> Table:
    """Take system steps when due and otherwise play the seat and action `choose` picks, to the end."""
    for _ in range(max_steps):
        game = table.game
        if game.status == "finished":
            return table
        if game.system_due:
            table.advance()
            continue
        assert game.to_act, "an active game with no system step due must have someone to act"
        table.act(*choose(game))
    raise AssertionError(f"game not over after {max_steps} steps")


def play_bots(table: Table, kinds: list[str], max_steps: int = 20_000, verbatim: bool = True) -> Table:
    """Let bots of the given kinds (one per seat) play to the end, each from its own seat's view.

    With `verbatim`, every action must be an item of the legal actions as
    listed; without, a filled-in template (a large split) is fine too, and
    the rules still refuse anything illegal.
    """
    from projections.game import game_view
    from workers.bots import bot_for, bot_rng

    bots = [bot_for(table.game.type, kind) for kind in kinds]

    def choose(game: Game) -> tuple[int, dict[str, Any]]:
        seat = min(game.to_act)
        view = game_view(game, seat)
        action = bots[seat](view, view["legal_actions"], bot_rng(game.id, game.version, seat))
        assert not verbatim or action in view["legal_actions"], f"bot played {action}, not a legal action"
        return seat, action

    return play(table, choose, max_steps)


def play_randomly(table: Table, rng: random.Random, max_steps: int = 100_000) -> Table:
    """Play uniformly random legal actions (a random seat of those who may act) to the end."""

    def choose(game: Game) -> tuple[int, dict[str, Any]]:
        seat = rng.choice(sorted(game.to_act))
        legal = game.legal_actions(seat)
        assert legal, f"seat {seat} may act but has no legal action"
        return seat, rng.choice(legal)

    return play(table, choose, max_steps)
