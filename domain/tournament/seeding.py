"""How a table's game seed follows from the tournament's seed (so anyone can check it once revealed).

`sha256("<seed>:round:<r>:table:<t>")` as hex, and for the n-th replay of a
table whose result was annulled `sha256("<seed>:round:<r>:table:<t>:replay:<n>")`,
so a replayed game is dealt afresh yet still from the tournament's seed.
"""

from __future__ import annotations

import hashlib


def game_seed(seed: str, round_: int, table: int, replay: int = 0) -> str:
    """Return a table's game seed, derived from the tournament's seed."""
    text = f"{seed}:round:{round_}:table:{table}" + (f":replay:{replay}" if replay else "")
    return hashlib.sha256(text.encode()).hexdigest()
