"""Commands on tournaments: decide, record, append with the version read; seat and watch games.

A tournament is its own aggregate (stream `<prefix>:{t-<hex>}:events`), kept
and appended like a game's with the same hash chain. `advance` is the one
step that moves a tournament on; it is idempotent and safe to run at any time:
it replays, creates the games of tables that have none, records every finished
game of the round, and (in the same batch as the last result) starts the next
round or finishes. It runs when a game of the tournament finishes (as an RQ
job, or inline) and is re-checked whenever the tournament is started or read,
so a lost notification can delay a tournament but never stall it.

Tokens: creating a tournament gives the organiser a token (to register bots,
start, record); a human who registers gets an entrant token. When a round
starts, each human's seat token for their game is kept beside the stream, and
`GET /tournaments/{id}` with the entrant token lists the entrant's own games
with those tokens — nobody else's.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from domain.chance import seed_commitment
from domain.events import canonical_json
from domain.game import FINISHED as GAME_FINISHED
from domain.game import Game
from domain.tournament import decide, replay
from domain.tournament.errors import GameNotFinished, GameNotInTournament, ResultAlreadyRecorded, TableAlreadyLinked
from domain.tournament.state import ACTIVE, Table, Tournament
from projections.tournament import tournament_view
from service.games import GameService, token_sha256, utc_now
from service.ratings import RatingService
from service.repository import AggregateCache
from service.store import EventStore, VersionConflict
from service.tournament_index import TournamentIndex

MAX_RETRIES = 8
ORGANISER = "organiser"
_ID = re.compile(r"^t-[0-9a-f]{16}$")


class TournamentNotFound(Exception):
    """No tournament has that id."""


class FollowUps(Protocol):
    """Where finished games send their rating and their tournament's next step."""

    def rate(self, game_id: str) -> None:
        """Rate a finished game."""

    def progress(self, tournament_id: str, reason: str) -> None:
        """Step a tournament."""


def game_seed(seed: str, round_: int, table: int) -> str:
    """Return a table's game seed, derived from the tournament's (checkable once it is revealed)."""
    return hashlib.sha256(f"{seed}:round:{round_}:table:{table}".encode()).hexdigest()


