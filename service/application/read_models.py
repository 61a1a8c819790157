"""The read models kept in Redis, what each holds, and their live rebuild (`menagerie rebuild`).

- `lobby`: the lists of games and of tournaments (`service.adapters.indexes`),
  one member per game or tournament, scored by its first event's time;
- `ratings`: each game type's rating table, folded from its rating stream;
- `leaderboards`: each game type's leaderboard rows, from the same fold;
- `standings`: each tournament's standings, folded from its stream.

The streams stay the truth: a model is a fold of them, written by the service
as it appends (`publish_*`) and rebuilt from them. A rebuild takes the model's
lease, so that from then on every writer writes the generation it fills as
well as the served one; reads every source stored (streams, packs, archived
games' files) into that generation, noting the version of each it folded (its
checkpoint); reads again every source that moved on or appeared since, until
a pass finds none; compares the result with the served generation; flips the
pointer in one script and lets the old generation expire after a grace.
Readers are served the old generation, whole, until the flip, and the new one,
whole, after it. A rebuild killed at any point leaves the pointer where it
was; its lease lapses and the next run removes what it wrote.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import orjson

from domain.events import RecordedEvent
from domain.export import ExportFormatError, read_export
from domain.ids import is_game_id, is_tournament_id
from domain.ratings import RatingTable, aggregate_id, leaderboard, replay
from domain.tournament import Tournament, standings
from domain.tournament.state import replay as replay_tournament
from service.adapters.generations import Generations
from service.adapters.indexes import listed_at, lobby
from service.adapters.store import EventStore, text
from service.adapters.versioned import VersionedValues

MODELS = ("ratings", "leaderboards", "lobby", "standings")
RATINGS_PREFIX = aggregate_id("")
# A rebuild that keeps finding sources moved stops reading again after this many passes (the writers fill
# the new generation too, so what moved since is in it already).
MAX_PASSES = 20
# A rebuild renews its lease every this many sources read, so that a long pass never outlives it.
RENEW_EVERY = 500


def ratings_value(table: RatingTable) -> dict[str, Any]:
    """Return a game type's ratings as the model keeps them: each identity's mu, sigma and games."""
    return {
        "rated_games": table.rated_games,
        "players": {player: [r.mu, r.sigma, r.games] for player, r in sorted(table.players.items())},
    }


def leaderboard_value(table: RatingTable) -> dict[str, Any]:
    """Return a game type's leaderboard as the model keeps it (identities, not handles: those change)."""
    return {"rated_games": table.rated_games, "players": leaderboard(table)}


def standings_value(tournament: Tournament) -> list[dict[str, Any]]:
    """Return a tournament's standings as the model keeps them."""
    return [line.to_dict() for line in standings(tournament)]


@dataclass
class ReadModels:
    """The read models' stores, and what the service writes to them as it appends."""

    store: EventStore
    ratings: VersionedValues = field(init=False)
    leaderboards: VersionedValues = field(init=False)
    standings: VersionedValues = field(init=False)
    lobby: Generations = field(init=False)

    def __post_init__(self) -> None:
        redis, prefix = self.store.redis, self.store.prefix
        self.ratings = VersionedValues(redis, prefix, "ratings")
        self.leaderboards = VersionedValues(redis, prefix, "leaderboards")
        self.standings = VersionedValues(redis, prefix, "standings")
        self.lobby = lobby(redis, prefix)

    def publish_ratings(self, table: RatingTable) -> None:
        """Write a game type's rating table and leaderboard at its version."""
        source = aggregate_id(table.game)
        self.ratings.publish(source, table.version, ratings_value(table))
        self.leaderboards.publish(source, table.version, leaderboard_value(table))

    def publish_standings(self, tournament: Tournament) -> None:
        """Write a tournament's standings at its version."""
        self.standings.publish(tournament.id, tournament.version, standings_value(tournament))


