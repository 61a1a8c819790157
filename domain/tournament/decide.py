"""Tournament commands: validate against the state and return the events, or raise.

Commands are JSON-native dicts, recorded with their events like a game's:

- `{"kind": "create", "id", "game", "format", "rounds", "table_sizes", "scoring",
  "max_players", "options", "seed_commitment", "dealing", "organiser_sha256"}` and an optional
  `"late_entry_until"`;
- `{"kind": "register", "name", "bot", "token_sha256"}`, with an optional `"entropy"`, an optional
  `"player"` (the account's id: the place is the account's, and its name is null) and
  `"invitation_sha256"` (the SHA-256 of the invitation code the registrant gave, where
  registration is by code);
- `{"kind": "approve", "entrant"}` — the organiser admits a pending entrant (registration by approval);
- `{"kind": "add_organiser", "player", "token_sha256"}` — the organiser adds a co-organiser by account;
- `{"kind": "start", "ratings"}` — seats round 1;
- `{"kind": "link", "round", "table", "game_id"}`;
- `{"kind": "record", "results": [{"game_id", "places", "final_hash"}], "ratings"}` — when that
  completes the round, the same batch starts the next one or finishes;
- `{"kind": "withdraw", "entrant", "by": "entrant"|"organiser", "reason", "ratings"}`;
- `{"kind": "disqualify", "entrant", "reason", "ratings"}`;
- `{"kind": "annul", "round", "table", "reason", "replay", "ratings"}`, with an optional `"by"`:
  `"organiser"` (the default), `"organiser:<n>"` (the n-th co-organiser) or the number of an
  entrant at the table.

Registration by mode, approval and co-organisers are `domain.tournament.registration`.

Corrections by an organiser who plays: an organiser who created the tournament with their
account (`organiser_player`), or a co-organiser (each added by account), cannot annul (or
replay) a table where their own account sits; another organiser may, and so may every human
entrant at the table asking for the same (an `annul` with `"by"` an entrant records
`AnnulAgreed`; the last agreement annuls). Every correction records who asked.

Withdrawal and disqualification take effect at once: the entrant is not paired
from the next round on. A table of theirs still without a result is forfeited
(`forfeit_places`): there is no move clock to finish the game for them, and a
forfeit is decided in the tournament's own stream, so an auditor checks it
from the bundle alone. A forfeit, like any result, may complete the round.

Late entry: with `late_entry_until` R, registration stays open (Swiss only)
until round R starts; a late entrant is paired from the next round and has
scored nothing in the rounds before.

`ratings` is the entrants' rating snapshot (entrant as a string -> ordinal),
recorded so that the rating tiebreak is part of the tournament's own history.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import reduce
from typing import Any

from domain.chance import DEALINGS, Chance, deal_seed, seed_commitment
from domain.events import SYSTEM, Event
from domain.game import normalise_clock, normalise_iterations
from domain.games import RULES
from domain.rules import normalise_options
from domain.tournament import scoring
from domain.tournament.errors import (
    GameNotInTournament,
    InvalidTournament,
    NotActive,
    NotAnnullable,
    NotPlaying,
    NotRegistering,
    OrganiserAtTable,
    ResultAlreadyRecorded,
    TableAlreadyLinked,
    TooFewPlayers,
    TournamentError,
)
from domain.tournament.pairing import plan_round
from domain.tournament.registration import add_organiser, approve, register
from domain.tournament.standings import standings
from domain.tournament.state import (
    ACTIVE,
    CODE,
    FINISHED,
    FORMATS,
    OPEN,
    PENDING,
    PLAYING,
    REGISTERING,
    REGISTRATIONS,
    ROUND_ROBIN,
    Table,
    Tournament,
    apply,
)

MAX_ROUNDS = 50
MAX_PLAYERS = 4096
DEFAULT_SWISS_CAPACITY = 1024


# The fields of each command kind (the shapes in the module docstring): an audit fails a recorded
# command with any other, since a field nothing reads would ride in the chain unchecked.
COMMAND_FIELDS: Mapping[str, frozenset[str]] = {
    "create": frozenset(
        {
            "kind",
            "id",
            "game",
            "format",
            "rounds",
            "table_sizes",
            "scoring",
            "max_players",
            "options",
            "seed_commitment",
            "dealing",
            "organiser_sha256",
            "late_entry_until",
            "registration",
            "invitation_sha256",
            "organiser_player",
        }
    ),
    "register": frozenset({"kind", "name", "bot", "token_sha256", "entropy", "player", "invitation_sha256"}),
    "approve": frozenset({"kind", "entrant"}),
    "add_organiser": frozenset({"kind", "player", "token_sha256"}),
    "start": frozenset({"kind", "ratings"}),
    "link": frozenset({"kind", "round", "table", "game_id"}),
    "record": frozenset({"kind", "results", "ratings"}),
    "withdraw": frozenset({"kind", "entrant", "by", "reason", "ratings"}),
    "disqualify": frozenset({"kind", "entrant", "reason", "by", "ratings"}),
    "annul": frozenset({"kind", "round", "table", "reason", "replay", "by", "ratings"}),
}


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
    if kind == "withdraw":
        return withdraw(tournament, command, seed)
    if kind == "disqualify":
        return disqualify(tournament, command, seed)
    if kind == "annul":
        return annul(tournament, command, seed)
    if kind == "approve":
        return approve(tournament, command)
    if kind == "add_organiser":
        return add_organiser(tournament, command)
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
    late = command.get("late_entry_until") or 0
    if late and (form == ROUND_ROBIN or not 2 <= late <= rounds):
        raise InvalidTournament(
            f"late entry is for Swiss tournaments, until a round from 2 to {rounds}", late_entry_until=late
        )
    raw = dict(command.get("options") or {})
    # A tournament's games have a move clock unless the organiser says `"clock": null`:
    # one absent player must not hold up a whole round.
    clock = normalise_clock(raw.pop("clock", DEFAULT_CLOCK))
    iterations = normalise_iterations(raw.pop("mcts_iterations", None))
    options: dict[str, Any] = {}
    for size in sizes:
        options = normalise_options(rules, raw, size)
    options["clock"] = clock
    if iterations is not None:  # only when set, so older tournaments re-execute unchanged
        options["mcts_iterations"] = iterations
    if seed_commitment(seed) != command["seed_commitment"]:
        raise TournamentError("the seed does not match its commitment")
    dealing = command.get("dealing")
    if dealing is not None and dealing not in DEALINGS:
        raise InvalidTournament(f"dealing is one of {', '.join(DEALINGS)}", dealing=dealing)
    # Only when set, so that streams recorded before late entry (or dealing) existed re-execute unchanged.
    extra: dict[str, Any] = {"late_entry_until": late} if late else {}
    if dealing is not None:
        extra["dealing"] = dealing
    registration = command.get("registration") or OPEN
    if registration not in REGISTRATIONS:
        raise InvalidTournament(f"registration is one of {', '.join(REGISTRATIONS)}", registration=registration)
    if (registration == CODE) != (command.get("invitation_sha256") is not None):
        raise InvalidTournament("registration by code, and only it, has an invitation code")
    if registration != OPEN:
        extra["registration"] = registration
    if registration == CODE:
        extra["invitation_sha256"] = command["invitation_sha256"]
    if command.get("organiser_player") is not None:
        extra["organiser_player"] = command["organiser_player"]
    return [
        Event(
            "TournamentCreated",
            {
                **extra,
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


def start(tournament: Tournament, command: Mapping[str, Any], seed: str) -> list[Event]:
    """Close registration and seat the first round."""
    if tournament.status != REGISTERING:
        raise NotRegistering("the tournament has already started")
    players, sizes = len(tournament.playing), tournament.table_sizes
    if tournament.format == ROUND_ROBIN and players not in sizes:
        raise TooFewPlayers(
            f"a round robin seats everyone at one table of {min(sizes)} to {max(sizes)}; {players} registered",
            players=players,
        )
    if players < min(sizes):
        raise TooFewPlayers(f"at least {min(sizes)} players are needed; {players} registered", players=players)
    return _round(tournament, 1, command.get("ratings") or {}, _draws(tournament, seed))


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
    if table.decided:
        raise TableAlreadyLinked(f"table {table.number} was forfeited before its game was linked", game_id=None)
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
        if result.get("final_hash") is not None:
            # The game's last event hash pins which game this is: an audit fails a bundle that swaps it.
            data["final_hash"] = result["final_hash"]
        events.append(Event("ResultRecorded", data, SYSTEM))
    return _close(tournament, events, command, seed)


def _close(tournament: Tournament, events: list[Event], command: Mapping[str, Any], seed: str) -> list[Event]:
    """Add, when `events` complete the round, the next round's start or the finish."""
    after = reduce(apply, events, tournament)
    played = after.played[-1]  # the round these events belong to
    if not played.complete:
        return events
    ratings = command.get("ratings") or {}
    if played.number < tournament.rounds:
        started = _round(after, played.number + 1, ratings, _draws(tournament, seed))
        if started:
            return events + started
    final = apply(after, Event("TournamentFinished", {"seed": seed, "ratings": ratings, "standings": []}))
    order = [line.entrant for line in standings(final)]
    return events + [Event("TournamentFinished", {"seed": seed, "ratings": dict(ratings), "standings": order}, SYSTEM)]


