"""Multiplayer ratings per game type: a pure fold over recorded `GameRated` events.

Each game type has its own rating stream (aggregate id `ratings-<game>`) with one
`GameRated` event per finished game, tournament or casual alike. The model is
openskill's Plackett–Luce with the fixed parameters below, so that folding the
same events again gives bit-identical numbers. `GameRated` also records the
ratings its decision produced, for readers and auditors; the fold recomputes
them and never trusts the record (`verify` compares the two).

Which games are rated (`rated_identities`, the one rule, which the live
ratings and `menagerie ratings rebuild` both apply): a finished game of shared
dealing (a fixed deal's creator could know every hand; a game recorded before
dealing was disclosed is not provably shared), whose human seats are each
bound to an account (`domain.players`), a different account at every seat,
and which has a move clock wherever a human sits (so a player who abandons a
bad deal loses it on time instead of leaving it unfinished and unrated). A
guest (a typed name) plays anything, unrated; a table with a guest is unrated
as a whole, and so is one where an account holds two seats: one client
playing three seats against a fourth is not a result.

Identity: an account's seat is rated under `player:<id>` (never a handle: a
handle is for display), a bot seat under `bot:<kind>` (so every heuristic bot
shares one rating, which measures the bot program, not a seat). Nobody can
type either as a name (`domain.players.check_name`). When one bot kind holds
several seats of a game it is rated once, at its best place: a program's
games against itself say nothing about its strength.

Older rating streams rated seat names; their events fold as they were.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

import openskill
from mypy_extensions import mypyc_attr
from openskill.models import PlackettLuce

from domain.chance import SHARED
from domain.events import GENESIS_HASH, Event, RecordedEvent
from domain.game import FINISHED, Game, Seat

# Fixed, spelled out rather than left to the library's defaults, so an upgrade
# that changed a default could not silently change a rebuild.
MU, SIGMA, BETA, KAPPA, TAU = 25.0, 25.0 / 3.0, 25.0 / 6.0, 0.0001, 25.0 / 300.0
MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, kappa=KAPPA, tau=TAU, limit_sigma=False, balance=False)
GAME_RATED = "GameRated"
# What a table's numbers depend on besides its events: a snapshot folded under
# other parameters or another openskill is not this fold's, and is ignored.
FOLD = f"plackett-luce {MU!r} {SIGMA!r} {BETA!r} {KAPPA!r} {TAU!r} openskill {openskill.__version__}"
SNAPSHOT_FORMAT = 1
# The move clock a game that could be rated gets when its creator sets none (a tournament's default too).
RATED_MOVE_S = 120
PLAYER_PREFIX, BOT_PREFIX = "player:", "bot:"


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Rating:
    """One player's rating in one game type."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def ordinal(self) -> float:
        """Return the conservative skill estimate (mu - 3 sigma) leaderboards sort by."""
        return self.mu - 3.0 * self.sigma


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class RatingTable:
    """Every player's rating in one game type, as the fold of its stream."""

    game: str = ""
    version: int = 0
    last_hash: str = GENESIS_HASH
    players: Mapping[str, Rating] = field(default_factory=lambda: MappingProxyType({}))
    rated_games: int = 0

    def get(self, player: str) -> Rating:
        """Return a player's rating (the prior for a newcomer)."""
        return self.players.get(player, Rating())


def aggregate_id(game_type: str) -> str:
    """Return the id of a game type's rating stream."""
    return f"ratings-{game_type}"


def counts(dealing: str | None) -> bool:
    """Whether a finished game dealt this way can be rated: shared dealing only (see the module's docstring)."""
    return dealing == SHARED


def identity(name: str | None, bot: str | None, player: str | None = None) -> str:
    """Return the rated identity of a seat: `player:<id>` for an account, `bot:<kind>` for a bot (else its name)."""
    if player is not None:
        return f"{PLAYER_PREFIX}{player}"
    return f"{BOT_PREFIX}{bot}" if bot is not None else str(name)


