"""Who a person is to the service: handles, and the names nobody may take.

A player account has a handle, unique after normalisation: NFKC, then case
folding, so `Ann`, `ANN` and `Ａｎｎ` (full-width) are one handle. Two handles
that merely look alike are one handle too: each has a *skeleton* (after
Unicode TR39's idea: every character mapped to the Latin letter it is
confusable with), and a handle whose skeleton is another's is refused as a
look-alike. The table below is small on purpose: the Cyrillic and Greek
letters drawn like Latin ones, digits drawn like letters (`0`/`o`, `1`/`l`),
`i`/`l` (a capital `I` is drawn like `l`) and `rn`/`m`, `vv`/`w`. Handles are
letters, digits and `_ - .` only, so no space, no invisible character, no
mark from another script can hide in one; the letters of one handle are from
one script among Latin, Cyrillic and Greek (`pаypal`, with a Cyrillic `а`, is
refused even while no `paypal` exists).

Some prefixes are the service's: `bot:` names a bot program's rating, and
`player:` an account's. A person may not take a name that begins with one,
in any case or look-alike spelling, as a handle or as a guest's seat or
entrant name (`check_name`); `system` and `admin` are not names for people
either, nor `erased`: it is what every view shows in place of the handle of an
account whose player erased it (`ERASED`), so no live account may look like one.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from mypy_extensions import mypyc_attr

from domain.errors import DomainError

HANDLE_LENGTH = (3, 24)
# What a handle is made of, once normalised: letters and digits of any script, and `_ - .` between them.
_HANDLE = re.compile(r"^[^\W_](?:[\w.\-]*[^\W_])?$")
RESERVED_PREFIXES = ("bot:", "player:", "system:", "admin:")
# What every view shows where an erased account's handle was (the account's id stays, in the chains too).
ERASED = "erased"
RESERVED_NAMES = frozenset({"system", "admin", "bot", "player", ERASED})

# Look-alikes of Latin letters (lower case: the skeleton is taken of the case-folded handle).
_CONFUSABLE_LETTERS = {
    # Cyrillic
    "а": "a", "в": "b", "с": "c", "ԁ": "d", "е": "e", "ё": "e", "һ": "h", "і": "l", "ї": "l",
    "ј": "j", "к": "k", "ӏ": "l", "м": "m", "н": "h", "о": "o", "р": "p", "ԛ": "q", "г": "r",
    "ѕ": "s", "т": "t", "џ": "u", "ѵ": "v", "ԝ": "w", "х": "x", "у": "y", "ү": "y", "з": "3",
    "ь": "b", "п": "n", "л": "n", "и": "u",
    # Greek
    "α": "a", "β": "b", "ϲ": "c", "ε": "e", "η": "n", "ι": "l", "κ": "k", "ν": "v", "ο": "o",
    "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "γ": "y", "ω": "w", "ϳ": "j", "μ": "u",
    # Latin and digits drawn alike
    "0": "o", "1": "l", "i": "l", "|": "l", "5": "s", "ı": "l",
}  # fmt: skip
_CONFUSABLE_PAIRS = (("rn", "m"), ("vv", "w"))
_SKELETON = str.maketrans(_CONFUSABLE_LETTERS)
_SCRIPTS = ("LATIN", "CYRILLIC", "GREEK")


class HandleError(DomainError):
    """A handle or a name a person may not have (HTTP 422)."""

    code = "invalid_handle"


class InvalidHandle(HandleError):
    """Not a handle: too short or long, or a character a handle may not hold."""

    code = "invalid_handle"


class HandleReserved(HandleError):
    """A name the service keeps for itself (`bot:...`, `system`), in any spelling."""

    code = "handle_reserved"


class HandleConfusable(HandleError):
    """A handle that looks like another (an account's), or mixes look-alike scripts."""

    code = "handle_confusable"


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Handle:
    """A handle as typed, and the two forms it is unique under."""

    display: str
    normal: str  # NFKC, case folded: two handles equal here are the same handle
    skeleton: str  # look-alikes mapped: two handles equal here look the same


def normalise(text: str) -> str:
    """Return the form under which two spellings are the same name: NFKC, then case folded (then NFKC again)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


def skeleton(text: str) -> str:
    """Return what `text` looks like: its normal form with every look-alike replaced by the letter it imitates."""
    shown = unicodedata.normalize("NFD", normalise(text))
    # Marks that sit on a letter (an accent) are dropped: `é` and `e` differ, but not enough to tell people apart.
    shown = "".join(c for c in shown if not unicodedata.combining(c)).translate(_SKELETON)
    for pair, letter in _CONFUSABLE_PAIRS:
        shown = shown.replace(pair, letter)
    return shown


_RESERVED_PREFIX_SKELETONS = tuple(skeleton(prefix) for prefix in RESERVED_PREFIXES)
_RESERVED_NAME_SKELETONS = frozenset(skeleton(name) for name in RESERVED_NAMES)


def check_name(name: str, *, handle: bool = False) -> None:
    """Refuse a person's name that the service keeps for itself: a reserved prefix for anyone (a guest's seat or
    entrant name, a handle), and the bare reserved names for a handle only.

    A guest's name labels one seat and rates nothing, so "Player" (the page's default name) will do there;
    an account's handle is its name everywhere, so it may not be `admin` or `system` either.
    """
    looks = skeleton("".join(name.split()))  # `bot :x` and `bоt:x` (a Cyrillic `о`) look like `bot:x`
    if looks.startswith(_RESERVED_PREFIX_SKELETONS) or (handle and looks in _RESERVED_NAME_SKELETONS):
        reserved = [*RESERVED_PREFIXES, *(sorted(RESERVED_NAMES) if handle else [])]
        raise HandleReserved(f"{name!r} is a name the service keeps for itself", reserved=reserved)


def check_handle(handle: str) -> Handle:
    """Return a new account's handle with its normal form and skeleton, or raise why it cannot be one."""
    normal = normalise(handle)
    low, high = HANDLE_LENGTH
    check_name(handle, handle=True)
    if not low <= len(normal) <= high or not _HANDLE.match(normal):
        raise InvalidHandle(
            f"a handle is {low} to {high} letters, digits, '_', '-' or '.', beginning and ending with a letter "
            "or digit",
            minimum=low,
            maximum=high,
        )
    scripts = {script for script in map(_script, normal) if script is not None}
    if len(scripts) > 1:
        raise HandleConfusable("a handle's letters are from one script", scripts=sorted(scripts))
    return Handle(handle, normal, skeleton(handle))


def _script(char: str) -> str | None:
    """Return which of the look-alike scripts a letter is from (None: a digit, a sign, another script)."""
    if not char.isalpha():
        return None
    name = unicodedata.name(char, "")
    return next((script for script in _SCRIPTS if name.startswith(script)), None)