def forfeit_places(table: Table, leaving: frozenset[int]) -> list[int]:
    """Return a forfeited table's places: who stays shares first place, who leaves shares the last.

    So the players left at the table lose nothing by a game they could not
    finish (they share the points of the top places), and who left scores the
    bottom ones.
    """
    last = len(table.entrants) - sum(1 for e in table.entrants if e in leaving) + 1
    return [last if entrant in leaving else 1 for entrant in table.entrants]


def withdraw(tournament: Tournament, command: Mapping[str, Any], seed: str) -> list[Event]:
    """Withdraw an entrant (by their token or the organiser's); forfeit their table in play."""
    by = command.get("by")
    if by not in ("entrant", "organiser"):
        raise TournamentError("a withdrawal is asked for by the entrant or the organiser", by=by)
    return _leave(tournament, command, seed, "PlayerWithdrawn", {"by": by})


def disqualify(tournament: Tournament, command: Mapping[str, Any], seed: str) -> list[Event]:
    """Disqualify an entrant (the organiser, with a reason): before the start too, which frees the place."""
    # Who asked is recorded when the command says (streams recorded before re-execute unchanged).
    return _leave(tournament, command, seed, "PlayerDisqualified", {"by": command["by"]} if "by" in command else {})


def _leave(
    tournament: Tournament, command: Mapping[str, Any], seed: str, kind: str, extra: Mapping[str, Any]
) -> list[Event]:
    entrant = command.get("entrant")
    if not isinstance(entrant, int) or not 0 <= entrant < len(tournament.entrants):
        raise TournamentError("no such entrant", entrant=entrant)
    if tournament.status == FINISHED:
        raise NotActive("the tournament is over")
    if tournament.entrants[entrant].status not in (PLAYING, PENDING):
        raise NotPlaying(f"entrant {entrant} has already left the tournament", entrant=entrant)
    reason = _reason(command)
    current = tournament.current
    round_ = current.number if current else 0
    events = [Event(kind, {"entrant": entrant, "round": round_, **extra, "reason": reason}, SYSTEM)]
    table = next((t for t in current.tables if entrant in t.entrants), None) if current else None
    if table is None or table.decided:
        return events
    data = {
        "round": round_,
        "table": table.number,
        "game_id": table.game_id,
        "forfeited": [entrant],
        "places": forfeit_places(table, frozenset({entrant})),
    }
    return _close(tournament, events + [Event("TableForfeited", data, SYSTEM)], command, seed)


