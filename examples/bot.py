"""A bot author's example: play one Menagerie game against the server's bots with the generated client.

Generate the client first (README, "Write a bot"), then:

    PYTHONPATH=generated .venv/bin/python examples/bot.py --url http://127.0.0.1:8000 --game bloede-kuh

It takes a seat (creates a game, or joins one) and checks that the seat's
receipt, the SeatTaken event in the answer, holds the entropy it sent (in a
shared deal; a fixed one takes none); reads its view, posts one of
its legal actions when it may act and otherwise waits on the game's live
stream (`GET /games/{id}/stream`, Server-Sent Events) for the next event.
A move is one request: the action's answer holds the seat's view after it,
so the bot reads the game again only when others have moved. It
keeps the hash of every event the server acknowledged or sent to it (its
receipts: the SeatTaken first, then each move's answer and every event of the
stream, up to GameEnded) in a file, receipts-<game id>.ndjson, and once the
game is over checks them against the published log:
a history published later that differs from what the bot was told would not
match. Everything but the stream is a typed call of the generated package.

With `--socket` it plays on the game's WebSocket instead (`GET /games/{id}/socket`,
asyncapi.yaml): its moves go as `act` messages and its view comes after every
batch, with no request a move. It needs `pip install websocket-client` and a
server that serves sockets (`menagerie serve` on one Redis). Its receipts are
then the SeatTaken and its moves' answers.
"""

from __future__ import annotations

import argparse
import json
import random
import secrets
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
from menagerie_client import AuthenticatedClient, Client
from menagerie_client.api.audit import export_game
from menagerie_client.api.games import create_game, get_game, join_game, post_action
from menagerie_client.models import (
    ActionResult,
    BotKind,
    CreateGame,
    Dealing,
    Error,
    GameExport,
    GameView,
    JoinGame,
    PostAction,
    SeatSpec,
    SeatTakenEvent,
    Status,
)
from menagerie_client.types import Unset

# The stream sends a heartbeat every 15 s: a minute without a byte is a lost connection.
STREAM_TIMEOUT = httpx.Timeout(10.0, read=60.0)


def pick(view: GameView, rng: random.Random) -> object:
    """Choose an action: this bot prefers actions that are not a pass, and otherwise picks at random."""
    moves = [a for a in view.legal_actions if a.type_.value not in ("pass", "knock", "forfeit")]
    return rng.choice(moves or view.legal_actions)


def new_key() -> str:
    """Return a fresh Idempotency-Key: random and long, since whoever knows it gets the answer."""
    return str(uuid.uuid4())


def new_entropy() -> str:
    """Return this seat's contribution to a shared deal: 16 fresh random bytes, so no one alone chooses the deal."""
    return secrets.token_hex(16)


def stream_views(lines: Iterator[str], receipts: Path) -> Iterator[GameView]:
    """Yield each view a stream opened with `view=true` delivers (its `event: view` messages), in order.

    Every event the stream sends is a receipt too: kept, they cover the game to its end, not only
    to this seat's last move.
    """
    kind = ""
    for line in lines:
        if line.startswith("event:"):
            kind = line[6:].strip()
        elif line.startswith("data:") and kind == "view":
            yield GameView.from_dict(json.loads(line[5:]))
        elif line.startswith("data:") and kind:
            event = json.loads(line[5:])
            with receipts.open("a") as kept:
                kept.write(json.dumps({"seq": event["seq"], "hash": event["hash"]}) + "\n")
        elif not line:
            kind = ""


@dataclass(frozen=True)
class Seat:
    """The seat this bot took: its game, its token, its receipt and the entropy it sent."""

    game_id: str
    token: str
    receipt: SeatTakenEvent
    entropy: str


def take_seat(args: argparse.Namespace, public: Client) -> Seat | None:
    """Create a game against the server's bots, or join a waiting one; return the seat taken."""
    entropy = new_entropy()
    if args.join:
        body = JoinGame(name="example-bot", entropy=entropy)
        seat = join_game.sync(args.join, client=public, body=body, idempotency_key=new_key())
        if isinstance(seat, Error) or seat is None:
            print(f"could not join: {seat}", file=sys.stderr)
            return None
        return Seat(args.join, seat.token, seat.receipt, entropy)
    bots = [SeatSpec(bot=BotKind.HEURISTIC) for _ in range(args.seats - 1)]
    body = CreateGame(game=args.game, seats=[SeatSpec(name="example-bot", entropy=entropy), *bots])
    if args.seed:
        body.seed = args.seed
    created = create_game.sync(client=public, body=body, idempotency_key=new_key())
    if isinstance(created, Error) or created is None:
        print(f"could not create: {created}", file=sys.stderr)
        return None
    return Seat(created.id, created.seats[0].token, created.seats[0].receipt, entropy)


