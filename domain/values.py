"""Fast construction of frozen values, for the replay path.

A frozen dataclass's `__init__` (and so `dataclasses.replace`) sets every
field through `object.__setattr__`; handing the instance a filled dict is
several times faster, and folds run once per event of every replay. Only for
dataclasses without `__post_init__`: nothing is validated here.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from mypy_extensions import mypyc_attr

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


def detached(value: T) -> T:
    """Return a copy of a frozen dataclass built by its `__init__` that holds its fields in a dict of its own.

    CPython 3.11 keeps the fields of an instance built by `__init__` in a key table
    shared with its class; reading `__dict__` (as `changed` and `remembered` do) turns
    them into a "split" dict, which every later attribute read of it, and of every copy
    `changed` makes of it, looks up the slow way (about three times the instructions).
    Detach the first value of a long line of copies (a game's first state).
    """
    return new_value(type(value), **value.__dict__)


def changed(value: T, **changes: Any) -> T:
    """Return a copy of a frozen dataclass with some fields changed (a fast `dataclasses.replace`)."""
    instance = object.__new__(type(value))
    # A whole dict copied at once, then changed, is about twice as fast as filling an empty one.
    fields = value.__dict__.copy()
    fields.update(changes)
    fields.pop(MEMO, None)  # what was derived from the old value need not hold for the new one
    _set(instance, "__dict__", fields)
    return instance


def remembered(value: Any, key: Hashable, derive: Callable[[Any], R]) -> R:
    """Return `derive(value)`, derived once per frozen value: a card set's lookup tables, built as they are asked for."""
    fields = value.__dict__
    memo = fields.get(MEMO)
    if memo is None:
        memo = fields[MEMO] = {}
    elif key in memo:
        known: R = memo[key]
        return known
    derived = memo[key] = derive(value)
    return derived


# A frozen dataclass refuses assignment; its dict is set through object's own __setattr__.
_set = object.__setattr__


def _refuse(*args: Any, **kwargs: Any) -> Any:
    """Refuse a change to a `FrozenDict` (bound as its method when interpreted, called plain when compiled)."""
    raise TypeError("a shared view fragment is read-only: copy it (dict(...)) to change it")


@mypyc_attr(native_class=False)
class FrozenDict(dict[str, Any]):
    """A JSON object shared by many views (a card as a view describes it): equal to a dict, serialised as one, never changed.

    Building a view's every card afresh costs more than the rest of the view;
    one shared description per card is safe only if no reader can change it, so
    this refuses every change. A copy (`dict(d)`, `copy.copy`, `copy.deepcopy`,
    pickle) is a plain dict again.
    """

    __slots__ = ()

    # One name a line: mypyc compiles no chained assignment in a class body. `_refuse` is the module's: a
    # method defined in the body is not yet in the class's namespace there once compiled.
    __setitem__ = _refuse
    __delitem__ = _refuse
    clear = _refuse
    pop = _refuse
    popitem = _refuse
    setdefault = _refuse
    update = _refuse
    __ior__ = _refuse

    def copy(self) -> dict[str, Any]:
        """Return a plain, changeable dict with the same items."""
        return dict(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (dict(self),))

    def __copy__(self) -> dict[str, Any]:
        return dict(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        return {key: copy.deepcopy(value, memo) for key, value in self.items()}
