"""Animals on Board: the tiles, the numbers, and the departure of an ark (scoring)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import product
from typing import Any

from mypy_extensions import mypyc_attr

SPECIES = (
    "elephant", "panda", "crocodile", "tiger", "giraffe", "lion",
    "zebra", "fox", "gorilla", "turtle", "rhino", "hippo",
)  # fmt: skip
VALUES = (1, 2, 3, 4, 5)
SPECIES_IN_PLAY = {2: 8, 3: 10, 4: 12}
FACE_UP = {2: 8, 3: 10, 4: 12}
CRATES = 20
START_CRATES = 1
MAX_CRATES = 5
FULL_ARK = 10
HERD = 3
HERD_POINTS = 5
DEALT = 3
HIDDEN = "hidden"

TILE_KEY: dict[str, tuple[int, int]] = {
    f"{species}-{value}": (index, value) for index, species in enumerate(SPECIES) for value in VALUES
}


def tiles_of(species: Iterable[str]) -> tuple[str, ...]:
    """Return every tile of the given species, in canonical order."""
    return tuple(sorted((f"{s}-{v}" for s in species for v in VALUES), key=TILE_KEY.__getitem__))


def ordered(tiles: Iterable[str]) -> tuple[str, ...]:
    """Return tiles in canonical order (species as listed, then printed value)."""
    return tuple(sorted(tiles, key=TILE_KEY.__getitem__))


def species_of(tile: str) -> str:
    """Return a tile's species."""
    return tile.rsplit("-", 1)[0]


def value_of(tile: str) -> int:
    """Return a tile's printed value."""
    return TILE_KEY[tile][1]


def by_species(tiles: Iterable[str]) -> dict[str, list[str]]:
    """Group tiles by species, each list highest printed value first."""
    groups: dict[str, list[str]] = defaultdict(list)
    for tile in tiles:
        groups[species_of(tile)].append(tile)
    return {
        s: sorted(ts, key=value_of, reverse=True) for s, ts in sorted(groups.items(), key=lambda i: SPECIES.index(i[0]))
    }


def species_points(tiles: list[str]) -> int:
    """Score one species' tiles on a departed ark: a single its value, a herd 5 each."""
    if len(tiles) == 1:
        return value_of(tiles[0])
    return HERD_POINTS * len(tiles) if len(tiles) >= HERD else 0


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Departure:
    """One ark at departure: what was discarded, what stayed, and the score."""

    discarded_pairs: tuple[str, ...]
    trimmed: tuple[str, ...]
    ark: tuple[str, ...]
    single_points: int
    herd_points: int
    crate_points: int
    total: int
    species: int

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON-native form recorded in ArksDeparted."""
        return {
            "discarded_pairs": list(self.discarded_pairs),
            "trimmed": list(self.trimmed),
            "ark": list(self.ark),
            "single_points": self.single_points,
            "herd_points": self.herd_points,
            "crate_points": self.crate_points,
            "total": self.total,
            "species": self.species,
        }

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Departure:
        """Read the recorded form back."""
        return cls(
            tuple(raw["discarded_pairs"]), tuple(raw["trimmed"]), tuple(raw["ark"]),
            raw["single_points"], raw["herd_points"], raw["crate_points"], raw["total"], raw["species"],
        )  # fmt: skip


def depart(tiles: Iterable[str], crates: int) -> Departure:
    """Prepare an ark for departure: drop exact pairs, trim to 10 at best, and score it."""
    groups = by_species(tiles)
    pairs = [t for ts in groups.values() if len(ts) == 2 for t in ts]
    rest = {s: ts for s, ts in groups.items() if len(ts) != 2}
    kept = _best_trim(rest) if sum(map(len, rest.values())) > FULL_ARK else rest
    ark = [t for ts in kept.values() for t in ts]
    trimmed = [t for ts in rest.values() for t in ts if t not in set(ark)]
    singles = sum(species_points(ts) for ts in kept.values() if len(ts) == 1)
    herds = sum(species_points(ts) for ts in kept.values() if len(ts) >= HERD)
    return Departure(
        ordered(pairs), ordered(trimmed), ordered(ark), singles, herds, crates, singles + herds + crates, len(kept)
    )


def _best_trim(groups: dict[str, list[str]]) -> dict[str, list[str]]:
    """Keep 10 tiles, never exactly 2 of a species: most points, then most species.

    Ruling: the engine chooses for the player. Within a species the highest
    printed values stay (only a single's value counts, so this never loses).
    """
    names = list(groups)
    choices = [[k for k in (0, 1, 3, 4, 5) if k <= len(groups[s])] for s in names]
    best_key: tuple[bool, int, int] | None = None
    best: tuple[int, ...] = ()
    for counts in product(*choices):
        size = sum(counts)
        if size > FULL_ARK:
            continue
        points = sum(species_points(groups[s][:k]) for s, k in zip(names, counts) if k)
        key = (size == FULL_ARK, points, sum(1 for k in counts if k))
        if best_key is None or key > best_key:
            best_key, best = key, counts
    return {s: groups[s][:k] for s, k in zip(names, best) if k}
