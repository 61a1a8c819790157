"""Who takes a place in a tournament: registration by mode, approval, co-organisers.

Registration (`registration` in the create command, recorded when not `open`): `open`
takes anyone while places are free; `code` takes whoever gives the invitation code (its
SHA-256 is recorded, the code goes to the organiser alone); `approval` takes every human as
pending, and the organiser approves each (a pending entrant holds no place and is not
paired). Places are counted among the entrants still playing, so the organiser may remove
(disqualify) an entrant before the start and free the place. An account holds one place;
a guest registers by a name no other entrant still in the tournament has.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.chance import ENTROPY, SHARED
from domain.events import SYSTEM, Event
from domain.games import RULES
from domain.tournament.errors import (
    AlreadyRegistered,
    InvitationRequired,
    NotActive,
    NotPending,
    RegistrationClosed,
    TournamentError,
    TournamentFull,
)
from domain.tournament.state import ACTIVE, APPROVAL, CODE, FINISHED, PENDING, PLAYING, REGISTERING, Tournament


def register(tournament: Tournament, command: Mapping[str, Any]) -> list[Event]:
    """Register a human (by account or name) or a bot (by kind) while registration is open."""
    late = _late_round(tournament)
    if tournament.status != REGISTERING and late is None:
        raise RegistrationClosed("the tournament has started; registration is closed")
    bot, player = command.get("bot"), command.get("player")
    bots = RULES[tournament.game].bots
    if bot is not None and bot not in bots:
        raise TournamentError(f"{tournament.game} has no bot {bot!r}", bots=list(bots))
    name = None if player is not None else command.get("name") or f"{bot}-{len(tournament.entrants) + 1}"
    if name is not None and name.startswith("bot:"):
        raise TournamentError("names starting with 'bot:' are reserved for bot ratings", name=name)
    staying = [entrant for entrant in tournament.entrants if entrant.status in (PLAYING, PENDING)]
    if name is not None and any(e.name is not None and e.name.casefold() == name.casefold() for e in staying):
        raise AlreadyRegistered(f"{name!r} is already registered", name=name)
    if player is not None and any(entrant.player == player for entrant in staying):
        raise AlreadyRegistered("this account is already registered", player=player)
    if bot is None and tournament.registration == CODE:
        if command.get("invitation_sha256") != tournament.invitation_sha256:
            raise InvitationRequired("this tournament takes entrants with the organiser's invitation code")
    pending = bot is None and tournament.registration == APPROVAL
    if not pending:
        _check_capacity(tournament)
    entrant = len(tournament.entrants)
    data = {"entrant": entrant, "name": name, "bot": bot, "token_sha256": command.get("token_sha256")}
    if player is not None:
        data["player"] = player
    if pending:
        data["status"] = PENDING
    if late is not None:
        data["round"] = late
    entropy = command.get("entropy")
    if entropy is not None:
        # A human's public contribution to the shared pairings and deals (see `_draws`, `seeding`).
        if (
            tournament.dealing != SHARED
            or bot is not None
            or not isinstance(entropy, str)
            or not ENTROPY.match(entropy)
        ):
            raise TournamentError("a human entrant of a shared tournament adds entropy: 32 to 128 hex digits")
        data["entropy"] = entropy
    return [Event("PlayerRegistered", data, SYSTEM)]


def _check_capacity(tournament: Tournament) -> None:
    if tournament.taken_places >= tournament.max_players:
        raise TournamentFull(
            f"the tournament is full ({tournament.max_players} players)", max_players=tournament.max_players
        )


def approve(tournament: Tournament, command: Mapping[str, Any]) -> list[Event]:
    """Admit a pending entrant (the organiser, registration by approval) while places are free."""
    entrant = command.get("entrant")
    if not isinstance(entrant, int) or not 0 <= entrant < len(tournament.entrants):
        raise TournamentError("no such entrant", entrant=entrant)
    if tournament.entrants[entrant].status != PENDING:
        raise NotPending(f"entrant {entrant} is not waiting for approval", entrant=entrant)
    if tournament.status != REGISTERING and _late_round(tournament) is None:
        raise RegistrationClosed("the tournament has started; registration is closed")
    _check_capacity(tournament)
    data: dict[str, Any] = {"entrant": entrant}
    late = _late_round(tournament)
    if late is not None:
        data["round"] = late
    return [Event("PlayerApproved", data, SYSTEM)]


def add_organiser(tournament: Tournament, command: Mapping[str, Any]) -> list[Event]:
    """Add a co-organiser by account: another organiser, who may annul a table the first one sits at."""
    player = command.get("player")
    if not isinstance(player, str) or player == tournament.organiser_player:
        raise TournamentError("a co-organiser is another account than the organiser's", player=player)
    if any(account == player for account, _ in tournament.co_organisers):
        raise TournamentError("this account is an organiser already", player=player)
    if tournament.status == FINISHED:
        raise NotActive("the tournament is over")
    data = {"organiser": len(tournament.co_organisers) + 1, "player": player, "token_sha256": command["token_sha256"]}
    return [Event("OrganiserAdded", data, SYSTEM)]


def _late_round(tournament: Tournament) -> int | None:
    """Return the round in play if a late entrant may still register now, else None."""
    current = tournament.current
    if tournament.status != ACTIVE or current is None or current.number >= tournament.late_entry_until:
        return None
    return current.number
