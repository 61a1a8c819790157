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
from domain.tournament.audit import audit_bundle
from domain.tournament.bundle import FORMAT as BUNDLE_FORMAT
from domain.tournament.bundle import read_bundle
from service.cli.files import export_lines


def add_parsers(commands: Any) -> None:
    """Add the offline tournament and rating commands to the `menagerie` parser."""
    check = commands.add_parser(
        "audit-tournament", help="audit a tournament bundle (GET /tournaments/{id}/export), offline"
    )
    check.add_argument("file")
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
            return _audit_tournament(args.file)
        return _rebuild(args.files, args.game)
    except ExportFormatError as error:
        print(f"menagerie: {error.message}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"{error.filename}: {error.strerror}", file=sys.stderr)
        return 2


def _audit_tournament(path: str) -> int:
    bundle = read_bundle(export_lines(path))
    report = audit_bundle(bundle)
    name = f"{bundle.head.get('game')} tournament {bundle.head.get('id')}"
    if report.ok:
        print(f"PASS {name}: {report.events} events, {report.games} games; checked {', '.join(report.checks)}")
        return 0
    game = f" (game {report.game_id})" if report.game_id else ""
    print(f"FAIL {name} at tournament event {report.failed_at}{game}: {report.reason}")
    return 1


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
