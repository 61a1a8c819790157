"""Fair use: how many all-bot games one client address may have in play at once.

An all-bot game costs the workers every move until it ends and nobody waits on
it, so a client could start enough of them to slow every human game's bot turns
(they are served first, but a worker finishes the move it has begun). The cap
counts a client's all-bot games that are still in play, created through
`POST /games` from its address (`request.remote_addr`, as the rate limits count;
behind a proxy, configure it to set the address). A create past the cap is
answered 429 `too_many_bot_games` with `Retry-After`, and nothing is created.
A game with a human seat, or an open one, is not counted; nor are the games a
tournament creates for its tables. A retried create (the same Idempotency-Key)
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
from service.errors import GameNotFound, TooManyBotGames
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


@contextmanager
def bot_game_place(seats: Sequence[Mapping[str, Any]]) -> Iterator[list[str]]:
    """Hold a place for an all-bot game of this client while it is created; raise TooManyBotGames past the cap.

    The caller appends the created game's id to the yielded list; the place is
    then the game's. Without an id (the create failed) the place is freed.
    """
    limit = int(current_app.config.get("BOT_GAMES_PER_ADDRESS", DEFAULT_BOT_GAMES))
    created: list[str] = []
    if not all_bots(seats) or not current_app.config["RATE_LIMITS_ENABLED"] or limit <= 0:
        yield created
        return
    s = services()
    key = f"{s.prefix}:bot-games:{request.remote_addr or 'unknown'}"
    _drop_ended(key)
    reservation = f"{_RESERVED}{uuid.uuid4().hex}"
    with s.redis.pipeline(transaction=True) as pipe:
        pipe.zadd(key, {reservation: time.time()})
        pipe.zcard(key)
        _, held = pipe.execute()
    try:
        if held > limit:
            raise TooManyBotGames(
                f"this address has {limit} all-bot games in play, as many as it may; "
                f"retry when one has ended (after about {RETRY_AFTER_S} s)",
                limit=limit,
                retry_after=RETRY_AFTER_S,
            )
        yield created
    finally:
        with s.redis.pipeline(transaction=True) as pipe:
            pipe.zrem(key, reservation)
            if created:
                pipe.zadd(key, {created[0]: time.time()})
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
        try:
            if s.repository.load(member).status == FINISHED:
                ended.append(member)
        except GameNotFound:
            ended.append(member)
    if ended:
        s.redis.zrem(key, *ended)