@dataclass
class RebuildReport:
    """What one rebuild did."""

    model: str
    served: int  # the generation served before
    generation: int  # the generation switched to
    sources: int = 0  # streams and files read
    members: int = 0  # lines (lobby) or values the new generation holds
    caught_up: int = 0  # sources read again because they moved on or appeared during the rebuild
    passes: int = 0
    checkpoint: dict[str, int] = field(default_factory=dict)  # source -> version folded up to
    differences: list[str] = field(default_factory=list)  # sources where the new generation differs from the old
    seconds: float = 0.0

    def line(self) -> str:
        """Return the report as the command prints it."""
        equal = "equal to the served one" if not self.differences else f"{len(self.differences)} differences"
        positions = sum(self.checkpoint.values())
        return (
            f"{self.model}: generation {self.served} -> {self.generation} in {self.seconds:.2f} s;"
            f" {self.sources} sources read, {self.members} entries, {self.caught_up} caught up in {self.passes}"
            f" passes; checkpoint {len(self.checkpoint)} sources at {positions} events in all; {equal}"
        )


@dataclass
class Rebuilder:
    """Rebuild a read model beside the served one and switch readers to it."""

    models: ReadModels
    # Called between the steps of a rebuild (tests interleave games there); given the step's name.
    pause: Callable[[str], None] = lambda step: None
    _renew: Callable[[], None] = field(default=lambda: None, init=False, repr=False)

    @property
    def store(self) -> EventStore:
        """Return the event store the models fold."""
        return self.models.store

    def rebuild(self, model: str) -> RebuildReport:
        """Rebuild one model (one of `MODELS`) and switch to it; raise RebuildRunning or LeaseLost."""
        started = time.monotonic()
        generations = self._generations(model)
        served, new, lease = generations.begin()
        self._renew = lambda: generations.renew(lease)
        report = RebuildReport(model, served, new)
        build = self._lobby_pass if model == "lobby" else self._values_pass
        try:
            # The first pass reads every source; each later one only those that moved or appeared.
            while True:
                report.passes += 1
                moved = build(model, new, report)
                if report.passes > 1:
                    report.caught_up += moved
                self._renew()
                self.pause(f"pass {report.passes}")
                if report.passes > 1 and moved == 0:
                    break
                if report.passes >= MAX_PASSES:
                    break  # the writers fill the new generation too: what moved since is in it
            report.differences = self._compare(model, served, new)
            report.members = self._size(model, new)
            self.pause("switch")
            generations.switch(served, new, lease)
        except BaseException:
            # Nothing was switched: the lease goes now, so that the next run need not wait for it to lapse.
            if text(self.store.redis.get(generations.lease) or b"") == lease:
                self.store.redis.delete(generations.lease)
            raise
        generations.retire(served)
        report.seconds = time.monotonic() - started
        return report

    def _generations(self, model: str) -> Generations:
        if model == "lobby":
            return self.models.lobby
        if model not in MODELS:
            raise ValueError(f"no read model {model!r} (one of {', '.join(MODELS)})")
        return self._values(model).generations

    def _values(self, model: str) -> VersionedValues:
        values: VersionedValues = getattr(self.models, model)
        return values

    # --- folded values: ratings, leaderboards, standings ----------------

    def _values_pass(self, model: str, generation: int, report: RebuildReport) -> int:
        values = self._values(model)
        moved = 0
        for source in self._value_sources(model):
            version = self.store.version(source)
            if version == 0 or report.checkpoint.get(source, -1) >= version:
                continue
            events = self.store.read(source)
            value, version = self._fold(model, source, events)
            values.publish(source, version, value, [generation])
            moved += 1
            report.checkpoint[source] = version
            report.sources += 1
            if report.sources % RENEW_EVERY == 0:
                self._renew()
        return moved

    def _value_sources(self, model: str) -> list[str]:
        ids = set(self.store.aggregates("events"))
        if model == "standings":
            return sorted(i for i in ids if is_tournament_id(i))
        return sorted(i for i in ids if i.startswith(RATINGS_PREFIX))

    def _fold(self, model: str, source: str, events: list[RecordedEvent]) -> tuple[Any, int]:
        if model == "standings":
            tournament = replay_tournament(events)
            return standings_value(tournament), tournament.version
        table = replay(events, game=source.removeprefix(RATINGS_PREFIX))
        value = ratings_value(table) if model == "ratings" else leaderboard_value(table)
        return value, table.version

    # --- the lobby --------------------------------------------------------

    def _lobby_pass(self, model: str, generation: int, report: RebuildReport) -> int:
        """List every game and tournament not read yet; a listing is fixed at its first event, so read once."""
        lobby_ = self.models.lobby
        moved = 0
        lines: list[tuple[str, str, float]] = []  # (part, member, score)
        for source in self._lobby_sources():
            if source in report.checkpoint:
                continue
            found = self._listing(source, lobby_)
            if found is None:
                continue
            lines += found
            report.checkpoint[source] = 1
            report.sources += 1
            moved += 1
            if report.sources % RENEW_EVERY == 0:
                self._renew()
        pipe = self.store.redis.pipeline(transaction=False)
        for part, member, score in lines:
            pipe.zadd(lobby_.key(generation, part), {member: score})
        pipe.execute()
        return moved

    def _lobby_sources(self) -> list[str]:
        ids = set(self.store.aggregates("events")) | set(self.store.aggregates("packed"))
        ids |= set(self.store.aggregates("archived"))
        return sorted(i for i in ids if is_game_id(i) or is_tournament_id(i))

    def _listing(self, source: str, lobby_: Generations) -> list[tuple[str, str, float]] | None:
        first = self.store.read(source, upto=1)
        if is_tournament_id(source):
            if not first:
                return None
            game = first[0].data.get("game")
            score = listed_at(first[0].time)
            return [("tournaments", source, score)] + ([(f"tournaments:{game}", source, score)] if game else [])
        if first:
            return [("games", source, listed_at(first[0].time))]
        created = self._archived_created(source)
        if created is None:
            # Its file is not readable here: it keeps the line the served lobby gives it, if any.
            kept = self.store.redis.zscore(lobby_.key(lobby_.served(), "games"), source)
            return [("games", source, float(kept))] if kept is not None else None
        return [("games", source, created)]

    def _archived_created(self, game_id: str) -> float | None:
        where = self.store.archived(game_id)
        path = where.get("archive") if where else None
        if not isinstance(path, str):
            return None
        try:
            with open(path, encoding="utf-8") as lines:
                _head, events = read_export(lines)
        except (OSError, ExportFormatError):
            return None
        return listed_at(str(events[0]["time"])) if events else None

    # --- comparing and counting -------------------------------------------

    def _compare(self, model: str, served: int, new: int) -> list[str]:
        """Return the sources where the new generation differs from the served one (at the same version)."""
        if model == "lobby":
            return self._compare_lobby(served, new)
        values = self._values(model)
        old, fresh = values.dump(served), values.dump(new)
        differences = []
        for source, (version, value) in old.items():
            rebuilt = fresh.get(source)
            # A source that moved on between the two reads is compared at the next switch, not here.
            if rebuilt is None or (rebuilt[0] == version and rebuilt[1] != value):
                differences.append(source)
        return sorted(differences)

    def _compare_lobby(self, served: int, new: int) -> list[str]:
        lobby_ = self.models.lobby
        differences = []
        for part in self._lobby_parts(served, new):
            old = _zset(self.store.redis.zrange(lobby_.key(served, part), 0, -1, withscores=True))
            fresh = _zset(self.store.redis.zrange(lobby_.key(new, part), 0, -1, withscores=True))
            differences += [f"{part} {m}" for m in sorted(set(old) ^ set(fresh))]
            differences += [f"{part} {m} score" for m in sorted(set(old) & set(fresh)) if old[m] != fresh[m]]
        return differences

    def _lobby_parts(self, *generations: int) -> list[str]:
        lobby_ = self.models.lobby
        parts = {"games", "tournaments"}
        for generation in generations:
            head = lobby_.key(generation, "")
            for key in self.store.redis.scan_iter(match=lobby_.key(generation, "tournaments:*"), count=1000):
                parts.add(text(key).removeprefix(head))
        return sorted(parts)

    def _size(self, model: str, generation: int) -> int:
        if model == "lobby":
            return int(self.store.redis.zcard(self.models.lobby.key(generation, "games"))) + int(
                self.store.redis.zcard(self.models.lobby.key(generation, "tournaments"))
            )
        return len(self._values(model).dump(generation))


def _zset(pairs: Iterable[Any]) -> dict[str, float]:
    return {text(member): float(score) for member, score in pairs}


def dumps(value: Any) -> str:
    """Return a value as the model stores it (sorted keys), for comparisons in tests and tools."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()
