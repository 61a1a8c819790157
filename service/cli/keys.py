"""`menagerie keys new | rotate | show`: the house keys in the folder MENAGERIE_KEYS_DIR (or --dir) names."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from service.adapters import house_keys


def add_parsers(commands: Any) -> None:
    """Add `menagerie keys` to the `menagerie` parser."""
    keys = commands.add_parser("keys", help="the house keys that sign finished games and tournaments")
    actions = keys.add_subparsers(dest="keys_command", required=True)
    for name, text in (
        ("new", "create the first house key in the keys folder"),
        ("rotate", "make a new current key; the old one is retired and stays published"),
        ("show", "print the public keys, as GET /.well-known/menagerie-keys serves them"),
    ):
        action = actions.add_parser(name, help=text)
        action.add_argument(
            "--dir",
            default=os.environ.get("MENAGERIE_KEYS_DIR"),
            help="the keys folder (default: $MENAGERIE_KEYS_DIR)",
        )


def run(args: argparse.Namespace) -> int:
    """Run a keys command; exit 0 on success, 1 when the folder refuses, 2 when no folder is named."""
    if not args.dir:
        print("menagerie keys: name the keys folder with --dir or MENAGERIE_KEYS_DIR", file=sys.stderr)
        return 2
    try:
        if args.keys_command == "new":
            made = house_keys.create(args.dir)
            print(f"created house key {made} in {args.dir} (its private key is {made}.pem, mode 600)")
        elif args.keys_command == "rotate":
            old, new = house_keys.rotate(args.dir)
            print(f"house key {new} is current; {old} is retired and stays published; restart the service")
        else:
            print(json.dumps(house_keys.published(args.dir), indent=2, sort_keys=True))
    except house_keys.KeysError as error:
        print(f"menagerie keys: {error}", file=sys.stderr)
        return 1
    return 0
