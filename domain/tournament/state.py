"""A tournament as the fold of its events.

Events (all past tense, all JSON-native):

- `TournamentCreated` — game, format, rounds, table sizes, scoring rows, capacity,
  game options, the seed's commitment, the organiser's token hash and, when late
  entry is allowed, `late_entry_until` (registration stays open until that round starts);
- `PlayerRegistered` — entrant number, name, bot kind (or null), token hash; a late
  entrant's also carries `round`, the round in play when they joined;
- `RoundStarted` — round number, the entrants on a bye, and the ratings
  snapshot (entrant -> ordinal) that standings use as their last tiebreak;
- `TableSeated` — a table of the round and its entrants in seat order;
- `GameLinked` — the game a table plays;
- `ResultRecorded` — a table's places, copied from its game's `GameEnded`;
- `PlayerWithdrawn` — an entrant (by their own token or the organiser's) leaves:
  not paired again; `round` is the round in play, `by` who asked, `reason`;
- `PlayerDisqualified` — the organiser removes an entrant, with a reason: not
  paired again and listed below everyone else in the standings;
- `TableForfeited` — a table whose game had no result when one of its players
  withdrew or was disqualified: its places by the forfeit rule (`decide.forfeit_places`);
- `ResultAnnulled` — the organiser annuls a table's result, with a reason: the
  table is void (nobody scores for it), or, with `replay`, it is played again
  with a new game;
- `TournamentFinished` — the final standings order, ratings snapshot, and the
  revealed seed (anyone can then recompute every draw).

Corrections are events, never edits: the annulled result stays in the stream
and in the view, marked as annulled, beside the reason.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import reduce
from types import MappingProxyType
from typing import Any

from mypy_extensions import mypyc_attr

from domain.events import GENESIS_HASH, Event, RecordedEvent
from domain.ratings import identity

REGISTERING, ACTIVE, FINISHED = "registering", "active", "finished"
PLAYING, WITHDRAWN, DISQUALIFIED, PENDING = "active", "withdrawn", "disqualified", "pending"
# Who may register: anyone (open), whoever has the organiser's invitation code (code), or whom the organiser approves.
OPEN, CODE, APPROVAL = "open", "code", "approval"
REGISTRATIONS = (OPEN, CODE, APPROVAL)
SWISS, ROUND_ROBIN = "swiss", "round-robin"
FORMATS = (SWISS, ROUND_ROBIN)
EMPTY: Mapping[Any, Any] = MappingProxyType({})


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Entrant:
    """A registered player: a human with a token, or a bot of a kind."""

    index: int
    name: str | None  # a guest's name, a bot's label; None for an account (shown by its handle, never chained)
    bot: str | None = None
    token_sha256: str | None = None
    status: str = PLAYING
    joined_round: int = 0
    entropy: str | None = None  # a human's public contribution to a shared tournament's draws and deals
    player: str | None = None  # the account the place is bound to (`domain.players`), by id

    @property
    def playing(self) -> bool:
        """Tell whether the entrant is still paired (not withdrawn or disqualified)."""
        return self.status == PLAYING

    @property
    def rating_identity(self) -> str:
        """Return the identity this entrant is rated under (see domain.ratings)."""
        return identity(None if self.bot else self.name, self.bot, self.player)

    def seat_spec(self) -> dict[str, str]:
        """Return how this entrant is seated in a game (`GameService.create`): a human with its entropy, if any.

        A bot sits under its entrant's name, so the game's seats name it as the tournament does.
        """
        if self.bot:
            return {"bot": self.bot, "name": self.name} if self.name else {"bot": self.bot}
        who = {"player": self.player} if self.player is not None else {"name": str(self.name)}
        return {**who, "entropy": self.entropy} if self.entropy else who


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Table:
    """One table of a round: who sits where, its game and, once over, its places."""

    number: int
    entrants: tuple[int, ...]
    game_id: str | None = None
    places: tuple[int, ...] | None = None
    forfeited: tuple[int, ...] = ()
    void: bool = False
    annulled: tuple[str, ...] = ()
    # Entrants at the table who asked for its result to be annulled, with whether to replay it (see `decide.annul`).
    agreed: tuple[tuple[int, bool], ...] = ()

    @property
    def decided(self) -> bool:
        """Tell whether the table needs nothing more: a result on record, or annulled as void."""
        return self.places is not None or self.void

    @property
    def counts(self) -> bool:
        """Tell whether the table's result scores (recorded, and not annulled)."""
        return self.places is not None and not self.void


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Round:
    """One round: its tables, its byes and the ratings snapshot taken when it started."""

    number: int
    byes: tuple[int, ...] = ()
    ratings: Mapping[int, float] = field(default_factory=lambda: EMPTY)
    tables: tuple[Table, ...] = ()

    @property
    def complete(self) -> bool:
        """Tell whether every table of the round has its result."""
        return all(table.decided for table in self.tables)


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Tournament:
    """One tournament as the fold of its events."""

    id: str = ""
    version: int = 0
    last_hash: str = GENESIS_HASH
    game: str = ""
    format: str = SWISS
    rounds: int = 0
    table_sizes: tuple[int, ...] = ()
    scoring: Mapping[str, tuple[float, ...]] = field(default_factory=lambda: EMPTY)
    max_players: int = 0
    options: Mapping[str, Any] = field(default_factory=lambda: EMPTY)
    seed_commitment: str = ""
    dealing: str | None = None  # "shared" or "fixed" (`domain.chance`); None for one recorded before
    organiser_sha256: str | None = None
    organiser_player: str | None = None  # the organiser's account, when it gave one
    # Co-organisers (`OrganiserAdded`), by number from 1: each one's account and token hash. They may annul.
    co_organisers: tuple[tuple[str, str], ...] = ()
    registration: str = OPEN
    invitation_sha256: str | None = None  # registration by code: the code's SHA-256
    entrants: tuple[Entrant, ...] = ()
    played: tuple[Round, ...] = ()
    status: str = REGISTERING
    seed: str | None = None
    final_ratings: Mapping[int, float] | None = None
    late_entry_until: int = 0
    corrections: tuple[Mapping[str, Any], ...] = ()

    @property
    def playing(self) -> tuple[Entrant, ...]:
        """Return the entrants still paired, in registration order."""
        return tuple(e for e in self.entrants if e.playing)

    @property
    def taken_places(self) -> int:
        """Return how many places are taken: by the entrants still playing (not those removed, nor those pending)."""
        return len(self.playing)

    def organiser_account(self, organiser: int) -> str | None:
        """Return an organiser's account: 0 the creator's (if given), n the n-th co-organiser's."""
        if organiser == 0:
            return self.organiser_player
        return self.co_organisers[organiser - 1][0] if 0 < organiser <= len(self.co_organisers) else None

    def seat_of_organiser(self, table: Table, organiser: int = 0) -> bool:
        """Tell whether an organiser's account (0: the creator's) sits at a table."""
        account = self.organiser_account(organiser)
        return account is not None and any(self.entrants[e].player == account for e in table.entrants)

    @property
    def current(self) -> Round | None:
        """Return the round in play (or the last one), if any started."""
        return self.played[-1] if self.played else None

    @property
    def ratings(self) -> Mapping[int, float]:
        """Return the latest ratings snapshot (entrant -> ordinal)."""
        if self.final_ratings is not None:
            return self.final_ratings
        return self.current.ratings if self.current else EMPTY

    def find_game(self, game_id: str) -> tuple[Round, Table] | None:
        """Return the round and table that play a game, if any."""
        for round_ in self.played:
            for table in round_.tables:
                if table.game_id == game_id:
                    return round_, table
        return None


