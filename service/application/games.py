"""Commands on games: parse nothing, authorise nothing — decide, append, schedule.

The HTTP layer and the workers both come through here, so every change to a
game is decided by `domain.game.decide` on the version it read and appended
through the one command path (`service.application.commands`).
"""

from __future__ import annotations

import hashlib
import secrets
import time
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from domain.chance import FIXED, SHARED, game_secret, seed_commitment
from domain.errors import DomainError
from domain.events import RecordedEvent, canonical_json
from domain.game import ACTIVE, FINISHED, Game, Seat, blank, decide, first_open_seat
from domain.players import check_name
from domain.ratings import rated_clock
from domain.sealing import Sealer
from projections.game import redact_event, redact_log
from service.adapters.cache import GameRepository
from service.adapters.faults import crash_point
from service.adapters.indexes import Directory, listed_at
from service.adapters.store import NOT_DUE, DueMark, EventStore
from service.application.clock import utc_now
from service.application.commands import CommandPath, Decision, Idempotency, Outcome
from service.application.tokens import new_secret, token_sha256
from service.errors import GameArchived, IdempotencyKeyReused, VersionConflict

# The bot that plays a human seat's move when its clock runs out.
STAND_IN = "heuristic"
# The most steps one job appends as one batch, however fast they are decided
# (the append is one script: it holds Redis while it runs).
MAX_SLICE_STEPS = 200


class Jobs(Protocol):
    """Where the service sends work to be done after a command: idempotent jobs, by ids."""

    def step(self, game_id: str, version: int, humans: bool = False) -> None:
        """Ask for one system or bot step of a game at a version (`humans`: the game has human seats)."""

    def rate(self, game_id: str) -> None:
        """Ask for a finished game to be rated."""

    def advance(self, tournament_id: str, reason: str) -> None:
        """Ask for a tournament to take every step it waits on."""


class Bots(Protocol):
    """The bots a seat can be played by (filled by the bootstrap from `workers.bots`)."""

    def choose(self, game: Game, seat: int, kind: str | None = None) -> dict[str, Any]:
        """Return the action a seat's bot (or a bot of `kind`, standing in) plays now, from what that seat may see."""

    def reads_log(self, game: Game, seat: int) -> bool:
        """Tell whether the seat's bot reads the seat's event log from the store (a searching bot)."""


