"""Commands on games: parse nothing, authorise nothing — decide, record, append, schedule.

The HTTP layer and the workers both come through here, so every change to a
game is decided by `domain.game.decide` against the version it read and
appended with that version as the expectation.
"""

from __future__ import annotations

import hashlib
import secrets
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from domain.chance import seed_commitment
from domain.errors import RuleError
from domain.events import Event, canonical_json
from domain.game import Game, decide, first_open_seat
from projections.game import game_view, redact_log
from service.repository import GameRepository
from service.store import Directory, EventStore, VersionConflict
from workers.bots import bot_for, bot_rng

MAX_RETRIES = 8


class Jobs(Protocol):
    """Where the service sends the system's and the bots' turns."""

    def enqueue_step(self, game_id: str, version: int) -> None:
        """Ask for one system or bot step of a game at a version."""


GameListener = Callable[[Game], None]


class IdempotencyKeyReused(RuleError):
    """The same Idempotency-Key came with a different request."""

    code = "idempotency_key_reused"


def utc_now() -> str:
    """Return the server time as recorded in events."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def token_sha256(token: str) -> str:
    """Return the hash under which a seat's token is recorded."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass
class GameService:
    """The application service for games."""

    store: EventStore
    directory: Directory
    repository: GameRepository
    jobs: Jobs
    clock: Callable[[], str] = utc_now
    new_secret: Callable[[], str] = field(default=lambda: secrets.token_hex(16))
    # Called after the append that finished a game (ratings, tournaments).
    # Each must be idempotent: a retried job may call it twice.
    on_finished: list[GameListener] = field(default_factory=list)

    # --- commands -------------------------------------------------------

    def create(
        self, game_type: str, seats: Sequence[Mapping[str, Any]], options: Mapping[str, Any], seed: str | None = None
    ) -> tuple[Game, list[dict[str, Any]]]:
        """Create a game; named seats get tokens, bot seats play by themselves, `{}` stays open."""
        game_id = uuid.uuid4().hex[:16]
        seed = seed if seed is not None else secrets.token_hex(32)
        tokens: list[dict[str, Any]] = []
        command_seats: list[dict[str, Any] | None] = []
        for index, spec in enumerate(seats):
            if spec.get("name") is not None:
                token = self._new_token(game_id, index)
                tokens.append({"seat": index, "name": spec["name"], "token": token})
                command_seats.append({"name": spec["name"], "bot": None, "token_sha256": token_sha256(token)})
            elif spec.get("bot") is not None:
                command_seats.append({"name": None, "bot": spec["bot"], "token_sha256": None})
            else:
                command_seats.append(None)
        command = {
            "kind": "create",
            "id": game_id,
            "game": game_type,
            "seats": command_seats,
            "options": dict(options),
            "seed_commitment": seed_commitment(seed),
        }
        events = decide(Game(), command, seed)
        self.store.save_seed(game_id, seed)
        self._append(Game(id=game_id), command, events)
        self.directory.add_game(game_id, time.time())
        return self._settle(game_id), tokens

    def join(self, game_id: str, name: str) -> dict[str, Any]:
        """Take the first open seat of a waiting game."""
        for _ in range(MAX_RETRIES):
            game = self.repository.load(game_id)
            seat = first_open_seat(game)
            token = self._new_token(game_id, seat)
            command = {"kind": "join", "seat": seat, "name": name, "token_sha256": token_sha256(token)}
            events = decide(game, command, self.repository.seed(game_id))
            try:
                self._append(game, command, events)
            except VersionConflict:
                continue
            self._settle(game_id)
            return {"seat": seat, "name": name, "token": token}
        raise VersionConflict(game.version, self.store.version(game_id))

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
        fingerprint = hashlib.sha256(canonical_json([command, expected_version]).encode()).hexdigest()
        idem = f"{seat}:{idempotency_key}" if idempotency_key else None
        if idem:
            prior = self.store.prior_result(game_id, idem)
            if prior is not None:
                return self._replay_result(game_id, seat, prior, fingerprint)
        for _ in range(MAX_RETRIES):
            game = self.repository.load(game_id)
            if expected_version is not None and game.version != expected_version:
                raise VersionConflict(expected_version, game.version)
            events = decide(game, command, self.repository.seed(game_id))
            first, last = game.version + 1, game.version + len(events)
            record_ = {"first": first, "version": last, "fingerprint": fingerprint}
            try:
                appended = self._append(game, command, events, idem=idem, idem_record=record_)
            except VersionConflict:
                if expected_version is not None:
                    raise
                continue
            if appended is not None:
                return self._replay_result(game_id, seat, appended, fingerprint)
            self._settle(game_id)
            return {"version": last, "events": self.events_for(game_id, seat, after=first - 1, upto=last)}
        raise VersionConflict(game.version, self.store.version(game_id))

    def step(self, game_id: str, version: int) -> str:
        """Take the system's or one bot's turn if the game still waits on it at `version`."""
        game = self.repository.load(game_id)
        if game.version != version:
            # Someone moved first; make sure the current version is scheduled.
            self._schedule(game)
            return "stale"
        if game.system_due:
            command: dict[str, Any] = {"kind": "advance"}
        elif game.bots_to_act():
            seat = game.bots_to_act()[0]
            view = game_view(game, seat)
            bot = bot_for(game.type, game.seats[seat].bot or "random")
            action = bot(view, view["legal_actions"], bot_rng(game_id, game.version, seat))
            command = {"kind": "act", "seat": seat, "action": action}
        else:
            return "idle"
        events = decide(game, command, self.repository.seed(game_id))
        try:
            self._append(game, command, events)
        except VersionConflict:
            self._schedule(self.repository.load(game_id))
            return "conflict"
        self._settle(game_id)
        return "done"

    # --- queries --------------------------------------------------------

    def events_for(
        self, game_id: str, seat: int | None, after: int = 0, upto: int | None = None
    ) -> list[dict[str, Any]]:
        """Return the log after `after` as `seat` may see it (all of it once the game is over)."""
        game = self.repository.load(game_id)
        events = self.store.read(game_id, after=after, upto=upto)
        return redact_log(game.type, events, seat, open_log=game.status == "finished")

    # --- internals ------------------------------------------------------

    def _new_token(self, game_id: str, seat: int) -> str:
        # The token names its game and seat, so no lookup table is needed to
        # tell a token of another game (403) from an unknown one (401).
        return f"{game_id}.{seat}.{self.new_secret()}"

    def _append(
        self,
        game: Game,
        command: Mapping[str, Any],
        events: list[Event],
        *,
        idem: str | None = None,
        idem_record: Mapping[str, Any] | None = None,
    ) -> Mapping[str, Any] | None:
        """Append a batch at the version it was decided at; return the first run's record if this was a retry."""
        if not events:
            return None
        appended = self.store.append_decided(
            game.id,
            version=game.version,
            last_hash=game.last_hash,
            events=events,
            command=command,
            time=self.clock(),
            command_id=uuid.uuid4().hex,
            idempotency_key=idem,
            idempotency_record=idem_record,
        )
        return appended.prior if appended.duplicate else None

    def _settle(self, game_id: str) -> Game:
        """Catch up after an append and schedule whatever the game now waits on."""
        game = self.repository.load(game_id)
        self._schedule(game)
        if game.status == "finished":
            for listener in self.on_finished:
                listener(game)
        return game

    def _schedule(self, game: Game) -> None:
        if game.system_due or game.bots_to_act():
            self.jobs.enqueue_step(game.id, game.version)

    def _replay_result(self, game_id: str, seat: int, prior: Mapping[str, Any], fingerprint: str) -> dict[str, Any]:
        if prior.get("fingerprint") != fingerprint:
            raise IdempotencyKeyReused("this Idempotency-Key was used for a different request")
        events = self.events_for(game_id, seat, after=prior["first"] - 1, upto=prior["version"])
        return {"version": prior["version"], "events": events, "replayed": True}