def rated_identities(game: Game) -> list[str] | None:
    """Return the identity of each seat of a game that is rated, or None: the one rule of what is rated."""
    if game.status != FINISHED or game.result is None or not counts(game.dealing):
        return None
    humans = [seat.player for seat in game.seats if seat.bot is None]
    if humans and game.clock is None:
        return None
    if any(player is None for player in humans) or len(set(humans)) != len(humans):
        return None
    return [identity(seat.name, seat.bot, seat.player) for seat in game.seats]


def counts_for_ratings(game: Game) -> bool:
    """Tell whether a game is rated: once finished, by the rule; before, whether it would be if it ended as seated now.

    An open seat does not count yet: a guest who takes it makes the table unrated.
    """
    if game.status == FINISHED:
        return rated_identities(game) is not None
    humans = any(seat.filled and seat.bot is None for seat in game.seats)
    return could_be_rated(game.seats, game.dealing) and (game.clock is not None or not humans)


def could_be_rated(seats: Sequence[Seat], dealing: str | None) -> bool:
    """Tell whether a game being created could end rated: shared dealing and no guest, nor any account twice."""
    players = [seat.player for seat in seats if seat.filled and seat.bot is None]
    return counts(dealing) and None not in players and len(set(players)) == len(players)


def rated_clock(options: Mapping[str, Any], seats: Sequence[Seat], dealing: str | None) -> dict[str, Any]:
    """Return a new game's options with the rated move clock where it could be rated and its creator set none."""
    if options.get("clock") is not None or not could_be_rated(seats, dealing):
        return dict(options)
    if all(seat.bot is not None for seat in seats):
        return dict(options)  # nobody to wait on
    return {**options, "clock": {"move_s": RATED_MOVE_S}}


def merge_seats(identities: Sequence[str], places: Sequence[int]) -> tuple[list[str], list[int]]:
    """Rate each identity once, at its best place, in order of first seat (only a bot kind can hold two)."""
    best: dict[str, int] = {}
    for player, place in zip(identities, places):
        best[player] = min(place, best.get(player, place))
    return list(best), list(best.values())


def rate(table: RatingTable, players: Sequence[str], places: Sequence[int]) -> dict[str, Rating]:
    """Return the new ratings of one game's players (unchanged when fewer than two)."""
    return _rate(table.players, players, places)


def _rate(ratings: Mapping[str, Rating], players: Sequence[str], places: Sequence[int]) -> dict[str, Rating]:
    if len(players) < 2:
        return {}
    before = [ratings.get(player, Rating()) for player in players]
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = MODEL.rate(teams, ranks=[float(place) for place in places])
    return {
        player: Rating(team[0].mu, team[0].sigma, old.games + 1) for player, old, team in zip(players, before, after)
    }


def decide(
    table: RatingTable,
    game_id: str,
    identities: Sequence[str],
    places: Sequence[int],
    final_hash: str | None = None,
) -> Event:
    """Return the one event that rates a finished game (`final_hash`: the game's last chained hash, its identity)."""
    players, merged = merge_seats(identities, places)
    new = rate(table, players, merged)
    return Event(
        GAME_RATED,
        {
            "game_id": game_id,
            **({"final_hash": final_hash} if final_hash is not None else {}),
            "players": players,
            "places": merged,
            "ratings": {player: [r.mu, r.sigma] for player, r in new.items()},
        },
    )


def apply(table: RatingTable, event: Event) -> RatingTable:
    """Apply one bare event; never fails."""
    if event.type != GAME_RATED:
        return table
    new = rate(table, event.data["players"], event.data["places"])
    players = {**table.players, **new}
    return replace(table, players=MappingProxyType(players), rated_games=table.rated_games + 1)


def evolve(table: RatingTable, event: RecordedEvent) -> RatingTable:
    """Apply one recorded event."""
    return apply(replace(table, version=event.seq, last_hash=event.hash), event.event)


