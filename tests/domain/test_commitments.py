"""Hidden values are chained only as salted commitments; one canonical encoder for hashes and the store."""

from __future__ import annotations

import collections
import copy
import dataclasses
import datetime
import decimal
import enum
import hmac
import json
import math
import random
import struct
import uuid
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.audit import audit
from domain.canonical import NonCanonicalValue, _fast_bytes, _standard, canonical_bytes, canonical_json
from domain.commitments import CHAIN_VERSION, commit, commitment_key, opens, verify_published
from domain.errors import OptionsError
from domain.events import GENESIS_HASH, Event, chain_hash, record, stored_json
from domain.sealing import Sealer
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


# --- the fast path: orjson's text only where it is the standard library's, byte for byte ---


def outcome(encode: Any, value: Any) -> Any:
    """What an encoder makes of a value: its text, or the type of what it raised."""
    try:
        return encode(value)
    except Exception as error:  # noqa: BLE001 - the type raised is the outcome compared
        return type(error)


def assert_as_the_standard_library(value: Any) -> None:
    expected = outcome(_standard, value)  # the standard library's encoder and checks, as before the fast path
    assert outcome(canonical_json, value) == expected
    assert outcome(canonical_bytes, value) == (expected.encode("ascii") if isinstance(expected, str) else expected)


# Subclasses: the standard library writes most as their base type (an int by int.__repr__, a dict by its
# own items()); orjson, passed through, refuses them.
class Text(str):
    pass


class Number(int):
    def __repr__(self) -> str:
        return "not a number"


class Real(float):
    pass


class Shadowed(dict):
    def items(self) -> Any:
        return [("shadowed", 1)]


class Items(list):
    pass


class Pair(tuple):
    pass


class Plain(enum.Enum):
    A = 1


class Level(enum.IntEnum):
    LOW = 1


class Colour(enum.StrEnum):
    RED = "red"


class Shown(enum.StrEnum):
    """A str enum whose value is not its text: orjson writes the value, the standard library the text."""

    def __new__(cls, text: str, value: int) -> Shown:
        member = str.__new__(cls, text)
        member._value_ = value
        return member

    ONE = ("one", 1)

    def __repr__(self) -> str:  # the str enum's own repr would show the value as a str
        return f"Shown.{self.name}"


class Faulty(enum.Enum):
    """An enum whose value raises: orjson 3.13 crashes the process on it, so it must never meet one."""

    A = 1

    @property
    def value(self) -> int:
        raise KeyError("no value")


@dataclasses.dataclass
class Record:
    x: int = 1


def nested(depth: int, inner: Any = 1) -> Any:
    for _ in range(depth):
        inner = [inner]
    return inner


def cycle() -> list:
    looped: list = []
    looped.append(looped)
    return looped


