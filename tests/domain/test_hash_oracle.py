"""Nothing a seat is shown confirms a hidden value: not the hashes, not the commitments, not the view.

For every game, random games are played (seeded, bounded); for every event of
every seat's log (and the spectator's), every value hidden from that viewer
is tried against every candidate of its domain — every card or tile name the
game uses in place of it, each single-card change of a hand, a pile or an
action — and no candidate may reproduce the published hash, open the
published commitment unsalted or under a key the viewer holds, or appear
where the commitment stands.
"""

from __future__ import annotations

import copy
import hashlib
import random
from collections.abc import Iterator
from typing import Any

import pytest

from domain.canonical import canonical_bytes
from domain.commitments import commit, hash_sealed, published_sealed_form, verify_published
from domain.events import GENESIS_HASH, RecordedEvent
from domain.sealing import Sealer, declaration, hidden_in
from domain.values import changed
from projections.game import redact_log
from tests.support.tables import new_table, play_randomly

GAMES = [("life-is-life", 3), ("animals-on-board", 2), ("animals-on-board", 3), ("bloede-kuh", 3), ("zop-zoo", 2)]


@pytest.fixture(scope="module", params=GAMES, ids=[f"{game}-{seats}" for game, seats in GAMES])
def played(request: pytest.FixtureRequest) -> tuple[str, str, list[RecordedEvent]]:
    game, seats = request.param
    seed = f"oracle-{game}-{seats}"
    table = play_randomly(new_table(game, seats, seed=seed), random.Random(11))
    return game, seed, table.log


def _names(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return {name for item in value.values() for name in _names(item)}
    if isinstance(value, list):
        return {name for item in value for name in _names(item)}
    return set()


def candidates(value: Any, names: list[str]) -> Iterator[Any]:
    """Yield the value itself, then every value one name (or one small number) away from it."""
    yield value
    if isinstance(value, str):
        yield from names
    elif isinstance(value, int) and not isinstance(value, bool):
        yield from range(-1, 20)
    elif isinstance(value, list) and value:
        # A hand, a pile or a deck: its domain is combinatorial, so every name
        # goes in once, each at its own position in turn.
        for number, name in enumerate(names):
            index = number % len(value)
            yield [*value[:index], name, *value[index + 1 :]]
    elif isinstance(value, dict):
        for key, item in value.items():
            for other in candidates(item, names):
                yield {**value, key: other}


def _at(record: Any, path: str) -> Any:
    for part in path.split("."):
        record = record[int(part)] if isinstance(record, list) else record[part]
    return record


def _with(record: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """Return a copy of `record` with `value` at `path` (only the containers on the path are copied)."""
    out = dict(record)
    inner: Any = out
    parts = path.split(".")
    for part in parts[:-1]:
        key: Any = int(part) if isinstance(inner, list) else part
        inner[key] = copy.copy(inner[key])
        inner = inner[key]
    inner[int(parts[-1]) if isinstance(inner, list) else parts[-1]] = value
    return out


def test_no_published_value_confirms_a_hidden_one(played):
    game, seed, log = played
    names = sorted({name for event in log for name in _names(event.data) | _names(event.command or {})})
    declared = declaration(game)
    seats = log[0].data["seats"]
    tried = 0
    for viewer in [*range(seats), None]:
        published = redact_log(game, log, viewer, seed=seed)
        assert verify_published(published) is None, "the viewer's own log must check out"
        previous = GENESIS_HASH
        for event, shown in zip(log, published):
            keys = [bytes.fromhex(o["key"]) for o in (shown.get("openings") or {}).values()]
            sealed = published_sealed_form(shown)
            for hidden in hidden_in(declared, event.type, event.data, event.actor, event.command):
                if viewer is not None and viewer in hidden.seers:
                    continue
                commitment = shown["commitments"][hidden.path]
                assert hidden.path not in (shown.get("openings") or {})
                assert _at(sealed, hidden.path) == commitment
                for candidate in candidates(hidden.value, names):
                    tried += 1
                    assert hashlib.sha256(canonical_bytes(candidate)).hexdigest() != commitment
                    assert all(commit(key, candidate) != commitment for key in keys)
                    assert hash_sealed(previous, _with(sealed, hidden.path, candidate)) != shown["hash"]
            previous = shown["hash"]
    assert tried > 0


def test_a_seat_log_is_the_same_whatever_the_values_hidden_from_it_but_for_commitments(played):
    game, seed, log = played
    names = sorted({name for event in log for name in _names(event.data)})
    seal = Sealer(game, seed)
    rng = random.Random(3)
    seats = log[0].data["seats"]
    for event in log:
        hidden_values = list(hidden_in(seal.declared, event.type, event.data, event.actor, event.command))
        for viewer in [*range(seats), None]:
            for hidden in hidden_values:
                if (viewer is not None and viewer in hidden.seers) or not hidden.path.startswith("data."):
                    continue
                other = rng.choice(list(candidates(hidden.value, names))[1:] or [hidden.value])
                data = _with({"data": dict(event.data)}, hidden.path, other)["data"]
                redealt = changed(event, data=data)
                redealt = changed(redealt, commitments=seal(event.seq, redealt.event, event.command) or None)
                assert _masked(redact_log(game, [redealt], viewer, seed=seed)[0]) == _masked(
                    redact_log(game, [event], viewer, seed=seed)[0]
                )


def _masked(shown: dict[str, Any]) -> dict[str, Any]:
    """Drop what may differ: the commitments, where they stand in the sealed form, and the hash over them."""
    out = {key: value for key, value in shown.items() if key not in ("commitments", "hash")}
    if "sealed" in out:
        sealed = copy.deepcopy(out["sealed"])
        for path in shown.get("commitments") or {}:
            head, _, rest = path.partition(".")
            if head in sealed:
                sealed[head] = _with({"x": sealed[head]}, f"x.{rest}", "C")["x"]
        out["sealed"] = sealed
    return out