def _int_keys(raw: Mapping[str, float]) -> Mapping[int, float]:
    return MappingProxyType({int(key): value for key, value in raw.items()})


def _set_table(tournament: Tournament, number: int, table: Table) -> Tournament:
    """Replace one table of the current round."""
    current = tournament.played[-1]  # tables are only ever in the round in play
    tables = tuple(table if t.number == number else t for t in current.tables)
    return replace(tournament, played=tournament.played[:-1] + (replace(current, tables=tables),))


def apply(tournament: Tournament, event: Event) -> Tournament:
    """Apply one bare event; never fails on a valid stream."""
    data = event.data
    if event.type == "TournamentCreated":
        return replace(
            tournament,
            id=data["id"],
            game=data["game"],
            format=data["format"],
            rounds=data["rounds"],
            table_sizes=tuple(data["table_sizes"]),
            scoring=MappingProxyType({size: tuple(row) for size, row in data["scoring"].items()}),
            max_players=data["max_players"],
            options=MappingProxyType(dict(data["options"])),
            seed_commitment=data["seed_commitment"],
            dealing=data.get("dealing"),
            organiser_sha256=data["organiser_sha256"],
            organiser_player=data.get("organiser_player"),
            registration=data.get("registration", OPEN),
            invitation_sha256=data.get("invitation_sha256"),
            late_entry_until=data.get("late_entry_until", 0),
        )
    if event.type == "PlayerRegistered":
        entrant = Entrant(
            data["entrant"],
            data["name"],
            data.get("bot"),
            data.get("token_sha256"),
            status=data.get("status", PLAYING),
            joined_round=data.get("round", 0),
            entropy=data.get("entropy"),
            player=data.get("player"),
        )
        return replace(tournament, entrants=tournament.entrants + (entrant,))
    if event.type == "OrganiserAdded":
        added = (data["player"], data["token_sha256"])
        return replace(tournament, co_organisers=(*tournament.co_organisers, added))
    if event.type == "PlayerApproved":
        entrants = list(tournament.entrants)
        entrants[data["entrant"]] = replace(entrants[data["entrant"]], status=PLAYING)
        return replace(tournament, entrants=tuple(entrants))
    if event.type == "AnnulAgreed":
        table = _table(tournament, data["table"], data["round"])
        table = replace(table, agreed=(*table.agreed, (data["entrant"], bool(data["replay"]))))
        return _set_played_table(tournament, data["round"], table)
    if event.type == "RoundStarted":
        round_ = Round(data["round"], tuple(data["byes"]), _int_keys(data["ratings"]))
        return replace(tournament, status=ACTIVE, played=tournament.played + (round_,))
    if event.type == "TableSeated":
        current = tournament.played[-1]  # a table is seated in the round just started
        table = Table(data["table"], tuple(data["entrants"]))
        return replace(
            tournament, played=tournament.played[:-1] + (replace(current, tables=current.tables + (table,)),)
        )
    if event.type == "GameLinked":
        table = _table(tournament, data["table"])
        return _set_table(tournament, data["table"], replace(table, game_id=data["game_id"]))
    if event.type == "ResultRecorded":
        table = _table(tournament, data["table"])
        return _set_table(tournament, data["table"], replace(table, places=tuple(data["places"])))
    if event.type == "TableForfeited":
        table = replace(
            _table(tournament, data["table"]), places=tuple(data["places"]), forfeited=tuple(data["forfeited"])
        )
        return _set_table(tournament, data["table"], table)
    if event.type in ("PlayerWithdrawn", "PlayerDisqualified"):
        status = WITHDRAWN if event.type == "PlayerWithdrawn" else DISQUALIFIED
        entrants = list(tournament.entrants)
        entrants[data["entrant"]] = replace(entrants[data["entrant"]], status=status)
        corrections = tournament.corrections + ({"type": event.type, **data},)
        return replace(tournament, entrants=tuple(entrants), corrections=corrections)
    if event.type == "ResultAnnulled":
        return _annul(tournament, data)
    if event.type == "TournamentFinished":
        return replace(
            tournament,
            status=FINISHED,
            seed=data["seed"],
            final_ratings=_int_keys(data["ratings"]),
        )
    return tournament


