"""`menagerie rebuild ratings|leaderboards|lobby|standings|all`: refill a read model from the streams, live.

Safe while the service runs and takes games, safe to run twice, safe to kill:
readers are served the old model until one step switches them to the new one
(`service.application.read_models`).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from service.adapters.generations import LeaseLost, RebuildRunning
from service.application.read_models import MODELS, ReadModels, Rebuilder


def add_parser(commands: Any) -> None:
    """Add `menagerie rebuild` to the `menagerie` parser."""
    rebuild = commands.add_parser(
        "rebuild",
        help="rebuild a read model of the store at REDIS_URL from its streams and archives, beside the served one,"
        " then switch readers to it in one step",
    )
    rebuild.add_argument("model", choices=(*MODELS, "all"))


def run(args: argparse.Namespace) -> int:
    """Rebuild the model(s) named; exit 0 when each switched, 1 when one was refused (nothing switched for it)."""
    from service.adapters.connections import connect
    from service.adapters.store import EventStore

    url = os.environ.get("REDIS_URL")
    if not url:
        print(
            "menagerie rebuild needs REDIS_URL: the embedded store lives only inside `menagerie serve`", file=sys.stderr
        )
        return 2
    store = EventStore(connect(url), os.environ.get("MENAGERIE_PREFIX", "menagerie"))
    rebuilder = Rebuilder(ReadModels(store))
    status = 0
    for model in MODELS if args.model == "all" else (args.model,):
        try:
            report = rebuilder.rebuild(model)
        except (RebuildRunning, LeaseLost) as refused:
            print(f"{model}: {refused}", file=sys.stderr)
            status = 1
            continue
        print(report.line())
        for difference in report.differences[:20]:
            print(f"  differs from the served generation: {difference}")
    return status
