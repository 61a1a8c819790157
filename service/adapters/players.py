"""Player accounts in Redis: one hash per account and one index of handles by look-alike skeleton.

Keys: `<prefix>:player:<id>` (id, handle, normal, skeleton, token_sha256,
created) and `<prefix>:player-skeletons` (skeleton -> id). A handle is claimed
by one HSETNX on its skeleton, so two registrations racing for `ann` and `Ann`
(or `аnn`) cannot both win; the account's hash is written before the claim, and
removed again if the claim is lost.
The player token is never stored: only its SHA-256, like a seat token's.

Erasure leaves a tombstone `{id, erased}` in the account's hash: the id is
never handed out again and stays in the chains, the handle is shown as
`domain.players.ERASED`, and the handle's skeleton is released so the handle
may be registered anew. The skeleton stays in the tombstone until the index
entry is gone, so an erasure cut short is finished by erasing again.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from domain.players import ERASED
from service.adapters.connections import StoreRedis
from service.adapters.store import text


@dataclass(frozen=True)
class Account:
    """A player account as stored (no secret: the token's hash only)."""

    id: str
    handle: str
    normal: str
    token_sha256: str


class PlayerAccounts:
    """Where accounts are kept (the application's port: `claim`, `save`, `get`, `erase`, `handles`)."""

    def __init__(self, redis: StoreRedis, prefix: str = "menagerie") -> None:
        self.redis = redis
        self.prefix = prefix

    def _key(self, player_id: str) -> str:
        return f"{self.prefix}:player:{player_id}"

    @property
    def _skeletons(self) -> str:
        return f"{self.prefix}:player-skeletons"

    def claim(self, skeleton: str, player_id: str) -> str:
        """Claim a handle's skeleton for an account; return the id that holds it (another's if it was taken)."""
        if self.redis.hsetnx(self._skeletons, skeleton, player_id):
            return player_id
        holder = self.redis.hget(self._skeletons, skeleton)
        return text(holder) if holder is not None else player_id

    def save(self, account: Account, skeleton: str, created: str) -> None:
        """Write a claimed account."""
        self.redis.hset(
            self._key(account.id),
            mapping={
                "id": account.id,
                "handle": account.handle,
                "normal": account.normal,
                "skeleton": skeleton,
                "token_sha256": account.token_sha256,
                "created": created,
            },
        )

    def delete(self, player_id: str) -> None:
        """Remove an account that lost its handle's claim (it was never handed out)."""
        self.redis.delete(self._key(player_id))

    def get(self, player_id: str) -> Account | None:
        """Return a live account by id (None: no such account, or an erased one)."""
        fields = {text(k): text(v) for k, v in self.redis.hgetall(self._key(player_id)).items()}
        if not fields or "erased" in fields:
            return None
        return Account(fields["id"], fields["handle"], fields["normal"], fields["token_sha256"])

    def erased(self, player_id: str) -> bool:
        """Tell whether the account was erased (its tombstone is kept)."""
        return bool(self.redis.hexists(self._key(player_id), "erased"))

    def erase(self, player_id: str) -> None:
        """Replace an account by its tombstone, then release its handle's skeleton (again: finish a cut erasure).

        Each step is one command and safe to repeat: the mark first (from then on the token proves nothing and
        the handle is shown as erased), then the handle and the token's hash go, then the index entry.
        """
        key = self._key(player_id)
        self.redis.hset(key, "erased", "1")
        self.redis.hdel(key, "handle", "normal", "token_sha256", "created")
        skeleton = self.redis.hget(key, "skeleton")
        if skeleton is None:
            return
        holder = self.redis.hget(self._skeletons, skeleton)
        if holder is not None and text(holder) == player_id:
            self.redis.hdel(self._skeletons, skeleton)
        self.redis.hdel(key, "skeleton")

    def handles(self, player_ids: Iterable[str]) -> dict[str, str]:
        """Return the handle of each of these accounts that exists (`ERASED` for an erased one)."""
        found = {}
        for player_id in dict.fromkeys(player_ids):
            handle, erased = self.redis.hmget(self._key(player_id), ["handle", "erased"])
            if erased is not None:
                found[player_id] = ERASED
            elif handle is not None:
                found[player_id] = text(handle)
        return found
