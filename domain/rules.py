"""The surface every game module offers, so that service, workers, bots and tests
treat all games alike.

A game package in `domain/games/` has the same modules in the same roles: a
data module (`cards.py` or `tiles.py`); `state.py` with the frozen `State` and
`evolve(state, event)`; `moves.py` with `to_act`, `legal_actions`, `decide`;
`steps.py` with `setup`, `system_due`, `advance`, `result` (the system's
steps); and `__init__.py`, the rulings docstring, then the object satisfying
`Rules` (its methods are those functions) as `RULES`, last. Where the bots'
search needs more speed than the plain rules give, `simulation.py` holds the
game's fast path (`FAST`, listed in `domain.games.FAST_PATHS`), proved equal to
the rules by `tests/domain/test_fast_path_agrees.py`.
`domain/games/__init__.py` lists every game by name. Its
state is a frozen value; `evolve` never fails; `decide` validates and raises
`RuleError` subclasses with a message that says why. Chance enters only
through the `Chance` handed in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from mypy_extensions import mypyc_attr

from domain.chance import Chance
from domain.commitments import Declaration
from domain.errors import OptionsError
from domain.events import Event


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Option:
    """One switchable option of a game, with its default."""

    name: str
    kind: str  # "bool" | "int" | "str" | "list" | "object"
    default: Any
    description: str
    choices: Sequence[Any] | None = None
    minimum: int | None = None
    maximum: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """Describe the option for `GET /game-types`."""
        out: dict[str, Any] = {
            "name": self.name,
            "type": self.kind,
            "default": self.default,
            "description": self.description,
        }
        if self.choices is not None:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        return out


# Why a game ended other than by its rules: it reached its event cap (`Rules.event_caps`, `domain.game`).
EVENT_CAP = "event_cap"


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Result:
    """How a finished game ended: a place per seat (1 = winner; ties share a place).

    `ended_by` is None for a game its rules ended, else why the core stopped it
    (`EVENT_CAP`); only then is it recorded, so the results of every other
    game keep their bytes.
    """

    places: tuple[int, ...]
    detail: Mapping[str, Any] = field(default_factory=dict)
    ended_by: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON-native form recorded in `GameEnded`."""
        winners = [seat for seat, place in enumerate(self.places) if place == 1]
        out = {"places": list(self.places), "winners": winners, "detail": dict(self.detail)}
        if self.ended_by is not None:
            out["ended_by"] = self.ended_by
        return out


class Rules(Protocol):
    """What one game offers the rest of the system."""

    id: str
    title: str
    min_seats: int
    max_seats: int
    rules_version: str  # the newest version: what a new game is played under

    # Read-only members are properties here, so that a game may declare them as
    # plain class attributes of any tuple or mapping type.
    @property
    def rules_versions(self) -> tuple[str, ...]:
        """Every version this code still plays: a game keeps the version it was
        created under (GameCreated records it), so old streams replay and audit."""

    @property
    def event_caps(self) -> Mapping[int, int]:
        """The events a game's stream may reach, by seat count: the batch that brings it there ends the
        game with `standing` (`domain.game`). Derived from the longest games bots play
        (bench/game_lengths.py) with a wide margin, so only a game whose players loop (a move neither
        rule nor clock stops) meets it."""

    @property
    def bots(self) -> tuple[str, ...]:
        """The bot kinds that can take a seat, so the service can check one without importing workers/."""

    @property
    def actions(self) -> Mapping[str, Mapping[str, str]]:
        """The forms of the actions a seat may post, whatever the state: type -> field -> kind.

        A kind is "int", "str" or "[str]" (a list of strings), with "?" after it
        where the field may be left out or null. A posted action of no such form
        is malformed (HTTP 400), not illegal (422).
        """

    @property
    def hidden(self) -> Declaration:
        """Which fields of which events are hidden from whom (`domain.commitments`): committed and redacted."""

    @property
    def options(self) -> tuple[Option, ...]:
        """The game's switchable options, with defaults."""

    def check_options(self, options: Mapping[str, Any], seats: int) -> None:
        """Raise OptionsError where the options do not fit this many seats."""

    def setup(self, seats: int, options: Mapping[str, Any], chance: Chance) -> list[Event]:
        """Return the events that start a game; the first builds the state from None.

        `options` are the game's options plus `rules_version`, the version the
        game was created under; a game whose rules have changed records it in
        its first event, so that its state knows which rules apply.
        """

    def evolve(self, state: Any, event: Event) -> Any:
        """Apply one event; `state` is None before the first setup event."""

    def to_act(self, state: Any) -> frozenset[int]:
        """Return the seats that may act now (empty while the system must step)."""

    def system_due(self, state: Any) -> bool:
        """Tell whether the system must step (score, deal) before anyone acts."""

    def legal_actions(self, state: Any, seat: int) -> list[dict[str, Any]]:
        """Return every action `seat` may post now, each JSON-native."""

    def decide(self, state: Any, seat: int, action: Mapping[str, Any], chance: Chance) -> list[Event]:
        """Validate a seat's action and return its events, or raise RuleError."""

    def advance(self, state: Any, chance: Chance) -> list[Event]:
        """Return the events of one system step (only called when `system_due`)."""

    def result(self, state: Any) -> Result | None:
        """Return the result once the game is over, else None."""

    def standing(self, state: Any) -> Result:
        """Return the places as the game stands now, for a game stopped at its event cap.

        Each game ranks by what its own rules have already scored (finished rounds,
        lives), the way its result ranks, so a stopped game's result is one its rules
        would give had the game ended there.
        """


def normalise_options(rules: Rules, raw: Mapping[str, Any] | None, seats: int) -> dict[str, Any]:
    """Check options against the game's declared ones and fill in defaults."""
    raw = dict(raw or {})
    known = {option.name: option for option in rules.options}
    unknown = sorted(set(raw) - set(known))
    if unknown:
        raise OptionsError(f"unknown option(s) for {rules.id}: {', '.join(unknown)}", unknown=unknown)
    options = {}
    for name, option in known.items():
        value = raw.get(name, option.default)
        _check_option_value(option, value)
        options[name] = value
    if not rules.min_seats <= seats <= rules.max_seats:
        raise OptionsError(
            f"{rules.id} is played by {rules.min_seats} to {rules.max_seats} seats, not {seats}",
            seats=seats,
        )
    rules.check_options(options, seats)
    return options


_KINDS = {"bool": bool, "int": int, "str": str, "list": list, "object": dict}


def _check_option_value(option: Option, value: Any) -> None:
    expected = _KINDS[option.kind]
    is_bool = isinstance(value, bool)
    if value is None and option.default is None:
        return
    if not isinstance(value, expected) or (expected is int and is_bool):
        raise OptionsError(f"option {option.name} must be of type {option.kind}", option=option.name)
    if option.choices is not None:
        values = value if isinstance(value, list) else [value]
        bad = [v for v in values if v not in option.choices]
        if bad:
            raise OptionsError(f"option {option.name} does not allow {bad}", option=option.name)
    if option.minimum is not None and isinstance(value, int) and value < option.minimum:
        raise OptionsError(f"option {option.name} must be at least {option.minimum}", option=option.name)
    if option.maximum is not None and isinstance(value, int) and value > option.maximum:
        raise OptionsError(f"option {option.name} must be at most {option.maximum}", option=option.name)
