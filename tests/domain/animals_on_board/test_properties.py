"""Animals on Board: random legal games end with scores, conserve tiles and crates, replay, and never leak."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.games.animals_on_board.state import KEEP, OVER, State
from domain.games.animals_on_board.tiles import CRATES, MAX_CRATES, ordered, tiles_of
from projections import animals_on_board as projection
from projections.game import game_view
from tests.support.tables import Table, new_table

# --- Animals on Board: random legal games end with scores, conserve tiles and crates, replay, and never leak.

GAME = "animals-on-board"


def secret_from(state: State, seat: int) -> set[str]:
    """Tiles `seat` must not see: others' hidden tiles and hands, the face-down tile, the draw pile."""
    secret = set(state.bag)
    if state.face_down is not None:
        secret.add(state.face_down)
    for other, player in enumerate(state.players):
        if other != seat:
            secret |= player.hidden
            if state.phase == KEEP:
                secret |= set(state.hands[other])
    return secret - set(state.players[seat].tiles)


def strings(value: Any) -> set[str]:
    """Collect every string inside a JSON value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(strings(v) for v in value)) if value else set()
    return set()


def swapped(state: State, a: str, b: str) -> State:
    """Return the state with tiles a and b exchanged everywhere."""

    def sw(t: str | None) -> str | None:
        return b if t == a else a if t == b else t

    def many(ts: Any) -> tuple[str, ...]:
        return ordered(sw(t) for t in ts)  # type: ignore[misc]

    return replace(
        state,
        bag=frozenset(many(state.bag)),
        players=tuple(replace(p, tiles=many(p.tiles), hidden=frozenset(many(p.hidden))) for p in state.players),
        hands=tuple(many(h) for h in state.hands),
        kept=tuple(sw(t) for t in state.kept),
        centre=tuple(many(g) for g in state.centre),
        face_down=sw(state.face_down),
    )


def swap_json(value: Any, a: str, b: str) -> Any:
    """Exchange tiles a and b inside a JSON value."""
    if isinstance(value, str):
        return b if value == a else a if value == b else value
    if isinstance(value, dict):
        return {k: swap_json(v, a, b) for k, v in value.items()}
    if isinstance(value, list):
        return [swap_json(v, a, b) for v in value]
    return value


def check_conserved(state: State) -> None:
    everything = list(state.bag) + [t for g in state.centre for t in g] + [t for p in state.players for t in p.tiles]
    if state.phase == KEEP:
        everything += [t for h in state.hands for t in h]
    assert len(everything) == 5 * len(state.species) == {2: 40, 3: 50, 4: 60}[state.seats]
    assert sorted(everything) == sorted(tiles_of(state.species))
    assert state.supply + sum(p.crates for p in state.players) == CRATES
    assert all(0 <= p.crates <= MAX_CRATES for p in state.players) and state.supply >= 0
    assert state.face_down is None or any(state.face_down in g for g in state.centre)
    assert all(p.hidden <= set(p.tiles) for p in state.players)


def check_no_leak(table: Table, batch: list[Any], rng: random.Random) -> None:
    state = table.game.rules_state
    if state.phase == OVER:
        return
    for seat in range(state.seats):
        secret = secret_from(state, seat)
        view = game_view(table.game, seat)
        assert not strings(view) & secret, f"seat {seat} sees {strings(view) & secret}"
        redacted = [dict(projection.redact(e.event, seat)) for e in batch if e.type not in ("GameEnded",)]
        assert not strings(redacted) & secret
        if len(secret) >= 2:
            a, b = rng.sample(sorted(secret), 2)
            other = swapped(state, a, b)
            assert projection.seat_view(other, seat) == projection.seat_view(state, seat)
            assert table.game.rules.legal_actions(other, seat) == table.game.rules.legal_actions(state, seat)
            for event in batch:
                if event.type != "GameEnded":
                    moved = replace(event.event, data=swap_json(json.loads(json.dumps(event.data)), a, b))
                    assert projection.redact(moved, seat) == projection.redact(event.event, seat)


def play_checked(seats: int, seed: str, rng: random.Random) -> Table:
    table = new_table(GAME, seats, seed=seed)
    batch = list(table.log)
    for _ in range(5000):
        check_conserved(table.game.rules_state)
        check_no_leak(table, batch, rng)
        if table.game.status == "finished":
            return table
        if table.game.system_due:
            batch = table.advance()
            continue
        seat = rng.choice(sorted(table.game.to_act))
        batch = table.act(seat, rng.choice(table.game.legal_actions(seat)))
    raise AssertionError("the game did not end")


@settings(max_examples=60, deadline=None)
@given(seats=st.sampled_from([2, 3, 4]), seed=st.text(min_size=1, max_size=8), choice=st.integers(0, 2**32))
def test_random_games_end_conserve_replay_and_never_leak(seats: int, seed: str, choice: int) -> None:
    table = play_checked(seats, seed, random.Random(choice))
    result = table.game.result
    assert result is not None and len(result["places"]) == seats and min(result["places"]) == 1
    scores = result["detail"]["scores"]
    best = max(zip(scores, result["detail"]["species"]))
    assert all(
        (place == 1) == ((score, species) == best)
        for place, score, species in zip(result["places"], scores, result["detail"]["species"])
    )
    assert max(len(p.tiles) for p in table.game.rules_state.players) >= 10
    assert table.replayed() == table.game


def json_native(value: Any) -> bool:
    """Tell whether a value is built only of dicts with str keys, lists, str, int, bool and None."""
    if isinstance(value, dict):
        return all(isinstance(k, str) and json_native(v) for k, v in value.items())
    if isinstance(value, list):
        return all(json_native(v) for v in value)
    return value is None or isinstance(value, (str, int, bool))


@settings(max_examples=40, deadline=None)
@given(seats=st.sampled_from([2, 3, 4]), choice=st.integers(0, 2**32))
def test_events_are_json_native_and_evolve_alike_after_a_json_round_trip(seats: int, choice: int) -> None:
    from domain.chance import Chance
    from domain.games.animals_on_board import RULES

    rng = random.Random(choice)
    live = read_back = None
    events = RULES.setup(seats, {"left_out": []}, Chance(str(choice), 0))
    for version in range(1, 5000):
        for event in events:
            assert json_native(dict(event.data)) and json_native(RULES.legal_actions(live, 0) if live else [])
            live = RULES.evolve(live, event)
            read_back = RULES.evolve(read_back, replace(event, data=json.loads(json.dumps(event.data))))
            assert live == read_back
        if RULES.result(live) is not None:
            return
        if RULES.system_due(live):
            events = RULES.advance(live, Chance(str(choice), version))
        else:
            seat = rng.choice(sorted(RULES.to_act(live)))
            events = RULES.decide(live, seat, rng.choice(RULES.legal_actions(live, seat)), Chance(str(choice), version))
    raise AssertionError("the game did not end")