def replay(events: Iterable[RecordedEvent], table: RatingTable | None = None, game: str = "") -> RatingTable:
    """Fold recorded events into a rating table (from scratch, or on from `table`).

    The same fold as `reduce(evolve, events, table)`, but into one working dict
    copied once a batch: `evolve` copies every player's rating per event, which
    made a replay O(events x players).
    """
    table = table or RatingTable(game=game)
    players, rated, last = dict(table.players), table.rated_games, None
    for event in events:
        last = event
        if event.type == GAME_RATED:
            players.update(_rate(players, event.data["players"], event.data["places"]))
            rated += 1
    if last is None:
        return table
    return replace(table, version=last.seq, last_hash=last.hash, players=MappingProxyType(players), rated_games=rated)


def verify(events: Iterable[RecordedEvent], game: str = "") -> list[str]:
    """Return the ids of games whose recorded ratings differ from a fresh recomputation."""
    players: dict[str, Rating] = {}  # one working dict, as in `replay`
    bad = []
    for event in events:
        if event.type == GAME_RATED:
            fresh = _rate(players, event.data["players"], event.data["places"])
            recorded = {p: list(v) for p, v in event.data["ratings"].items()}
            if {p: [r.mu, r.sigma] for p, r in fresh.items()} != recorded:
                bad.append(event.data["game_id"])
            players.update(fresh)
    return bad


def to_snapshot(table: RatingTable) -> dict[str, Any]:
    """Return a table as a JSON-native snapshot (every float kept exactly: JSON floats round-trip)."""
    return {
        "format": SNAPSHOT_FORMAT,
        "fold": FOLD,
        "game": table.game,
        "version": table.version,
        "last_hash": table.last_hash,
        "rated_games": table.rated_games,
        "players": {player: [r.mu, r.sigma, r.games] for player, r in table.players.items()},
    }


def from_snapshot(data: Any, game: str) -> RatingTable:
    """Return the table a snapshot holds; raise ValueError unless it is a whole snapshot of this fold for `game`."""
    if not isinstance(data, dict) or data.get("format") != SNAPSHOT_FORMAT or data.get("fold") != FOLD:
        raise ValueError("not a rating snapshot of this format and fold")
    version: Any = data.get("version")
    rated: Any = data.get("rated_games")
    last_hash, players = data.get("last_hash"), data.get("players")
    if data.get("game") != game or not _count(version) or not _count(rated) or not isinstance(last_hash, str):
        raise ValueError("a rating snapshot of another game, or without its version")
    if not isinstance(players, dict):
        raise ValueError("a rating snapshot without its players")
    table: dict[str, Rating] = {}
    for player, value in players.items():
        if not (
            isinstance(value, list) and len(value) == 3 and _real(value[0]) and _real(value[1]) and _count(value[2])
        ):
            raise ValueError(f"a rating snapshot with a malformed rating for {player!r}")
        table[player] = Rating(*value)
    return RatingTable(game, version, last_hash, MappingProxyType(table), rated)


def _count(value: Any) -> bool:
    return type(value) is int and value >= 0


def _real(value: Any) -> bool:
    return type(value) is float


def leaderboard(table: RatingTable, limit: int | None = None) -> list[dict[str, Any]]:
    """Return the players best first (by ordinal, then identity), JSON-native; an account's row names its id."""
    ranked = sorted(table.players.items(), key=lambda item: (-item[1].ordinal, item[0]))
    return [
        {
            "rank": i + 1,
            "player": player,
            "player_id": player.removeprefix(PLAYER_PREFIX) if player.startswith(PLAYER_PREFIX) else None,
            "mu": r.mu,
            "sigma": r.sigma,
            "ordinal": r.ordinal,
            "games": r.games,
        }
        for i, (player, r) in enumerate(ranked[:limit] if limit else ranked)
    ]


def rebuild(game_type: str, games: Iterable[Game]) -> RatingTable:
    """Rate finished games, in the order given, from a fresh table, by the live rule (`rated_identities`).

    A game comes once: the caller has audited each and deduplicated them by
    their chained identity (id and final hash).
    """
    table = RatingTable(game=game_type)
    for game in games:
        identities = rated_identities(game)
        if game.type == game_type and identities is not None and game.result is not None:
            table = apply(table, decide(table, game.id, identities, game.result["places"], game.last_hash))
    return replace(table, version=table.rated_games)