def annul(tournament: Tournament, command: Mapping[str, Any], seed: str) -> list[Event]:
    """Annul a table's recorded result: void it, or (round in play only) have it played again."""
    if tournament.status != ACTIVE:
        raise NotActive("results can be corrected while the tournament is in play")
    number, table_number = command.get("round"), command.get("table")
    round_ = tournament.played[number - 1] if isinstance(number, int) and 0 < number <= len(tournament.played) else None
    table = next((t for t in round_.tables if t.number == table_number), None) if round_ else None
    if round_ is None or table is None:
        raise TournamentError("no such table", round=number, table=table_number)
    if table.places is None or table.void:
        raise NotAnnullable(f"round {number} table {table_number} has no result to annul", round=number)
    replay = bool(command.get("replay"))
    if replay and (round_ is not tournament.current or table.game_id is None):
        raise NotAnnullable("only a played table of the round in play can be replayed", round=number)
    reason = _reason(command)
    by = command.get("by", "organiser")
    humans = sorted(e for e in table.entrants if tournament.entrants[e].bot is None)
    agreed = sorted({e for e, again in table.agreed if again == replay})
    events = []
    organiser = _organiser_number(tournament, by)
    if organiser is None:
        if by not in humans:
            raise TournamentError("an entrant asks for an annulment of a table they sit at", entrant=by)
        if by not in agreed:
            agree = {"round": number, "table": table_number, "entrant": by, "replay": replay, "reason": reason}
            events.append(Event("AnnulAgreed", agree, SYSTEM))
            agreed = sorted({*agreed, by})
        if agreed != humans:
            return events  # the others at the table have yet to agree
        asked = {"asked_by": "entrants", "agreed": agreed}
    elif tournament.seat_of_organiser(table, organiser) and agreed != humans:
        raise OrganiserAtTable(
            "the organiser sits at this table: its result is annulled only when every entrant at it asks",
            round=number,
            table=table_number,
            agreed=agreed,
            needed=humans,
        )
    else:
        asked = {"asked_by": by}
        if tournament.seat_of_organiser(table, organiser):
            asked["agreed"] = agreed
    data = {
        "round": number,
        "table": table_number,
        "game_id": table.game_id,
        "places": list(table.places),
        "replay": replay,
        "reason": reason,
    }
    if "by" in command:  # only when asked for, so that streams recorded before re-execute unchanged
        data.update(asked)
    return _close(tournament, [*events, Event("ResultAnnulled", data, SYSTEM)], command, seed)


