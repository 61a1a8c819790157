"""The game aggregate every game shares: seats, status, version, the seed's
commitment and reveal, wrapped around one game's own rules state.

`decide(game, command, seed)` is the one decision function: the service calls
it for every command and an audit calls it again on the recorded commands, so
both must get the same events. Commands are JSON-native dicts:

- `{"kind": "create", "id", "game", "seats": [seat or null], "options", "seed_commitment", "dealing"}`
  where a seat is `{"name", "bot", "token_sha256"}` (a null seat is open) and
  may carry `"entropy"`, the seat's public contribution to a shared deal, and
  `"player"`, the id of the account the seat is bound to (a guest has a name
  and no player; an account's seat has a player and no name); an
  optional `"rules_version"` (default: the newest) names one of the game's
  `rules_versions`, so that an audit re-creates an old game under its own rules
  (and an optional `"event_cap"`, likewise: see below);
  `"dealing"` is `"shared"` or `"fixed"` (`domain.chance`; absent in games
  recorded before it existed);
- `{"kind": "join", "seat", "name", "token_sha256"}`, with an optional `"entropy"` and `"player"`;
- `{"kind": "act", "seat", "action": {...}}` — a seat's move;
- `{"kind": "advance"}` — one system step (scoring, dealing);
- `{"kind": "timeout", "seat", "at", "action"}` — the seat's move clock ran
  out at version `at`, and a stand-in plays `action` for it (see below).

Core event types: GameCreated, SeatTaken, GameStarted, TimedOut, GameEnded.
Every other event belongs to the game's rules.

The move clock is a core option (`options["clock"]`, recorded in GameCreated
beside the game's own options), since it applies to every game alike: null
(no clock) or `{"move_s": n}`, the seconds a human seat has to act once it may.
When they run out, the service records a `timeout` command that carries the
stand-in's action, chosen from the seat's view, so an audit re-executes it
like any move; the seat keeps its place and has its clock again next time. A
timeout decided at another version than the game's changes nothing: the seat
(or someone) moved meanwhile.

The search budget of the game's `mcts` seats is a core option too
(`options["mcts_iterations"]`, recorded in GameCreated when given): a number of
iterations, not a time, so a bot's move depends only on the game, its seed and
the step, and replays and audits are unaffected by the machine's speed.

Every game ends. The rules allow some loops no clock stops, since every player
in them moves in time: two Life is Life players who never knock may trade one
card back and forth, and Zop Zoo players may dig with a MOLE left on the
discard pile turn after turn (the rulebook lets the next player re-use it,
found or not). So each game type has an event cap by seat count
(`Rules.event_caps`; a game's is recorded in its GameCreated as `event_cap`,
so that a later change of a cap leaves the games already created, and their
audits, alone): the batch of a move or system step that brings the stream to
the cap is the game's last, and GameEnded follows it with the game's standing
(`Rules.standing`: its places as the rules have scored it so far, the way its
result ranks) and `"ended_by": "event_cap"` in the result. The cap is far above
any real game's length, all-bot games included, so a capped result is a
finished game like any other: rated, and recorded in a tournament. A game
created before caps existed records none and is held to its rules' present cap.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from mypy_extensions import mypyc_attr

from domain.action_forms import checked
from domain.batch import Folded
from domain.chance import DEALINGS, ENTROPY, FIXED, SHARED, Chance, deal_seed, seed_commitment
from domain.commitments import CHAIN_VERSION
from domain.errors import GameOver, NotYourTurn, OptionsError, RuleError
from domain.events import GENESIS_HASH, SYSTEM, Event, RecordedEvent
from domain.games import rules_for
from domain.rules import EVENT_CAP, Result, Rules, normalise_options
from domain.simulate import fold
from domain.upcasters import upcaster
from domain.values import changed, detached, remembered

WAITING, ACTIVE, FINISHED = "waiting", "active", "finished"
CORE_EVENTS = frozenset({"GameCreated", "SeatTaken", "GameStarted", "TimedOut", "GameEnded"})

# A move clock allows from one second (tests) to a week (correspondence play).
CLOCK_MOVE_S = (1, 7 * 24 * 3600)
# An mcts seat's iterations a move: from one (a random rollout) to the largest default budget
# (Blöde Kuh's 200; the others' are 80 to 150), which the bot ladder plays at. A bigger budget
# only makes a move cost more: one 2000-iteration move held a worker for seconds, and human
# games' bot turns waited behind it.
MCTS_ITERATIONS = (1, 200)


@upcaster("GameCreated", 1)
def _game_created_v2(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """Name the rules version, which v1 did not record: every such game was played under version "1"."""
    return {**data, "rules_version": "1"}


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Seat:
    """Who sits in a seat; an open seat has neither name nor bot."""

    name: str | None = None
    bot: str | None = None
    token_sha256: str | None = None
    entropy: str | None = None  # the seat's public contribution to a shared deal
    # The account the seat is bound to (`domain.players`), by id: the chain holds no handle. None: a guest or a bot.
    player: str | None = None

    @property
    def filled(self) -> bool:
        return self.name is not None or self.bot is not None or self.player is not None


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Game:
    """One game as the fold of its events."""

    id: str = ""
    type: str = ""
    version: int = 0
    last_hash: str = GENESIS_HASH
    options: Mapping[str, Any] | None = None
    clock: Mapping[str, Any] | None = None
    mcts_iterations: int | None = None  # None: each game's default search budget
    event_cap: int | None = None  # None: created before caps were recorded; its rules' cap holds
    rules_version: str = ""
    seed_commitment: str = ""
    dealing: str | None = None  # "shared" or "fixed"; None for a game recorded before dealing was
    seats: tuple[Seat, ...] = ()
    status: str = WAITING
    rules_state: Any = None
    result: Mapping[str, Any] | None = None
    seed: str | None = None
    # The chain scheme the game was created under; it keeps it to the end (see domain.commitments).
    chain: int = CHAIN_VERSION

    @property
    def rules(self) -> Rules:
        return rules_for(self.type)

    @property
    def in_play(self) -> bool:
        """Whether the game has started and its rules state is set up."""
        # A past view can stop between GameStarted and the game's own first
        # setup event (they are one batch): started, but no rules state yet.
        return self.status == ACTIVE and self.rules_state is not None

    @property
    def to_act(self) -> frozenset[int]:
        """Seats that may act now (worked out once a game value: a move asks it several times)."""
        if not self.in_play:
            return frozenset()
        return remembered(self, "to_act", _seats_to_act)

    @property
    def system_due(self) -> bool:
        """Whether the system must take a step before anyone acts."""
        return self.in_play and self.rules.system_due(self.rules_state)

    def bots_to_act(self) -> list[int]:
        """Bot seats among those who may act now."""
        return sorted(seat for seat in self.to_act if self.seats[seat].bot)

    def humans_to_act(self) -> list[int]:
        """Human seats among those who may act now."""
        return sorted(seat for seat in self.to_act if not self.seats[seat].bot)

    @property
    def clock_running(self) -> bool:
        """Whether a move clock runs now: the game has one and waits on a human seat only."""
        if self.clock is None or self.system_due or self.bots_to_act():
            return False
        return bool(self.humans_to_act())

    @property
    def disclosed_dealing(self) -> str:
        """How the game is dealt, as views, the lobby and exports say it: a game from before is not provably shared."""
        return self.dealing or FIXED

    def chance(self, secret: str) -> Chance:
        """Return the draws of the batch decided at this version, from the game's deal seed."""
        return Chance(deal_seed(secret, self.dealing, [seat.entropy for seat in self.seats]), self.version)

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        """Actions the seat may post now."""
        if seat not in self.to_act:
            return []
        return self.rules.legal_actions(self.rules_state, seat)


