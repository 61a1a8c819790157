"""Fast construction of frozen values, for the replay path.

A frozen dataclass's `__init__` (and so `dataclasses.replace`) sets every
field through `object.__setattr__`; handing the instance a filled dict is
several times faster, and folds run once per event of every replay. Only for
dataclasses without `__post_init__`: nothing is validated here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")
# Where a frozen value keeps facts derived from it (see `remembered`); not a field, so
# equality, hashing and `dataclasses.replace` ignore it, and `changed` leaves it behind.
MEMO = "__memo__"


def new_value(cls: type[T], **fields: Any) -> T:
    """Build a frozen dataclass instance from all of its fields, without `__init__`."""
    instance = object.__new__(cls)
    # The keyword dict is the instance's own: hand it over rather than copy it.
    _set(instance, "__dict__", fields)
    return instance


def changed(value: T, **changes: Any) -> T:
    """Return a copy of a frozen dataclass with some fields changed (a fast `dataclasses.replace`)."""
    instance = object.__new__(type(value))
    # A whole dict copied at once, then changed, is about twice as fast as filling an empty one.
    fields = value.__dict__.copy()
    fields.update(changes)
    fields.pop(MEMO, None)  # what was derived from the old value need not hold for the new one
    _set(instance, "__dict__", fields)
    return instance


def remembered(value: Any, key: str, derive: Callable[[Any], R]) -> R:
    """Return `derive(value)`, derived once per frozen value: the rules ask the same question of one state repeatedly."""
    fields = value.__dict__
    memo = fields.get(MEMO)
    if memo is None:
        memo = fields[MEMO] = {}
    elif key in memo:
        return memo[key]
    derived = memo[key] = derive(value)
    return derived


# A frozen dataclass refuses assignment; its dict is set through object's own __setattr__.
_set = object.__setattr__
