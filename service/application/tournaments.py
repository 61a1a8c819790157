"""Commands on tournaments: decide, record, append with the version read; seat and watch games.

Bundles, audits and listings only read, and live in `tournament_files`.

A tournament is its own aggregate (stream `<prefix>:{t-<hex>}:events`), kept
and appended like a game's with the same hash chain. `advance` is the one
step that moves a tournament on; it is idempotent and safe to run at any time:
it replays, creates the games of tables that have none, records every finished
game of the round, and (in the same batch as the last result) starts the next
round or finishes. It runs when a game of the tournament finishes (as a job)
and is re-checked whenever the tournament is started or read, so a lost
notification can delay a tournament but never stall it.

Tokens: creating a tournament gives the organiser a token (to register bots,
start, record); a human who registers gets an entrant token. When a round
starts, each human's seat token for their game is kept beside the stream, and
`GET /tournaments/{id}` with the entrant token lists the entrant's own games
with those tokens — nobody else's.
"""

from __future__ import annotations

import hashlib
import secrets
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.chance import FIXED, SHARED, game_secret, seed_commitment
from domain.events import RecordedEvent, canonical_json
from domain.game import FINISHED as GAME_FINISHED
from domain.game import Game
from domain.ids import is_tournament_id
from domain.players import check_name
from domain.tournament import decide, replay
from domain.tournament.errors import GameNotFinished, GameNotInTournament, ResultAlreadyRecorded, TableAlreadyLinked
from domain.tournament.seeding import table_secret
from domain.tournament.state import ACTIVE, FINISHED, OPEN, PLAYING, Table, Tournament
from projections.tournament import public_event, tournament_view
from service.adapters.cache import AggregateCache, GameRepository
from service.adapters.indexes import TournamentIndex, listed_at
from service.adapters.players import PlayerAccounts
from service.adapters.store import EventStore
from service.application.clock import utc_now
from service.application.commands import CommandPath, Decision, Outcome
from service.application.games import GameService, Jobs
from service.application.ratings import RatingService
from service.application.read_models import ReadModels
from service.application.tokens import new_secret, token_sha256
from service.errors import TournamentNotFound, VersionConflict

ORGANISER = "organiser"


def _fold(events: Iterable[RecordedEvent], tournament: Tournament | None) -> Tournament:
    return replay(events, tournament)


def _command_id(tournament: Tournament, decision: Decision) -> str:
    # Derived from what was decided, so the same step decided twice has one id.
    return hashlib.sha256(canonical_json([tournament.version, decision.command]).encode()).hexdigest()[:32]


