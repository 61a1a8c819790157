"""Views served from memory: a game's view for one seat at one version, projected and encoded once.

A view is a pure function of the game at a version, the seat and whether it
is the open view, so its JSON is kept under exactly those (a bounded cache per
process): a client polling an unchanged game, or asking again after its own
move, costs a lookup instead of a projection. The seat is checked against its
token before the cache is asked, and a seat's view is only ever kept under
that seat, so no viewer can be served another's hidden cards.
"""

from __future__ import annotations

from flask import Flask, Response, current_app

from domain.game import Game
from projections.game import game_view
from service.adapters.cache import Bounded
from service.http.json import encode

EXTENSION = "menagerie.views"
# A few kilobytes a view: a few megabytes a process at most.
CAPACITY = 2048

ViewKey = tuple[str, int, int | None, bool]


def install_views(app: Flask, capacity: int = CAPACITY) -> None:
    """Give the app its cache of encoded views."""
    app.extensions[EXTENSION] = Bounded[ViewKey, bytes](capacity)


def view_response(game: Game, seat: int | None, open_view: bool) -> Response:
    """Return the JSON response of `seat`'s view of `game` (None: a spectator's), from the cache when it can."""
    views: Bounded[ViewKey, bytes] = current_app.extensions[EXTENSION]
    key = (game.id, game.version, seat, open_view)
    body = views.get(key)
    if body is None:
        body = encode(game_view(game, seat, open_view=open_view))
        views.put(key, body)
    return Response(body, mimetype="application/json")