def _seats_to_act(game: Game) -> frozenset[int]:
    return game.rules.to_act(game.rules_state)


def blank(**known: Any) -> Game:
    """Return a game before its first event (with what is `known` of it already).

    Detached (`domain.values.detached`): every later state of the game is a copy
    of this one, and reads its fields the fast way.
    """
    return detached(Game(**known))


# --- evolve -----------------------------------------------------------------


def evolve(game: Game, event: RecordedEvent) -> Game:
    """Apply one recorded event; never fails on a valid stream."""
    data = event.data
    moved = {"version": event.seq, "last_hash": event.hash}
    if event.type == "GameCreated":
        return changed(
            game,
            **moved,
            id=data["id"],
            type=data["game"],
            options=data["options"],
            clock=data.get("clock"),
            mcts_iterations=data.get("mcts_iterations"),
            event_cap=data.get("event_cap"),
            rules_version=data["rules_version"],
            seed_commitment=data["seed_commitment"],
            dealing=data.get("dealing"),
            seats=tuple(Seat() for _ in range(data["seats"])),
            chain=getattr(event, "chain", CHAIN_VERSION),
        )
    if event.type == "SeatTaken":
        seats = list(game.seats)
        seats[data["seat"]] = Seat(
            data.get("name"), data.get("bot"), data.get("token_sha256"), data.get("entropy"), data.get("player")
        )
        return changed(game, **moved, seats=tuple(seats))
    if event.type == "GameStarted":
        return changed(game, **moved, status=ACTIVE)
    if event.type == "TimedOut":
        return changed(game, **moved)
    if event.type == "GameEnded":
        return changed(game, **moved, status=FINISHED, result=data["result"], seed=data["seed"])
    return changed(game, **moved, rules_state=game.rules.evolve(game.rules_state, event))