def entropy_went_in(seat: Seat, dealing: Dealing) -> bool:
    """Tell whether the seat's SeatTaken holds the entropy it sent (a shared deal) or none (a fixed one takes none)."""
    held = None if isinstance(seat.receipt.data.entropy, Unset) else seat.receipt.data.entropy
    wanted = seat.entropy if dealing == Dealing.SHARED else None
    if held != wanted:
        print(f"the seat's SeatTaken holds entropy {held!r}, not the {wanted!r} this bot sent", file=sys.stderr)
        return False
    print(f"seat taken at event {seat.receipt.seq}, {'with our entropy' if held else 'no entropy (a fixed deal)'}")
    return True


def play(seat: Seat, me: AuthenticatedClient, rng: random.Random, receipts: Path) -> GameView | None:
    """Play the seat to the end of the game; append a receipt for every acknowledged event; return the last view.

    One stream for the whole game, opened with `view=true`: it sends this seat's view at once and
    again after every batch of events, so the bot never reads the game with a GET. It closes
    after GameEnded. The first view says how the game is dealt: the seat's receipt is checked
    against it before the first move.
    """
    game_id = seat.game_id
    path = f"/games/{game_id}/stream"
    with me.get_httpx_client().stream("GET", path, params={"view": "true"}, timeout=STREAM_TIMEOUT) as live:
        if live.status_code != 200:
            print(f"could not open the stream: {live.status_code} {live.read()!r}", file=sys.stderr)
            return None
        views = stream_views(live.iter_lines(), receipts)
        view = next(views, None)
        if view is not None and not entropy_went_in(seat, view.dealing):
            return None
        while view is not None and view.status != Status.FINISHED:
            if view.legal_actions:
                view = move(game_id, me, view, rng, receipts)
            else:
                view = wait_for_turn(view, views)
    return view


def move(game_id: str, me: AuthenticatedClient, view: GameView, rng: random.Random, receipts: Path) -> GameView | None:
    """Post one action and return the view it leaves this seat with: one request a move."""
    # One action, posted verbatim; expected_version makes a stale decision a 409, not a wrong move.
    body = PostAction(action=pick(view, rng), expected_version=view.version)
    # view=True: the answer holds this seat's view after the move, so no GET follows it.
    answer = post_action.sync_detailed(game_id, client=me, body=body, idempotency_key=new_key(), view=True)
    if answer.status_code == 409:  # the game moved on first: read it again
        return read_view(game_id, me)
    if not isinstance(answer.parsed, ActionResult) or not isinstance(answer.parsed.view, GameView):
        print(f"refused: {answer.parsed}", file=sys.stderr)
        return None
    with receipts.open("a") as kept:
        for event in answer.parsed.events:
            kept.write(json.dumps({"seq": event.seq, "hash": event.hash_}) + "\n")
    # The answer holds this seat's view right after the move: no GET to learn where it stands.
    return answer.parsed.view


def wait_for_turn(view: GameView, views: Iterator[GameView]) -> GameView | None:
    """Not this seat's turn: return the stream's first view newer than `view` (None if the stream ended first).

    Views the stream sent before this seat's own move took effect are older than the one its
    answer gave, so they are skipped.
    """
    return next((newer for newer in views if newer.version > view.version), None)


def read_view(game_id: str, me: AuthenticatedClient) -> GameView | None:
    """Return this seat's view now (None, said on stderr, if it cannot be read)."""
    view = get_game.sync(game_id, client=me)
    if not isinstance(view, GameView):
        print(f"could not read the game: {view}", file=sys.stderr)
        return None
    return view