EDGES = [
    # orjson writes non-ASCII as raw UTF-8, the standard library as \uXXXX
    "é",
    {"a": "ü😀"},
    {"é": 1},
    "\u2028",
    "\U0010ffff",
    # orjson writes DEL as it is
    "\x7f",
    {"\x7f": "\x7f"},
    # lone surrogates: orjson refuses them, the standard library writes them and the check refuses them
    "\ud800",
    {"\udfff": 1},
    ["\ud83d"],
    "\\ud800",  # a backslash, "u", "d": ASCII text
    # every ASCII character, as a value and as a key: \b \f \n \r \t, other controls as \u00XX, " and \\, /
    "".join(map(chr, range(128))),
    {chr(code): code for code in range(128)},
    '"\\/',
    # NaN and the infinities: orjson writes null
    math.nan,
    [math.inf],
    {"a": -math.inf, "b": None},
    [None, math.nan],
    # null is None's too: written fast only if marshal's stream holds no NaN or infinity, shared or not
    None,
    {"a": None},
    "null",
    [None, float("nan")],  # a float of its own: marshal writes "g" and its bytes
    [None, math.inf, math.inf],  # one float twice: marshal numbers it (0xE7) and refers back to it
    {"a": None, "b": -math.nan, "c": (float("-inf"),)},
    [None, struct.unpack("<d", b"\x01\x00\x00\x00\x00\x00\xf0\x7f")[0]],  # a NaN with a payload
    nested(200, [None, math.nan]),
    {"a": None, "pig": [-1, -(2**31), 2**31 - 1], "g": "giraffe"},
    # floats: orjson writes those from 1e-9 up to 1e-4 otherwise (1e-05 as 0.00001, 1e-07 as 1e-7)
    1e-05,
    -1e-05,
    1e-07,
    [8.552255801932976e-05],
    [-5.496311670270056e-06],
    {"a": 1e-07},
    [1.5e-09],
    [1e-10, 1e-4, 1e16, 1e22, 1e-300, 1.2345678901234568e17, -1.5e300],
    [5e-324, -5e-324, 1.7976931348623157e308, 2.2250738585072014e-308],
    [-0.0, 0.0, 0.1, 1.0, 100.0, 1.5, -1.5, 2.0**53, 2.0**64],
    {"b": [1, 2.5, -0.0, True], "a": "x"},
    # strings that look like numbers: only ever a false alarm
    ["1.5", "v1.2", ":1.5,", "[1e5]", "-1e-05", "1e+16", "a-1e5-b", "2026-05-09T07:35:25.123Z"],
    {"1.5": "e", ",": ".", "-": "+"},
    # integers: orjson refuses beyond 2**53 here; 64 bits the limit of the canonical form
    [2**53 - 1, -(2**53 - 1)],
    [2**53],
    [-(2**53)],
    [2**63 - 1, -(2**63)],
    [2**63],
    [-(2**63) - 1],
    [2**64 - 1],
    [10**30],
    5,
    -5,
    0,
    True,
    False,
    [True, False, 0, 1],
    # keys: the standard library writes int, float, bool and None keys as strings; orjson refuses them
    {1: "a"},
    {True: 1, False: 0},
    {None: 1},
    {1.5: 1, math.nan: 2},
    {1: 1, "1": 2},
    {1: 0, "a": 0},
    # key order: code points, sorted before they are escaped
    {"b": 1, "a": 2, "B": 3, "_": 4, "~": 5, "a\x00": 6, "": 7, "\n": 8, '"': 9, "\\": 10},
    # tuples are arrays
    (1, 2),
    {"a": (1, "x", ())},
    # subclasses: the standard library writes most as their base type, orjson passes them through and refuses them
    Text("x"),
    {Text("k"): 1},
    Number(3),
    [Real(1.5)],
    Shadowed(a=1),
    collections.OrderedDict(b=1, a=2),
    Items([1, 2]),
    Pair((1, 2)),
    collections.namedtuple("Point", "x y")(1, 2),
    # types orjson writes and the standard library does not, or writes otherwise
    Plain.A,
    [Plain.A],
    {"level": Level.LOW},
    [Colour.RED],
    Shown.ONE,
    {"shown": Shown.ONE},
    [Faulty.A],
    uuid.UUID(int=5),
    orjson.Fragment(b'{"a":1}'),
    Record(),
    datetime.datetime(2026, 1, 1),
    datetime.date(2026, 1, 1),
    datetime.time(12, 0),
    decimal.Decimal("1.5"),
    # types marshal writes and the standard library does not
    b"x",
    bytearray(b"x"),
    memoryview(b"x"),
    {1, 2},
    frozenset(),
    1j,
    ...,
    # nesting: orjson stops at 255 levels, marshal at 2000, the standard library at the recursion limit
    nested(254),
    nested(256),
    nested(300, {"a": "b"}),
    nested(2500),
    nested(100_000),
    cycle(),
]


@pytest.mark.parametrize("value", EDGES, ids=range(len(EDGES)))
def test_every_known_difference_of_orjson_is_written_as_the_standard_library_does(value):
    assert_as_the_standard_library(value)


def test_plain_values_take_the_fast_path(finished):
    """Not a vacuous fast path: values like an event's go through orjson."""
    events = [event.to_dict() for event in finished.log]
    fast = [event for event in events if _fast_bytes(event) is not None]
    assert len(fast) > len(events) / 2
    for event in events:
        assert_as_the_standard_library(event)
    assert _fast_bytes({"type": "place", "cards": ["sheep", "cow"], "seat": 1, "done": False, "n": -3}) is not None
    assert _fast_bytes({"bot": None, "scores": [-30, 255, 127], "seat": 0}) is not None  # 0xFF and 0x7F, no float


@pytest.mark.parametrize(
    "value",
    [{"a": "\x7f"}, {"a": "é"}, ["\u2028"], 7, -3, {"n": 103}, {"n": 231}, {"s": "g\xe7"}, {"s": ":.:"}, {"f": 1.5}],
)
def test_a_value_without_floats_is_checked_by_its_strings_alone(value):
    """No float in marshal's stream: DEL and non-ASCII text still go the standard way; a float's type byte elsewhere costs only the shape."""
    assert_as_the_standard_library(value)


def test_text_that_only_looks_like_a_float_takes_the_fast_path():
    assert _fast_bytes({"s": "x:1.5,y"}) == b'{"s":"x:1.5,y"}'