def replay(events: Iterable[RecordedEvent], game: Game | None = None) -> Game:
    """Fold recorded events into a game (from scratch, or on from `game`).

    The same fold as `evolve` event by event, but a run of the game's own
    events folds straight into the rules state: replay is the hot path.
    """
    game = game or blank()
    state, last = game.rules_state, None
    rules = game.rules if game.type else None
    for event in events:
        if event.type in CORE_EVENTS or rules is None:
            game = evolve(changed(game, rules_state=state), event)
            state = game.rules_state
            rules = game.rules if game.type else None
        else:
            state = rules.evolve(state, event)
        last = event
    if last is None:
        return game
    return changed(game, version=last.seq, last_hash=last.hash, rules_state=state)


def after_decision(game: Game, recorded: Sequence[RecordedEvent], decided: Sequence[Event]) -> Game:
    """Return `replay(recorded, game)`: the game after a batch `decide` gave (`decided`) and `record` recorded.

    A move, a system step or a timeout is decided with the rules state its
    events lead to (`Folded`, see `decide`); that state is taken instead of
    folding the rules' events again, and only the core's own events of such a
    batch (TimedOut, GameEnded), which leave the rules state as it is, are
    applied. Any other batch is replayed.
    """
    state = decided.after() if type(decided) is Folded else None
    if state is None or not recorded or any(event.type in _REPLAYED for event in recorded):
        return replay(recorded, game)
    for event in recorded:
        if event.type in CORE_EVENTS:
            game = evolve(game, event)
    last = recorded[-1]
    return changed(game, version=last.seq, last_hash=last.hash, rules_state=state)


# The core's events that change more than the aggregate's own fields: a batch holding one is replayed.
_REPLAYED = CORE_EVENTS - {"TimedOut", "GameEnded"}


# --- decide -----------------------------------------------------------------

# The fields of each command kind (the shapes in the module docstring): an audit fails a recorded
# command with any other, since a field nothing reads would ride in the chain unchecked.
COMMAND_FIELDS: Mapping[str, frozenset[str]] = {
    "create": frozenset(
        {"kind", "id", "game", "seats", "options", "seed_commitment", "dealing", "rules_version", "event_cap"}
    ),
    "join": frozenset({"kind", "seat", "name", "token_sha256", "entropy", "player"}),
    "act": frozenset({"kind", "seat", "action"}),
    "advance": frozenset({"kind"}),
    "timeout": frozenset({"kind", "seat", "at", "action"}),
}


def decide(game: Game, command: Mapping[str, Any], seed: str) -> list[Event]:
    """Decide the events of one command, or raise a DomainError.

    The events of a move, a system step or a timeout come with the rules state
    they lead to (`Folded`), which `after_decision` takes instead of a second fold.
    """
    kind = command.get("kind")
    if kind == "create":
        return _create(command, seed)
    if game.status == FINISHED:
        raise GameOver("the game is over")
    if kind == "join":
        return _join(game, command, seed)
    if kind == "act":
        return _act(game, command["seat"], command["action"], seed)
    if kind == "advance":
        return _advance(game, seed)
    if kind == "timeout":
        return _timeout(game, command, seed)
    raise RuleError(f"unknown command kind {kind!r}")