@dataclass
class GameService:
    """The application service for games."""

    store: EventStore
    directory: Directory
    repository: GameRepository
    jobs: Jobs
    bots: Bots
    # What a finished game sets off (the bootstrap's follow-up table). Each
    # follow-up must be idempotent: a retried job may finish a game twice over.
    on_finished: Callable[[Game], None] = lambda game: None
    clock: Callable[[], str] = utc_now
    new_secret: Callable[[], str] = new_secret
    # How long the step job enqueued after an append has before the due index
    # calls the step overdue and a steward takes it (see `_due_mark`).
    step_grace_ms: int = 30_000
    # How long one step job may go on taking a game's consecutive steps before
    # it yields the worker to the other games' jobs (see `step`).
    slice_s: float = 0.05
    timer: Callable[[], float] = time.monotonic
    commands: CommandPath[Game] = field(init=False)

    def __post_init__(self) -> None:
        self.commands = CommandPath(self.store, self.repository.games, self.clock, due=self._due_mark)

    # --- commands -------------------------------------------------------

    def create(
        self,
        game_type: str,
        seats: Sequence[Mapping[str, Any]],
        options: Mapping[str, Any],
        seed: str | None = None,
        idempotency_key: str | None = None,
        *,
        secret: str | None = None,
        dealing: str | None = None,
    ) -> tuple[Game, list[dict[str, Any]]]:
        """Create a game; named seats get tokens, bot seats play by themselves, `{}` stays open.

        A `seed` fixes the deal (fixed dealing, disclosed as such); without one the
        service draws the seed and each human seat may add its `entropy` (shared
        dealing, `domain.chance`). Either way the game's secret is salted. A
        tournament gives the whole `secret` of a table's game and its `dealing`
        instead (`domain.tournament.seeding`).

        With an idempotency key, a retry gets the same game and the same tokens
        (for `IDEMPOTENCY_TTL_MS`): whoever knows the key owns the answer, so the
        HTTP layer takes only long ones, and the game's id is drawn at random all
        the same, never derived from the key.
        """
        client_seed, client_secret = seed, secret is not None
        for spec in seats:
            # A tournament's entrants' names were checked when they registered (and one registered
            # before the check must still be seated).
            if spec.get("name") is not None and not client_secret:
                check_name(spec["name"])
        game_id = self.store.new_id(_random_ids())
        if secret is None:
            dealing = FIXED if seed is not None else SHARED
            secret = game_secret(secrets.token_hex(32), seed if seed is not None else secrets.token_hex(32))
        elif dealing is None or seed is not None:
            raise ValueError("a game made from a secret is given its dealing, and no seed")
        seed = secret
        tokens = [
            _seat_token(index, spec, self._new_token(game_id, index))
            for index, spec in enumerate(seats)
            if _human(spec)
        ]
        if idempotency_key:
            # The first attempt's tokens and seed win, so a retry after a crash
            # anywhere below completes the same game instead of starting another.
            # Neither the record nor its fingerprint holds a handle (an erasure would leave it behind):
            # an account's seat is its id, and the answer names it by the handle of this request.
            fingerprint = _fingerprint([game_type, [_unnamed(spec) for spec in seats], dict(options), client_seed])
            first = self.store.claim_creation(
                idempotency_key,
                {"id": game_id, "fingerprint": fingerprint, "tokens": [_unnamed(t) for t in tokens], "seed": seed},
            )
            if first["fingerprint"] != fingerprint:
                raise IdempotencyKeyReused("this Idempotency-Key was used for a different request")
            game_id, seed = first["id"], first["seed"]
            tokens = [_seat_token(t["seat"], seats[t["seat"]], t["token"]) for t in first["tokens"]]
            where = self.store.archived(game_id)
            if where is not None:
                # The first attempt's game was played, finished and archived: a retry must not start it again.
                raise GameArchived(game_id, **where)
        command = {
            "kind": "create",
            "id": game_id,
            "game": game_type,
            "seats": _command_seats(seats, tokens, dealing),
            # A casual game that could be rated has a move clock: abandoning a bad deal loses it on time.
            # (A tournament's games have its clock, unless its organiser said none: then they are unrated.)
            "options": dict(options) if client_secret else rated_clock(options, [_seat_of(s) for s in seats], dealing),
            "seed_commitment": seed_commitment(seed),
            "dealing": dealing,
        }
        events = decide(blank(), command, seed)
        canonical_json(command)  # refuse what the chain cannot hold before the seed is written
        self.store.save_seed(game_id, seed)
        try:
            outcome = self.commands.create(
                game_id, blank(id=game_id), Decision(command, events, Sealer(game_type, seed))
            )
        except VersionConflict:
            if not idempotency_key:
                raise
            # The first attempt created it; list it and ask for its next step in case that attempt died
            # before doing so (both are idempotent: a listed game is listed once, a step job has its id).
            game = self.repository.load(game_id)
            self.directory.add_game(game_id, listed_at(self.store.read(game_id, upto=1)[0].time))
            self._schedule(game)
            return game, self._with_receipts(game, tokens)
        self.directory.add_game(game_id, listed_at(outcome.events[0].time))
        self._settle(outcome)
        return outcome.after, self._with_receipts(outcome.after, tokens, outcome.events)

    def created_under(self, idempotency_key: str) -> bool:
        """Tell whether a create under this key has already made its game (a retry of it then creates nothing)."""
        record = self.store.creation(idempotency_key)
        return record is not None and self.store.exists(record["id"])

    def join(
        self,
        game_id: str,
        name: str | None,
        entropy: str | None = None,
        idempotency_key: str | None = None,
        *,
        player: str | None = None,
        handle: str | None = None,
    ) -> dict[str, Any]:
        """Take the first open seat of a waiting game; a retried Idempotency-Key gets the same seat and token.

        A guest gives a `name`; an account its `player` id (and `handle`, shown in the answer, never chained).
        `entropy` is the seat's contribution to a shared deal; a fixed deal takes none, so there it is dropped.
        """
        if name is not None:
            check_name(name)
        taken: dict[str, Any] = {}
        fingerprint = _fingerprint(["join", name, entropy, player])

        def take_seat(game: Game) -> Decision:
            seat = first_open_seat(game)
            taken.update(seat=seat, name=name if player is None else handle, token=self._new_token(game_id, seat))
            if player is not None:
                taken["player"] = player
            command = {"kind": "join", "seat": seat, "name": name, "token_sha256": token_sha256(taken["token"])}
            if player is not None:
                command["player"] = player
            if entropy is not None and game.dealing == SHARED:
                command["entropy"] = entropy
            return self._decision(game, command)

        idempotency = None
        if idempotency_key:
            # The token is kept with the key (beside the seed, never in an event) so a lost 201 is not a lost seat.
            idempotency = Idempotency(
                f"join:{idempotency_key}",
                lambda first, last: {**_unnamed(taken), "version": last, "fingerprint": fingerprint},
            )
        try:
            outcome = self.commands.run(game_id, take_seat, optimistic=True, idempotency=idempotency)
        except DomainError:
            # A retry after the seat was taken meets a full (or started) game; it gets the first result.
            prior = self.store.prior_result(game_id, idempotency.key) if idempotency else None
            if prior is None:
                raise
            return self._with_receipts(self.repository.cached(game_id), [_joined(prior, fingerprint, handle)])[0]
        if outcome.prior is not None:
            return self._with_receipts(outcome.after, [_joined(outcome.prior, fingerprint, handle)])[0]
        self._settle(outcome)
        return self._with_receipts(outcome.after, [taken], outcome.events)[0]

    def act(
        self,
        game_id: str,
        seat: int,
        action: Mapping[str, Any],
        *,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
    ) -> dict[str, Any]:
        """Play a seat's action; a retried Idempotency-Key returns the first result."""
        command = {"kind": "act", "seat": seat, "action": dict(action)}
        # Only a keyed request can be retried: the others need no fingerprint (a hash of the command).
        fingerprint = _fingerprint([command, expected_version]) if idempotency_key else ""
        idempotency = None
        if idempotency_key:
            idempotency = Idempotency(
                f"{seat}:{idempotency_key}",
                lambda first, last: {"first": first, "version": last, "fingerprint": fingerprint},
            )
        try:
            outcome = self.commands.run(
                game_id,
                lambda game: self._decision(game, command),
                expected_version=expected_version,
                optimistic=expected_version is None,
                idempotency=idempotency,
            )
        except (DomainError, VersionConflict):
            # A retry of a request that went through meets a game that moved
            # on; it gets the first result, not this error.
            prior = self.store.prior_result(game_id, idempotency.key) if idempotency else None
            if prior is None:
                raise
            return self._replay_result(game_id, seat, prior, fingerprint)
        if outcome.prior is not None:
            return self._replay_result(game_id, seat, outcome.prior, fingerprint)
        self._settle(outcome)
        game = outcome.after
        events = redact_log(game.type, outcome.events, seat, open_log=_over(game), seed=self._seed_for(game, seat))
        return {"version": game.version, "events": events}

    def step(self, game_id: str, version: int, clock_out: Callable[[], bool] | None = None) -> str:
        """Take the steps the game waits on from the system and its bots, from `version`, for up to one slice.

        The steps are decided one after another, each on the state the last
        left, until a human must act, the game ends, `slice_s` has passed or
        `MAX_SLICE_STEPS` are taken, and appended as one batch at `version`
        with the due mark of the last (`CommandPath.run_chain`): a step
        delivered twice is refused by the version check, and a worker killed
        before the append loses only what nobody was told, its game's mark
        still standing for a steward. What is still due then is enqueued as the
        next job, at the back of its queue, so one long all-bot game never
        holds a worker from the others.

        A human seat's move clock has run out if `clock_out()` says so once the
        game is read (only the steward knows: it claimed the clock's mark);
        that holds at `version` only.
        """
        deadline = self.timer() + self.slice_s
        taken = 0

        def more(game: Game) -> bool:
            nonlocal taken
            taken += 1
            return (
                _waits_on_the_system(game)
                and taken < MAX_SLICE_STEPS
                and self.timer() < deadline
                and not self._reads_the_store_next(game)
            )

        def due_step(game: Game) -> Decision:
            command = self._due_command(game, clock_out if game.version == version else None)
            if command is None:
                return Decision({}, [])
            crash_point("before-step-append")
            return self._decision(game, command)

        try:
            outcome = self.commands.run_chain(game_id, due_step, expected_version=version, more=more)
        except VersionConflict:
            # Someone moved first; make sure the current version is scheduled.
            current = self.repository.cached(game_id)
            self._schedule(current)
            if _over(current):
                # Perhaps by this very job, killed after its append ended the game and before the
                # follow-ups: set them off again (each is idempotent), or none would ever run.
                self.on_finished(current)
            return "stale"
        if not outcome.events:
            return "idle"
        self._settle(outcome)
        return "done"

    def resume(self, game_id: str, clock_out: Callable[[], bool] | None = None) -> str:
        """Take the step the game waits on now, at whatever version it is (how a steward takes overdue games).

        `clock_out` tells, once the game is read, whether its mark is still the
        one the steward claimed, i.e. a running move clock has run out.
        """
        return self.step(game_id, self.repository.load(game_id).version, clock_out)

    # --- queries --------------------------------------------------------

    def events_for(self, game: Game, seat: int | None, after: int = 0, upto: int | None = None) -> list[dict[str, Any]]:
        """Return the log of `game` after `after` as `seat` may see it (all of it once the game is over)."""
        events = self.store.read(game.id, after=after, upto=upto)
        if not events and (game.version if upto is None else upto) > after:
            # Events the game reached are gone: archived since it was loaded. Never an empty page with more to come.
            raise self.repository.missing(game.id)
        return redact_log(game.type, events, seat, open_log=_over(game), seed=self._seed_for(game, seat))

    def _seed_for(self, game: Game, seat: int | None) -> str | None:
        """Return the seed a seat's log needs for its openings (None for spectators and open logs)."""
        return None if seat is None or _over(game) else self.repository.seed(game.id)

    # --- internals ------------------------------------------------------

    def _with_receipts(
        self, game: Game, taken: Sequence[Mapping[str, Any]], events: Sequence[RecordedEvent] = ()
    ) -> list[dict[str, Any]]:
        """Give each seat taken its receipt: its SeatTaken event as the seat sees it, with its hash.

        It holds the entropy the seat sent, so the seat can check its contribution went into the
        deal. `events` are the ones just appended; a retry reads them back (every SeatTaken comes
        before the game starts, within its first 1 + seats events).
        """
        found = events or self.store.read(game.id, upto=1 + len(game.seats))
        seated = {e.data["seat"]: e for e in found if e.type == "SeatTaken"}
        return [{**seat, "receipt": redact_event(game.type, seated[seat["seat"]], seat["seat"])} for seat in taken]

    def _due_mark(self, game: Game) -> DueMark:
        """Return what the due index is to say of the game after an append: when its next step is overdue."""
        if game.status == ACTIVE and _waits_on_the_system(game):
            return self.step_grace_ms
        if game.clock_running and game.clock is not None:
            # The clock's deadline is the mark: every append rewrites it, so a
            # seat's time counts from the last thing that happened in the game.
            return int(game.clock["move_s"]) * 1000
        return NOT_DUE

    def _decision(self, game: Game, command: Mapping[str, Any]) -> Decision:
        """Decide a command on a game, sealing its hidden values with the game's seed."""
        seed = self.repository.seed(game.id)
        return Decision(command, decide(game, command, seed), Sealer(game.type, seed, game.chain), game.chain)

    def _reads_the_store_next(self, game: Game) -> bool:
        """Tell whether the game's next step is a bot's that reads its seat's log from the store.

        Such a step starts a slice of its own: the steps a slice has decided are
        appended only at its end, so a log read in the middle of one would lack them
        (and a searching move costs more than a slice anyway).
        """
        bots = game.bots_to_act()
        return not game.system_due and bool(bots) and self.bots.reads_log(game, bots[0])

    def _due_command(self, game: Game, clock_out: Callable[[], bool] | None = None) -> dict[str, Any] | None:
        """Return the command the game waits on from the system, a bot or a run-out clock, if any."""
        if game.system_due:
            return {"kind": "advance"}
        bots = game.bots_to_act()
        if bots:
            return {"kind": "act", "seat": bots[0], "action": self.bots.choose(game, bots[0])}
        if game.clock_running and clock_out is not None and clock_out():
            # One seat a step: a second late seat (a simultaneous choice) has its turn at the next mark.
            seat = game.humans_to_act()[0]
            kinds = game.rules.bots
            action = self.bots.choose(game, seat, kind=STAND_IN if STAND_IN in kinds else kinds[0])
            return {"kind": "timeout", "seat": seat, "at": game.version, "action": action}
        return None

    def _new_token(self, game_id: str, seat: int) -> str:
        # The token names its game and seat, so no lookup table is needed to
        # tell a token of another game (403) from an unknown one (401).
        return f"{game_id}.{seat}.{self.new_secret()}"

    def _settle(self, outcome: Outcome[Game]) -> None:
        """Schedule whatever the game now waits on; set off the follow-ups of its end."""
        game = outcome.after
        crash_point("after-append")
        self._schedule(game)
        if _over(game) and outcome.events:
            self.on_finished(game)

    def _schedule(self, game: Game) -> None:
        if _waits_on_the_system(game):
            self.jobs.step(game.id, game.version, humans=any(seat.bot is None for seat in game.seats))

    def _replay_result(self, game_id: str, seat: int, prior: Mapping[str, Any], fingerprint: str) -> dict[str, Any]:
        if prior.get("fingerprint") != fingerprint:
            raise IdempotencyKeyReused("this Idempotency-Key was used for a different request")
        events = self.events_for(self.repository.load(game_id), seat, after=prior["first"] - 1, upto=prior["version"])
        return {"version": prior["version"], "events": events, "replayed": True}


