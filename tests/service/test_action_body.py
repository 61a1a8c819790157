"""An action body the shortcut takes is loaded as `ActionSchema` loads it; what it does not take, the schema judges."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import ValidationError

from service.http.schemas import ACTION, MAX_VERSION, plain_action_body

# Numbers at and around every bound the schema has, and the JSON values that are not whole numbers.
_EDGES = [-(2**63), -1, 0, 1, MAX_VERSION - 1, MAX_VERSION, MAX_VERSION + 1, 2**63 - 1]
_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from(_EDGES),
    st.integers(),
    st.floats(allow_nan=False),
    st.sampled_from([0.0, 1.0, -1.0, 12.0]),
    st.text(max_size=4),
)
_JSON = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=8,
)
_KEYS = st.one_of(st.sampled_from(["action", "expected_version", "Action", "view", "expectedVersion", ""]), st.text())
# The fields' values as a client sends them, right or wrong.
_ACTIONS = st.one_of(st.dictionaries(st.text(max_size=6), _JSON, max_size=4), _JSON)
_VERSIONS = st.one_of(st.sampled_from(_EDGES), st.integers(min_value=0, max_value=MAX_VERSION), _JSON)


def _schema_answer(data: dict[str, Any]) -> tuple[str, Any]:
    try:
        return "loaded", ACTION.load(data)
    except ValidationError as refused:
        return "refused", refused.messages


def _agree(data: dict[str, Any]) -> None:
    quick = plain_action_body(data)
    if quick is not None:
        assert ("loaded", quick) == _schema_answer(data)
        assert list(quick) == list(ACTION.load(data))  # the same keys, in the same order


@settings(max_examples=2000)
@given(
    action=_ACTIONS,
    version=_VERSIONS,
    shape=st.sampled_from(["both", "action", "version", "neither"]),
    extra=st.dictionaries(_KEYS, _JSON, max_size=2),
)
def test_an_action_body_the_shortcut_takes_is_what_the_schema_loads(action, version, shape, extra):
    data = {**extra}
    if shape in ("both", "action"):
        data["action"] = action
    if shape in ("both", "version"):
        data["expected_version"] = version
    _agree(data)


@settings(max_examples=500)
@given(st.dictionaries(_KEYS, _JSON, max_size=4))
def test_any_object_the_shortcut_takes_is_what_the_schema_loads(data):
    _agree(data)


@given(
    action=st.dictionaries(st.text(max_size=6), _JSON, max_size=4),
    version=st.one_of(st.none(), st.integers(min_value=0, max_value=MAX_VERSION)),
)
def test_the_shortcut_takes_every_usual_body(action, version):
    data = {"action": action} if version is None else {"action": action, "expected_version": version}
    assert plain_action_body(data) == ACTION.load(data)