def _create(command: Mapping[str, Any], seed: str) -> list[Event]:
    rules = rules_for(command["game"])
    seats = command["seats"]
    raw = dict(command.get("options") or {})
    clock = normalise_clock(raw.pop("clock", None))
    iterations = normalise_iterations(raw.pop("mcts_iterations", None))
    options = normalise_options(rules, raw, len(seats))
    version = command.get("rules_version", rules.rules_version)
    # An audit re-creates a game with the cap it recorded (None for a game from before caps).
    event_cap = command.get("event_cap", rules.event_caps[len(seats)])
    if event_cap is not None and (not isinstance(event_cap, int) or isinstance(event_cap, bool) or event_cap < 1):
        raise RuleError("event_cap is a whole number of events (or null, for a game from before caps)")
    if version not in rules.rules_versions:
        raise OptionsError(f"{rules.id} has no rules version {version!r}", rules_versions=list(rules.rules_versions))
    for seat in seats:
        if seat is not None and seat.get("bot") is not None and seat["bot"] not in rules.bots:
            raise OptionsError(f"{rules.id} has no bot {seat['bot']!r}", bots=list(rules.bots))
    if seed_commitment(seed) != command["seed_commitment"]:
        raise RuleError("the seed does not match its commitment")
    dealing = command.get("dealing")
    if dealing is not None and dealing not in DEALINGS:
        raise OptionsError(f"dealing is one of {', '.join(DEALINGS)}", dealing=dealing)
    for seat in seats:
        if seat is not None:
            _check_entropy(seat, dealing)
    created = Event(
        "GameCreated",
        {
            "id": command["id"],
            "game": rules.id,
            "rules_version": version,
            "seats": len(seats),
            "options": options,
            "seed_commitment": command["seed_commitment"],
            # Only what a game has is recorded, so games from before keep their old bytes.
            **({"dealing": dealing} if dealing is not None else {}),
            **({"clock": clock} if clock is not None else {}),
            **({"mcts_iterations": iterations} if iterations is not None else {}),
            **({"event_cap": event_cap} if event_cap is not None else {}),
        },
    )
    game = Game(
        version=0,
        type=rules.id,
        seats=tuple(Seat(entropy=(seat or {}).get("entropy")) for seat in seats),
        options=options,
        rules_version=version,
        dealing=dealing,
    )
    events = [created]
    for index, seat in enumerate(seats):
        if seat is not None:
            events.append(_seat_taken(index, seat))
    filled = [seat is not None for seat in seats]
    if all(filled):
        events += _start(game, options, seed)
    return events


def _check_entropy(seat: Mapping[str, Any], dealing: str | None) -> None:
    """Refuse a contribution that is not hex of the allowed length, or that a fixed deal could not use."""
    entropy = seat.get("entropy")
    if entropy is None:
        return
    if dealing != SHARED:
        raise RuleError("only a shared deal takes the seats' entropy")
    if seat.get("bot") is not None:
        raise RuleError("a bot's seat adds no entropy")
    if not isinstance(entropy, str) or not ENTROPY.match(entropy):
        raise RuleError("entropy is 32 to 128 hex digits")


def normalise_clock(raw: Any) -> dict[str, int] | None:
    """Check a `clock` option: null (no clock) or `{"move_s": seconds}`; raise OptionsError if neither."""
    if raw is None:
        return None
    low, high = CLOCK_MOVE_S
    if not isinstance(raw, Mapping) or set(raw) != {"move_s"}:
        raise OptionsError('option clock is null or {"move_s": seconds}', option="clock")
    move_s = raw["move_s"]
    if not isinstance(move_s, int) or isinstance(move_s, bool) or not low <= move_s <= high:
        raise OptionsError(f"clock move_s is a whole number of seconds from {low} to {high}", option="clock")
    return {"move_s": move_s}


def normalise_iterations(raw: Any) -> int | None:
    """Check an `mcts_iterations` option: null (the default budget) or a whole number in MCTS_ITERATIONS."""
    low, high = MCTS_ITERATIONS
    if raw is None:
        return None
    if not isinstance(raw, int) or isinstance(raw, bool) or not low <= raw <= high:
        raise OptionsError(f"option mcts_iterations is a whole number from {low} to {high}", option="mcts_iterations")
    return raw


