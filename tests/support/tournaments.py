"""Helpers for tests that run tournaments in pure domain code, as the service would."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.chance import seed_commitment
from domain.events import RecordedEvent
from domain.tournament import Tournament, decide, evolve, replay
from tests.support.tables import as_stored


@dataclass
class Ledger:
    """A tournament kept in memory: the recorded log and the live aggregate."""

    seed: str
    tournament: Tournament = field(default_factory=Tournament)
    log: list[RecordedEvent] = field(default_factory=list)

    def run(self, command: Mapping[str, Any]) -> list[RecordedEvent]:
        """Decide a command, record its events through JSON as the store does, and apply them."""
        events = decide(self.tournament, command, self.seed)
        batch = as_stored(events, self.tournament.version, self.tournament.last_hash, command)
        for event in batch:
            self.tournament = evolve(self.tournament, event)
        self.log.extend(batch)
        return batch

    def register(self, *names: str) -> None:
        """Register humans by name."""
        for name in names:
            self.run({"kind": "register", "name": name, "bot": None, "token_sha256": None})

    def start(self, ratings: Mapping[str, float] | None = None) -> list[RecordedEvent]:
        """Seat round 1."""
        return self.run({"kind": "start", "ratings": dict(ratings or {})})

    def link_all(self) -> None:
        """Give every table of the current round a made-up game id."""
        current = self.tournament.current
        assert current is not None
        for table in current.tables:
            game_id = f"g{current.number}-{table.number}"
            self.run({"kind": "link", "round": current.number, "table": table.number, "game_id": game_id})

    def finish_round(
        self, places_by_table: Sequence[Sequence[int]], ratings: Mapping[str, float] | None = None
    ) -> list[RecordedEvent]:
        """Record every table's places (in table order) in one batch."""
        current = self.tournament.current
        assert current is not None
        results = [{"game_id": t.game_id, "places": list(p)} for t, p in zip(current.tables, places_by_table)]
        return self.run({"kind": "record", "results": results, "ratings": dict(ratings or {})})

    def replayed(self) -> Tournament:
        """Rebuild the tournament from its log."""
        return replay(self.log)


def new_ledger(game: str = "life-is-life", *, rounds: int = 2, seed: str = "t-seed", **settings: Any) -> Ledger:
    """Create a tournament in memory."""
    ledger = Ledger(seed=seed)
    ledger.run(
        {
            "kind": "create",
            "id": "t-0000000000000000",
            "game": game,
            "format": settings.pop("format", "swiss"),
            "rounds": rounds,
            "table_sizes": settings.pop("table_sizes", []),
            "scoring": settings.pop("scoring", {}),
            "max_players": settings.pop("max_players", None),
            "options": settings.pop("options", {}),
            "seed_commitment": seed_commitment(seed),
            "organiser_sha256": None,
        }
    )
    assert not settings, settings
    return ledger
