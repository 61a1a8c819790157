"""Tournament commands: validate against the state and return the events, or raise.

Commands are JSON-native dicts, recorded with their events like a game's:

- `{"kind": "create", "id", "game", "format", "rounds", "table_sizes", "scoring",
  "max_players", "options", "seed_commitment", "organiser_sha256"}`;
- `{"kind": "register", "name", "bot", "token_sha256"}`;
- `{"kind": "start", "ratings"}` — seats round 1;
- `{"kind": "link", "round", "table", "game_id"}`;
- `{"kind": "record", "results": [{"game_id", "places"}], "ratings"}` — when that
  completes the round, the same batch starts the next one or finishes.

`ratings` is the entrants' rating snapshot (entrant as a string -> ordinal),
recorded so that the rating tiebreak is part of the tournament's own history.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import reduce
from typing import Any

from domain.chance import Chance, seed_commitment
from domain.events import SYSTEM, Event
from domain.game import normalise_clock
from domain.games import RULES
from domain.rules import normalise_options
from domain.tournament import scoring
from domain.tournament.errors import (
    AlreadyRegistered,
    GameNotInTournament,
    InvalidTournament,
    NotActive,
    NotRegistering,
    RegistrationClosed,
    ResultAlreadyRecorded,
    TableAlreadyLinked,
    TooFewPlayers,
    TournamentError,
    TournamentFull,
)
from domain.tournament.pairing import plan_round
from domain.tournament.standings import standings
from domain.tournament.state import ACTIVE, FORMATS, REGISTERING, ROUND_ROBIN, Tournament, apply

MAX_ROUNDS = 50
MAX_PLAYERS = 4096
DEFAULT_SWISS_CAPACITY = 1024


def decide(tournament: Tournament, command: Mapping[str, Any], seed: str) -> list[Event]:
    """Decide the events of one tournament command, or raise a DomainError."""
    kind = command.get("kind")
    if kind == "create":
        return create(command, seed)
    if kind == "register":
        return register(tournament, command)
    if kind == "start":
        return start(tournament, command, seed)
    if kind == "link":
        return link(tournament, command)
    if kind == "record":
        return record_results(tournament, command, seed)
    raise TournamentError(f"unknown command kind {kind!r}")


# The move clock of a tournament's games when the organiser does not set one.
DEFAULT_CLOCK = {"move_s": 120}


def create(command: Mapping[str, Any], seed: str) -> list[Event]:
    """Check the settings against the game and return TournamentCreated."""
    rules = RULES.get(command["game"])
    if rules is None:
        raise InvalidTournament(f"no game type {command['game']!r}", known=sorted(RULES))
    form = command.get("format") or "swiss"
    if form not in FORMATS:
        raise InvalidTournament(f"format is one of {', '.join(FORMATS)}", format=form)
    legal = list(range(rules.min_seats, rules.max_seats + 1))
    sizes = sorted(set(command.get("table_sizes") or legal))
    if not set(sizes) <= set(legal):
        raise InvalidTournament(f"{rules.id} tables seat {rules.min_seats} to {rules.max_seats}", table_sizes=sizes)
    rounds = command["rounds"]
    if not 1 <= rounds <= MAX_ROUNDS:
        raise InvalidTournament(f"a tournament has 1 to {MAX_ROUNDS} rounds", rounds=rounds)
    top = max(sizes) if form == ROUND_ROBIN else MAX_PLAYERS
    capacity = command.get("max_players") or (top if form == ROUND_ROBIN else DEFAULT_SWISS_CAPACITY)
    if not min(sizes) <= capacity <= top:
        raise InvalidTournament(f"max_players must be between {min(sizes)} and {top}", max_players=capacity)
    raw = dict(command.get("options") or {})
    # A tournament's games have a move clock unless the organiser says `"clock": null`:
    # one absent player must not hold up a whole round.
    clock = normalise_clock(raw.pop("clock", DEFAULT_CLOCK))
    options: dict[str, Any] = {}
    for size in sizes:
        options = normalise_options(rules, raw, size)
    options["clock"] = clock
    if seed_commitment(seed) != command["seed_commitment"]:
        raise TournamentError("the seed does not match its commitment")
    return [
        Event(
            "TournamentCreated",
            {
                "id": command["id"],
                "game": rules.id,
                "format": form,
                "rounds": rounds,
                "table_sizes": sizes,
                "scoring": scoring.resolve(sizes, command.get("scoring")),
                "max_players": capacity,
                "options": options,
                "seed_commitment": command["seed_commitment"],
                "organiser_sha256": command.get("organiser_sha256"),
            },
        )
    ]


def register(tournament: Tournament, command: Mapping[str, Any]) -> list[Event]:
    """Register a human (by name) or a bot (by kind) while registration is open."""
    if tournament.status != REGISTERING:
        raise RegistrationClosed("the tournament has started; registration is closed")
    bot = command.get("bot")
    bots = RULES[tournament.game].bots
    if bot is not None and bot not in bots:
        raise TournamentError(f"{tournament.game} has no bot {bot!r}", bots=list(bots))
    name = command.get("name") or f"{bot}-{len(tournament.entrants) + 1}"
    if name.startswith("bot:"):
        raise TournamentError("names starting with 'bot:' are reserved for bot ratings", name=name)
    if any(entrant.name.casefold() == name.casefold() for entrant in tournament.entrants):
        raise AlreadyRegistered(f"{name!r} is already registered", name=name)
    if len(tournament.entrants) >= tournament.max_players:
        raise TournamentFull(
            f"the tournament is full ({tournament.max_players} players)", max_players=tournament.max_players
        )
    entrant = len(tournament.entrants)
    data = {"entrant": entrant, "name": name, "bot": bot, "token_sha256": command.get("token_sha256")}
    return [Event("PlayerRegistered", data, SYSTEM)]


def start(tournament: Tournament, command: Mapping[str, Any], seed: str) -> list[Event]:
    """Close registration and seat the first round."""
    if tournament.status != REGISTERING:
        raise NotRegistering("the tournament has already started")
    players, sizes = len(tournament.entrants), tournament.table_sizes
    if tournament.format == ROUND_ROBIN and players not in sizes:
        raise TooFewPlayers(
            f"a round robin seats everyone at one table of {min(sizes)} to {max(sizes)}; {players} registered",
            players=players,
        )
    if players < min(sizes):
        raise TooFewPlayers(f"at least {min(sizes)} players are needed; {players} registered", players=players)
    return _round(tournament, 1, command.get("ratings") or {}, Chance(seed, tournament.version))


def link(tournament: Tournament, command: Mapping[str, Any]) -> list[Event]:
    """Record which game a table of the current round plays."""
    current = tournament.current
    if tournament.status != ACTIVE or current is None:
        raise NotActive("the tournament is not in play")
    table = next((t for t in current.tables if t.number == command["table"]), None)
    if command["round"] != current.number or table is None:
        raise TournamentError("no such table in the current round", round=command["round"], table=command["table"])
    if table.game_id is not None:
        raise TableAlreadyLinked(f"table {table.number} already plays game {table.game_id}", game_id=table.game_id)
    data = {"round": current.number, "table": table.number, "game_id": command["game_id"]}
    return [Event("GameLinked", data, SYSTEM)]


def record_results(tournament: Tournament, command: Mapping[str, Any], seed: str) -> list[Event]:
    """Record finished tables; a completed round starts the next one, or ends the tournament."""
    current = tournament.current
    if tournament.status != ACTIVE or current is None:
        raise NotActive("the tournament is not in play")
    events, seen = [], set()
    for result in command["results"]:
        table = next((t for t in current.tables if t.game_id == result["game_id"]), None)
        if table is None:
            raise GameNotInTournament(
                f"game {result['game_id']!r} is not played in round {current.number} of this tournament",
                game_id=result["game_id"],
            )
        if table.places is not None or table.number in seen:
            raise ResultAlreadyRecorded(
                f"the result of game {table.game_id} is already recorded", game_id=table.game_id
            )
        if len(result["places"]) != len(table.entrants):
            raise TournamentError("a result has one place per seat", game_id=table.game_id)
        seen.add(table.number)
        data = {
            "round": current.number,
            "table": table.number,
            "game_id": table.game_id,
            "places": list(result["places"]),
        }
        events.append(Event("ResultRecorded", data, SYSTEM))
    after = reduce(apply, events, tournament)
    played = after.played[-1]  # the round these results belong to
    if not played.complete:
        return events
    ratings = command.get("ratings") or {}
    if played.number < tournament.rounds:
        return events + _round(after, played.number + 1, ratings, Chance(seed, tournament.version))
    final = apply(after, Event("TournamentFinished", {"seed": seed, "ratings": ratings, "standings": []}))
    order = [line.entrant for line in standings(final)]
    return events + [Event("TournamentFinished", {"seed": seed, "ratings": dict(ratings), "standings": order}, SYSTEM)]


def _round(tournament: Tournament, number: int, ratings: Mapping[str, float], chance: Chance) -> list[Event]:
    """Return the events that start round `number`: its byes, ratings and tables."""
    tables, byes = plan_round(tournament, chance)
    started = Event("RoundStarted", {"round": number, "byes": byes, "ratings": dict(ratings)}, SYSTEM)
    seated = [Event("TableSeated", {"round": number, "table": i, "entrants": t}, SYSTEM) for i, t in enumerate(tables)]
    return [started] + seated
