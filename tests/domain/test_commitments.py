"""Hidden values are chained only as salted commitments; one canonical encoder for hashes and the store."""

from __future__ import annotations

import copy
import json
import math
import random

import pytest

from domain.audit import audit
from domain.canonical import NonCanonicalValue, canonical_json
from domain.commitments import commit, commitment_key, opens, verify_published
from domain.errors import OptionsError
from domain.events import GENESIS_HASH, chain_hash
from projections.game import redact_log
from tests.support.tables import new_table, play_randomly


@pytest.fixture(scope="module")
def finished():
    table = play_randomly(new_table("bloede-kuh", 3, seed="commit-bk"), random.Random(5))
    return table


def rechain(events: list[dict]) -> list[dict]:
    """Recompute every hash over the stored commitments (a forger without the seed's keys)."""
    previous = GENESIS_HASH
    for event in events:
        event["hash"] = chain_hash(previous, {k: v for k, v in event.items() if k != "hash"})
        previous = event["hash"]
    return events


# --- the canonical encoder -------------------------------------------------------


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, json.loads("1e400"), 1 << 64, -(1 << 63) - 1])
def test_non_finite_numbers_and_huge_integers_have_no_canonical_form(value):
    with pytest.raises(NonCanonicalValue) as raised:
        canonical_json({"action": {"type": "trade", "extra": [value]}})
    assert isinstance(raised.value, OptionsError)  # an OptionsError is a 400 (service.http.errors.STATUS)
    assert str(value) not in raised.value.message


def test_a_lone_surrogate_has_no_canonical_form():
    with pytest.raises(NonCanonicalValue):
        canonical_json({"name": "\ud800"})


@pytest.mark.parametrize("value", [{"b": [1, 2.5, -0.0, None, True], "a": "ü😀"}, {"n": (1 << 63) - 1}, []])
def test_the_canonical_form_is_sorted_compact_ascii_json(value):
    assert canonical_json(value) == json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


# --- commitments -------------------------------------------------------------------


def test_hidden_values_are_stored_with_their_commitments_and_chained_only_through_them(finished):
    dealt = next(e for e in finished.log if e.type == "CardsDealt")
    assert dealt.chain == 2 and set(dealt.commitments) == {"data.hands.0", "data.hands.1", "data.hands.2", "data.draw"}
    for path, commitment in dealt.commitments.items():
        value = dealt.data[path.split(".")[1]]
        value = value[int(path.split(".")[2])] if path.count(".") == 2 else value
        assert opens(commitment, commitment_key(finished.seed, dealt.seq, path), value)
    body = dealt.body()
    body["data"] = {**body["data"], "hands": [["sheep"]] * 3}  # the clear values do not reach the hash
    assert chain_hash(finished.log[dealt.seq - 2].hash, body) == dealt.hash


def test_every_action_is_committed_and_opened_only_for_its_seat(finished):
    act = next(e for e in finished.log if (e.command or {}).get("kind") == "act")
    seat = act.command["seat"]
    assert "command.action" in act.commitments
    for viewer in (0, 1, 2, None):
        shown = redact_log("bloede-kuh", [act], viewer, seed=finished.seed)[0]
        assert shown["sealed"]["command"]["action"] == act.commitments["command.action"]
        openings = shown.get("openings", {})
        assert ("command.action" in openings) == (viewer == seat)


def test_a_seat_checks_its_whole_log_and_its_own_commitments_during_play(finished):
    for viewer in (0, 1, 2, None):
        log = redact_log("bloede-kuh", finished.log, viewer, seed=finished.seed)
        assert verify_published(log) is None
        own = [e for e in log if e.get("openings")]
        assert bool(own) == (viewer is not None)
        forged = copy.deepcopy(log)
        first = forged.index(own[0]) if own else 1
        if own:
            path = next(iter(forged[first]["openings"]))
            forged[first]["openings"][path]["value"] = "a card it never had"
        else:
            forged[first]["sealed"] = {"data": {"forged": True}}
        assert verify_published(forged) == forged[first]["seq"]


def test_the_open_log_audits_and_carries_every_commitment(finished):
    events = [event.to_dict() for event in finished.log]
    assert audit(events).ok
    assert verify_published(redact_log("bloede-kuh", finished.log, None, open_log=True)) is None


def test_a_hidden_value_changed_with_its_commitment_recomputed_under_a_wrong_key_is_caught_there(finished):
    events = [event.to_dict() for event in finished.log]
    index = next(i for i, e in enumerate(events) if e["type"] == "CardsDealt")
    dealt = events[index]
    dealt["data"]["draw"] = list(reversed(dealt["data"]["draw"]))
    dealt["commitments"]["data.draw"] = commit(
        commitment_key("a wrong seed", dealt["seq"], "data.draw"), dealt["data"]["draw"]
    )
    report = audit(rechain(events))
    assert not report.ok and report.failed_at == index + 1 and "does not open its commitment" in report.reason


def test_a_commitment_dropped_or_added_is_caught(finished):
    events = [event.to_dict() for event in finished.log]
    index = next(i for i, e in enumerate(events) if e["type"] == "CardsDealt")
    del events[index]["commitments"]["data.draw"]
    report = audit(rechain(copy.deepcopy(events)))
    assert not report.ok and report.failed_at == index + 1 and "not committed" in report.reason
    events = [event.to_dict() for event in finished.log]
    events[index]["commitments"]["data.round"] = "0" * 64
    report = audit(rechain(events))
    assert not report.ok and report.failed_at == index + 1


def test_a_game_cannot_mix_chain_schemes(finished):
    events = [event.to_dict() for event in finished.log]
    for event in events[5:]:
        event.pop("chain")
        event.pop("commitments", None)
    report = audit(rechain(events))
    assert not report.ok and report.failed_at == 6 and "scheme" in report.reason


def test_a_game_started_under_scheme_1_stays_on_it_and_still_audits():
    from pathlib import Path

    from domain.events import Event, RecordedEvent, record
    from domain.export import read_export
    from domain.game import replay
    from domain.sealing import Sealer

    _, events = read_export(
        (Path(__file__).parent.parent / "fixtures" / "life_is_life_v1.ndjson").read_text().splitlines()
    )
    game = replay(RecordedEvent.from_dict(e) for e in events[:-1])
    assert game.chain == 1
    seal = Sealer(game.type, "any")
    (more,) = record(
        [Event("Noted", {"hands": [["cat"]]})],
        after_seq=game.version,
        previous_hash=game.last_hash,
        time="t",
        command_id="c",
        command={"kind": "advance"},
        seal=seal,
        chain=game.chain,
    )
    assert "chain" not in more.to_dict() and "commitments" not in more.to_dict()
    assert audit(events).ok