_ASCII = st.text(st.characters(max_codepoint=0x7F), max_size=10)
_TEXTS = (
    _ASCII
    | st.text(st.sampled_from('0123456789.eE+-:,[]{}"\\/nul'), max_size=10)  # number-like and structural
    | st.text(st.characters(exclude_categories=()), max_size=6)  # any code point, lone surrogates too
)
_BOUNDS = [2**53 - 1, 2**53, 2**63 - 1, 2**63, 2**64 - 1, 2**64, 10**18, 10**19]
_INTS = st.integers() | st.integers(-(2**65), 2**65) | st.sampled_from(_BOUNDS + [-bound for bound in _BOUNDS])
# Any float, and those orjson writes otherwise (from 1e-9 up to 1e-4) more often than any float would be.
_FLOATS = (
    st.floats() | st.floats(1e-10, 1e-4) | st.floats(-1e-4, -1e-10) | st.sampled_from([math.nan, math.inf, -math.inf])
)
# Values of other types, which orjson writes (or refuses) and the standard library refuses (or writes).
_OTHERS = st.sampled_from(
    [Text("x"), Number(3), Real(1.5), Plain.A, Level.LOW, Colour.RED, Shown.ONE, uuid.UUID(int=5), Record(), b"x"]
)
_SCALARS = st.none() | st.booleans() | _INTS | _FLOATS | _TEXTS | _OTHERS
_PLAIN = st.booleans() | st.integers(-(2**53), 2**53) | _ASCII  # what events hold: the fast path's own
_KEYS = _TEXTS | _INTS | st.booleans() | st.none() | _FLOATS
JSON_ISH = st.recursive(
    _SCALARS | _PLAIN,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.lists(inner, max_size=4).map(tuple)
        | st.dictionaries(_ASCII, inner, max_size=4)
        | st.dictionaries(_KEYS, inner, max_size=4)
    ),
    max_leaves=24,
)


@settings(max_examples=300, deadline=None)
@given(JSON_ISH)
def test_any_json_ish_value_is_written_as_the_standard_library_does(value):
    assert_as_the_standard_library(value)


def record_generally(data: dict[str, Any], action: Any) -> tuple[str, bytes]:
    """Seal, hash and encode one event by the general definitions: `chain_hash` of its body, the store's canonical JSON."""
    command = {"kind": "act", "seat": 1, "action": action}
    event = Event("CardTaken", data, 1)
    commitments = Sealer("bloede-kuh", "seed")(1, event, command) or None
    body = {"seq": 1, "type": event.type, "actor": 1, "data": data, "time": "t", "command_id": "c", "v": 1}
    body.update(command=command, chain=CHAIN_VERSION, **({"commitments": commitments} if commitments else {}))
    hash_ = chain_hash(GENESIS_HASH, body)
    return hash_, canonical_bytes({**body, "hash": hash_})


def record_once(data: dict[str, Any], action: Any) -> tuple[str, bytes]:
    """The same by `record`, which checks the stored body once for its sealed form and its stored JSON."""
    command = {"kind": "act", "seat": 1, "action": action}
    recorded = record(
        [Event("CardTaken", data, 1)],
        after_seq=0,
        previous_hash=GENESIS_HASH,
        time="t",
        command_id="c",
        command=command,
        seal=Sealer("bloede-kuh", "seed"),
    )
    return recorded[0].hash, stored_json(recorded[0])


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["draw", "discard"]), JSON_ISH, JSON_ISH, st.dictionaries(_ASCII, JSON_ISH, max_size=3))
def test_record_hashes_and_stores_any_event_as_the_general_definitions_do(source, card, action, more):
    """The card is hidden (committed) when taken from the draw pile, the action always: values in and out of the seal."""
    data = {**more, "from": source, "card": card}
    assert outcome(lambda _: record_once(data, action), None) == outcome(lambda _: record_generally(data, action), None)


# --- commitments -------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(
    st.text(max_size=150) | st.text(st.characters(max_codepoint=0x7F), min_size=60, max_size=70), st.integers(1, 10**6)
)
def test_a_commitment_key_is_the_hmac_of_its_seed_and_place(seed, seq):
    """commitment_key starts from the seed's padded key hashed once; it is HMAC-SHA-256 still, short and long seeds alike."""
    path = "data.hands.2"
    expected = hmac.digest(seed.encode("utf-8"), f"{seq}:{path}".encode("ascii"), "sha256")
    assert commitment_key(seed, seq, path) == expected
    commitment_key.cache_clear()
    assert commitment_key(seed, seq, path) == expected  # from the seed's kept pads, unchanged by the first use


def test_hidden_values_are_stored_with_their_commitments_and_chained_only_through_them(finished):
    dealt = next(e for e in finished.log if e.type == "CardsDealt")
    assert dealt.chain == CHAIN_VERSION and set(dealt.commitments) == {
        "data.hands.0",
        "data.hands.1",
        "data.hands.2",
        "data.draw",
    }
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
