"""The `menagerie` command."""

from __future__ import annotations

import argparse
import logging
import os
import sys

from service.adapters.connections import ConfigError
from service.cli import archive, bundles, keys, monitor, players, rebuild, tournament


def main(argv: list[str] | None = None) -> int:
    """Run the `menagerie` command line."""
    parser = argparse.ArgumentParser(prog="menagerie", description="Menagerie card game service")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="run the JSON API")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=None, help="server worker processes (with REDIS_URL; default 2)")
    serve.add_argument(
        "--server", choices=("granian", "gunicorn"), default="granian", help="the HTTP server (with REDIS_URL)"
    )
    durable = "refuse to start unless Redis has the durability settings docs/operators.md requires"
    serve.add_argument("--require-durable", action="store_true", help=durable)
    worker = commands.add_parser("worker", help="run an RQ worker for the system's and bots' turns (needs REDIS_URL)")
    worker.add_argument("--require-durable", action="store_true", help=durable)
    tournament.add_parser(commands)
    archive.add_parsers(commands)
    bundles.add_parsers(commands)
    keys.add_parsers(commands)
    monitor.add_parser(commands)
    players.add_parser(commands)
    rebuild.add_parser(commands)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        return _run(args)
    except ConfigError as error:
        print(f"menagerie: {error}", file=sys.stderr)
        return 2


def _run(args: argparse.Namespace) -> int:
    if args.command == "serve":
        from service.cli.server import serve as run_server

        return run_server(args.host, args.port, args.workers, args.server, args.require_durable)
    if args.command == "worker":
        return _worker(args.require_durable)
    if args.command == "tournament":
        return tournament.main(args)
    if args.command in ("audit", "import", "archive", "replay"):
        return archive.run(args)
    if args.command == "monitor":
        return monitor.run(args)
    if args.command in ("audit-tournament", "ratings"):
        return bundles.run(args)
    if args.command == "keys":
        return keys.run(args)
    if args.command == "players":
        return players.run(args)
    if args.command == "rebuild":
        return rebuild.run(args)
    return 2


def _worker(require_durable: bool = False) -> int:
    from service.adapters.connections import rq_url
    from service.adapters.durability import check_durability
    from service.adapters.outages import process_outages
    from service.application.archive_duty import duty_from_env
    from service.bootstrap import build_from_urls, serve_jobs
    from service.cli.supervise import WORKER_TTL_S, run_worker

    url = os.environ.get("REDIS_URL")
    if not url:
        print("menagerie worker needs REDIS_URL (the embedded default runs jobs inside `serve`)", file=sys.stderr)
        return 2
    prefix = os.environ.get("MENAGERIE_PREFIX", "menagerie")
    # A job whose store shard fails gives up at once and is put back for later (`run_job`).
    services = serve_jobs(build_from_urls(url, rq_url(), prefix, queue_blocks_for_s=WORKER_TTL_S, fail_fast=True))
    check_durability(services.redis, require_durable, logging.getLogger("menagerie.worker").warning)
    process_outages("the worker")  # its parts report an outage as the worker's, in one pair of lines
    # The steward takes the steps no job took (a crash between an append and
    # its enqueue, a killed worker); it waits out outages by itself.
    services.steward().start()
    archiver = duty_from_env(services.archive, services.redis, prefix, os.environ)
    if archiver is not None:  # off unless the operator turns it on (docs/operators.md, "Finished games")
        archiver.start()
    return run_worker(services.rq(), services.prefix)


if __name__ == "__main__":
    sys.exit(main())
