"""How a table's game secret follows from the tournament's secret (so anyone can check it once revealed).

A tournament's secret is `salt:seed` like a game's (`domain.chance`). A
table's game seed is `sha256("<seed>:round:<r>:table:<t>")` as hex, and for
the n-th replay of a table whose result was annulled
`sha256("<seed>:round:<r>:table:<t>:replay:<n>")`, so a replayed game is dealt
afresh yet still from the tournament's seed; its salt is the same hash over
the whole secret with `:salt` after it (`sha256("<secret>:salt:round:<r>:table:<t>")`),
so the game's published commitment is as hard to invert as the tournament's.
The game is dealt the way the tournament is (shared or fixed).
"""

from __future__ import annotations

import hashlib

from domain.chance import game_secret, seed_of


def game_seed(seed: str, round_: int, table: int, replay: int = 0) -> str:
    """Return a table's game seed, derived from the tournament's seed."""
    text = f"{seed}:round:{round_}:table:{table}" + (f":replay:{replay}" if replay else "")
    return hashlib.sha256(text.encode()).hexdigest()


def game_salt(secret: str, round_: int, table: int, replay: int = 0) -> str:
    """Return a table's game salt, derived from the tournament's whole secret."""
    return game_seed(f"{secret}:salt", round_, table, replay)


def table_secret(secret: str, round_: int, table: int, replay: int = 0) -> str:
    """Return the secret of a table's game, from the tournament's secret."""
    return game_secret(game_salt(secret, round_, table, replay), game_seed(seed_of(secret), round_, table, replay))