@dataclass
class TournamentService:
    """The application service for tournaments."""

    store: EventStore
    index: TournamentIndex
    games: GameService
    ratings: RatingService
    followups: FollowUps
    clock: Callable[[], str] = utc_now
    new_secret: Callable[[], str] = field(default=lambda: secrets.token_hex(16))
    _cache: AggregateCache[Tournament] = field(init=False)

    def __post_init__(self) -> None:
        self._cache = AggregateCache(self.store, replay, "TournamentCreated", TournamentNotFound)

    # --- commands -------------------------------------------------------

    def create(
        self,
        game_type: str,
        *,
        rounds: int,
        format: str = "swiss",
        table_sizes: Sequence[int] | None = None,
        scoring: Mapping[str, Sequence[float]] | None = None,
        max_players: int | None = None,
        options: Mapping[str, Any] | None = None,
        seed: str | None = None,
    ) -> tuple[Tournament, str]:
        """Create a tournament; return it and the organiser's token."""
        tournament_id = f"t-{uuid.uuid4().hex[:16]}"
        seed = seed if seed is not None else secrets.token_hex(32)
        organiser_token = f"{tournament_id}.o.{self.new_secret()}"
        command = {
            "kind": "create",
            "id": tournament_id,
            "game": game_type,
            "format": format,
            "rounds": rounds,
            "table_sizes": list(table_sizes or []),
            "scoring": {size: list(row) for size, row in (scoring or {}).items()},
            "max_players": max_players,
            "options": dict(options or {}),
            "seed_commitment": seed_commitment(seed),
            "organiser_sha256": token_sha256(organiser_token),
        }
        events = decide(Tournament(), command, seed)
        self.store.save_seed(tournament_id, seed)
        self._append(Tournament(id=tournament_id), command, events)
        self.index.add_tournament(tournament_id, time.time())
        return self.load(tournament_id), organiser_token

    def register(self, tournament_id: str, *, name: str | None = None, bot: str | None = None) -> dict[str, Any]:
        """Register a human (who gets a token) or a bot of a kind."""
        for _ in range(MAX_RETRIES):
            tournament = self.load(tournament_id)
            entrant = len(tournament.entrants)
            token = None if bot else f"{tournament_id}.{entrant}.{self.new_secret()}"
            command = {"kind": "register", "name": name, "bot": bot, "token_sha256": token and token_sha256(token)}
            events = decide(tournament, command, "")
            try:
                self._append(tournament, command, events)
            except VersionConflict:
                continue
            return {"entrant": entrant, "name": events[0].data["name"], "bot": bot, "token": token}
        raise VersionConflict(tournament.version, self.store.version(tournament_id))

    def start(self, tournament_id: str) -> Tournament:
        """Close registration, seat round 1 and have its games created."""
        tournament = self.load(tournament_id)
        command = {"kind": "start", "ratings": self._snapshot(tournament)}
        self._append(tournament, command, decide(tournament, command, self._seed(tournament_id)))
        self.followups.progress(tournament_id, f"v{tournament.version}")
        return self.load(tournament_id)

    def record_game(self, tournament_id: str, game_id: str) -> Tournament:
        """Record a finished game of the current round now (results also record themselves)."""
        for _ in range(MAX_RETRIES):
            tournament = self.load(tournament_id)
            found = tournament.find_game(game_id)
            current = tournament.current
            if found is None or current is None or found[0].number != current.number:
                message = f"game {game_id!r} is not played in the current round of this tournament"
                raise GameNotInTournament(message, game_id=game_id)
            if found[1].places is not None:
                raise ResultAlreadyRecorded(f"the result of game {game_id} is already recorded", game_id=game_id)
            game = self.games.repository.load(game_id)
            if game.status != GAME_FINISHED or game.result is None:
                raise GameNotFinished(f"game {game_id} has not finished yet", game_id=game_id, status=game.status)
            result = {"game_id": game_id, "places": list(game.result["places"])}
            command = {"kind": "record", "results": [result], "ratings": self._snapshot(tournament)}
            try:
                self._append(tournament, command, decide(tournament, command, self._seed(tournament_id)))
            except VersionConflict:
                continue
            # A completed round started the next one: its games are created by a step.
            self.followups.progress(tournament_id, f"v{tournament.version}")
            return self.load(tournament_id)
        raise VersionConflict(tournament.version, self.store.version(tournament_id))

    def advance(self, tournament_id: str) -> str:
        """Take every step the tournament waits on: "advanced", "waiting", "busy" or "idle"."""
        outcome = "idle"
        for _ in range(10_000):  # each pass appends something or returns
            tournament = self.load(tournament_id)
            current = tournament.current
            if tournament.status != ACTIVE or current is None:
                return outcome
            unlinked = [table for table in current.tables if table.game_id is None]
            if unlinked:
                if not [table for table in unlinked if self._open_table(tournament, table)]:
                    return "busy"  # another worker holds the claims; its games will notify
                outcome = "advanced"
                continue
            results = self._finished_results(tournament)
            if not results:
                return "waiting" if outcome == "idle" else outcome
            command = {"kind": "record", "results": results, "ratings": self._snapshot(tournament)}
            try:
                self._append(tournament, command, decide(tournament, command, self._seed(tournament_id)))
            except VersionConflict:
                continue
            outcome = "advanced"
        return outcome

    # --- listeners and checks -------------------------------------------

    def game_finished(self, game: Game) -> None:
        """Listen for finished games: rate each; step its tournament, if it has one."""
        self.followups.rate(game.id)
        tournament_id = self.index.tournament_of(game.id)
        if tournament_id is not None:
            self.followups.progress(tournament_id, game.id)

    def check(self, tournament: Tournament) -> None:
        """Ask for a step if the tournament waits on one (cheap: cached games only)."""
        current = tournament.current
        if tournament.status != ACTIVE or current is None:
            return
        if any(t.game_id is None for t in current.tables) or self._finished_results(tournament):
            self.followups.progress(tournament.id, f"v{tournament.version}")

    # --- queries --------------------------------------------------------

    def load(self, tournament_id: str) -> Tournament:
        """Return the tournament at its latest version (cached, caught up from the stream)."""
        if not _ID.match(tournament_id):
            # Games and ratings share the store; never read their streams as a tournament.
            raise TournamentNotFound(tournament_id)
        return self._cache.load(tournament_id)

    def rebuild(self, tournament_id: str) -> Tournament:
        """Return the tournament folded afresh from its whole stream."""
        events = self.store.read(tournament_id) if _ID.match(tournament_id) else []
        if not events:
            raise TournamentNotFound(tournament_id)
        return replay(events)

    def view(self, tournament_id: str, caller: int | str | None = None) -> dict[str, Any]:
        """Return the tournament's view; an entrant also gets its own games' seat tokens."""
        tournament = self.load(tournament_id)
        self.check(tournament)
        tournament = self.load(tournament_id)
        you = caller if isinstance(caller, int) else None
        view = tournament_view(tournament, you)
        if you is not None:
            view["your_games"] = self._games_of(tournament, you)
        return view

    def caller(self, tournament_id: str, token: str) -> int | str | None:
        """Return who holds a token of this tournament (an entrant number, ORGANISER), or None."""
        tournament = self.load(tournament_id)
        digest = token_sha256(token)
        if tournament.organiser_sha256 == digest:
            return ORGANISER
        return next((e.index for e in tournament.entrants if e.token_sha256 == digest), None)

    # --- internals ------------------------------------------------------

    def _open_table(self, tournament: Tournament, table: Table) -> bool:
        """Create and link a table's game, unless another worker claimed it."""
        assert tournament.current is not None
        round_ = tournament.current.number
        if not self.index.claim_table(tournament.id, round_, table.number):
            return False
        seats = [tournament.entrants[e].seat_spec() for e in table.entrants]
        seed = game_seed(self._seed(tournament.id), round_, table.number)
        game, tokens = self.games.create(tournament.game, seats, tournament.options, seed=seed)
        # Tokens and the game map first: once linked, a game's tokens can be
        # fetched and its end finds its tournament.
        self.index.save_seat_tokens(tournament.id, game.id, tokens)
        self.index.link_game(game.id, tournament.id)
        command = {"kind": "link", "round": round_, "table": table.number, "game_id": game.id}
        for _ in range(MAX_RETRIES):
            current = self.load(tournament.id)
            try:
                self._append(current, command, decide(current, command, ""))
                return True
            except VersionConflict:
                continue
            except TableAlreadyLinked:
                return True  # linked by a worker whose claim had lapsed; this game stays casual
        return True

    def _finished_results(self, tournament: Tournament) -> list[dict[str, Any]]:
        """Return the results of the round's finished games that are not on record yet."""
        assert tournament.current is not None
        results = []
        for table in tournament.current.tables:
            if table.places is None and table.game_id is not None:
                game = self.games.repository.load(table.game_id)
                if game.status == GAME_FINISHED and game.result is not None:
                    results.append({"game_id": game.id, "places": list(game.result["places"])})
        return results

    def _snapshot(self, tournament: Tournament) -> dict[str, float]:
        """Return the entrants' current rating ordinals, keyed by entrant number as text."""
        identities = [e.rating_identity for e in tournament.entrants]
        ordinals = self.ratings.ordinals(tournament.game, identities) if identities else []
        return {str(e.index): ordinal for e, ordinal in zip(tournament.entrants, ordinals)}

    def _games_of(self, tournament: Tournament, entrant: int) -> list[dict[str, Any]]:
        seats = [
            (round_.number, table.number, table.game_id, table.entrants.index(entrant))
            for round_ in tournament.played
            for table in round_.tables
            if entrant in table.entrants and table.game_id is not None
        ]
        tokens = self.index.seat_tokens(tournament.id, [(game_id, seat) for _, _, game_id, seat in seats])
        return [
            {"round": r, "table": t, "game_id": g, "seat": s, "token": token}
            for (r, t, g, s), token in zip(seats, tokens)
        ]

    def _seed(self, tournament_id: str) -> str:
        seed = self.store.load_seed(tournament_id)
        if seed is None:
            raise TournamentNotFound(tournament_id)
        return seed

    def _append(self, tournament: Tournament, command: Mapping[str, Any], events: list[Any]) -> None:
        """Record a batch on the tournament's chain and append it at the version read."""
        if not events:
            return
        self.store.append_decided(
            tournament.id,
            version=tournament.version,
            last_hash=tournament.last_hash,
            events=events,
            command=command,
            time=self.clock(),
            command_id=hashlib.sha256(canonical_json([tournament.version, command]).encode()).hexdigest()[:32],
        )