def _table(tournament: Tournament, number: int, round_: int | None = None) -> Table:
    played = tournament.played[-1] if round_ is None else tournament.played[round_ - 1]
    return next(t for t in played.tables if t.number == number)


def _set_played_table(tournament: Tournament, number: int, table: Table) -> Tournament:
    """Replace one table of round `number` (any round played)."""
    round_ = tournament.played[number - 1]
    tables = tuple(table if t.number == table.number else t for t in round_.tables)
    return replace(
        tournament,
        played=tournament.played[: number - 1] + (replace(round_, tables=tables),) + tournament.played[number:],
    )


def _annul(tournament: Tournament, data: Mapping[str, Any]) -> Tournament:
    """Void a table's result, or clear it for a replay (which only the round in play can have)."""
    number, table_number = data["round"], data["table"]
    table = _table(tournament, table_number, number)
    if data["replay"]:
        table = Table(table.number, table.entrants, annulled=table.annulled + (data["game_id"],))
    else:
        table = replace(table, void=True, agreed=())
    round_ = tournament.played[number - 1]
    tables = tuple(table if t.number == table_number else t for t in round_.tables)
    played = tournament.played[: number - 1] + (replace(round_, tables=tables),) + tournament.played[number:]
    corrections = tournament.corrections + ({"type": "ResultAnnulled", **data},)
    return replace(tournament, played=played, corrections=corrections)


def evolve(tournament: Tournament, event: RecordedEvent) -> Tournament:
    """Apply one recorded event."""
    return apply(replace(tournament, version=event.seq, last_hash=event.hash), event.event)


def replay(events: Iterable[RecordedEvent], tournament: Tournament | None = None) -> Tournament:
    """Fold recorded events into a tournament (from scratch, or on from `tournament`)."""
    return reduce(evolve, events, tournament or Tournament())
