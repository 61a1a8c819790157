"""Views served from memory: a game's view for one seat at one version, projected and encoded once.

A view is a pure function of the game at a version, the seat, whether it
is the open view and the handles of the accounts at its seats (which the
chain does not hold: an account erased since shows as erased), so its JSON is
kept under exactly those (a bounded cache per process): a client polling an
unchanged game, or asking again after its own move, costs a lookup (and, with
accounts seated, one read of their handles) instead of a projection. The seat is checked against its
token before the cache is asked, and a seat's view is only ever kept under
that seat, so no viewer can be served another's hidden cards.

The same bytes answer `GET /games/{id}` and go, unencoded again, into an
action's answer (`view_after`): the two are equal by construction.
"""

from __future__ import annotations

import orjson
from flask import Flask, current_app

from domain.game import Game
from projections.game import game_view
from service.adapters.cache import Bounded
from service.http.json import encode, json_response
from service.http.requests import services
from service.http.security import SecuredResponse

EXTENSION = "menagerie.views"
# A few kilobytes a view: a few megabytes a process at most.
CAPACITY = 2048

# The game, its version, the seat, the open view, and the seated accounts' handles (sorted id, handle pairs).
ViewKey = tuple[str, int, int | None, bool, tuple[tuple[str, str], ...]]


def install_views(app: Flask, capacity: int = CAPACITY) -> None:
    """Give the app its cache of encoded views."""
    app.extensions[EXTENSION] = Bounded[ViewKey, bytes](capacity)


def view_json(game: Game, seat: int | None, open_view: bool = False) -> bytes:
    """Return the JSON of `seat`'s view of `game` (None: a spectator's), from the cache when it can."""
    views: Bounded[ViewKey, bytes] = current_app.extensions[EXTENSION]
    handles = seat_handles(game)
    key = (game.id, game.version, seat, open_view, tuple(sorted(handles.items())))
    body = views.get(key)
    return _projected(views, key, game, handles) if body is None else body


def _projected(views: Bounded[ViewKey, bytes], key: ViewKey, game: Game, handles: dict[str, str]) -> bytes:
    """Project and encode the view `key` names, and keep it."""
    _, _, seat, open_view, _ = key
    body = encode(game_view(game, seat, open_view=open_view, handles=handles))
    views.put(key, body)
    return body


def seat_handles(game: Game) -> dict[str, str]:
    """Return the handles of the accounts bound to a game's seats (none to look up: no read)."""
    return services().players.at_seats(game)


def view_response(game: Game, seat: int | None, open_view: bool) -> SecuredResponse:
    """Return the JSON response of `seat`'s view of `game` (None: a spectator's), from the cache when it can."""
    return json_response(view_json(game, seat, open_view))


def view_after(game_id: str, version: int, seat: int) -> orjson.Fragment:
    """Return `seat`'s view of the game at `version` (what `GET /games/{id}` answered then), as ready JSON.

    After a move this process just appended, the game it keeps is at that
    version; a retried move's first version, or a game that moved on here
    meanwhile (a bot's step in the embedded worker), is read back to it.
    """
    views: Bounded[ViewKey, bytes] = current_app.extensions[EXTENSION]
    repository = services().repository
    latest = repository.cached(game_id)
    handles = seat_handles(latest)  # the latest seats name every account the view at `version` can show
    key = (game_id, version, seat, False, tuple(sorted(handles.items())))
    body = views.get(key)
    if body is None:
        game = latest if latest.version == version else repository.load_at(game_id, version)
        body = _projected(views, key, game, handles)
    return orjson.Fragment(body)
