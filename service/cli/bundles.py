"""`menagerie audit-tournament FILE` and `menagerie ratings rebuild FILES...`: offline, from files alone."""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from typing import Any

from domain.audit import audit_export
from domain.events import RecordedEvent
from domain.export import ExportFormatError, is_complete, read_export
from domain.game import Game, replay
from domain.ratings import leaderboard, rebuild
from domain.results import TOURNAMENT, Statement
from domain.tournament.audit import audit_bundle, check_receipts
from domain.tournament.bundle import FORMAT as BUNDLE_FORMAT
from domain.tournament.bundle import read_bundle
from service.cli import anchors, log_reader
from service.cli.files import export_lines


def add_parsers(commands: Any) -> None:
    """Add the offline tournament and rating commands to the `menagerie` parser."""
    check = commands.add_parser(
        "audit-tournament", help="audit a tournament bundle (GET /tournaments/{id}/export), offline"
    )
    check.add_argument("file")
    check.add_argument("--key", help=anchors.KEY_HELP)
    check.add_argument(
        "--log",
        metavar="URL|STATE",
        help="also check that the tournament's result is in the transparency log (as for `menagerie audit`)",
    )
    check.add_argument("--log-key", metavar="VKEY", help="the log's verifier key (default: the one the log names)")
    check.add_argument(
        "--receipts",
        help="an entrant's receipts file, receipts-<tournament id>.ndjson: its registration's receipt and the"
        " tournament events it was sent, a JSON object a line; fail where the bundle's stream disagrees with any",
    )
    ratings = commands.add_parser("ratings", help="ratings from files")
    actions = ratings.add_subparsers(dest="ratings_command", required=True)
    again = actions.add_parser(
        "rebuild", help="recompute leaderboards from game exports and tournament bundles; print them as JSON lines"
    )
    again.add_argument("files", nargs="+")
    again.add_argument("--game", default=None, help="only this game type")


def run(args: argparse.Namespace) -> int:
    """Run an offline command; exit 0 on success, 1 on a failed audit, 2 on a bad file."""
    try:
        if args.command == "audit-tournament":
            return _audit_tournament(args.file, args.key, args.log, args.log_key, args.receipts)
        return _rebuild(args.files, args.game)
    except ExportFormatError as error:
        print(f"menagerie: {error.message}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"{error.filename}: {error.strerror}", file=sys.stderr)
        return 2


def _audit_tournament(
    path: str, key: str | None = None, log: str | None = None, log_key: str | None = None, receipts: str | None = None
) -> int:
    bundle = read_bundle(export_lines(path))
    name = f"{bundle.head.get('game')} tournament {bundle.head.get('id')}"
    try:
        verifier, promised = anchors.audit_inputs(key, receipts)
        report = audit_bundle(bundle, verifier=verifier)
        if report.ok and promised is not None:
            report = check_receipts(bundle, promised, report)
        logged = "; " + anchors.in_log(log, log_key, _statement(bundle.events)) if report.ok and log else ""
    except anchors.Unusable as error:
        return anchors.unusable(error)
    except log_reader.LogAlarm as alarm:
        print(f"FAIL {name}: the bundle audits, but {alarm}")
        return 1
    if report.ok:
        games = ", ".join(f"{n} {status}" for status, n in sorted(report.game_signatures.items())) or "none"
        print(
            f"PASS {name}: {report.events} events, {report.games} games; checked {', '.join(report.checks)};"
            f" tournament {anchors.signed_by(report.signature)}; games' signatures: {games}{logged}"
        )
        return 0
    game = f" (game {report.game_id})" if report.game_id else ""
    print(f"FAIL {name} at tournament event {report.failed_at}{game}: {report.reason}")
    return 1


def _statement(events: list[dict[str, Any]]) -> dict[str, Any]:
    """Return what the log must hold of an audited tournament: its id, last version and last hash, as chained."""
    first, last = events[0], events[-1]
    return Statement(str(first["data"]["id"]), TOURNAMENT, int(last["seq"]), str(last["hash"])).to_dict()


def _rebuild(paths: list[str], only: str | None) -> int:
    """Rate every finished game of the files once, by the live rule; exit 1 if any fails its audit.

    Each game is audited with its header (a header relabelled to pass a copy
    off as another game fails) and known by its chain's identity, its id and
    final hash: the same game in two files counts once, and two different
    histories under one id are refused.
    """
    files: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
    for path in paths:
        text = export_lines(path)
        if text and json.loads(text[0]).get("format") == BUNDLE_FORMAT:
            files += [(dict(file.head), file.events) for file in read_bundle(text).games.values()]
        else:
            head, events = read_export(text)
            files.append((dict(head), events))
    finals: dict[str, str] = {}
    seen: set[str] = set()
    rated: dict[str, list[tuple[str, str, Game]]] = defaultdict(list)
    for head, events in files:
        if not is_complete(head):
            continue
        report = audit_export(head, events)
        if not report.ok:
            print(
                f"game {head.get('id')} fails its audit at event {report.failed_at}: {report.reason}", file=sys.stderr
            )
            return 1
        game = replay(RecordedEvent.from_dict(event) for event in events)
        if finals.setdefault(game.id, game.last_hash) != game.last_hash:
            print(f"game {game.id} comes with two different histories", file=sys.stderr)
            return 1
        if game.id in seen:
            continue  # the same game again (its id and final hash)
        seen.add(game.id)
        if only is None or game.type == only:
            rated[game.type].append((str(events[-1]["time"]), game.id, game))
    for game_type in sorted(rated):
        # Live ratings are appended as games end: the order of their GameEnded times (then ids).
        ordered = sorted(rated[game_type], key=lambda line: (line[0], line[1]))
        table = rebuild(game_type, (game for _, _, game in ordered))
        board = {"game": game_type, "rated_games": table.rated_games, "players": leaderboard(table)}
        print(json.dumps(board, sort_keys=True))
    return 0
