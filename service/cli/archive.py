"""`menagerie audit | import | archive | replay`: whole games as files.

`menagerie archive --finished-before DAYS` is the archiver an operator runs on
a schedule (cron, a systemd timer): safe to interrupt, and the next run
finishes what it left (`ArchiveService.archive_finished`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from domain.audit import audit_export, check_receipts, identity
from domain.errors import DomainError
from domain.events import RecordedEvent
from domain.export import ExportFormatError, is_complete, read_export
from domain.game import replay
from domain.ids import GAME_ID_FORM, is_game_id
from domain.results import GAME, Statement
from projections.game import game_view
from service.cli import anchors, log_reader
from service.cli.files import export_lines
from service.errors import GameNotFound, ServiceError

if TYPE_CHECKING:
    from service.bootstrap import Services


def add_parsers(commands: Any) -> None:
    """Add the file commands to the `menagerie` parser."""
    check = commands.add_parser("audit", help="audit an exported finished game, offline (no server, no Redis)")
    check.add_argument("file")
    check.add_argument(
        "--log",
        metavar="URL|STATE",
        help="also check that the game's result is in the transparency log: at its address (its present"
        " checkpoint), or as a `menagerie monitor` state file names it (the checkpoint that monitor accepted)",
    )
    check.add_argument("--log-key", metavar="VKEY", help="the log's verifier key (default: the one the log names)")
    check.add_argument(
        "--receipts",
        help="a receipts file, receipts-<game id>.ndjson: what the service acknowledged, a JSON object a line (an"
        " event's seq and hash, or an answer holding them); fail where the game's log disagrees with any, and on a"
        " file with none",
    )
    check.add_argument("--key", help=anchors.KEY_HELP)
    load = commands.add_parser("import", help="load an exported finished game into the store at REDIS_URL")
    load.add_argument("file")
    keep = commands.add_parser(
        "archive",
        help="move finished games from REDIS_URL to files: one GAME_ID to FILE, or every game that ended"
        " --finished-before DAYS days ago to --to DIR",
    )
    keep.add_argument("game_id", nargs="?")
    keep.add_argument("file", nargs="?")
    keep.add_argument("--finished-before", type=float, metavar="DAYS", help="archive every game that ended DAYS ago")
    keep.add_argument(
        "--to",
        default=os.environ.get("MENAGERIE_ARCHIVE_DIR", "archive"),
        metavar="DIR",
        help="where --finished-before writes its files, <id>.ndjson (default: $MENAGERIE_ARCHIVE_DIR or ./archive)",
    )
    show = commands.add_parser("replay", help="print a view of an exported game after event N, offline")
    show.add_argument("file")
    show.add_argument("--at", type=int, default=None, help="event number (default: the last)")
    show.add_argument("--seat", type=int, default=None, help="whose view (default: the open view)")


def run(args: argparse.Namespace) -> int:
    """Run one of the file commands; exit 0 on success, 1 on a failed audit or refusal, 2 on a bad file."""
    try:
        if args.command == "audit":
            return _audit(args.file, args.receipts, args.key, args.log, args.log_key)
        if args.command == "replay":
            return _replay(args.file, args.at, args.seat)
        if args.command == "import":
            return _import(args.file)
        if args.command == "archive":
            return _archive_command(args)
    except ExportFormatError as error:
        print(f"{args.file}: {error.message}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"{error.filename or args.file}: {error.strerror}", file=sys.stderr)
        return 2
    return 2


def _read(path: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    return read_export(export_lines(path))


def _audit(
    path: str, receipts: str | None = None, key: str | None = None, log: str | None = None, log_key: str | None = None
) -> int:
    head, events = _read(path)
    if not is_complete(head):
        print(f"{path}: a redacted or unfinished export cannot be audited (its seed is secret)", file=sys.stderr)
        return 1
    try:
        verifier, promised = anchors.audit_inputs(key, receipts)
        report = audit_export(head, events, verifier)
        if report.ok and promised is not None:
            report = check_receipts(events, promised, report)
        logged = "; " + anchors.in_log(log, log_key, _final_statement(events)) if report.ok and log else ""
    except anchors.Unusable as error:
        return anchors.unusable(error)
    except log_reader.LogAlarm as alarm:
        print(f"FAIL {head.get('game')} {_shown(head.get('id'))}: the file audits, but {alarm}")
        return 1
    if report.ok:
        # What is printed is what the chain says, not the header.
        chained = identity(events)
        seats = ", ".join(map(_seat_label, chained["seats"]))
        print(
            f"PASS {chained['game']} {_shown(chained['id'])} (rules {chained['rules_version']}, {chained['dealing']} dealing,"
            f" seats {seats}, options {json.dumps(chained['options'], sort_keys=True)}): {report.events} events;"
            f" checked {', '.join(report.checks)}; {anchors.signed_by(report.signature)}{logged}"
        )
        return 0
    print(f"FAIL {head.get('game')} {_shown(head.get('id'))} at event {report.failed_at}: {report.reason}")
    return 1


def _seat_label(seat: dict[str, Any]) -> str:
    """Name a seat as the chain does: an account by its id (its handle is never chained), a bot by kind, a guest."""
    if seat.get("player") is not None:
        return f"player {seat['player']}"
    if seat.get("bot") is not None:
        return f"bot:{seat['bot']}"
    return str(seat.get("name"))


def _shown(game_id: object) -> str:
    """Return a file's game id to print: as it is when of the service's form, else quoted (no terminal escapes)."""
    return str(game_id) if is_game_id(game_id) else f"{game_id!r} (not an id this service gives)"


def _final_statement(events: list[dict[str, Any]]) -> dict[str, Any]:
    """Return the result statement the log holds for this game: its id, last version and last hash, as chained."""
    last = events[-1]
    return Statement(str(identity(events)["id"]), GAME, int(last["seq"]), str(last["hash"])).to_dict()


def _replay(path: str, at: int | None, seat: int | None) -> int:
    head, events = _read(path)
    if at is not None and not 1 <= at <= len(events):
        print(f"--at must be between 1 and {len(events)}", file=sys.stderr)
        return 2
    game = replay(RecordedEvent.from_dict(event) for event in events[: at or len(events)])
    view = game_view(game, seat, open_view=seat is None and is_complete(head))
    print(json.dumps(view, indent=2, sort_keys=True))
    return 0


def store_services() -> Services:
    """Return the services on the store at REDIS_URL (a command on the embedded store would change nothing)."""
    from service.adapters.connections import rq_url
    from service.bootstrap import build_from_urls

    url = os.environ.get("REDIS_URL")
    if not url:
        raise SystemExit("this command needs REDIS_URL: the embedded store lives only inside `menagerie serve`")
    return build_from_urls(url, rq_url(), os.environ.get("MENAGERIE_PREFIX", "menagerie"))


def _import(path: str) -> int:
    lines = export_lines(path)
    try:
        game_id = store_services().archive.import_lines(lines)
    except ExportFormatError:
        raise
    except (DomainError, ServiceError) as error:
        print(f"{path}: {error.message}", file=sys.stderr)
        return 1
    print(f"imported {game_id}")
    return 0


def _archive(game_id: str, path: str) -> int:
    try:
        lines = store_services().archive.archive_to(game_id, path)
    except GameNotFound:
        print(f"no game {game_id}", file=sys.stderr)
        return 1
    except (DomainError, ServiceError) as error:
        print(f"{game_id}: {error.message}", file=sys.stderr)
        return 1
    print(f"archived {game_id} to {path} ({lines} lines); its keys are removed, its tombstone stays")
    return 0


def _archive_command(args: argparse.Namespace) -> int:
    one = args.game_id is not None and args.file is not None
    if one == (args.finished_before is not None) or (args.game_id is not None and args.file is None):
        print("menagerie archive: give either GAME_ID FILE or --finished-before DAYS", file=sys.stderr)
        return 2
    if one:
        if not is_game_id(args.game_id):
            print(f"menagerie archive: GAME_ID is {GAME_ID_FORM}, not {args.game_id!r}", file=sys.stderr)
            return 2
        return _archive(args.game_id, args.file)
    if args.finished_before < 0:
        print("menagerie archive: --finished-before takes a number of days, 0 or more", file=sys.stderr)
        return 2
    before = datetime.now(UTC) - timedelta(days=args.finished_before)
    run = store_services().archive.archive_finished(args.to, before)
    print(
        f"archived {len(run.archived)} games to {os.path.abspath(args.to)}; left {run.recent} that ended since"
        f" {before.isoformat(timespec='seconds')}, {run.in_play} in play, {run.held} for tournaments in play"
        f" (packed {run.packed} of those that ended)"
        + (f"; {len(run.failed)} failed (see the log): {' '.join(run.failed)}" if run.failed else "")
    )
    return 1 if run.failed else 0
