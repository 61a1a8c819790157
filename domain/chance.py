"""Deterministic chance derived from a game's secret seed.

Anyone holding the revealed seed can recompute every shuffle, in any language:
draw number `k` at version `v` takes the SHA-256 of
`seed + b":" + str(v) + b":" + str(k)` as a big-endian 256-bit integer `x`;
`below(n)` rejects `x >= n * floor(2**256 / n)` (drawing again) and returns
`x % n`. `shuffle` is Fisher–Yates from the last position down, swapping
position `i` with `below(i + 1)`.

`v` is the version of the game before the batch being decided, so two batches
never share draws and a replay of the same command draws the same numbers.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")
_SPACE = 1 << 256


def seed_commitment(seed: str) -> str:
    """Return the public SHA-256 commitment to a secret seed."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


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


class NoChance(Chance):
    """Chance for a batch that must not draw (raises if it tries)."""

    def __init__(self) -> None:
        super().__init__("", 0)

    def _next(self) -> int:
        raise RuntimeError("this step may not draw from the seed")


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