def play_on_socket(seat: Seat, url: str, rng: random.Random, receipts: Path) -> GameView | None:
    """Play the seat to the end on the game's socket; append a receipt for every move's events; return the last view.

    The server sends the seat's view at once and after every other seat's batch; a move is one
    message, its answer (the HTTP answer's body, with the mover's view in it: `"view": true`)
    another. The bot moves on a view newer than the one it last moved on, so a view that came
    before its own move's is never acted on twice.
    """
    import websocket  # websocket-client: only this mode needs it

    address = url.replace("http", "ws", 1) + f"/games/{seat.game_id}/socket"
    # The token in the upgrade's header, never in the URL (a browser sends it in a first `hello` message).
    socket = websocket.create_connection(address, header=[f"Authorization: Bearer {seat.token}"], timeout=60)
    try:
        view: GameView | None = None
        moved_at = -1  # the version of the view the bot last moved on
        while True:
            message = json.loads(socket.recv())
            if message["type"] == "view":
                newer = GameView.from_dict(message["view"])
                if view is None and not entropy_went_in(seat, newer.dealing):
                    return None
                view = newer
                if view.status == Status.FINISHED:
                    return view
            elif message["type"] == "answer":
                answer = ActionResult.from_dict(message["answer"])
                with receipts.open("a") as kept:
                    for event in answer.events:
                        kept.write(json.dumps({"seq": event.seq, "hash": event.hash_}) + "\n")
                # The view after the move comes in its answer (no view message as old follows).
                if isinstance(answer.view, GameView) and (view is None or answer.view.version > view.version):
                    view = answer.view
                    if view.status == Status.FINISHED:
                        return view
            elif message["status"] != 409:  # 409: the game moved on first; the view after it is on its way
                print(f"refused: {message['error']}", file=sys.stderr)
                return None
            if view is not None and view.legal_actions and view.version > moved_at:
                moved_at = view.version
                # The body POST /games/{id}/actions takes, with its Idempotency-Key beside it.
                body = PostAction(action=pick(view, rng), expected_version=view.version).to_dict()
                socket.send(json.dumps({"type": "act", **body, "idempotency_key": new_key(), "view": True}))
    finally:
        socket.close()


def check_receipts(game_id: str, public: Client, receipts: Path) -> bool:
    """Tell whether every acknowledged event's hash is the published log's hash at its position."""
    published = export_game.sync(game_id, client=public)
    if not isinstance(published, GameExport):
        print(f"could not read the export: {published}", file=sys.stderr)
        return False
    hashes = {event.seq: event.hash_ for event in published.events}
    kept = [json.loads(line) for line in receipts.read_text().splitlines()] if receipts.exists() else []
    wrong = [r for r in kept if hashes.get(r["seq"]) != r["hash"]]
    for receipt in wrong:
        print(f"receipt for event {receipt['seq']} does not match the published log", file=sys.stderr)
    print(
        f"receipts: {len(kept)} acknowledged events kept in {receipts}, {len(kept) - len(wrong)} in the published log"
    )
    return not wrong


def main() -> int:
    """Play one game to the end, print its result and check the receipts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--game", default="bloede-kuh")
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--join", help="join this waiting game instead of creating one")
    parser.add_argument("--seed", help="fix the deal (optional)")
    parser.add_argument(
        "--receipts", help="the file to keep receipts in, or a folder for it (default: receipts-<game id>.ndjson)"
    )
    parser.add_argument(
        "--socket",
        action="store_true",
        help="play on the game's WebSocket (needs websocket-client, and menagerie serve on one Redis)",
    )
    args = parser.parse_args()
    public = Client(base_url=args.url)
    rng = random.Random(args.seed)

    seat = take_seat(args, public)
    if seat is None:
        return 1
    game_id = seat.game_id
    receipts = Path(args.receipts or ".")
    if receipts.is_dir():
        receipts = receipts / f"receipts-{game_id}.ndjson"
    with receipts.open("a") as kept:
        kept.write(json.dumps(seat.receipt.to_dict()) + "\n")  # the first receipt: the seat taken
    if args.socket:
        view = play_on_socket(seat, args.url, rng, receipts)
    else:
        view = play(seat, AuthenticatedClient(base_url=args.url, token=seat.token), rng, receipts)
    if view is None:
        return 1
    assert view.result is not None
    print(f"game {game_id} ({view.game}) finished: places {view.result.places}")
    return 0 if check_receipts(game_id, public, receipts) else 1


if __name__ == "__main__":
    sys.exit(main())
