"""Check a finished tournament from its bundle alone, without trusting whoever stored it.

In the order of the tournament's stream, reporting the first failure with the
tournament event it concerns (and the game, when a game is at fault):

1. positions run 1, 2, 3, … and the hash chain is unbroken, with times and
   command ids of the service's form (as a game's, `domain.audit`); the stream starts
   with `TournamentCreated` and ends with `TournamentFinished`, whose revealed
   seed matches the commitment published at creation;
2. every recorded command, holding only its kind's fields
   (`domain.tournament.decide.COMMAND_FIELDS`), is re-executed through `domain.tournament.decide`
   with the revealed seed and must give exactly the recorded events: so each
   round's byes and tables are recomputed from the standings before it and the
   seed by the documented pairing (`domain.tournament.pairing`), every forfeit
   follows the forfeit rule, and the final standings order (points and
   tiebreaks, `domain.tournament.standings`) follows from the results;
3. every linked game that is in the bundle was dealt from this tournament's
   seed for its round and table (`domain.tournament.seeding`) and seats that
   table's entrants in its order — a game of another tournament cannot pass;
4. every recorded result's game is in the bundle, passes its own audit
   (`domain.audit`: its chain, seed, every deal and command re-executed) and
   ended with exactly the recorded places;
5. the bundle holds no game the tournament did not record;
6. every field of the bundle's header, and of each game's header
   (`domain.audit.header_mismatch`), says what the chains say: id, game type,
   seed commitment, status, length, the games recorded; each game's seats,
   dealing, options and rules version;
7. the house's signatures (`domain.results`), the tournament's in the bundle's
   header and each game's in its own: each statement is its chain's, and, given
   the house's public keys, each verifies (an unsigned one then fails).

The rating snapshots recorded in commands (the last tiebreak) are inputs, like
a game's moves: they are re-used, not re-derived; `menagerie ratings rebuild`
recomputes ratings from games.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from mypy_extensions import mypyc_attr

from domain.audit import audit_export, batches, chain_failure, unknown_field
from domain.chance import seed_commitment
from domain.errors import DomainError
from domain.events import RecordedEvent
from domain.receipts import receipt_failure, receipts_checked
from domain.results import GAME, NOT_SIGNED, TOURNAMENT, SignatureCheck, Verifier, chain_statement, check_signature
from domain.tournament.bundle import FORMAT, HEADER_KEYS, Bundle, GameFile, recorded_games
from domain.tournament.decide import COMMAND_FIELDS, decide
from domain.tournament.seeding import game_seed, table_secret
from domain.tournament.state import FINISHED, Tournament, evolve

CHECKS = (
    "sequence and hash chain",
    "forms of times, command ids and commands",
    "seed commitment",
    "re-execution of every command (pairings, forfeits, corrections, final standings)",
    "every linked game dealt from the tournament's seed for its table",
    "every recorded game audited, with the recorded places",
    "no foreign games",
    "every header field of the bundle and of each game against the chains",
    "signatures of the tournament's and its games' results",
)


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class TournamentAuditReport:
    """The outcome of a tournament audit: pass, or the first failure."""

    ok: bool
    events: int
    games: int
    failed_at: int | None = None
    game_id: str | None = None
    reason: str | None = None
    checks: tuple[str, ...] = field(default=())
    # The tournament's own signature, and how many of its games' signatures were verified, present or absent.
    signature: SignatureCheck = NOT_SIGNED
    game_signatures: Mapping[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """Return the report as JSON."""
        return {
            "ok": self.ok,
            "events": self.events,
            "games": self.games,
            "failed_at": self.failed_at,
            "game_id": self.game_id,
            "reason": self.reason,
            "checks": list(self.checks),
            "signature": self.signature.to_dict(),
            "game_signatures": dict(self.game_signatures),
        }


class _Failure(Exception):
    def __init__(self, seq: int, reason: str, game_id: str | None = None) -> None:
        super().__init__(reason)
        self.seq, self.reason, self.game_id = seq, reason, game_id


def audit_bundle(
    bundle: Bundle, progress: Callable[[int], None] | None = None, verifier: Verifier | None = None
) -> TournamentAuditReport:
    """Audit a tournament bundle; see the module docstring.

    `progress`, if given, is told after each recorded game's audit how many games are audited.
    `verifier` holds the house's public keys every signature must verify with.
    """
    raw = bundle.events
    counted: dict[str, int] = {}
    try:
        broken = chain_failure(raw)
        if broken is not None:
            raise _Failure(*broken)
        events = [RecordedEvent.from_dict(event) for event in raw]
        seed = _check_seed(events)
        used = _reexecute(events, seed, bundle.games, progress)
        extra = sorted(set(bundle.games) - used)
        if extra:
            raise _Failure(
                len(raw), f"the bundle holds game {extra[0]}, which this tournament never recorded", extra[0]
            )
        _check_header(bundle.head, raw)
        for game_id in sorted(used):
            game = bundle.games[game_id]
            checked = check_signature(game.head.get("signature"), chain_statement(GAME, game.events), verifier)
            if not checked.ok:
                raise _Failure(len(raw), f"game {game_id}'s signature: {checked.reason}", game_id)
            counted[checked.status] = counted.get(checked.status, 0) + 1
        signed = check_signature(bundle.head.get("signature"), chain_statement(TOURNAMENT, raw), verifier)
        if not signed.ok:
            return TournamentAuditReport(
                False, len(raw), len(bundle.games), len(raw), None, f"signature: {signed.reason}", signature=signed
            )
    except _Failure as failure:
        return TournamentAuditReport(False, len(raw), len(bundle.games), failure.seq, failure.game_id, failure.reason)
    return TournamentAuditReport(
        True, len(raw), len(bundle.games), checks=CHECKS, signature=signed, game_signatures=counted
    )


def check_receipts(
    bundle: Bundle, receipts: Sequence[Mapping[str, Any]], report: TournamentAuditReport
) -> TournamentAuditReport:
    """Return the passed `report` with the receipts it checked, or the first one the tournament's stream disagrees with.

    An entrant's receipts are tournament events the service sent it, each with
    its `seq` and `hash`: its registration (the answer's `receipt`) and, from the
    tournament's stream, each recorded result. See `domain.audit.read_receipts`.
    """
    wrong = receipt_failure(bundle.events, receipts)
    if wrong is not None:
        return TournamentAuditReport(False, len(bundle.events), len(bundle.games), wrong[0], None, wrong[1])
    return replace(report, checks=(*report.checks, receipts_checked(receipts)))


def _check_seed(events: list[RecordedEvent]) -> str:
    if not events or events[0].type != "TournamentCreated":
        raise _Failure(1, "the stream does not start with TournamentCreated")
    last = events[-1]
    if last.type != "TournamentFinished":
        raise _Failure(last.seq, "the tournament is not over: only a finished tournament can be audited")
    seed = last.data.get("seed")
    if not isinstance(seed, str) or seed_commitment(seed) != events[0].data.get("seed_commitment"):
        raise _Failure(last.seq, "the revealed seed does not match the commitment made at creation")
    return seed


def _reexecute(
    events: list[RecordedEvent],
    seed: str,
    games: Mapping[str, GameFile],
    progress: Callable[[int], None] | None = None,
) -> set[str]:
    """Re-decide every batch; check linked and recorded games on the way; return the games used."""
    tournament, used = Tournament(), set()
    for batch in batches(events):
        first = batch[0]
        if first.command is None:
            raise _Failure(first.seq, "a batch of events without the command that caused it")
        malformed = unknown_field(first.command, COMMAND_FIELDS)
        if malformed is not None:
            raise _Failure(first.seq, malformed)
        try:
            derived = decide(tournament, first.command, seed)
        except DomainError as error:
            raise _Failure(first.seq, f"the rules refuse this command: {error.message}") from None
        for offset, event in enumerate(batch):
            want = derived[offset] if offset < len(derived) else None
            if want is None or (event.type, event.actor, _normal(event.data)) != (
                want.type,
                want.actor,
                _normal(want.data),
            ):
                expected = f"{want.type} {_brief(_normal(want.data))}" if want else "nothing"
                raise _Failure(event.seq, f"{event.type} differs from what the documented rules give ({expected})")
            used |= _check_games(tournament, event, seed, games)
            if progress is not None and event.type == "ResultRecorded":
                progress(len(used))
            tournament = evolve(tournament, event)
        if len(derived) > len(batch):
            raise _Failure(batch[-1].seq, f"the command gives {len(derived)} events, the stream holds {len(batch)}")
    if tournament.status != FINISHED:
        raise _Failure(events[-1].seq, "the rules do not finish the tournament where the stream does")
    return used


def _check_games(tournament: Tournament, event: RecordedEvent, seed: str, games: Mapping[str, GameFile]) -> set[str]:
    """Check the game an event links or records against the bundle; return its id if the bundle must hold it."""
    data = event.data
    if event.type == "GameLinked":
        game = games.get(data["game_id"])
        if game is not None:
            _check_origin(tournament, event, game, seed)
        return set()
    if event.type != "ResultRecorded":
        return set()
    game_id = data["game_id"]
    game = games.get(game_id)
    if game is None:
        raise _Failure(
            event.seq, f"game {game_id} (round {data['round']}, table {data['table']}) is not in the bundle", game_id
        )
    report = audit_export(game.head, game.events)
    created = game.events[0].get("data", {}) if game.events else {}
    if created.get("id") != game_id:
        raise _Failure(event.seq, f"the bundle's game {game_id} is game {created.get('id')} by its own chain", game_id)
    if "final_hash" in data and game.events[-1].get("hash") != data["final_hash"]:
        raise _Failure(event.seq, f"game {game_id}'s chain does not end at the hash the tournament recorded", game_id)
    if not report.ok:
        raise _Failure(
            event.seq, f"game {game_id} fails its audit at event {report.failed_at}: {report.reason}", game_id
        )
    ended = RecordedEvent.from_dict(game.events[-1]).data["result"]["places"]
    if list(ended) != list(data["places"]):
        raise _Failure(
            event.seq, f"the recorded places {data['places']} are not the game's GameEnded places {ended}", game_id
        )
    return {game_id}


def _check_header(head: Mapping[str, Any], raw: list[dict[str, Any]]) -> None:
    """Fail a bundle header field that is not what the tournament's chain says (it passed its audit)."""
    created = raw[0]["data"]
    chained = {
        "format": FORMAT,
        "id": created.get("id"),
        "game": created.get("game"),
        "status": FINISHED,
        "version": len(raw),
        "seed_commitment": created.get("seed_commitment"),
        "games": recorded_games(raw),
    }
    for key in sorted(head):
        if key == "signature":
            continue
        if key not in HEADER_KEYS:
            raise _Failure(1, f"the bundle's header has a field no header has: {key}")
        if head[key] != chained[key]:
            raise _Failure(
                1,
                f"the bundle header's {key} {_brief(json.dumps(head[key]))} is not the tournament's own"
                f" ({_brief(json.dumps(chained[key]))})",
            )


def _check_origin(tournament: Tournament, event: RecordedEvent, game: GameFile, seed: str) -> None:
    """Check that a linked game was dealt for this table from this tournament's seed, with its entrants."""
    data = event.data
    current = tournament.current
    table = next(t for t in current.tables if t.number == data["table"]) if current else None
    if table is None:
        raise _Failure(event.seq, "a game is linked to a table that was never seated", data["game_id"])
    # Only what the game's hash chain covers is trusted (its header is not chained).
    created = game.events[0].get("data", {}) if game.events else {}
    at = (data["round"], data["table"], len(table.annulled))
    # A tournament recorded before dealing did not salt its games' seeds.
    secret = table_secret(seed, *at) if tournament.dealing is not None else game_seed(seed, *at)
    if created.get("seed_commitment") != seed_commitment(secret) or created.get("dealing") != tournament.dealing:
        raise _Failure(
            event.seq,
            f"game {data['game_id']} was not dealt from this tournament's seed"
            f" for round {data['round']} table {data['table']}",
            data["game_id"],
        )
    seated = {e["data"]["seat"]: e["data"] for e in game.events if e.get("type") == "SeatTaken"}
    dealt = [
        (seated.get(i, {}).get("name"), seated.get(i, {}).get("bot"), seated.get(i, {}).get("player"))
        for i in range(len(table.entrants))
    ]
    wanted = [
        (spec.get("name"), spec.get("bot"), spec.get("player"))
        for spec in (tournament.entrants[e].seat_spec() for e in table.entrants)
    ]
    # A bot sits under its entrant's name; in games recorded before it did, it sat unnamed.
    dealt = [
        want if seat == (None, want[1], None) and want[1] is not None else seat
        for seat, want in zip(dealt, wanted, strict=True)
    ]
    if created.get("game") != tournament.game or created.get("seats") != len(table.entrants) or dealt != wanted:
        raise _Failure(
            event.seq, f"game {data['game_id']} does not seat this table's entrants in order", data["game_id"]
        )


def _normal(data: Any) -> str:
    return json.dumps(data, sort_keys=True)


def _brief(data: str) -> str:
    return data if len(data) <= 200 else data[:200] + "…"