def _over(game: Game) -> bool:
    return game.status == FINISHED


def _waits_on_the_system(game: Game) -> bool:
    """Tell whether the game's next step is the system's or a bot's (a step job's to take)."""
    return bool(game.system_due or game.bots_to_act())


def _fingerprint(request: Any) -> str:
    """Return the hash that tells a retry of a request from another request under the same key."""
    return hashlib.sha256(canonical_json(request).encode()).hexdigest()


def _random_ids() -> Iterator[str]:
    """Yield fresh random game ids (the store takes the first its layout can place)."""
    while True:
        yield uuid.uuid4().hex[:16]


def _command_seats(
    seats: Sequence[Mapping[str, Any]], tokens: Sequence[Mapping[str, Any]], dealing: str
) -> list[dict[str, Any] | None]:
    """Return the create command's seats: named ones by their token's hash, bots by kind, open ones as null.

    A named seat's `entropy` goes with it into a shared deal; a fixed deal takes none, so there it is dropped.
    """
    token_of = {t["seat"]: t["token"] for t in tokens}
    command_seats: list[dict[str, Any] | None] = []
    for index, spec in enumerate(seats):
        if _human(spec):
            seat = {"name": spec.get("name"), "bot": None, "token_sha256": token_sha256(token_of[index])}
            if spec.get("player") is not None:
                seat["player"] = spec["player"]
            if spec.get("entropy") is not None and dealing == SHARED:
                seat["entropy"] = spec["entropy"]
            command_seats.append(seat)
        elif spec.get("bot") is not None:
            # A tournament's bot sits under its entrant's name; a bot seated by `POST /games` has none.
            command_seats.append({"name": spec.get("name"), "bot": spec["bot"], "token_sha256": None})
        else:
            command_seats.append(None)
    return command_seats


