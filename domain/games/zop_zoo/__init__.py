"""Zop Zoo (seed 003, RULES.md §4): cover and connect your six starting cards from the black deck.

Modules: `cards` (the deck as data, `cards.json`), `state` (State and
evolve), `board` (what the rows and the discard pile allow), `moves` (to_act,
legal_actions, decide: a player's actions), `steps` (setup, system_due,
advance, result: the deal, the round win and its scoring).

A turn is a sequence of explicit actions: `draw` (the event reveals the card),
`take_discard`, `place_wild`, `use_mole` / `decline_mole`, and the specialty
actions `give` (HYENA), `take_card` (RACCOON), `swap` (EARTHWORM). A piece in a
row is named by its starting (white) card's id, which moves with whatever
covers it; a side bonus card by its own id.

Another card set (option `card_set`) must have the form of `cards.json`: its
counts may differ, but every white card needs exactly one black match and the
decks must be large enough for the seats. The set used is recorded in the
first event (`ZooSetUp`), so a replay needs nothing else.

Rulings where RULES.md and the rulebook leave a case open:

- Taking from the discard pile is the action `take_discard`, the only one
  offered when the top card fits: one action takes the whole chain.

- A side bonus card on top of the discard pile that fits one of your
  categories is a match: you must take it, like a matching animal card (and it
  continues the chain of matching cards under it).
- Wild cards are played only when drawn: a wild card on the discard pile (only
  possible when its drawer had nothing uncovered) matches nothing, and a MOLE
  does not dig wild cards, MOLEs or specialty cards.
- A MOLE dig takes every card in the pile that covers, connects to or sits
  beside your row, including side bonuses opened up by upper halves connected
  in the same dig; the rest of the pile keeps its order.
- A MOLE is never spent: the rulebook lets the next player re-use one left on
  the discard pile; a dig from the discard pile ends the turn even if it finds
  nothing, as the rulebook says.
- A spent specialty card stays spent for the rest of the round, also after the
  black deck is refilled: drawn again it cannot be used, so it is discarded and
  the turn ends. An unused specialty card on top of the discard pile is on
  offer (must use if you can) to whoever starts a turn with it there, and only
  at the start of that turn.
- Transferred pieces go to the end of the receiving row; a side bonus given,
  taken or switched goes beside the receiving row.
- If the deal leaves more than one player with every card worth points (only
  minus cards), the first in dealing order wins the round.
- Round scores (RULES.md §4, corrected in rules version 2): the winner scores
  every card, a covered minus card at the positive value it now shows (its
  ANTI-minus card's, or the wild card's); the others score their side bonus
  cards and their uncovered minus cards (negative), and a covered minus card
  nothing. Games created under rules version 1 keep its scoring, in which a
  non-winner also scored a covered minus card at the value it showed (the
  version is recorded in GameCreated and ZooSetUp).
- Since a MOLE is never spent, players who all dig with the one on the
  discard pile and never draw loop for ever: the event cap
  (`EVENT_CAPS`; `domain.game`) ends such a game. It ranks by the totals of the
  rounds won so far, as the result does (`steps.standing`); the round in play
  scores nothing, as it has no winner.
"""

from __future__ import annotations

from domain.games.zop_zoo import moves, state, steps
from domain.games.zop_zoo.hidden import HIDDEN
from domain.games.zop_zoo.state import MAX_SEATS, RULES_VERSIONS
from domain.rules import Option

GAME_ID = "zop-zoo"
# The events a game may hold, by seats (`Rules.event_caps`): five times the longest game random or heuristic
# bots played at the largest target the table may set (200 games a table; bench/game_lengths.py), rounded up
# to a thousand: 2515, 3463, 6493 and 10800 events with 2 to 5 seats. A larger table takes many more rounds
# to a target (a winner gains, the others lose their minus cards): up to 75 rounds with 5 seats. 6 seats:
# random bots' longest was 10166; the heuristic's run did not finish in time, so its cap is 60000, above 5
# seats'.
EVENT_CAPS = {2: 13000, 3: 18000, 4: 33000, 5: 54000, 6: 60000}


class ZopZoo:
    """Zop Zoo (Doc Colour): match the black deck's animals to your six starting cards."""

    id = GAME_ID
    title = "Zop Zoo"
    min_seats = 2
    max_seats = MAX_SEATS
    rules_version = RULES_VERSIONS[-1]
    rules_versions = RULES_VERSIONS
    event_caps = EVENT_CAPS
    options: tuple[Option, ...] = (
        Option(
            "target",
            "int",
            800,
            "total that ends the game after its round (the publisher suggests 1000 for 2 players, 600 for 5-6); "
            "at most 1000 for 2 players, 800 for more",
            minimum=1,
            # The rulebook's longest game (2 players; 800 for more, `steps.target_max`): a game to more
            # points holds the workers and its stream for nothing.
            maximum=steps.TARGET_MAX,
        ),
        Option(
            "card_set",
            "object",
            None,
            "both decks as data, in the form of the bundled cards.json (null: the bundled deck)",
        ),
    )
    bots = ("random", "heuristic", "mcts")
    hidden = HIDDEN

    check_options = staticmethod(steps.check_options)
    setup = staticmethod(steps.setup)
    evolve = staticmethod(state.evolve)
    to_act = staticmethod(moves.to_act)
    legal_actions = staticmethod(moves.legal_actions)
    decide = staticmethod(moves.decide)
    actions = moves.ACTION_FORMS
    system_due = staticmethod(steps.system_due)
    advance = staticmethod(steps.advance)
    result = staticmethod(steps.result)
    standing = staticmethod(steps.standing)


RULES = ZopZoo()

__all__ = ["GAME_ID", "RULES", "ZopZoo"]
