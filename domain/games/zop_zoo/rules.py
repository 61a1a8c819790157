"""The Zop Zoo rules object: options, whose turn, legal actions, result."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.chance import Chance
from domain.events import Event
from domain.games.zop_zoo import board, cards, rounds, state, turns
from domain.games.zop_zoo.board import DRAW, MOLE, SPECIALTY, TAKE, WILD
from domain.games.zop_zoo.state import OVER, PLAYING, ROUND_WON, ZooState
from domain.rules import Option, Result

GAME_ID = "zop-zoo"


class ZopZoo:
    """Zop Zoo (Doc Colour): match the black deck's animals to your six starting cards."""

    id = GAME_ID
    title = "Zop Zoo"
    min_seats = 2
    max_seats = 6
    rules_version = "1"
    options: tuple[Option, ...] = (
        Option(
            "target",
            "int",
            800,
            "total that ends the game after its round (the publisher suggests 1000 for 2 players, 600 for 5-6)",
            minimum=1,
        ),
        Option(
            "card_set",
            "object",
            None,
            "both decks as data, in the form of the bundled cards.json (null: the bundled deck)",
        ),
    )

    def check_options(self, options: Mapping[str, Any], seats: int) -> None:
        """Raise OptionsError for a card set of the wrong form or too small for the seats."""
        raw = options.get("card_set")
        cards.check_fits(cards.parse(cards.bundled() if raw is None else raw), seats)

    def setup(self, seats: int, options: Mapping[str, Any], chance: Chance) -> list[Event]:
        """Record the card set used (so a replay needs nothing else) and deal round 1."""
        raw = options.get("card_set")
        return rounds.set_up(seats, options, cards.bundled() if raw is None else raw, chance)

    def evolve(self, state_: ZooState | None, event: Event) -> ZooState:
        """Apply one event."""
        return state.evolve(state_, event)

    def to_act(self, state_: ZooState) -> frozenset[int]:
        """Return the player whose turn it is (no one between rounds)."""
        return frozenset({state_.turn}) if state_.phase == PLAYING else frozenset()

    def system_due(self, state_: ZooState) -> bool:
        """Tell whether the next round must be dealt."""
        return state_.phase == ROUND_WON

    def legal_actions(self, state_: ZooState, seat: int) -> list[dict[str, Any]]:
        """Return the choices of the pending decision."""
        now = board.pending(state_)
        if now is None or seat != state_.turn:
            return []
        if now.decision == DRAW:
            return [{"type": "draw"}]
        if now.decision == TAKE:
            return [{"type": "take_discard"}]
        if now.decision == WILD:
            return [{"type": "place_wild", "card": card} for card in board.uncovered(state_, seat)]
        if now.decision == MOLE:
            decline = {"type": "decline_mole"} if now.source == "deck" else {"type": "draw"}
            return [{"type": "use_mole"}, decline]
        assert now.decision == SPECIALTY and now.card is not None
        return board.specialty_moves(state_, seat, now.card)

    def decide(self, state_: ZooState, seat: int, action: Mapping[str, Any], chance: Chance) -> list[Event]:
        """Validate a seat's action and return its events."""
        return turns.decide(state_, seat, action, chance)

    def advance(self, state_: ZooState, chance: Chance) -> list[Event]:
        """Deal the next round."""
        return rounds.next_round(state_, chance)

    def result(self, state_: ZooState) -> Result | None:
        """Rank by total once a round has ended with someone at the target; ties share a place."""
        if state_.phase != OVER:
            return None
        totals = state_.totals
        places = tuple(1 + sum(other > mine for other in totals) for mine in totals)
        detail = {
            "totals": list(totals),
            "target": state_.target,
            "rounds": [{"round": r.round, "winner": r.winner, "scores": list(r.scores)} for r in state_.results],
        }
        return Result(places, detail)


RULES = ZopZoo()
