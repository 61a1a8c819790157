"""Check a finished game without trusting whoever stored it.

Given the log exactly as stored (before any upcasting), an audit checks, and
reports the first failure with its event number and reason:

1. positions run 1, 2, 3, … and the hash chain is unbroken, each event under
   the chain scheme it was written with (every event of a game shares the
   scheme of its first; see `domain.commitments`), and holds no field an
   event does not have (a field the chain covers but nothing reads would
   pass every other check); its `time` is RFC 3339 in UTC, its
   `command_id` is of the service's form (`domain.events.is_command_id`)
   and its schema version `v` one its type has had (`domain.upcasters`);
2. the game is over and the revealed seed matches the commitment made at
   creation;
3. under scheme 2 and later, every hidden value was committed, and opens its commitment
   with the key derived from the revealed seed;
4. re-executing every recorded command through the rules, in order, with the
   revealed seed gives exactly the recorded events — so every shuffle and
   deal is recomputed from the seed, no illegal move got in and no event was
   invented, dropped or changed; the result in `GameEnded` is re-derived too.
   A command holds only the fields of its kind (`domain.game.COMMAND_FIELDS`).

Server time and command ids are not re-derived (the rules do not read them),
only held to their forms. Games of chain scheme 1 were recorded with the
recorder's positional ids, `c<n>` where n is the version the batch was appended
after: a form that carries nothing, accepted under scheme 1 only.

Then, if the game passes, its signature (`domain.results`): unsigned, present
(its statement is the chain's; no keys given), verified by a given house key,
or failed; a failed signature fails the audit at the last event.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from mypy_extensions import mypyc_attr

from domain.canonical import NonCanonicalValue
from domain.chance import FIXED, seed_commitment
from domain.commitments import CHAIN_SCHEMES, FIRST_SEALED, UnknownPath, commitment_key, opens
from domain.errors import DomainError
from domain.events import GENESIS_HASH, STORED_KEYS, RecordedEvent, chain_hash, is_command_id, is_time
from domain.export import FORMAT as EXPORT_FORMAT
from domain.export import HEADER_KEYS, seat_line
from domain.game import COMMAND_FIELDS, FINISHED, blank, decide, evolve
from domain.receipts import receipt_failure, receipts_checked
from domain.results import GAME, NOT_SIGNED, SignatureCheck, Verifier, chain_statement, check_signature
from domain.sealing import declaration, hidden_in
from domain.upcasters import UPCASTERS


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class AuditReport:
    """The outcome of an audit: pass, or the first failure."""

    ok: bool
    events: int
    failed_at: int | None = None
    reason: str | None = None
    checks: tuple[str, ...] = field(default=())
    signature: SignatureCheck = NOT_SIGNED

    def to_dict(self) -> dict[str, Any]:
        """Return the report as JSON."""
        return {
            "ok": self.ok,
            "events": self.events,
            "failed_at": self.failed_at,
            "reason": self.reason,
            "checks": list(self.checks),
            "signature": self.signature.to_dict(),
        }


class _Failure(Exception):
    def __init__(self, seq: int, reason: str) -> None:
        super().__init__(reason)
        self.seq, self.reason = seq, reason


CHECKS = (
    "sequence",
    "hash chain",
    "forms of times, command ids and commands",
    "seed commitment",
    "commitments to hidden values",
    "re-execution of every command",
    "result",
)


def audit(
    raw_events: Iterable[Mapping[str, Any]],
    progress: Callable[[int], None] | None = None,
    *,
    signature: Any = None,
    verifier: Verifier | None = None,
) -> AuditReport:
    """Audit a finished game's whole log, given as stored, and the signature of its result if given.

    `progress`, if given, is told after each re-executed batch how many events are checked.
    With a `verifier` (the house's public keys) the signature must verify; an unsigned game then fails.
    """
    raw = list(raw_events)
    try:
        _check_chain(raw)
        events = [RecordedEvent.from_dict(event) for event in raw]
        seed = _check_seed(events)
        _check_commitments(raw, seed)
        _reexecute(events, seed, progress)
    except _Failure as failure:
        return AuditReport(False, len(raw), failure.seq, failure.reason)
    signed = check_signature(signature, chain_statement(GAME, raw), verifier)
    if not signed.ok:
        return AuditReport(False, len(raw), len(raw), f"signature: {signed.reason}", signature=signed)
    return AuditReport(True, len(raw), checks=CHECKS, signature=signed)


# What a header says of a game, and where the chained events say it.
def identity(events: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Return who and what a stored log says the game is: id, type, rules version, options, dealing and seats."""
    created = events[0].get("data", {}) if events else {}
    seats: list[dict[str, Any]] = [{"seat": i, "name": None, "bot": None} for i in range(created.get("seats", 0))]
    for event in events:
        data = event.get("data", {})
        if event.get("type") == "SeatTaken" and 0 <= data.get("seat", -1) < len(seats):
            seats[data["seat"]] = seat_line(data["seat"], data.get("name"), data.get("bot"), data.get("player"))
    return {
        "id": created.get("id"),
        "game": created.get("game"),
        "rules_version": created.get("rules_version", "1"),
        "options": created.get("options"),
        "dealing": created.get("dealing", FIXED),
        "seed_commitment": created.get("seed_commitment"),
        "seats": seats,
    }


def audit_export(
    head: Mapping[str, Any], raw_events: Iterable[Mapping[str, Any]], verifier: Verifier | None = None
) -> AuditReport:
    """Audit an exported game, and fail where its header says otherwise than its chained events.

    Nothing in a header is hashed: it is a label, and the audit reads each fact
    it states from the events instead. Every field it holds is checked (a
    field no header has fails); its `signature` is checked against the chain,
    and against `verifier`'s keys when given.
    """
    raw = list(raw_events)
    report = audit(raw, signature=head.get("signature"), verifier=verifier)
    if not report.ok:
        return report
    wrong = header_mismatch(head, raw)
    if wrong is not None:
        return AuditReport(False, len(raw), 1, wrong)
    return replace(report, checks=(*report.checks, "every header field against the chain"))


def header_mismatch(head: Mapping[str, Any], raw: Sequence[Mapping[str, Any]]) -> str | None:
    """Return the first field of a finished game's export header its chain does not bear out, or None.

    `raw` is the whole log of a game whose audit passed: finished and unredacted.
    """
    chained = {
        "format": EXPORT_FORMAT,
        **identity(raw),
        "status": FINISHED,
        "version": len(raw),
        "redacted": False,
    }
    for key in sorted(head):
        if key == "signature":
            continue
        if key not in HEADER_KEYS:
            return f"the header has a field no header has: {key}"
        if head[key] != chained[key]:
            return f"the header's {key} {_brief(json.dumps(head[key]))} is not the game's own ({chained[key]!r})"
    return None


def check_receipts(
    raw: Sequence[Mapping[str, Any]], receipts: Sequence[Mapping[str, Any]], report: AuditReport
) -> AuditReport:
    """Return the passed `report` with the receipts it checked, or the first receipt the stored log disagrees with.

    A receipt is what the service answered to an acknowledged action: each
    event it appended, with its `seq` and `hash` (a seat's redacted copy has the
    stored event's hash, since the chain covers the sealed form). A log that
    disagrees was rewritten after the service said otherwise. Receipts are read
    by `read_receipts`; none at all is a failure, never a vacuous pass.
    """
    wrong = receipt_failure(raw, receipts)
    if wrong is not None:
        return AuditReport(False, len(raw), *wrong)
    return replace(report, checks=(*report.checks, receipts_checked(receipts)))


def chain_failure(raw: Sequence[Mapping[str, Any]]) -> tuple[int, str] | None:
    """Return where and why a stored log's numbering or hash chain breaks first, or None."""
    try:
        _check_chain(list(raw))
    except _Failure as failure:
        return failure.seq, failure.reason
    return None


def _check_chain(raw: list[Mapping[str, Any]]) -> None:
    previous, batch_after = GENESIS_HASH, 0
    scheme = raw[0].get("chain", 1) if raw else 1
    for position, event in enumerate(raw, start=1):
        seq = event.get("seq")
        if seq != position:
            raise _Failure(position, f"event {position} is numbered {seq}: an event is missing or out of order")
        extra = set(event) - STORED_KEYS
        if extra:
            raise _Failure(position, f"the event has a field no event has: {sorted(extra)[0]}")
        if event.get("chain", 1) != scheme or scheme not in CHAIN_SCHEMES:
            raise _Failure(position, f"chain scheme {event.get('chain', 1)} where the game was started under {scheme}")
        # A batch starts at its command, or where the command id changes (as `batches` splits them).
        previous_id = raw[position - 2].get("command_id") if position > 1 else None
        if "command" in event or position == 1 or event.get("command_id") != previous_id:
            batch_after = position - 1
        _check_forms(position, event, scheme, batch_after)
        body = {key: value for key, value in event.items() if key != "hash"}
        try:
            hashed = chain_hash(previous, body)
        except UnknownPath as error:
            raise _Failure(position, f"hash chain broken: a commitment names {error}, which the event lacks") from None
        except NonCanonicalValue as error:
            raise _Failure(position, f"hash chain broken: {error.message}") from None
        if hashed != event.get("hash"):
            raise _Failure(
                position, "hash chain broken: this event is not the one that was recorded after the previous"
            )
        previous = event["hash"]


def _check_forms(position: int, event: Mapping[str, Any], scheme: int, batch_after: int) -> None:
    """Fail an event whose time, command id or command is not of the form the service records."""
    if "command" in event and not isinstance(event["command"], Mapping):
        raise _Failure(position, "the event carries a command that is not a JSON object")
    if not is_time(event.get("time")):
        raise _Failure(position, f"the event's time {event.get('time')!r} is not an RFC 3339 time in UTC")
    command_id = event.get("command_id")
    if not is_command_id(command_id) and not (scheme == 1 and command_id == f"c{batch_after}"):
        raise _Failure(position, f"the event's command_id {command_id!r} is not of the service's form")
    v, newest = event.get("v", 1), UPCASTERS.current_version(str(event.get("type")))
    if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= newest:
        raise _Failure(
            position, f"the event's schema version {_brief(json.dumps(v))} is not one of its type's, 1 to {newest}"
        )


def unknown_field(command: Any, fields: Mapping[str, frozenset[str]]) -> str | None:
    """Return why a recorded command is not of a kind in `fields` with only that kind's fields, or None."""
    if not isinstance(command, Mapping):
        return "a command that is not a JSON object"
    kind = command.get("kind")
    if not isinstance(kind, str) or kind not in fields:
        return f"a command of no known kind ({kind!r})"
    extra = sorted(set(command) - fields[kind])
    return f"the {kind} command has a field no {kind} command has: {extra[0]}" if extra else None


def _check_commitments(raw: list[Mapping[str, Any]], seed: str) -> None:
    """Check that every hidden value was committed, and opens its commitment (scheme 2 on)."""
    scheme = raw[0].get("chain", 1)
    if scheme < FIRST_SEALED:
        return
    declared = declaration(raw[0]["data"].get("game", ""))
    for event in raw:
        # The data as stored, not upcast: the commitments cover the stored values.
        seq, made = event["seq"], dict(event.get("commitments") or {})
        for hidden in hidden_in(declared, event["type"], event["data"], event["actor"], event.get("command"), scheme):
            commitment = made.pop(hidden.path, None)
            if commitment is None:
                raise _Failure(seq, f"hash chain broken: the hidden value at {hidden.path} was not committed")
            if not opens(commitment, commitment_key(seed, seq, hidden.path), hidden.value):
                raise _Failure(seq, f"hash chain broken: the value at {hidden.path} does not open its commitment")
        if made:
            raise _Failure(seq, f"a commitment to {sorted(made)[0]}, which is not a hidden value")


def _check_seed(events: list[RecordedEvent]) -> str:
    if not events or events[0].type != "GameCreated":
        raise _Failure(1, "the log does not start with GameCreated")
    last = events[-1]
    if last.type != "GameEnded":
        raise _Failure(last.seq, "the game is not over: only a finished game can be audited")
    seed = last.data.get("seed")
    if not isinstance(seed, str) or seed_commitment(seed) != events[0].data.get("seed_commitment"):
        raise _Failure(last.seq, "the revealed seed does not match the commitment made at creation")
    return seed


def _reexecute(events: list[RecordedEvent], seed: str, progress: Callable[[int], None] | None = None) -> None:
    game = blank()
    for batch in _batches(events):
        first = batch[0]
        if first.command is None:
            raise _Failure(first.seq, "a batch of events without the command that caused it")
        command = first.command
        malformed = unknown_field(command, COMMAND_FIELDS)
        if malformed is not None:
            raise _Failure(first.seq, malformed)
        if first.type == "GameCreated" and isinstance(command, Mapping):
            # The recorded rules version is part of what is audited against: re-create the game under it.
            # So is its event cap (none recorded: a game from before caps, held to its rules' present cap).
            command = {
                **command,
                "rules_version": first.data.get("rules_version"),
                "event_cap": first.data.get("event_cap"),
            }
        try:
            expected = decide(game, command, seed)
        except DomainError as error:
            raise _Failure(first.seq, f"the rules refuse this command: {error.message}") from None
        recorded = [(e.type, e.actor, _normal(e.data)) for e in batch]
        derived = [(e.type, e.actor, _normal(e.data)) for e in expected]
        for offset, (got, want) in enumerate(zip(recorded, derived)):
            if got != want:
                raise _Failure(
                    batch[offset].seq, f"{got[0]} differs from what the rules give ({want[0]}, {_brief(want[2])})"
                )
        if len(recorded) != len(derived):
            at = batch[min(len(recorded), len(derived)) - 1].seq
            raise _Failure(at, f"the command gives {len(derived)} events, the log holds {len(recorded)}")
        for event in batch:
            game = evolve(game, event)
        if progress is not None:
            progress(batch[-1].seq)
    if game.status != FINISHED:
        raise _Failure(events[-1].seq, "the rules do not end the game where the log does")


def batches(events: list[RecordedEvent]) -> list[list[RecordedEvent]]:
    """Split a log into the batches its commands appended (the command rides on the first event)."""
    return _batches(events)


def _batches(events: list[RecordedEvent]) -> list[list[RecordedEvent]]:
    batches: list[list[RecordedEvent]] = []
    for event in events:
        if batches and batches[-1][-1].command_id == event.command_id and event.command is None:
            batches[-1].append(event)
        else:
            batches.append([event])
    return batches


def _normal(data: Any) -> str:
    return json.dumps(data, sort_keys=True)


def _brief(data: str) -> str:
    return data if len(data) <= 200 else data[:200] + "…"
