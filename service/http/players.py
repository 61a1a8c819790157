"""The player routes: register an account (its token is in this one answer), look one up, read or erase one's own."""

from __future__ import annotations

from flask import Blueprint, jsonify
from flask.typing import ResponseReturnValue

from service.errors import MissingToken
from service.http.requests import bearer_token, body, services
from service.http.schemas import REGISTER_PLAYER

players = Blueprint("players", __name__)


@players.post("/players")
def register_player() -> ResponseReturnValue:
    """Open an account for a handle; the answer holds its player token, shown this once."""
    data = body(REGISTER_PLAYER)
    account, token = services().players.register(data["handle"])
    return jsonify({"id": account.id, "handle": account.handle, "token": token}), 201


@players.get("/players/me")
def get_own_player() -> ResponseReturnValue:
    """Return the account the player token proves: its id and handle."""
    account = services().players.authenticate(_player_token())
    return jsonify({"id": account.id, "handle": account.handle})


@players.delete("/players/me")
def erase_player() -> ResponseReturnValue:
    """Erase the account the player token proves: its handle and token go; answer its tombstone."""
    return jsonify(_tombstone(services().players.erase(_player_token())))


@players.get("/players/<player_id>")
def get_player(player_id: str) -> ResponseReturnValue:
    """Return an account's public facts: its id and handle (an erased account's tombstone)."""
    if services().players.erased(player_id):
        return jsonify(_tombstone(player_id))
    account = services().players.get(player_id)
    return jsonify({"id": account.id, "handle": account.handle})


def _player_token() -> str:
    token = bearer_token()
    if token is None:
        raise MissingToken("this route needs Authorization: Bearer <player token>")
    return token


def _tombstone(player_id: str) -> dict[str, object]:
    return {"id": player_id, "handle": None, "erased": True}
