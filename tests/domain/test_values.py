"""Frozen values' helpers: a shared view fragment (`FrozenDict`) reads like a dict and cannot be changed."""

from __future__ import annotations

import copy
import json
import pickle

import orjson
import pytest

from domain.values import FrozenDict


def test_a_frozen_dict_equals_the_dict_it_was_made_from_and_serialises_as_one() -> None:
    shown = FrozenDict({"id": "b:lion", "value": 10})
    assert shown == {"id": "b:lion", "value": 10}
    assert json.loads(json.dumps(shown)) == orjson.loads(orjson.dumps(shown)) == {"id": "b:lion", "value": 10}


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.__setitem__("value", 0),
        lambda d: d.__delitem__("value"),
        lambda d: d.update(value=0),
        lambda d: d.pop("value"),
        lambda d: d.popitem(),
        lambda d: d.setdefault("name", "x"),
        lambda d: d.clear(),
        lambda d: d.__ior__({"value": 0}),
    ],
)
def test_a_frozen_dict_refuses_every_change(change) -> None:
    shown = FrozenDict({"id": "b:lion", "value": 10})
    with pytest.raises(TypeError, match="read-only"):
        change(shown)
    assert shown == {"id": "b:lion", "value": 10}


def test_every_copy_of_a_frozen_dict_is_a_plain_dict_that_may_change() -> None:
    shown = FrozenDict({"id": "b:lion", "value": 10})
    for copied in (
        shown.copy(),
        dict(shown),
        copy.copy(shown),
        copy.deepcopy(shown),
        pickle.loads(pickle.dumps(shown)),
    ):
        assert type(copied) is dict and copied == shown
        copied["value"] = 0
    assert shown["value"] == 10