def first_open_seat(game: Game) -> int:
    """Return the seat a newcomer takes, or raise RuleError if none is open."""
    open_seats = [i for i, seat in enumerate(game.seats) if not seat.filled]
    if game.status != WAITING or not open_seats:
        raise RuleError("no seat is open in this game")
    return open_seats[0]


def _join(game: Game, command: Mapping[str, Any], seed: str) -> list[Event]:
    seat = command["seat"]
    if game.status != WAITING:
        raise RuleError("the game has already started; no seat is open")
    if not 0 <= seat < len(game.seats) or game.seats[seat].filled:
        raise RuleError(f"seat {seat} is not open")
    _check_entropy(command, game.dealing)
    events = [_seat_taken(seat, command)]
    if all(s.filled or i == seat for i, s in enumerate(game.seats)):
        seats = tuple(Seat(entropy=command.get("entropy")) if i == seat else s for i, s in enumerate(game.seats))
        events += _start(changed(game, seats=seats), game.options or {}, seed)
    return events


def _seat_taken(seat: int, info: Mapping[str, Any]) -> Event:
    data = {"seat": seat, "name": info.get("name"), "bot": info.get("bot"), "token_sha256": info.get("token_sha256")}
    if info.get("entropy") is not None:
        data["entropy"] = info["entropy"]
    if info.get("player") is not None:  # only when bound, so guests' and older seats keep their bytes
        data["player"] = info["player"]
    return Event("SeatTaken", data)


def _start(game: Game, options: Mapping[str, Any], seed: str) -> list[Event]:
    """Deal: every seat is filled, so every contribution to a shared deal is in."""
    rules = rules_for(game.type)
    # The rules version rides with the options, so the game's first event can record it for its state.
    setup = rules.setup(len(game.seats), {**options, "rules_version": game.rules_version}, game.chance(seed))
    return [Event("GameStarted", {})] + setup


def _act(game: Game, seat: Any, action: Any, seed: str) -> list[Event]:
    if game.status != ACTIVE:
        raise RuleError("the game has not started yet")
    action = checked(game.rules, action)
    if seat not in game.to_act:
        raise NotYourTurn(f"seat {seat} may not act now", to_act=sorted(game.to_act))
    events = game.rules.decide(game.rules_state, seat, action, game.chance(seed))
    return _end_if_over(game, events, seed)


def _advance(game: Game, seed: str) -> list[Event]:
    if not game.system_due:
        return []
    events = game.rules.advance(game.rules_state, game.chance(seed))
    return _end_if_over(game, events, seed)


def _timeout(game: Game, command: Mapping[str, Any], seed: str) -> list[Event]:
    seat, action = command.get("seat"), command.get("action")
    if game.clock is None:
        raise RuleError("this game has no move clock")
    if command.get("at") != game.version or not game.clock_running or seat not in game.humans_to_act():
        # Stale: the game moved since the seat's time ran out (the seat, or someone, acted).
        return []
    action = checked(game.rules, action, "a stand-in's action")
    moves = game.rules.decide(game.rules_state, seat, action, game.chance(seed))
    ended = _end_if_over(game, moves, seed, core=1)
    return Folded.of(ended.state, [Event("TimedOut", {"seat": seat}, SYSTEM), *ended])


def event_cap(game: Game) -> int:
    """Return the events the game's stream may reach: its recorded cap, or its rules' for a game from before caps."""
    return game.event_cap if game.event_cap is not None else game.rules.event_caps[len(game.seats)]


def _end_if_over(game: Game, events: list[Event], seed: str, core: int = 0) -> Folded:
    """Append GameEnded, with the revealed seed, when the batch ends the game or brings it to its event cap.

    `core`: the core's own events decided before `events` in the same batch (a
    TimedOut). Returns the events with the rules state they lead to (`Folded`):
    GameEnded, the core's, leaves the rules state as it is.
    """
    rules = game.rules
    # A batch of the rules' `Batch` has folded its events already (`Folded`): its state, not a second fold.
    state = fold(rules, game.rules_state, events)
    result: Result | None = rules.result(state)
    # The stream's length once this batch and its GameEnded are appended.
    if result is None and game.version + core + len(events) + 1 >= event_cap(game):
        result = replace(rules.standing(state), ended_by=EVENT_CAP)
    if result is None:
        return Folded.of(state, events)
    return Folded.of(state, [*events, Event("GameEnded", {"result": result.to_dict(), "seed": seed}, SYSTEM)])