def _organiser_number(tournament: Tournament, by: Any) -> int | None:
    """Return which organiser `by` names (0 the creator, n a co-organiser), or None for an entrant."""
    if by == "organiser":
        return 0
    if isinstance(by, str) and by.startswith("organiser:") and by[10:].isdigit():
        number = int(by[10:])
        if 0 < number <= len(tournament.co_organisers):
            return number
        raise TournamentError("no such organiser", by=by)
    return None


def _reason(command: Mapping[str, Any]) -> str:
    reason = command.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        raise TournamentError("a correction needs a reason")
    return reason.strip()


def _round(tournament: Tournament, number: int, ratings: Mapping[str, float], chance: Chance) -> list[Event]:
    """Return the events that start round `number` (none if too few players are left to seat a table)."""
    tables, byes = plan_round(tournament, chance)
    if not tables:
        return []
    started = Event("RoundStarted", {"round": number, "byes": byes, "ratings": dict(ratings)}, SYSTEM)
    seated = [Event("TableSeated", {"round": number, "table": i, "entrants": t}, SYSTEM) for i, t in enumerate(tables)]
    return [started] + seated


def _draws(tournament: Tournament, secret: str) -> Chance:
    """Return the pairing's draws at the tournament's version: from its secret and, when shared, every entrant's entropy.

    The contributions are those registered by the time of the draw; a late entrant's count from the
    round after it joined (each entrant's also goes into every game it sits at, as its seat's entropy).
    """
    contributions = [entrant.entropy for entrant in tournament.entrants]
    return Chance(deal_seed(secret, tournament.dealing, contributions), tournament.version)
