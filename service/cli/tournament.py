"""`menagerie tournament run`: an all-bot tournament with a progress bar, then the final standings.

Without REDIS_URL everything runs in this process on an in-memory store. With
REDIS_URL the tournament lives in that Redis and this process works the RQ
queue itself (any `menagerie worker` running beside it helps).
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
import uuid
from typing import Any, TextIO

from domain.errors import DomainError
from domain.game import Game
from domain.games import RULES
from domain.tournament.decide import DEFAULT_SWISS_CAPACITY
from domain.tournament.pairing import split
from domain.tournament.state import FINISHED, FORMATS, ROUND_ROBIN
from service.adapters.jobs import InlineJobs
from service.bootstrap import Services, from_env, serve_jobs

BAR_WIDTH = 30


def add_parser(commands: Any) -> None:
    """Add `tournament run` to the `menagerie` command line."""
    tournament = commands.add_parser("tournament", help="run tournaments from the command line")
    actions = tournament.add_subparsers(dest="tournament_command", required=True)
    run = actions.add_parser("run", help="run an all-bot tournament and print the final standings")
    run.add_argument("--game", required=True, help="game type, e.g. life-is-life")
    run.add_argument("--players", type=int, required=True)
    run.add_argument("--rounds", type=int, required=True)
    run.add_argument(
        "--bots", default="heuristic", help="comma-separated bot kinds dealt in turn (see GET /game-types)"
    )
    run.add_argument("--format", default="swiss", choices=FORMATS)
    run.add_argument("--seed", default=None, help="fixes every pairing and deal")
    run.add_argument(
        "--mcts-iterations", type=int, default=None, help="the mcts bots' search budget a move (default: the game's)"
    )


def main(args: argparse.Namespace) -> int:
    """Run the tournament subcommand."""
    if args.game not in RULES:
        print(f"--game takes {', '.join(sorted(RULES))}; not {args.game}", file=sys.stderr)
        return 2
    bots = RULES[args.game].bots
    kinds = [kind.strip() for kind in args.bots.split(",") if kind.strip()]
    unknown = sorted(set(kinds) - set(bots))
    if not kinds or unknown:
        print(f"--bots takes {', '.join(bots)}; not {', '.join(unknown) or 'nothing'}", file=sys.stderr)
        return 2
    logging.getLogger().setLevel(logging.WARNING)
    services = from_env()
    try:
        standings = run_tournament(
            services, args.game, args.players, args.rounds, kinds, args.format, args.seed, args.mcts_iterations
        )
    except DomainError as error:
        print(f"menagerie: {error.message}", file=sys.stderr)
        return 2
    print(format_standings(standings))
    return 0


def run_tournament(
    services: Services,
    game: str,
    players: int,
    rounds: int,
    kinds: list[str],
    format: str = "swiss",
    seed: str | None = None,
    mcts_iterations: int | None = None,
    out: TextIO | None = None,
) -> dict[str, Any]:
    """Create, fill with bots, start and run a tournament to its end; return its final view."""
    tournaments = services.tournaments
    capacity = players if format != ROUND_ROBIN and players > DEFAULT_SWISS_CAPACITY else None
    options = {"mcts_iterations": mcts_iterations} if mcts_iterations is not None else None
    created, _ = tournaments.create(
        game, rounds=rounds, format=format, seed=seed, max_players=capacity, options=options
    )
    for index in range(players):
        tournaments.register(created.id, bot=kinds[index % len(kinds)])
    per_round = 1 if format == ROUND_ROBIN else len(split(players, created.table_sizes)[0])
    bar = ProgressBar(per_round * rounds, out or sys.stderr)
    finished_games = [0]

    if isinstance(services.jobs, InlineJobs):
        # In-process jobs: the whole tournament runs inside `start`; count games as they end.
        follow_ups = services.games.on_finished

        def count(game: Game) -> None:
            follow_ups(game)
            finished_games[0] += 1
            bar.show(finished_games[0])

        services.games.on_finished = count
        tournaments.start(created.id)
    else:
        tournaments.start(created.id)
        _work_until_finished(services, created.id, bar)
    view = tournaments.view(tournaments.load(created.id))
    bar.done()
    return view


def _work_until_finished(services: Services, tournament_id: str, bar: ProgressBar) -> None:
    """Work the RQ queue in this process until the tournament is over."""
    from rq import SimpleWorker

    from service.adapters.jobs import worker_queues

    tournaments = services.tournaments
    # The jobs run on these services: their store may be a cluster, RQ's queues are on a plain Redis.
    serve_jobs(services)
    queues = worker_queues(services.prefix, services.rq())
    while True:
        view = tournaments.view(tournaments.load(tournament_id))
        bar.show(sum(1 for r in view["rounds"] for t in r["tables"] if t["places"] is not None))
        if view["status"] == FINISHED:
            return
        if any(queue.count for queue in queues):
            worker = SimpleWorker(queues, connection=services.rq(), name=f"cli-{uuid.uuid4().hex[:12]}")
            worker.work(burst=True, max_jobs=200, logging_level="WARNING")
        else:
            time.sleep(0.2)  # jobs scheduled for a retry, or taken by other workers


class ProgressBar:
    """A one-line text bar on stderr."""

    def __init__(self, total: int, out: TextIO) -> None:
        self.total, self.out, self.start = max(total, 1), out, time.perf_counter()

    def show(self, done: int) -> None:
        """Redraw the bar at `done` of `total`."""
        filled = BAR_WIDTH * min(done, self.total) // self.total
        elapsed = time.perf_counter() - self.start
        self.out.write(f"\r[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {done}/{self.total} games  {elapsed:6.1f}s")
        self.out.flush()

    def done(self) -> None:
        """End the bar's line."""
        self.show(self.total)
        self.out.write("\n")
        self.out.flush()


def format_standings(view: dict[str, Any]) -> str:
    """Return the final standings as a text table."""
    head = f"{view['game']} {view['format']} tournament {view['id']}: {len(view['players'])} players, {view['planned_rounds']} rounds"
    header = f"{'rank':>4}  {'player':<20} {'bot':<10} {'points':>8} {'opp.pts':>9} {'wins':>5} {'games':>5} {'byes':>4} {'rating':>8}"
    lines = [head, header, "-" * len(header)]
    for s in view["standings"]:
        lines.append(
            f"{s['rank']:>4}  {s['name'][:20]:<20} {s['bot'] or '-':<10} {s['points']:>8g} {s['opponents_points']:>9g}"
            f" {s['wins']:>5} {s['games']:>5} {s['byes']:>4} {s['rating']:>8.2f}"
        )
    return "\n".join(lines)
