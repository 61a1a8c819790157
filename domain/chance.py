"""Deterministic chance derived from a game's secret seed.

Anyone holding the revealed seed can recompute every shuffle, in any language:
draw number `k` at version `v` takes the SHA-256 of
`seed + b":" + str(v) + b":" + str(k)` as a big-endian 256-bit integer `x`;
`below(n)` rejects `x >= n * floor(2**256 / n)` (drawing again) and returns
`x % n`. `shuffle` is Fisher–Yates from the last position down, swapping
position `i` with `below(i + 1)`.

`v` is the version of the game before the batch being decided, so two batches
never share draws and a replay of the same command draws the same numbers.

**The game's secret and its deal seed.** The service keeps one secret a game,
`salt + ":" + seed`: `salt` is 64 hex digits the service draws; `seed` is 64
hex digits it draws too (shared dealing), or the creator's own seed (fixed
dealing). At creation it publishes `SHA-256(secret)` (`seed_commitment`): the
salt makes it as hard to invert for a short fixed seed as for a drawn one, and
the commitments to hidden values are keyed by the whole secret
(`domain.commitments`). The secret is revealed in `GameEnded`. The draws above
are taken from the **deal seed**:

- fixed dealing: the seed itself, so a creator's seed deals the same game each time;
- shared dealing: `HMAC-SHA-256(key=seed as UTF-8, msg=canonical_json(contributions))`
  as lowercase hex, where `contributions` lists each seat's public `entropy` in
  seat order (null for a seat that gave none, and for bots). No single party
  chooses or knows the deal in advance: the service committed to its seed
  before any seat sat down, and no seat knows that seed.
- a game recorded before dealing was (no `dealing` in `GameCreated`): the
  secret is the seed.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Callable, Sequence
from typing import TypeVar

from mypy_extensions import mypyc_attr

from domain.canonical import canonical_json

T = TypeVar("T")
_SPACE = 1 << 256

SHARED, FIXED = "shared", "fixed"
DEALINGS = (SHARED, FIXED)
# A seat's contribution to a shared deal: 16 to 64 bytes, as lowercase or uppercase hex.
ENTROPY = re.compile(r"^[0-9a-fA-F]{32,128}$")


def seed_commitment(secret: str) -> str:
    """Return the public SHA-256 commitment to a game's secret (salted: see the module docstring)."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def game_secret(salt: str, seed: str) -> str:
    """Return the secret a game keeps: its salt and its seed."""
    return f"{salt}:{seed}"


def seed_of(secret: str) -> str:
    """Return the seed part of a secret (`game_secret`)."""
    return secret.partition(":")[2]


def deal_seed(secret: str, dealing: str | None, contributions: Sequence[str | None]) -> str:
    """Return the seed a game's shuffles draw from (see the module docstring)."""
    if dealing is None:
        return secret
    seed = seed_of(secret)
    if dealing == FIXED:
        return seed
    message = canonical_json(list(contributions)).encode("utf-8")
    return hmac.new(seed.encode("utf-8"), message, hashlib.sha256).hexdigest()


# Tests deal stacked decks through a subclass of their own: compiled, a class admits one only if it says so.
@mypyc_attr(allow_interpreted_subclasses=True)
class Chance:
    """A stream of uniform draws for one batch of one game."""

    def __init__(self, seed: str, version: int) -> None:
        self._prefix = seed.encode("utf-8") + b":" + str(version).encode("ascii") + b":"
        self._draws = 0

    def _next(self) -> int:
        digest = hashlib.sha256(self._prefix + str(self._draws).encode("ascii")).digest()
        self._draws += 1
        return int.from_bytes(digest, "big")

    def below(self, n: int) -> int:
        """Return a uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = _SPACE - _SPACE % n
        while True:
            x = self._next()
            if x < limit:
                return x % n

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """Return a shuffled copy of `items`."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def choice(self, items: Sequence[T]) -> T:
        """Return one item, uniformly."""
        return items[self.below(len(items))]


class DrawnChance(Chance):
    """Chance from an injected source of uniform integers, for simulations that need no audit trail.

    A search plays thousands of games that are never recorded; hashing every
    draw would dominate them. The source (say `random.Random(...).randrange`)
    comes from outside, so the domain itself still never calls `random`.
    """

    def __init__(self, below: Callable[[int], int]) -> None:
        self._below = below
        self._draws = 0

    def below(self, n: int) -> int:
        """Return a uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        return self._below(n)

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """Return a shuffled copy of `items`: `Chance.shuffle`, drawing straight from the source.

        The same draws in the same order (every bound is at least 2); a search
        shuffles a whole deck per deal, so the checks of `below` are skipped.
        """
        out = list(items)
        below = self._below
        for i in range(len(out) - 1, 0, -1):
            j = below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out
