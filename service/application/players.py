"""Player accounts: register a handle once, prove it with the player token after.

An account proves that the same client holds the same token, nothing more:
not that a person is real, nor that two accounts are two people (see
docs/threat-model.md). It is what binds a seat, a rating and a tournament
place to someone, instead of a typed name anyone can type again.

A player may erase their account (docs/players.md, "Erasing your account"):
the handle and the token's hash go, the id stays as a tombstone, in the
chains and behind the ratings, and every view shows `domain.players.ERASED`
where the handle was. The handle is free to register again, as a new account.
"""

from __future__ import annotations

import hmac
import re
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from domain.game import Game
from domain.players import HandleConfusable, check_handle
from service.adapters.players import Account, PlayerAccounts
from service.application.clock import utc_now
from service.application.tokens import new_secret, token_sha256
from service.errors import HandleTaken, PlayerNotFound, UnknownPlayerToken

# `<player id>.<secret>`: the id says which account's hash to compare with.
_PLAYER_TOKEN = re.compile(r"^(p-[0-9a-f]{16})\.([0-9a-f]{32})$")


def new_player_id() -> str:
    """Return a fresh random account id (never derived from the handle)."""
    return f"p-{secrets.token_hex(8)}"


@dataclass
class PlayerService:
    """Register accounts, authenticate their tokens, look up their handles."""

    accounts: PlayerAccounts
    clock: Callable[[], str] = utc_now
    new_id: Callable[[], str] = new_player_id
    new_secret: Callable[[], str] = new_secret

    def register(self, handle: str) -> tuple[Account, str]:
        """Open an account for a handle; return it with its token, which is shown this once and never again."""
        checked = check_handle(handle)
        player_id = self.new_id()
        token = f"{player_id}.{self.new_secret()}"
        account = Account(player_id, checked.display, checked.normal, token_sha256(token))
        # The account first, then the handle's claim: a crash between them leaves an account nobody
        # got the token of, never a handle claimed by no account.
        self.accounts.save(account, checked.skeleton, self.clock())
        holder = self.accounts.claim(checked.skeleton, player_id)
        if holder != player_id:
            self.accounts.delete(player_id)
            other = self.accounts.get(holder)
            if other is None or other.normal == checked.normal:
                raise HandleTaken(f"the handle {handle!r} is taken")
            raise HandleConfusable(f"the handle {handle!r} looks like another player's")
        return account, token

    def authenticate(self, token: str) -> Account:
        """Return the account a player token proves, or raise UnknownPlayerToken (401)."""
        match = _PLAYER_TOKEN.match(token)
        account = self.accounts.get(match.group(1)) if match else None
        if account is None or not hmac.compare_digest(account.token_sha256, token_sha256(token)):
            raise UnknownPlayerToken("the player token is not one this service handed out")
        return account

    def get(self, player_id: str) -> Account:
        """Return an account by id, or raise PlayerNotFound (404)."""
        account = self.accounts.get(player_id) if player_id.startswith("p-") else None
        if account is None:
            raise PlayerNotFound(player_id)
        return account

    def erased(self, player_id: str) -> bool:
        """Tell whether an account was erased (its id then names a tombstone)."""
        return player_id.startswith("p-") and self.accounts.erased(player_id)

    def erase(self, token: str) -> str:
        """Erase the account a player token proves: its handle and its token go, its id stays; return the id."""
        player_id = self.authenticate(token).id
        self.accounts.erase(player_id)
        return player_id

    def erase_by_id(self, player_id: str) -> None:
        """Erase an account by id, as an operator does; an erased one again finishes an erasure cut short."""
        if not self.erased(player_id):
            self.get(player_id)  # 404 for no such account
        self.accounts.erase(player_id)

    def handles(self, player_ids: Iterable[str]) -> dict[str, str]:
        """Return the handle of each account among `player_ids` (for display; the chain holds ids only)."""
        return self.accounts.handles(player_ids)

    def at_seats(self, game: Game) -> dict[str, str]:
        """Return the handles of the accounts at a game's seats (none to look up: no read)."""
        ids = [seat.player for seat in game.seats if seat.player is not None]
        return self.accounts.handles(ids) if ids else {}
