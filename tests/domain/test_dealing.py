"""Shared and fixed dealing: who can choose or know a deal, written out so anyone can recompute it."""

from __future__ import annotations

import hashlib
import hmac
import itertools
import string

import pytest

from domain.canonical import canonical_json
from domain.chance import FIXED, SHARED, deal_seed, game_secret, seed_commitment
from domain.errors import RuleError
from domain.events import record
from domain.game import blank, decide, replay

SALT_A, SALT_B = "a" * 64, "b" * 64
SEED = "5eed" * 16
ENTROPY_ANN, ENTROPY_BOB = "0f" * 16, "e1" * 16


def create_command(secret: str, dealing: str | None, entropies: list[str | None]) -> dict:
    seats = [
        {"name": f"seat{i}", "bot": None, "token_sha256": "0" * 64, **({"entropy": e} if e else {})}
        for i, e in enumerate(entropies)
    ]
    command = {
        "kind": "create",
        "id": "g1",
        "game": "life-is-life",
        "seats": seats,
        "options": {},
        "seed_commitment": seed_commitment(secret),
    }
    return command if dealing is None else {**command, "dealing": dealing}


def dealt(secret: str, dealing: str | None, entropies: list[str | None]) -> dict:
    """Return the first deal of a game created with these seats (every seat taken at creation)."""
    events = decide(blank(), create_command(secret, dealing, entropies), secret)
    return next(event.data for event in events if event.type == "PhaseDealt")


def test_a_shared_deal_changes_with_any_seats_entropy_and_not_otherwise():
    secret = game_secret(SALT_A, SEED)
    first = dealt(secret, SHARED, [ENTROPY_ANN, ENTROPY_BOB, None])
    assert dealt(secret, SHARED, [ENTROPY_ANN, ENTROPY_BOB, None]) == first
    assert dealt(secret, SHARED, [ENTROPY_ANN, "e2" * 16, None])["hands"] != first["hands"]
    assert dealt(secret, SHARED, [None, ENTROPY_BOB, None])["hands"] != first["hands"]


def test_a_fixed_deal_is_the_creators_seed_whatever_the_salt():
    assert dealt(game_secret(SALT_A, "practice"), FIXED, [None] * 3) == dealt(
        game_secret(SALT_B, "practice"), FIXED, [None] * 3
    )


def test_the_deal_seed_is_the_documented_hmac_of_the_contributions():
    secret = game_secret(SALT_A, SEED)
    contributions = [ENTROPY_ANN, None, ENTROPY_BOB]
    by_hand = hmac.new(SEED.encode(), canonical_json(contributions).encode(), hashlib.sha256).hexdigest()
    assert deal_seed(secret, SHARED, contributions) == by_hand
    assert deal_seed(secret, FIXED, contributions) == SEED
    assert deal_seed("legacy-seed", None, contributions) == "legacy-seed"


def test_games_recorded_before_dealing_replay_as_they_were_dealt():
    # No `dealing` in the command: the secret is the seed, as every game before this had it.
    legacy = dealt("old-seed", None, [None] * 3)
    created = decide(blank(), create_command("old-seed", None, [None] * 3), "old-seed")
    assert "dealing" not in created[0].data and legacy["hands"]


@pytest.mark.parametrize(
    ("dealing", "entropy", "reason"),
    [(FIXED, ENTROPY_ANN, "only a shared deal"), (SHARED, "not hex" * 5, "hex digits"), (SHARED, "ab", "hex digits")],
)
def test_a_contribution_the_deal_cannot_take_is_refused(dealing, entropy, reason):
    secret = game_secret(SALT_A, SEED)
    with pytest.raises(RuleError, match=reason):
        decide(blank(), create_command(secret, dealing, [entropy, None, None]), secret)


def test_a_joining_seats_entropy_goes_into_the_deal_it_completes():
    secret = game_secret(SALT_A, SEED)
    command = create_command(secret, SHARED, [ENTROPY_ANN, ENTROPY_BOB, None])
    command["seats"][2] = None
    game = replay(
        record(
            decide(blank(), command, secret),
            after_seq=0,
            previous_hash="0" * 64,
            time="t",
            command_id="c",
            command=command,
        )
    )
    join = {"kind": "join", "seat": 2, "name": "cy", "token_sha256": "0" * 64}
    with_entropy = decide(game, {**join, "entropy": "77" * 16}, secret)
    without = decide(game, join, secret)
    assert with_entropy[0].data["entropy"] == "77" * 16 and "entropy" not in without[0].data
    hands = [next(e.data["hands"] for e in events if e.type == "PhaseDealt") for events in (with_entropy, without)]
    assert hands[0] != hands[1]


def test_a_short_fixed_seed_cannot_be_found_from_its_salted_commitment():
    alphabet = string.ascii_lowercase + string.digits
    short_seeds = ["".join(chars) for n in (1, 2, 3) for chars in itertools.product(alphabet, repeat=n)]
    published = seed_commitment(game_secret(SALT_A, "k7q"))
    # Unsalted (as before), the search finds it; salted, every guess misses.
    assert hashlib.sha256(b"k7q").hexdigest() in {hashlib.sha256(s.encode()).hexdigest() for s in short_seeds}
    assert not any(hashlib.sha256(s.encode()).hexdigest() == published for s in short_seeds)