@dataclass
class TournamentService:
    """The application service for tournaments."""

    store: EventStore
    index: TournamentIndex
    games: GameService
    ratings: RatingService
    jobs: Jobs
    clock: Callable[[], str] = utc_now
    new_secret: Callable[[], str] = new_secret
    # What a finished tournament sets off (the bootstrap's: the house signs its result and logs it).
    on_finished: Callable[[Tournament], object] = lambda tournament: None
    # Where the entrants' handles are looked up for the views (None: ids only).
    accounts: PlayerAccounts | None = None
    # The standings read model, written after every append (None: not kept).
    models: ReadModels | None = None
    commands: CommandPath[Tournament] = field(init=False)

    def __post_init__(self) -> None:
        cache = AggregateCache(self.store, _fold, "TournamentCreated", TournamentNotFound)
        self.commands = CommandPath(self.store, cache, self.clock)

    @property
    def repository(self) -> GameRepository:
        """The games' repository (a tournament reads its games' results)."""
        return self.games.repository

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
        late_entry_until: int = 0,
        registration: str = OPEN,
        invitation: str | None = None,
        organiser_player: str | None = None,
    ) -> tuple[Tournament, str]:
        """Create a tournament; return it and the organiser's token.

        `registration`: open, code (whoever gives the `invitation` code, which the caller drew and hands to the
        organiser alone: only its hash is kept) or approval. `organiser_player`: the organiser's account, so
        that the organiser cannot annul a table they sit at.
        """
        tournament_id = f"t-{uuid.uuid4().hex[:16]}"
        # An organiser's seed fixes every deal and pairing (disclosed as fixed); else the service draws it.
        dealing = FIXED if seed is not None else SHARED
        seed = game_secret(secrets.token_hex(32), seed if seed is not None else secrets.token_hex(32))
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
            "dealing": dealing,
            "organiser_sha256": token_sha256(organiser_token),
        }
        if late_entry_until:
            command["late_entry_until"] = late_entry_until
        if registration != OPEN:
            command["registration"] = registration
        if invitation is not None:
            command["invitation_sha256"] = token_sha256(invitation)
        if organiser_player is not None:
            command["organiser_player"] = organiser_player
        events = decide(Tournament(), command, seed)
        self.store.save_seed(tournament_id, seed)
        outcome = self.commands.create(tournament_id, Tournament(id=tournament_id), Decision(command, events))
        self.index.add_tournament(tournament_id, listed_at(outcome.events[0].time), outcome.after.game)
        self._publish(outcome.after)
        return outcome.after, organiser_token

    def register(
        self,
        tournament_id: str,
        *,
        name: str | None = None,
        bot: str | None = None,
        entropy: str | None = None,
        player: str | None = None,
        handle: str | None = None,
        invitation: str | None = None,
    ) -> dict[str, Any]:
        """Register a human (an account's `player` id, or a guest's `name`; either gets a token) or a bot of a kind.

        A fixed tournament drops a human's entropy. `invitation`: the code, where registration is by code.
        """
        if name is not None and bot is None:
            check_name(name)
        entry: dict[str, Any] = {}

        def decide_register(tournament: Tournament) -> Decision:
            entrant = len(tournament.entrants)
            token = None if bot else f"{tournament_id}.{entrant}.{self.new_secret()}"
            command = {"kind": "register", "name": name, "bot": bot, "token_sha256": token and token_sha256(token)}
            if player is not None:
                command.update(name=None, player=player)
            if invitation is not None:
                command["invitation_sha256"] = token_sha256(invitation)
            if entropy is not None and tournament.dealing == SHARED:
                command["entropy"] = entropy
            events = decide(tournament, command, "")
            shown = handle if player is not None else events[0].data["name"]
            entry.update(
                entrant=entrant, name=shown, bot=bot, token=token, status=events[0].data.get("status", PLAYING)
            )
            if player is not None:
                entry["player"] = player
            return Decision(command, events)

        outcome = self._run(tournament_id, decide_register, optimistic=True)
        # The entrant's receipt: its PlayerRegistered as anyone sees it, with its hash (and its entropy).
        entry["receipt"] = public_event(outcome.events[0])
        return entry

    def add_organiser(self, tournament_id: str, player: str) -> dict[str, Any]:
        """Add a co-organiser by account; return their number and organiser token (which may annul)."""
        added: dict[str, Any] = {}

        def decide_add(tournament: Tournament) -> Decision:
            number = len(tournament.co_organisers) + 1
            token = f"{tournament_id}.o{number}.{self.new_secret()}"
            command = {"kind": "add_organiser", "player": player, "token_sha256": token_sha256(token)}
            added.update(organiser=number, player=player, token=token)
            return Decision(command, decide(tournament, command, ""))

        self._run(tournament_id, decide_add, optimistic=True)
        return added

    def approve(self, tournament_id: str, entrant: int) -> Tournament:
        """Admit a pending entrant (the organiser, registration by approval)."""

        def decide_approve(tournament: Tournament) -> Decision:
            command = {"kind": "approve", "entrant": entrant}
            return Decision(command, decide(tournament, command, ""))

        return self._run(tournament_id, decide_approve, optimistic=True).after

    def start(self, tournament_id: str, *, expected_version: int | None = None) -> Tournament:
        """Close registration, seat round 1 and have its games created."""
        seed = self._seed(tournament_id)

        def decide_start(tournament: Tournament) -> Decision:
            command = {"kind": "start", "ratings": self._snapshot(tournament)}
            return Decision(command, decide(tournament, command, seed))

        outcome = self._run(tournament_id, decide_start, expected_version=expected_version)
        self.jobs.advance(tournament_id, f"v{outcome.before.version}")
        return outcome.after

    def record_game(self, tournament_id: str, game_id: str) -> Tournament:
        """Record a finished game of the current round now (results also record themselves)."""
        seed = self._seed(tournament_id)

        def decide_record(tournament: Tournament) -> Decision:
            found = tournament.find_game(game_id)
            current = tournament.current
            if found is None or current is None or found[0].number != current.number:
                message = f"game {game_id!r} is not played in the current round of this tournament"
                raise GameNotInTournament(message, game_id=game_id)
            if found[1].places is not None:
                raise ResultAlreadyRecorded(f"the result of game {game_id} is already recorded", game_id=game_id)
            game = self.repository.load(game_id)
            if game.status != GAME_FINISHED or game.result is None:
                raise GameNotFinished(f"game {game_id} has not finished yet", game_id=game_id, status=game.status)
            result = _result(game)
            command = {"kind": "record", "results": [result], "ratings": self._snapshot(tournament)}
            return Decision(command, decide(tournament, command, seed))

        outcome = self._run(tournament_id, decide_record, optimistic=True)
        # A completed round started the next one: its games are created by a step.
        self.jobs.advance(tournament_id, f"v{outcome.before.version}")
        return outcome.after

    def withdraw(self, tournament_id: str, entrant: int, *, by: str, reason: str) -> Tournament:
        """Withdraw an entrant from the next round on; a game of theirs still in play is forfeited."""
        self.advance(tournament_id)  # a game that has just ended counts as played, not forfeited
        return self._correct(tournament_id, {"kind": "withdraw", "entrant": entrant, "by": by, "reason": reason})

    def disqualify(self, tournament_id: str, entrant: int, *, reason: str) -> Tournament:
        """Disqualify (remove) an entrant (the organiser), before the start too; a game of theirs in play is forfeited."""
        self.advance(tournament_id)
        command = {"kind": "disqualify", "entrant": entrant, "reason": reason, "by": "organiser"}
        return self._correct(tournament_id, command)

    def annul(
        self, tournament_id: str, round_: int, table: int, *, reason: str, replay: bool, by: int | str = "organiser"
    ) -> Tournament:
        """Annul a table's recorded result: void, or played again with a new game (round in play only).

        `by`: "organiser", or the number of an entrant at the table asking for it (`domain.tournament.decide.annul`).
        """
        command = {"kind": "annul", "round": round_, "table": table, "reason": reason, "replay": replay, "by": by}
        return self._correct(tournament_id, command)

    def _correct(self, tournament_id: str, command: Mapping[str, Any]) -> Tournament:
        seed = self._seed(tournament_id)

        def decide_correction(tournament: Tournament) -> Decision:
            full = {**command, "ratings": self._snapshot(tournament)}
            return Decision(full, decide(tournament, full, seed))

        outcome = self._run(tournament_id, decide_correction, optimistic=True)
        # A forfeit may have completed the round, a replay needs its game: a step sees to both.
        self.jobs.advance(tournament_id, f"v{outcome.before.version}")
        return self.cached(tournament_id)

    def advance(self, tournament_id: str) -> str:
        """Take every step the tournament waits on: "advanced", "waiting", "busy" or "idle"."""
        outcome = "idle"
        tournament = self.load(tournament_id)
        self._publish(tournament)  # a run killed between an append and its standings' write is retried here
        if tournament.status == FINISHED:
            # Its end was set off when it finished; a job run again (that one failed) sets it off again.
            self.on_finished(tournament)
        for _ in range(10_000):  # each pass appends something or returns
            current = tournament.current
            if tournament.status != ACTIVE or current is None:
                return outcome
            unlinked = [table for table in current.tables if table.game_id is None and not table.decided]
            if unlinked:
                if not [table for table in unlinked if self._open_table(tournament, table)]:
                    return "busy"  # another worker holds the claims; its games will notify
                tournament = self.cached(tournament_id)
                outcome = "advanced"
                continue
            results = self._finished_results(tournament)
            if not results:
                return "waiting" if outcome == "idle" else outcome
            command = {"kind": "record", "results": results, "ratings": self._snapshot(tournament)}
            decision = Decision(command, decide(tournament, command, self._seed(tournament_id)))
            try:
                # Decided above on this very version, which the run pins.
                tournament = self._run(tournament_id, lambda _: decision, expected_version=tournament.version).after  # noqa: B023
            except VersionConflict:
                tournament = self.load(tournament_id)
                continue
            outcome = "advanced"
        return outcome

    # --- follow-ups and checks ------------------------------------------

    def game_finished(self, game: Game) -> None:
        """Step a finished game's tournament, if it has one."""
        tournament_id = self.index.tournament_of(game.id)
        if tournament_id is not None:
            self.jobs.advance(tournament_id, game.id)

    def holds(self, game_id: str) -> bool:
        """Tell whether a game's tournament is still in play (it must find the game's result in the store)."""
        tournament_id = self.index.tournament_of(game_id)
        if tournament_id is None:
            return False
        try:
            return self.load(tournament_id).status != FINISHED
        except TournamentNotFound:
            return False  # its tournament is gone: nothing waits on the game

    def check(self, tournament: Tournament) -> Tournament:
        """Ask for a step if the tournament waits on one; return it as this process last saw it."""
        current = tournament.current
        if tournament.status != ACTIVE or current is None:
            return tournament
        if any(t.game_id is None and not t.decided for t in current.tables) or self._finished_results(tournament):
            self.jobs.advance(tournament.id, f"v{tournament.version}")
        # An in-process step has already run and left its result in the cache.
        return self.cached(tournament.id)

    # --- queries --------------------------------------------------------

    def load(self, tournament_id: str) -> Tournament:
        """Return the tournament at its latest version (cached, caught up from the stream)."""
        if not is_tournament_id(tournament_id):
            # Games and ratings share the store; never read their streams as a tournament.
            raise TournamentNotFound(tournament_id)
        return self.commands.cache.load(tournament_id)

    def cached(self, tournament_id: str) -> Tournament:
        """Return the tournament as this process last saw it (reads only if it never did)."""
        if not is_tournament_id(tournament_id):
            raise TournamentNotFound(tournament_id)
        return self.commands.cache.cached(tournament_id)

    def rebuild(self, tournament_id: str) -> Tournament:
        """Return the tournament folded afresh from its whole stream."""
        events = self.store.read(tournament_id) if is_tournament_id(tournament_id) else []
        if not events:
            raise TournamentNotFound(tournament_id)
        return replay(events)

    def view(self, tournament: Tournament, caller: int | str | None = None) -> dict[str, Any]:
        """Return the tournament's view; an entrant also gets its own games' seat tokens."""
        tournament = self.check(tournament)
        you = caller if isinstance(caller, int) else None
        view = tournament_view(tournament, you, self.handles(tournament))
        if you is not None:
            view["your_games"] = self._games_of(tournament, you)
        return view

    def handles(self, tournament: Tournament) -> dict[str, str]:
        """Return the handles of the tournament's entrants' accounts, by id (for display: the chain holds ids)."""
        players = [e.player for e in tournament.entrants if e.player is not None]
        return self.accounts.handles(players) if self.accounts is not None and players else {}

    def caller(self, tournament: Tournament, token: str) -> int | str | None:
        """Return who holds a token of this tournament (an entrant number, ORGANISER, `organiser:<n>`), or None."""
        digest = token_sha256(token)
        if tournament.organiser_sha256 == digest:
            return ORGANISER
        for number, (_, co_digest) in enumerate(tournament.co_organisers, start=1):
            if co_digest == digest:
                return f"{ORGANISER}:{number}"
        return next((e.index for e in tournament.entrants if e.token_sha256 == digest), None)

    # --- internals ------------------------------------------------------

    def _run(
        self,
        tournament_id: str,
        decide_: Callable[[Tournament], Decision],
        *,
        expected_version: int | None = None,
        optimistic: bool = False,
    ) -> Outcome[Tournament]:
        outcome = self.commands.run(
            tournament_id,
            decide_,
            expected_version=expected_version,
            optimistic=optimistic,
            command_id=_command_id,
        )
        # Also when this run appended nothing: a retry of a job killed between its append and this write
        # leaves the model as one clean run does (a value no newer than the one kept changes nothing).
        self._publish(outcome.after)
        if outcome.events and outcome.after.status == FINISHED:
            self.on_finished(outcome.after)
        return outcome

    def _publish(self, tournament: Tournament) -> None:
        if self.models is not None:
            self.models.publish_standings(tournament)

    def _open_table(self, tournament: Tournament, table: Table) -> bool:
        """Create and link a table's game, unless another worker claimed it."""
        current = tournament.current
        if current is None:
            return False
        round_ = current.number
        replay = len(table.annulled)
        if not self.index.claim_table(tournament.id, round_, table.number, replay):
            return False
        seats = [tournament.entrants[e].seat_spec() for e in table.entrants]
        secret = table_secret(self._seed(tournament.id), round_, table.number, replay)
        # Keyed by the table's secret (never guessable from outside, unlike the tournament's id): a job
        # killed after creating the game and run again once its claim lapsed gets that same game back,
        # not a second one nobody links.
        game, tokens = self.games.create(
            tournament.game,
            seats,
            tournament.options,
            secret=secret,
            dealing=tournament.dealing,
            idempotency_key=f"tournament-table:{secret}",
        )
        # Tokens and the game map first: once linked, a game's tokens can be
        # fetched and its end finds its tournament.
        self.index.save_seat_tokens(tournament.id, game.id, tokens)
        self.index.link_game(game.id, tournament.id)
        command = {"kind": "link", "round": round_, "table": table.number, "game_id": game.id}
        try:
            self._run(tournament.id, lambda t: Decision(command, decide(t, command, "")), optimistic=True)
        except TableAlreadyLinked:
            pass  # linked by a worker whose claim had lapsed; this game stays casual
        return True

    def _finished_results(self, tournament: Tournament) -> list[dict[str, Any]]:
        """Return the results of the round's finished games that are not on record yet."""
        results: list[dict[str, Any]] = []
        if tournament.current is None:
            return results
        for table in tournament.current.tables:
            if table.places is None and table.game_id is not None:
                game = self.repository.load(table.game_id)
                if game.status == GAME_FINISHED and game.result is not None:
                    results.append(_result(game))
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


def _result(game: Game) -> dict[str, Any]:
    """Return a finished game's result as a tournament records it: with the hash its chain ends at."""
    return {"game_id": game.id, "places": list((game.result or {})["places"]), "final_hash": game.last_hash}
