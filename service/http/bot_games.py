"""Fair use: how many all-bot games one client address may have in play at once.

An all-bot game costs the workers every move until it ends and nobody waits on
it, so a client could start enough of them to slow every human game's bot turns
(they are served first, but a worker finishes the move it has begun). The cap
counts a client's all-bot games that are still in play, created through
`POST /games` from its address (`request.remote_addr`, as the rate limits count;
behind a proxy, configure it to set the address). A create past the cap is
answered 429 `too_many_bot_games` with `Retry-After`, and nothing is created.
A game with a human seat, or an open one, is not counted. A tournament's bots
count toward the cap of the address that registers them (the organiser's):
they can fill at most (bots // smallest table size) all-bot tables at once, and
each such table holds a place from the registration of the bot that makes it
possible until the tournament ends; a bot registration past the cap is answered
429 `too_many_bot_games` and registers nothing. A retried create (the same Idempotency-Key)
whose first attempt made its game gets that game back, at the cap or not: the
game holds its place already. One whose first attempt made nothing is checked
like a new create.

Set by `MENAGERIE_BOT_GAMES_PER_ADDRESS` or the app's `BOT_GAMES_PER_ADDRESS`
(default `DEFAULT_BOT_GAMES`); it is off where the rate limits are
(`RATE_LIMITS_ENABLED`).

The count is a sorted set per address under the store's key prefix: each
member a game id, or, while a create is under way, a reservation made in the
same transaction that counts, so two creates racing from one address cannot
both take the last place. Finished and unknown games and reservations older
than `RESERVATION_S` (a process that died mid-create) are dropped when the
address creates its next all-bot game.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, cast

from flask import current_app, request

from domain.game import FINISHED
from domain.tournament.state import FINISHED as TOURNAMENT_FINISHED
from domain.tournament.state import Tournament
from service.errors import GameArchived, GameNotFound, TooManyBotGames, TournamentNotFound
from service.http.requests import services

DEFAULT_BOT_GAMES = 4
RESERVATION_S = 60
# When to try again: about the time an all-bot game of heuristic bots takes to play out.
RETRY_AFTER_S = 30
_RESERVED = "reserved:"


def bot_games_default() -> int:
    """Return the cap read from the environment."""
    return int(os.environ.get("MENAGERIE_BOT_GAMES_PER_ADDRESS", DEFAULT_BOT_GAMES))


def all_bots(seats: Sequence[Mapping[str, Any]]) -> bool:
    """Tell whether every seat of a create is a bot."""
    return bool(seats) and all(seat.get("bot") is not None for seat in seats)


def _limit() -> int | None:
    """Return the cap, or None where it is off."""
    limit = int(current_app.config.get("BOT_GAMES_PER_ADDRESS", DEFAULT_BOT_GAMES))
    return limit if current_app.config["RATE_LIMITS_ENABLED"] and limit > 0 else None


def _key() -> str:
    return f"{services().prefix}:bot-games:{request.remote_addr or 'unknown'}"


@contextmanager
def bot_game_place(seats: Sequence[Mapping[str, Any]]) -> Iterator[list[str]]:
    """Hold a place for an all-bot game of this client while it is created; raise TooManyBotGames past the cap.

    The caller appends the created game's id to the yielded list; the place is
    then the game's. Without an id (the create failed) the place is freed.
    """
    limit = _limit()
    created: list[str] = []
    if not all_bots(seats) or limit is None:
        yield created
        return
    with _place(_key(), f"{_RESERVED}{uuid.uuid4().hex}", limit) as reservation:
        yield created
        if created:
            reservation.append(created[0])


@contextmanager
def tournament_bot_place(tournament: Tournament | None) -> Iterator[None]:
    """Hold the place of the all-bot table one more bot entrant may let `tournament` play; raise TooManyBotGames
    past the cap (None: a human registers, and holds nothing).

    A tournament's bots fill at most (bots // its smallest table size) all-bot tables at once; each is one
    place of the registering address, `<tournament id>/<n>`, held until the tournament ends. A registration
    that fails frees the place it took.
    """
    limit = _limit()
    bots = 1 + sum(1 for entrant in tournament.entrants if entrant.bot) if tournament is not None else 0
    tables = bots // min(tournament.table_sizes, default=2) if tournament is not None else 0
    if limit is None or tournament is None or tables == 0:
        yield
        return
    key, member = _key(), f"{tournament.id}/{tables}"
    if services().redis.zscore(key, member) is not None:
        yield  # held already (by this address's registration of an earlier bot)
        return
    with _place(key, member, limit, tournament=True) as taken:
        yield
        taken.append(member)


@contextmanager
def _place(key: str, member: str, limit: int, *, tournament: bool = False) -> Iterator[list[str]]:
    """Take a place in the address's count as `member` and raise TooManyBotGames if that passes `limit`.

    Yields a list: what the caller appends is kept as the place (a created game's id, or the member
    itself); with nothing appended (what the place was for failed) the place is freed.
    """
    s = services()
    _drop_ended(key)
    with s.redis.pipeline(transaction=True) as pipe:
        pipe.zadd(key, {member: time.time()})
        pipe.zcard(key)
        _, held = pipe.execute()
    kept: list[str] = []
    try:
        if held > limit:
            tables = " or held by its tournaments' all-bot tables" if tournament else ""
            raise TooManyBotGames(
                f"this address has {limit} all-bot games in play{tables}, as many as it may; a tournament's bots"
                " hold one place for each all-bot table they can fill (bots divided by the smallest table size)"
                f" until it ends; retry when a game has ended (after about {RETRY_AFTER_S} s)",
                limit=limit,
                retry_after=RETRY_AFTER_S,
            )
        yield kept
    finally:
        with s.redis.pipeline(transaction=True) as pipe:
            if member not in kept:
                pipe.zrem(key, member)
            for place in kept:
                pipe.zadd(key, {place: time.time()})
            pipe.execute()


def _drop_ended(key: str) -> None:
    """Forget the address's finished and unknown games and its stale reservations."""
    s = services()
    stale = time.time() - RESERVATION_S
    ended = []
    held = cast(list[tuple[bytes | str, float]], s.redis.zrange(key, 0, -1, withscores=True))
    for raw, score in held:
        member = raw.decode() if isinstance(raw, bytes) else raw
        if member.startswith(_RESERVED):
            if score < stale:
                ended.append(member)
            continue
        if "/" in member:  # a tournament's all-bot table: held until the tournament ends
            try:
                if s.tournaments.load(member.partition("/")[0]).status == TOURNAMENT_FINISHED:
                    ended.append(member)
            except TournamentNotFound:
                ended.append(member)
            continue
        try:
            if s.repository.load(member).status == FINISHED:
                ended.append(member)
        except (GameNotFound, GameArchived):
            ended.append(member)
    if ended:
        s.redis.zrem(key, *ended)