def _joined(prior: Mapping[str, Any], fingerprint: str, handle: str | None) -> dict[str, Any]:
    """Return a join's first result to its retry, if the retry is of the same request (an account's by `handle`)."""
    if prior.get("fingerprint") != fingerprint:
        raise IdempotencyKeyReused("this Idempotency-Key was used for a different request")
    joined = {"seat": prior["seat"], "name": prior.get("name"), "token": prior["token"]}
    if prior.get("player") is not None:
        joined.update(name=handle, player=prior["player"])
    return joined


def _unnamed(entry: Mapping[str, Any]) -> dict[str, Any]:
    """Return a seat spec or answer line as it may be kept: an account's by its id alone, without its handle."""
    if entry.get("player") is None:
        return dict(entry)
    return {key: value for key, value in entry.items() if key not in ("name", "handle")}


def _human(spec: Mapping[str, Any]) -> bool:
    """Tell whether a seat spec is a person's: a guest's name or an account's player id (a named bot is a bot)."""
    return spec.get("bot") is None and (spec.get("name") is not None or spec.get("player") is not None)


def _seat_token(seat: int, spec: Mapping[str, Any], token: str) -> dict[str, Any]:
    """Return a created human seat's line of the answer: a guest's name, or an account's handle and id."""
    if spec.get("player") is None:
        return {"seat": seat, "name": spec["name"], "token": token}
    return {"seat": seat, "name": spec.get("handle", spec["player"]), "token": token, "player": spec["player"]}


def _seat_of(spec: Mapping[str, Any]) -> Seat:
    """Return a seat spec as the seat it fills (for the rating rule's look at a new game)."""
    return Seat(spec.get("name"), spec.get("bot"), player=spec.get("player"))
