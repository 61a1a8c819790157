"""Lookups kept beside the streams, for speed only: the lists of games and
tournaments, which tournament a game belongs to, the seat tokens of human
entrants, table claims.

The lists and the game map can be rebuilt from the streams (`GameCreated`,
`GameLinked`); the seat tokens cannot — like a game's seed they are secrets
that no event holds. The lists are the lobby read model: readers follow its
generation pointer and writers write every generation it names
(`service.adapters.generations`), so `menagerie rebuild lobby` can refill
them from the streams and archives beside the served ones. A listing's score
is its first event's time, so a rebuild gives every member the score it had.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime
from typing import Any, cast

from service.adapters.connections import StoreRedis
from service.adapters.generations import Generations
from service.adapters.store import text

CLAIM_SECONDS = 300
LOBBY = "lobby"
# The lobby's keys from before generations: its generation 0.
LOBBY_LEGACY = ("games", "tournaments", "tournaments:*")


def listed_at(time: str) -> float:
    """Return a listing's score: the POSIX time of its first event (as recorded, `...Z`)."""
    return datetime.fromisoformat(time.replace("Z", "+00:00")).timestamp()


def lobby(redis: StoreRedis, prefix: str) -> Generations:
    """Return the lobby read model's generations: the lists of games and of tournaments (one per game type too)."""
    return Generations(redis, prefix, LOBBY, legacy=LOBBY_LEGACY)


def newest_first(redis: StoreRedis, key: str, count: int, below: int = 0) -> tuple[list[str], int]:
    """Return up to `count` members of a listing, newest first, and how many older ones are left after them.

    `below` is what a previous page returned (0: start at the newest): it counts
    members from the *oldest* end, so the games and tournaments created while a
    client pages through (added at the newest end) do not shift its next page.
    An offset from the newest end would show the client again, on its next
    page, as many members as were created meanwhile. A member removed meanwhile
    (an archived game) can at worst repeat one member, never skip one.
    """
    if below:
        start = max(0, below - count)
        members = redis.zrange(key, start, below - 1)
        if start and len(members) < below - start:
            # The listing shrank under the cursor (games archived since): go on from its present size.
            size = int(redis.zcard(key))
            if size < below:
                return newest_first(redis, key, count, size) if size else ([], 0)
        return [text(m) for m in reversed(members)], start
    newest = [text(m) for m in redis.zrevrange(key, 0, count - 1)]
    if not newest:
        return [], 0
    # The rank of the page's last member: new members, added above it, do not change it.
    rank = cast(int | None, redis.zrank(key, newest[-1]))
    return newest, int(rank) if rank is not None else max(0, int(redis.zcard(key)) - len(newest))


class Directory:
    """The list of games, newest first."""

    def __init__(self, redis: StoreRedis, prefix: str = "menagerie") -> None:
        self.redis = redis
        self.prefix = prefix
        self.generations = lobby(redis, prefix)

    def _served(self) -> str:
        return self.generations.key(self.generations.served(), "games")

    def add_game(self, game_id: str, created: float) -> None:
        """List a new game (`created`: its first event's time), in the served lobby and the one being rebuilt."""
        for generation in self.generations.targets():
            self.redis.zadd(self.generations.key(generation, "games"), {game_id: created})

    def remove_game(self, game_id: str) -> None:
        """Unlist a game (after it has been archived)."""
        for generation in self.generations.targets():
            self.redis.zrem(self.generations.key(generation, "games"), game_id)

    def created_before(self, created: float, page: int) -> Iterator[list[str]]:
        """Yield the ids of the games listed as created before `created`, oldest first, `page` at a time."""
        offset = 0
        while True:
            ids = [text(m) for m in self.redis.zrangebyscore(self._served(), "-inf", f"({created}", offset, page)]
            if not ids:
                return
            yield ids
            offset += len(ids)

    def recent_games(self, limit: int, below: int = 0) -> tuple[list[str], int]:
        """Return a page of game ids, newest first, and how many older games are left (see `newest_first`)."""
        return newest_first(self.redis, self._served(), limit, below)


class TournamentIndex:
    """Redis lookups for tournaments, under the store's key prefix."""

    def __init__(self, redis: StoreRedis, prefix: str = "menagerie") -> None:
        self.redis = redis
        self.prefix = prefix
        self.generations = lobby(redis, prefix)

    def _key(self, tournament_id: str, name: str) -> str:
        return f"{self.prefix}:{{{tournament_id}}}:{name}"

    def add_tournament(self, tournament_id: str, created: float, game: str | None = None) -> None:
        """List a new tournament (also under its game type; `created`: its first event's time)."""
        for generation in self.generations.targets():
            self.redis.zadd(self.generations.key(generation, "tournaments"), {tournament_id: created})
            if game:
                self.redis.zadd(self.generations.key(generation, f"tournaments:{game}"), {tournament_id: created})

    def recent_tournaments(self, game: str | None, count: int, below: int = 0) -> tuple[list[str], int]:
        """Return tournament ids newest first (of one game type, if given), and how many older are left."""
        key = self.generations.key(self.generations.served(), "tournaments" + (f":{game}" if game else ""))
        return newest_first(self.redis, key, count, below)

    def link_game(self, game_id: str, tournament_id: str) -> None:
        """Remember that a game is played for a tournament."""
        self.redis.hset(f"{self.prefix}:tournament-of", game_id, tournament_id)

    def tournament_of(self, game_id: str) -> str | None:
        """Return the tournament a game is played for, if any."""
        raw = self.redis.hget(f"{self.prefix}:tournament-of", game_id)
        return text(raw) if raw is not None else None

    def save_seat_tokens(self, tournament_id: str, game_id: str, tokens: Sequence[Mapping[str, Any]]) -> None:
        """Keep the seat tokens a game handed out, for their entrants to fetch."""
        if tokens:
            mapping = {f"{game_id}:{t['seat']}": str(t["token"]) for t in tokens}
            # redis-py types `mapping` with an invariant key type no plain dict[str, str] meets.
            self.redis.hset(self._key(tournament_id, "seat-tokens"), mapping=cast(Any, mapping))

    def seat_tokens(self, tournament_id: str, seats: Sequence[tuple[str, int]]) -> list[str | None]:
        """Return the tokens of (game id, seat) pairs (None where none was kept)."""
        if not seats:
            return []
        raw = self.redis.hmget(self._key(tournament_id, "seat-tokens"), [f"{g}:{s}" for g, s in seats])
        return [text(value) if value is not None else None for value in raw]

    def claim_table(self, tournament_id: str, round_: int, table: int, replay: int = 0) -> bool:
        """Claim the creation of a table's game (its `replay`-th replay); a crashed claimer's claim lapses."""
        key = self._key(tournament_id, f"claim:{round_}:{table}" + (f":{replay}" if replay else ""))
        return bool(self.redis.set(key, "1", nx=True, ex=CLAIM_SECONDS))

    def delete(self, tournament_id: str) -> None:
        """Remove the secrets kept beside a tournament's stream."""
        self.redis.delete(self._key(tournament_id, "seat-tokens"))
