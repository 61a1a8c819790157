"""`menagerie players erase PLAYER_ID`: an operator erases an account, as its player would with DELETE /players/me."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from service.cli.archive import store_services
from service.errors import PlayerNotFound


def add_parser(commands: Any) -> None:
    """Add `menagerie players erase` to the `menagerie` parser."""
    players = commands.add_parser("players", help="player accounts in the store at REDIS_URL")
    actions = players.add_subparsers(dest="players_command", required=True)
    erase = actions.add_parser(
        "erase", help="erase an account: its handle and token go, its id stays (docs/operators.md, 'Erasure')"
    )
    erase.add_argument("player_id", help="the account's id, p-...")


def run(args: argparse.Namespace) -> int:
    """Erase an account; exit 0 once erased (an erased one again: finished), 1 if no account has that id."""
    try:
        store_services().players.erase_by_id(args.player_id)
    except PlayerNotFound as error:
        print(f"menagerie players: {error.message}", file=sys.stderr)
        return 1
    print(f"erased {args.player_id}: its handle and token are gone; its id stays in the chains, shown as erased")
    return 0
