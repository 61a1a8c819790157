"""The player routes: register an account (its token is in this one answer), look one up."""

from __future__ import annotations

from flask import Blueprint, jsonify
from flask.typing import ResponseReturnValue

from service.http.requests import body, services
from service.http.schemas import REGISTER_PLAYER

players = Blueprint("players", __name__)


@players.post("/players")
def register_player() -> ResponseReturnValue:
    """Open an account for a handle; the answer holds its player token, shown this once."""
    data = body(REGISTER_PLAYER)
    account, token = services().players.register(data["handle"])
    return jsonify({"id": account.id, "handle": account.handle, "token": token}), 201


@players.get("/players/<player_id>")
def get_player(player_id: str) -> ResponseReturnValue:
    """Return an account's public facts: its id and handle."""
    account = services().players.get(player_id)
    return jsonify({"id": account.id, "handle": account.handle})
