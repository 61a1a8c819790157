"""A bot author's example: play one Menagerie game against the server's bots with the generated client.

Generate the client first (see README, "Integrating"), then:

    PYTHONPATH=generated python examples/bot.py --url http://127.0.0.1:8000 --game bloede-kuh

It uses the five calls a bot needs: create a game (or join one), read the view,
post one of its legal actions, and, once the game is over, read the log.
Everything it touches is a typed model of the generated package.
"""

from __future__ import annotations

import argparse
import random
import sys

from menagerie_client import AuthenticatedClient, Client
from menagerie_client.api.default import create_game, get_events, get_game, join_game, post_action
from menagerie_client.models import (
    BotKind,
    CreateGame,
    Error,
    GameView,
    JoinGame,
    PostAction,
    SeatSpec,
    Status,
)


def pick(view: GameView, rng: random.Random) -> object:
    """Choose an action: this bot prefers actions that are not a pass, and otherwise picks at random."""
    moves = [a for a in view.legal_actions if a.type_.value not in ("pass", "knock", "forfeit")]
    return rng.choice(moves or view.legal_actions)


def main() -> int:
    """Play one game to the end and print its result."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--game", default="bloede-kuh")
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--join", help="join this waiting game instead of creating one")
    parser.add_argument("--seed", help="fix the deal (optional)")
    args = parser.parse_args()
    public = Client(base_url=args.url)
    rng = random.Random(args.seed)

    # 1. A seat: create a game against the server's bots, or join an open seat of a waiting game.
    if args.join:
        seat = join_game.sync(args.join, client=public, body=JoinGame(name="example-bot"))
        if isinstance(seat, Error) or seat is None:
            print(f"could not join: {seat}", file=sys.stderr)
            return 1
        game_id, token = args.join, seat.token
    else:
        bots = [SeatSpec(bot=BotKind.HEURISTIC) for _ in range(args.seats - 1)]
        body = CreateGame(game=args.game, seats=[SeatSpec(name="example-bot"), *bots])
        if args.seed:
            body.seed = args.seed
        created = create_game.sync(client=public, body=body)
        if isinstance(created, Error) or created is None:
            print(f"could not create: {created}", file=sys.stderr)
            return 1
        game_id, token = created.id, created.seats[0].token
    me = AuthenticatedClient(base_url=args.url, token=token)

    while True:
        # 2. The view: what this seat may see, and its legal actions.
        view = get_game.sync(game_id, client=me)
        if not isinstance(view, GameView):
            print(f"could not read the game: {view}", file=sys.stderr)
            return 1
        if view.status == Status.FINISHED:
            break
        if not view.legal_actions:
            continue  # another seat (a human) is to act; a real bot would wait a moment here
        # 3. One action, posted verbatim; expected_version makes a stale decision a 409, not a wrong move.
        answer = post_action.sync_detailed(
            game_id, client=me, body=PostAction(action=pick(view, rng), expected_version=view.version)
        )
        if answer.status_code not in (200, 409):
            print(f"refused: {answer.parsed}", file=sys.stderr)
            return 1

    # 4. The log, whole once the game is over (the seed is revealed in its last event).
    log = get_events.sync(game_id, client=public, limit=10000)
    assert view.result is not None
    print(f"game {game_id} ({view.game}) finished: places {view.result.places}, {len(log.events)} events")
    return 0


if __name__ == "__main__":
    sys.exit(main())
